#ifndef ATTPOOL_BUCKETS_H
#define ATTPOOL_BUCKETS_H
#include <stddef.h>
typedef unsigned long long attpool_limb;
typedef struct { attpool_limb l[6]; } attpool_fp;
typedef struct { attpool_fp fp[2]; } attpool_fp2;
typedef struct { attpool_fp x, y, z; } attpool_p1;
typedef struct { attpool_fp2 x, y, z; } attpool_p2;
void attpool_p2_pair_round(attpool_p2 *H1, attpool_p2 *H2, attpool_p2 *pts, size_t *cnt, attpool_p2 *res, size_t nres);
void attpool_p1_pair_round(attpool_p1 *H1, attpool_p1 *H2, attpool_p1 *pts, size_t *cnt, attpool_p1 *res, size_t nres);
#endif
