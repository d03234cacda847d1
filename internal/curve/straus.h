#ifndef ATTPOOL_STRAUS_H
#define ATTPOOL_STRAUS_H
#include "blst_copy.h"
// attpool_blst_p1_straus and attpool_blst_p2_straus are the small
// multi-scalar multiplications of straus.go.
void attpool_blst_p1_straus(blst_p1 *ret, const blst_p1_affine *pts, size_t n, const byte *k,
                            size_t nbytes, size_t nbits, blst_p1_affine *neg, signed char *dig);
void attpool_blst_p2_straus(blst_p2 *ret, const blst_p2_affine *pts, size_t n, const byte *k,
                            size_t nbytes, size_t nbits, blst_p2_affine *neg, signed char *dig);
// attpool_blst_p1_affine_split and attpool_blst_p2_affine_split lay out
// the points of a split multiplication (MultiExpG1Split).
void attpool_blst_p1_affine_split(blst_p1_affine *out, const blst_p1_affine *in, size_t n, const byte *neg);
void attpool_blst_p2_affine_split(blst_p2_affine *out, const blst_p2_affine *in, size_t n, const byte *neg);
// attpool_gt_exp_split is GT's split exponentiation (GT.ExpSplit).
void attpool_gt_exp_split(blst_fp12 *ret, const blst_fp12 *a, const byte *k0, const byte *k1,
                          int neg, size_t nbits, signed char *dig);
#endif
