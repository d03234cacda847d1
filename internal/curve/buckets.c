// Batch-affine bucket accumulation for attpool's verifier: see buckets.go.
// The blst declarations are blst_copy.h's.
#include <string.h>
#include "buckets.h"

#define NB 169 // 13*13 buckets

static int is_zero(const void *a, size_t n) {
	const limb_t *l = (const limb_t *)a;
	limb_t acc = 0;
	for (size_t i = 0; i < n / sizeof(limb_t); i++) acc |= l[i];
	return acc == 0;
}

// DEFINE_REDUCE defines T##_reduce: pts holds nseg segments (segment s at
// start[s], cnt[s] points, as (X, Y, unused Z)); on return every cnt[s] is 0
// (the sum was infinity) or 1 (the sum is at pts[start[s]]). res needs room
// for half the points. Pairs of every segment are added in one batch per
// level, with Montgomery's trick sharing one inversion.
#define DEFINE_REDUCE(T, F, fadd, fsub, fmul, fsqr, fmul3, finv)               \
static void T##_reduce(T *pts, const size_t *start, size_t *cnt, size_t nseg,   \
                       T *res) {                                                \
	for (;;) {                                                                  \
		size_t np = 0;                                                          \
		for (size_t s = 0; s < nseg; s++) np += cnt[s] / 2;                     \
		if (np == 0) return;                                                    \
		/* head: res[p].x = denominator, .y = numerator, .z = the product of */\
		/* the denominators before it (not for the first, index first); an   */\
		/* infinite pair P + (-P) gets a zero denominator and is skipped     */\
		size_t p = 0, first = 0;                                                \
		int have = 0;                                                           \
		F acc;                                                                  \
		for (size_t s = 0; s < nseg; s++) {                                     \
			for (size_t t = 0; t + 1 < cnt[s]; t += 2) {       \
				T *A = &pts[start[s] + t], *B = A + 1;                          \
				T *r = &res[p++];                                               \
				fsub(&r->x, &B->x, &A->x);                                      \
				if (!is_zero(&r->x, sizeof(F))) {                               \
					fsub(&r->y, &B->y, &A->y);                                  \
				} else {                                                        \
					fadd(&r->x, &A->y, &B->y);                                  \
					if (is_zero(&r->x, sizeof(F))) continue; /* P + (-P) */     \
					fsqr(&r->y, &A->x);                                         \
					fmul3(&r->y, &r->y);        /* doubling: 3x^2 / 2y */       \
				}                                                               \
				if (have) { r->z = acc; fmul(&acc, &acc, &r->x); }              \
				else { acc = r->x; have = 1; first = p - 1; }                   \
			}                                                                   \
		}                                                                       \
		/* tail, in reverse, one step a pair: inv = 1/(product of the      */   \
		/* denominators up to q); 1/den = inv * (product before q)         */   \
		F inv, lam, t1;                                                         \
		if (have) finv(&inv, &acc);                                             \
		for (size_t q = np; have && q-- > first;) {                             \
			T *r = &res[q];                                                     \
			if (is_zero(&r->x, sizeof(F))) continue;                            \
			if (q == first) { r->z = inv; break; }                              \
			F dinv;                                                             \
			fmul(&dinv, &inv, &r->z);                                           \
			fmul(&inv, &inv, &r->x);                                            \
			r->z = dinv;                                                        \
		}                                                                       \
		/* results, written back compactly segment by segment */               \
		p = 0;                                                                  \
		for (size_t s = 0; s < nseg; s++) {                                     \
			size_t c = cnt[s], w = start[s];                                    \
			for (size_t t = 0; t + 1 < c; t += 2) {                             \
				T *A = &pts[start[s] + t], *B = A + 1;                          \
				T *r = &res[p++];                                               \
				if (is_zero(&r->x, sizeof(F))) continue; /* infinity: dropped */\
				fmul(&lam, &r->y, &r->z);                                       \
				F x3, y3;                                                       \
				fsqr(&x3, &lam);                                                \
				fsub(&x3, &x3, &A->x);                                          \
				fsub(&x3, &x3, &B->x);                                          \
				fsub(&t1, &A->x, &x3);                                          \
				fmul(&y3, &lam, &t1);                                           \
				fsub(&y3, &y3, &A->y);                                          \
				pts[w].x = x3; pts[w].y = y3; w++;                              \
			}                                                                   \
			if (c & 1) { pts[w] = pts[start[s] + c - 1]; w++; }                 \
			cnt[s] = w - start[s];                                              \
		}                                                                       \
	}                                                                           \
}

