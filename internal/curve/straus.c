// Small multi-scalar multiplications for attpool's verifier: see straus.go.
// The blst declarations are blst_copy.h's.
#include <string.h>
#include "straus.h"

// recode4 writes the ndig signed base-16 digits of the little-endian k of
// nbits bits: each in [-8, 8), k = sum d[j] 16^j (ndig = ceil(nbits/4) + 1
// leaves room for the last carry).
static void recode4(signed char *d, const byte *k, size_t nbits, size_t ndig) {
	int carry = 0;
	for (size_t j = 0; j < ndig; j++) {
		int v = carry;
		for (size_t b = 0; b < 4; b++) {
			size_t bit = 4*j + b;
			if (bit < nbits) v += ((k[bit / 8] >> (bit % 8)) & 1) << b;
		}
		carry = v >= 8;
		d[j] = (signed char)(v - 16*carry);
	}
}

// DEFINE_STRAUS defines attpool_T_straus: *ret = sum k_i P_i over the n
// affine points pts (the point at infinity is allowed) and the scalars k,
// nbytes little-endian bytes each of which nbits bits are read. tab holds
// 8n points and dig n*(ceil(nbits/4)+1) digits of scratch. Interleaved
// signed 4-bit windows: the 4 doublings of a window are shared by every
// point, which adds one of its multiples 1P..8P (made first) or their
// negations per non-zero digit.
#define DEFINE_STRAUS(T, TA)                                                    \
void attpool_##T##_straus(T *ret, const TA *pts, size_t n, const byte *k,      \
                          size_t nbytes, size_t nbits, T *tab,                  \
                          signed char *dig) {                                   \
	size_t ndig = (nbits + 3) / 4 + 1;                                          \
	T zero;                                                                     \
	memset(&zero, 0, sizeof zero);                                              \
	for (size_t i = 0; i < n; i++) {                                            \
		T *t = &tab[8*i];                                                       \
		T##_add_or_double_affine(&t[0], &zero, &pts[i]);                        \
		T##_double(&t[1], &t[0]);                                               \
		T##_add_or_double_affine(&t[2], &t[1], &pts[i]);                        \
		T##_double(&t[3], &t[1]);                                               \
		T##_add_or_double_affine(&t[4], &t[3], &pts[i]);                        \
		T##_double(&t[5], &t[2]);                                               \
		T##_add_or_double_affine(&t[6], &t[5], &pts[i]);                        \
		T##_double(&t[7], &t[3]);                                               \
		recode4(&dig[ndig*i], &k[nbytes*i], nbits, ndig);                       \
	}                                                                           \
	T acc = zero;                                                               \
	int started = 0;                                                            \
	for (size_t j = ndig; j-- > 0;) {                                           \
		if (started)                                                            \
			for (int s = 0; s < 4; s++) T##_double(&acc, &acc);                 \
		for (size_t i = 0; i < n; i++) {                                        \
			int d = dig[ndig*i + j];                                            \
			if (d == 0) continue;                                               \
			T q = tab[8*i + (d < 0 ? -d : d) - 1];                              \
			T##_cneg(&q, d < 0);                                                \
			T##_add_or_double(&acc, &acc, &q);                                  \
			started = 1;                                                        \
		}                                                                       \
	}                                                                           \
	*ret = acc;                                                                 \
}
DEFINE_STRAUS(blst_p1, blst_p1_affine)
DEFINE_STRAUS(blst_p2, blst_p2_affine)
