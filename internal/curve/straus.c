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
