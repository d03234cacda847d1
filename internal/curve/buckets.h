#ifndef ATTPOOL_BUCKETS_H
#define ATTPOOL_BUCKETS_H
#include "blst_copy.h"
// attpool_pair_round is the digit round of buckets.go in G2 (g2) or G1: the
// points are blst_p2 or blst_p1.
void attpool_pair_round(bool g2, void *H1, void *H2, void *pts, size_t *cnt, void *res, size_t nres);
#endif