DEFINE_REDUCE(blst_p2, blst_fp2, blst_fp2_add, blst_fp2_sub, blst_fp2_mul, blst_fp2_sqr, blst_fp2_mul_by_3, blst_fp2_eucl_inverse)
DEFINE_REDUCE(blst_p1, blst_fp, blst_fp_add, blst_fp_sub, blst_fp_mul, blst_fp_sqr, blst_fp_mul_by_3, blst_fp_eucl_inverse)

// DEFINE_PAIR defines T##_pair_round: pts holds the points sorted by bucket
// 13a+b with cnt[169] their counts (bucket 0 empty); res has room for
// len(pts)/2 + 2*NB points. Sets H1 = sum a*P, H2 = sum b*P (Jacobian).
#define DEFINE_PAIR(T, TA)                                                      \
static void T##_pair_round(T *H1, T *H2, T *pts, size_t *cnt, T *res, size_t nres) { \
	size_t start[NB];                                                           \
	size_t pos = 0;                                                             \
	for (int k = 0; k < NB; k++) { start[k] = pos; pos += cnt[k]; }             \
	T##_reduce(pts, start, cnt, NB, res);                                       \
	T *grid = res + nres - 2 * NB; /* rows then columns */                      \
	size_t rs[13], rc[13], cs[13], cc[13];                                      \
	size_t g = 0;                                                               \
	for (int a = 0; a < 13; a++) {                                              \
		rs[a] = g; rc[a] = 0;                                                   \
		for (int b = 0; b < 13; b++)                                            \
			if (cnt[13 * a + b]) { grid[g++] = pts[start[13 * a + b]]; rc[a]++; } \
	}                                                                           \
	for (int b = 0; b < 13; b++) {                                              \
		cs[b] = g; cc[b] = 0;                                                   \
		for (int a = 0; a < 13; a++)                                            \
			if (cnt[13 * a + b]) { grid[g++] = pts[start[13 * a + b]]; cc[b]++; } \
	}                                                                           \
	T##_reduce(grid, rs, rc, 13, res);                                          \
	T##_reduce(grid, cs, cc, 13, res);                                          \
	T acc1, acc2;                                                               \
	memset(&acc1, 0, sizeof(T)); memset(&acc2, 0, sizeof(T));                   \
	memset(H1, 0, sizeof(T)); memset(H2, 0, sizeof(T));                         \
	for (int d = 12; d >= 1; d--) {                                             \
		if (rc[d]) T##_add_or_double_affine(&acc1, &acc1, (const TA *)&grid[rs[d]]); \
		if (cc[d]) T##_add_or_double_affine(&acc2, &acc2, (const TA *)&grid[cs[d]]); \
		T##_add_or_double(H1, H1, &acc1);                                       \
		T##_add_or_double(H2, H2, &acc2);                                       \
	}                                                                           \
}

DEFINE_PAIR(blst_p2, blst_p2_affine)
DEFINE_PAIR(blst_p1, blst_p1_affine)

void attpool_pair_round(bool g2, void *H1, void *H2, void *pts, size_t *cnt, void *res, size_t nres) {
	if (g2)
		blst_p2_pair_round(H1, H2, pts, cnt, res, nres);
	else
		blst_p1_pair_round(H1, H2, pts, cnt, res, nres);
}
