// The part of blst.h (and two groups of blst_aux.h) that cgo.go,
// buckets.c and straus.c use, copied from blst v0.3.17; the symbols are linked from the
// blst Go package's own C objects. cgo_drift_test.go checks every prototype
// against the headers of the module the build uses, and cgo.go the structs'
// sizes against the bindings'.
#ifndef ATTPOOL_BLST_COPY_H
#define ATTPOOL_BLST_COPY_H
#include <stddef.h>
#include <stdbool.h>
typedef unsigned char byte;
typedef unsigned long long limb_t;
typedef struct { byte b[32]; } blst_scalar;
typedef struct { limb_t l[6]; } blst_fp;
typedef struct { blst_fp fp[2]; } blst_fp2;
typedef struct { blst_fp2 fp2[3]; } blst_fp6;
typedef struct { blst_fp6 fp6[2]; } blst_fp12;
typedef struct { blst_fp x, y, z; } blst_p1;
typedef struct { blst_fp x, y; } blst_p1_affine;
typedef struct { blst_fp2 x, y, z; } blst_p2;
typedef struct { blst_fp2 x, y; } blst_p2_affine;

// Field arithmetic (the digit rounds' batch-affine additions).
void blst_fp_add(blst_fp *ret, const blst_fp *a, const blst_fp *b);
void blst_fp2_add(blst_fp2 *ret, const blst_fp2 *a, const blst_fp2 *b);
void blst_fp_sub(blst_fp *ret, const blst_fp *a, const blst_fp *b);
void blst_fp2_sub(blst_fp2 *ret, const blst_fp2 *a, const blst_fp2 *b);
void blst_fp_mul(blst_fp *ret, const blst_fp *a, const blst_fp *b);
void blst_fp2_mul(blst_fp2 *ret, const blst_fp2 *a, const blst_fp2 *b);
void blst_fp_sqr(blst_fp *ret, const blst_fp *a);
void blst_fp2_sqr(blst_fp2 *ret, const blst_fp2 *a);
void blst_fp_cneg(blst_fp *ret, const blst_fp *a, bool flag);
void blst_fp_mul_by_3(blst_fp *ret, const blst_fp *a);
void blst_fp2_mul_by_3(blst_fp2 *ret, const blst_fp2 *a);
void blst_fp_eucl_inverse(blst_fp *ret, const blst_fp *a);
void blst_fp2_eucl_inverse(blst_fp2 *ret, const blst_fp2 *a);

// Points.
int blst_p1_uncompress(blst_p1_affine *out, const byte in[48]);
int blst_p2_uncompress(blst_p2_affine *out, const byte in[96]);
void blst_p1_double(blst_p1 *out, const blst_p1 *a);
void blst_p2_double(blst_p2 *out, const blst_p2 *a);
void blst_p1_cneg(blst_p1 *p, bool cbit);
void blst_p2_cneg(blst_p2 *p, bool cbit);
bool blst_p2_in_g2(const blst_p2 *p);
bool blst_p1_is_inf(const blst_p1 *p);
bool blst_p2_is_inf(const blst_p2 *p);
bool blst_p1_affine_is_inf(const blst_p1_affine *p);
bool blst_p2_affine_is_inf(const blst_p2_affine *p);
void blst_p1_add_or_double(blst_p1 *out, const blst_p1 *a, const blst_p1 *b);
void blst_p2_add_or_double(blst_p2 *out, const blst_p2 *a, const blst_p2 *b);
void blst_p1_add_or_double_affine(blst_p1 *out, const blst_p1 *a, const blst_p1_affine *b);
void blst_p2_add_or_double_affine(blst_p2 *out, const blst_p2 *a, const blst_p2_affine *b);
void blst_sign_pk_in_g1(blst_p2 *out_sig, const blst_p2 *hash, const blst_scalar *SK);

// Pairings.
void blst_miller_loop_n(blst_fp12 *ret, const blst_p2_affine *const Qs[], const blst_p1_affine *const Ps[], size_t n);
void blst_fp12_mul(blst_fp12 *ret, const blst_fp12 *a, const blst_fp12 *b);
void blst_final_exp(blst_fp12 *ret, const blst_fp12 *f);
bool blst_fp12_is_one(const blst_fp12 *a);
bool blst_fp12_is_equal(const blst_fp12 *a, const blst_fp12 *b);
void blst_fp12_conjugate(blst_fp12 *a);
void blst_fp12_cyclotomic_sqr(blst_fp12 *ret, const blst_fp12 *a);
void blst_fp12_frobenius_map(blst_fp12 *ret, const blst_fp12 *a, size_t n);
const blst_fp12 *blst_fp12_one(void);
void blst_fp12_sqr(blst_fp12 *ret, const blst_fp12 *a);
void blst_fp12_mul_by_xy00z0(blst_fp12 *ret, const blst_fp12 *a, const blst_fp6 *xy00z0);
void blst_precompute_lines(blst_fp6 Qlines[68], const blst_p2_affine *Q);

// From blst_aux.h: multiplication right outside the subgroup too
// (TestUncheckedMult), and the linked library's sizes (TestLinkedSizes).
void blst_p1_unchecked_mult(blst_p1 *out, const blst_p1 *p, const byte *scalar, size_t nbits);
void blst_p2_unchecked_mult(blst_p2 *out, const blst_p2 *p, const byte *scalar, size_t nbits);
size_t blst_p1_sizeof(void);
size_t blst_p1_affine_sizeof(void);
size_t blst_p2_sizeof(void);
size_t blst_p2_affine_sizeof(void);
size_t blst_fp12_sizeof(void);
#endif
