#ifndef ATTPOOL_STRAUS_H
#define ATTPOOL_STRAUS_H
#include "blst_copy.h"
// attpool_blst_p1_straus and attpool_blst_p2_straus are the small
// multi-scalar multiplications of straus.go.
void attpool_blst_p1_straus(blst_p1 *ret, const blst_p1_affine *pts, size_t n, const byte *k,
                            size_t nbytes, size_t nbits, blst_p1_affine *neg, signed char *dig);
void attpool_blst_p2_straus(blst_p2 *ret, const blst_p2_affine *pts, size_t n, const byte *k,
                            size_t nbytes, size_t nbits, blst_p2_affine *neg, signed char *dig);
#endif
