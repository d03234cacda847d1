// Small multi-scalar multiplications for attpool's verifier: see straus.go.
// The blst declarations are blst_copy.h's.
#include <string.h>
#include "straus.h"

// recodeNAF writes the ndig = nbits+1 digits of the non-adjacent form of the
// little-endian k of nbits bits: each in {-1, 0, 1}, no two adjacent ones
// nonzero, k = sum d[j] 2^j. About a third of the digits are nonzero.
static void recodeNAF(signed char *d, const byte *k, size_t nbits, size_t ndig) {
	int carry = 0;
	for (size_t j = 0; j < ndig; j++) {
		int b0 = j < nbits ? (k[j / 8] >> (j % 8)) & 1 : 0;
		int b1 = j + 1 < nbits ? (k[(j + 1) / 8] >> ((j + 1) % 8)) & 1 : 0;
		int v = b0 + carry;
		if (v == 1) {
			d[j] = b1 ? -1 : 1;
			carry = b1;
		} else {
			d[j] = 0;
			carry = v >> 1;
		}
	}
}

// is_zero reports whether the n bytes at p are all zero (blst's affine
// point at infinity).
static int is_zero(const void *p, size_t n) {
	const byte *b = p;
	byte acc = 0;
	for (size_t i = 0; i < n; i++) acc |= b[i];
	return acc == 0;
}

// DEFINE_STRAUS defines attpool_T_straus: *ret = sum k_i P_i over the n
// affine points pts (the point at infinity is allowed) and the scalars k,
// nbytes little-endian bytes each of which nbits bits are read. Interleaved
// non-adjacent forms: every bit costs one doubling shared by the points, and
// each nonzero digit one mixed addition of the affine point or of its
// negation. neg holds n points and dig n*(nbits+1) digits of scratch.
#define DEFINE_STRAUS(T, TA, FP_NEG)                                            \
void attpool_##T##_straus(T *ret, const TA *pts, size_t n, const byte *k,         \
                          size_t nbytes, size_t nbits, TA *neg,                 \
                          signed char *dig) {                                   \
	size_t ndig = nbits + 1;                                                    \
	for (size_t i = 0; i < n; i++) {                                            \
		neg[i] = pts[i];                                                        \
		FP_NEG(&neg[i].y);                                                      \
		if (is_zero(&pts[i], sizeof pts[i])) /* infinity: no additions */      \
			memset(&dig[ndig*i], 0, ndig);                                      \
		else                                                                    \
			recodeNAF(&dig[ndig*i], &k[nbytes*i], nbits, ndig);                 \
	}                                                                           \
	T acc;                                                                      \
	memset(&acc, 0, sizeof acc);                                                \
	int started = 0;                                                            \
	for (size_t j = ndig; j-- > 0;) {                                           \
		if (started) T##_double(&acc, &acc);                                    \
		for (size_t i = 0; i < n; i++) {                                        \
			int d = dig[ndig*i + j];                                            \
			if (d == 0) continue;                                               \
			T##_add_or_double_affine(&acc, &acc, d < 0 ? &neg[i] : &pts[i]);    \
			started = 1;                                                        \
		}                                                                       \
	}                                                                           \
	*ret = acc;                                                                 \
}
static void fp_neg(blst_fp *y) { blst_fp_cneg(y, y, 1); }
static void fp2_neg(blst_fp2 *y) { blst_fp_cneg(&y->fp[0], &y->fp[0], 1); blst_fp_cneg(&y->fp[1], &y->fp[1], 1); }
DEFINE_STRAUS(blst_p1, blst_p1_affine, fp_neg)
DEFINE_STRAUS(blst_p2, blst_p2_affine, fp2_neg)

// The two primitive cube roots of unity in Fp, in blst's Montgomery form:
// (X, Y) -> (c*X, -Y) multiplies G2 by x^2 with the first, G1 with the second.
static const blst_fp cube_root[2] = {
	{{0xcd03c9e48671f071, 0x5dab22461fcda5d2, 0x587042afd3851b95,
	  0x8eb60ebe01bacb9e, 0x03f97d6e83d050d2, 0x18f0206554638741}},
	{{0x30f1361b798a64e8, 0xf3b8ddab7ece5a2a, 0x16a8ca3ac61577f7,
	  0xc26a2ff874fd029b, 0x3636b76660701c6e, 0x051ba4ab241b6160}},
};

// DEFINE_SPLIT defines attpool_T_split: for each of the n affine points
// in[i], out[2i] is the point, negated when neg[i], and out[2i+1] its
// image (c*X, -Y) under the endomorphism that multiplies the group by x^2
// (c is the cube root of unity that makes it so, one for each group). The
// point at infinity stays itself.
#define DEFINE_SPLIT(TA, FP_MUL_X, FP_NEG, ROOT)                                \
void attpool_##TA##_split(TA *out, const TA *in, size_t n, const byte *neg) {     \
	for (size_t i = 0; i < n; i++) {                                            \
		TA p = in[i], e = in[i];                                                \
		if (!is_zero(&p, sizeof p)) {                                           \
			if (neg[i]) FP_NEG(&p.y);                                           \
			FP_MUL_X(&e.x, &cube_root[ROOT]);                                   \
			FP_NEG(&e.y);                                                       \
		}                                                                       \
		out[2*i] = p;                                                           \
		out[2*i+1] = e;                                                         \
	}                                                                           \
}
static void fp_mul_x(blst_fp *x, const blst_fp *c) { blst_fp_mul(x, x, c); }
static void fp2_mul_x(blst_fp2 *x, const blst_fp *c) { blst_fp_mul(&x->fp[0], &x->fp[0], c); blst_fp_mul(&x->fp[1], &x->fp[1], c); }
DEFINE_SPLIT(blst_p1_affine, fp_mul_x, fp_neg, 1)
DEFINE_SPLIT(blst_p2_affine, fp2_mul_x, fp2_neg, 0)

// attpool_gt_exp_split sets *ret = a^k0' * b^k1 for a value a of GT, b its
// image under the Frobenius map squared (a^(x^2)), and the little-endian
// magnitudes k0, k1 of nbits bits (k0' = -k0 when neg): interleaved
// non-adjacent forms, one cyclotomic squaring per bit and one
// multiplication per nonzero digit (a conjugate is an inverse in GT).
void attpool_gt_exp_split(blst_fp12 *ret, const blst_fp12 *a, const byte *k0, const byte *k1,
                          int neg, size_t nbits, signed char *dig) {
	blst_fp12 f[2][2]; /* f[i][0] multiplies by digit +1 of half i, f[i][1] by -1 */
	size_t ndig = nbits + 1;
	f[0][0] = *a;
	blst_fp12_frobenius_map(&f[1][0], a, 2);
	for (int i = 0; i < 2; i++) {
		f[i][1] = f[i][0];
		blst_fp12_conjugate(&f[i][1]);
	}
	if (neg) {
		blst_fp12 t = f[0][0];
		f[0][0] = f[0][1];
		f[0][1] = t;
	}
	recodeNAF(dig, k0, nbits, ndig);
	recodeNAF(dig + ndig, k1, nbits, ndig);
	blst_fp12 acc = *blst_fp12_one();
	for (size_t j = ndig; j-- > 0;) {
		blst_fp12_cyclotomic_sqr(&acc, &acc);
		for (int i = 0; i < 2; i++) {
			int d = dig[i * ndig + j];
			if (d != 0) blst_fp12_mul(&acc, &acc, &f[i][d < 0]);
		}
	}
	*ret = acc;
}
