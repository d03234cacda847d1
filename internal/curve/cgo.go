package curve

// This file holds the few blst C entry points that the Go bindings do not
// expose (decoding with error codes, Jacobian doubling, negation and subgroup
// checks, a single-threaded multi-Miller loop). The declarations, in
// blst_copy.h, repeat blst.h of blst v0.3.17; the symbols are linked from the
// blst Go package's own C objects, so the two always come from the same build
// of blst.
//
// What keeps the copies from drifting (cgo_drift_test.go): the sizes below
// fail the build if a hand-copied struct differs from the bindings' (which
// come from the linked blst.h); TestDeclarationsMatchHeaders compares every
// prototype in blst_copy.h with blst.h and blst_aux.h of the module
// the build uses; TestBlstVersion reads that version from the build info;
// TestLinkedSizes asks the linked library for its sizes; and each declared
// function has a differential test against the bindings. Two symbols come
// from blst_aux.h, which blst does not promise to keep:
// blst_p1_unchecked_mult and blst_p2_unchecked_mult (a plain windowed
// multiplication, right outside the subgroup too); TestUncheckedMult checks
// them against the bindings' Mult in the subgroup and against a double-and-add
// outside it.

/*
#include "blst_copy.h"

// attpool_gt_exp sets *ret = a^k for a value a of GT (the cyclotomic
// subgroup, after the final exponentiation) and a little-endian k of nbits
// bits: square-and-multiply from the top bit.
static void attpool_gt_exp(blst_fp12 *ret, const blst_fp12 *a, const byte *k, size_t nbits) {
	blst_fp12 acc = *blst_fp12_one();
	for (size_t i = nbits; i-- > 0;) {
		blst_fp12_cyclotomic_sqr(&acc, &acc);
		if ((k[i / 8] >> (i % 8)) & 1) blst_fp12_mul(&acc, &acc, a);
	}
	*ret = acc;
}

// attpool_miller_loop_n sets *ret to the product of the Miller loops of n
// pairs, in multi-Miller loops (blst_miller_loop_n shares the Fp12 squarings
// of up to 16 pairs). A pair with a point at infinity contributes one, as in
// blst_miller_loop (which blst_miller_loop_n does not special-case), so such
// pairs are left out.
static void attpool_miller_loop_n(blst_fp12 *ret, const blst_p2_affine *qs,
                                  const blst_p1_affine *ps, size_t n) {
	enum { chunk = 64 };
	const blst_p2_affine *Qs[chunk];
	const blst_p1_affine *Ps[chunk];
	blst_fp12 t;
	size_t k = 0;
	int first = 1;
	*ret = *blst_fp12_one();
	for (size_t i = 0; i < n; i++) {
		if (!blst_p2_affine_is_inf(&qs[i]) && !blst_p1_affine_is_inf(&ps[i])) {
			Qs[k] = &qs[i];
			Ps[k] = &ps[i];
			k++;
		}
		if (k == chunk || (i == n-1 && k > 0)) {
			blst_miller_loop_n(first ? ret : &t, Qs, Ps, k);
			if (!first)
				blst_fp12_mul(ret, ret, &t);
			first = 0;
			k = 0;
		}
	}
}

// attpool_lines_segments are the runs of blst_precompute_lines' 68 lines
// after the first doubling: where each run starts (its addition line) and
// how many doublings follow (|z| = 0xd201000000010000, read from the top).
static const size_t attpool_lines_segments[5][2] = {{1, 2}, {4, 3}, {8, 9}, {18, 32}, {51, 16}};

// attpool_line_at sets *out to line evaluated at P, given px2 = -2 P.x and
// py2 = 2 P.y: the line's second coefficient times px2 and its third times
// py2, as blst_miller_loop_lines evaluates its precomputed lines.
static void attpool_line_at(blst_fp6 *out, const blst_fp6 *line,
                            const blst_fp *px2, const blst_fp *py2) {
	out->fp2[0] = line->fp2[0];
	blst_fp_mul(&out->fp2[1].fp[0], &line->fp2[1].fp[0], px2);
	blst_fp_mul(&out->fp2[1].fp[1], &line->fp2[1].fp[1], px2);
	blst_fp_mul(&out->fp2[2].fp[0], &line->fp2[2].fp[0], py2);
	blst_fp_mul(&out->fp2[2].fp[1], &line->fp2[2].fp[1], py2);
}

// attpool_miller_loop_lines_n sets *ret to the product of the Miller loops
// of n (1 <= n <= 16) pairs given by the precomputed lines of their G2
// points and their G1 points (none at infinity), in one loop that shares
// the Fp12 squarings, as blst_miller_loop_n does with lines it computes as
// it goes.
static void attpool_miller_loop_lines_n(blst_fp12 *ret, const blst_fp6 *const lines[],
                                        const blst_p1_affine *const ps[], size_t n) {
	blst_fp px2[16], py2[16];
	blst_fp6 line;
	for (size_t i = 0; i < n; i++) {
		blst_fp_add(&px2[i], &ps[i]->x, &ps[i]->x);
		blst_fp_cneg(&px2[i], &px2[i], 1);
		blst_fp_add(&py2[i], &ps[i]->y, &ps[i]->y);
	}
	// The first step is ret = 1^2 * line: ret is the first line.
	attpool_line_at(&line, &lines[0][0], &px2[0], &py2[0]);
	*ret = (blst_fp12){0};
	ret->fp6[0].fp2[0] = line.fp2[0];
	ret->fp6[0].fp2[1] = line.fp2[1];
	ret->fp6[1].fp2[1] = line.fp2[2];
	for (size_t i = 1; i < n; i++) {
		attpool_line_at(&line, &lines[i][0], &px2[i], &py2[i]);
		blst_fp12_mul_by_xy00z0(ret, ret, &line);
	}
	for (size_t s = 0; s < 5; s++) {
		size_t at = attpool_lines_segments[s][0], k = attpool_lines_segments[s][1];
		for (size_t j = 0; j <= k; j++) {
			if (j > 0)
				blst_fp12_sqr(ret, ret);
			for (size_t i = 0; i < n; i++) {
				attpool_line_at(&line, &lines[i][at + j], &px2[i], &py2[i]);
				blst_fp12_mul_by_xy00z0(ret, ret, &line);
			}
		}
	}
	blst_fp12_conjugate(ret); // z is negative
}

// attpool_miller_loop_mixed is attpool_miller_loop_n where lines[i], when
// not NULL, holds the precomputed lines of qs[i]. Pairs with a point at
// infinity contribute one and are left out. The pairs with lines, and the
// first without (its lines computed here: blst computes the same lines
// inside its loop), share one loop's squarings (16 pairs at a time); any
// other pairs without lines go through attpool_miller_loop_n.
static void attpool_miller_loop_mixed(blst_fp12 *ret, const blst_p2_affine *qs,
                                      const blst_p1_affine *ps, const blst_fp6 *const lines[],
                                      size_t n) {
	enum { chunk = 16 };
	const blst_fp6 *L[chunk];
	const blst_p1_affine *P[chunk];
	blst_fp6 fresh[68];
	blst_p2_affine rest_q[chunk];
	blst_p1_affine rest_p[chunk];
	blst_fp12 t;
	size_t k = 0, r = 0;
	int used_fresh = 0;
	*ret = *blst_fp12_one();
	for (size_t i = 0; i < n; i++) {
		int last = i == n-1;
		if (!blst_p2_affine_is_inf(&qs[i]) && !blst_p1_affine_is_inf(&ps[i])) {
			if (lines[i] != NULL) {
				L[k] = lines[i];
				P[k++] = &ps[i];
			} else if (!used_fresh) {
				blst_precompute_lines(fresh, &qs[i]);
				used_fresh = 1;
				L[k] = fresh;
				P[k++] = &ps[i];
			} else {
				rest_q[r] = qs[i];
				rest_p[r++] = ps[i];
			}
		}
		if (k == chunk || (last && k > 0)) {
			attpool_miller_loop_lines_n(&t, L, P, k);
			blst_fp12_mul(ret, ret, &t);
			k = 0;
		}
		if (r == chunk || (last && r > 0)) {
			attpool_miller_loop_n(&t, rest_q, rest_p, r);
			blst_fp12_mul(ret, ret, &t);
			r = 0;
		}
	}
}

// attpool_gN_mul13_add sets *acc = 13*(*acc) + *h (Horner step in base 13).
#define DEFINE_MUL13_ADD(N, T)                  \
static void attpool_g##N##_mul13_add(T *acc, const T *h) { \
	T a4, a8;                                   \
	T##_double(&a4, acc);                       \
	T##_double(&a4, &a4);                       \
	T##_double(&a8, &a4);                       \
	T##_add_or_double(&a8, &a8, &a4);           \
	T##_add_or_double(&a8, &a8, acc);           \
	T##_add_or_double(acc, &a8, h);             \
}
DEFINE_MUL13_ADD(2, blst_p2)
DEFINE_MUL13_ADD(1, blst_p1)
*/
import "C"

import (
	"runtime"
	"unsafe"

	blst "github.com/supranational/blst/bindings/go"
)

// The structs blst_copy.h copies have the sizes of the bindings' types,
// which are blst.h's: a difference is a compile error here (the negation
// of a non-zero uintptr constant overflows).
var (
	_ [-(unsafe.Sizeof(C.blst_scalar{}) ^ unsafe.Sizeof(blst.Scalar{}))]struct{}
	_ [-(unsafe.Sizeof(C.blst_fp12{}) ^ unsafe.Sizeof(blst.Fp12{}))]struct{}
	_ [-(unsafe.Sizeof(C.blst_p1{}) ^ unsafe.Sizeof(blst.P1{}))]struct{}
	_ [-(unsafe.Sizeof(C.blst_p1_affine{}) ^ unsafe.Sizeof(blst.P1Affine{}))]struct{}
	_ [-(unsafe.Sizeof(C.blst_p2{}) ^ unsafe.Sizeof(blst.P2{}))]struct{}
	_ [-(unsafe.Sizeof(C.blst_p2_affine{}) ^ unsafe.Sizeof(blst.P2Affine{}))]struct{}
)

// linkedSizes returns the sizes of blst_p1, blst_p1_affine, blst_p2,
// blst_p2_affine and blst_fp12 in the linked library.
func linkedSizes() [5]uintptr {
	return [5]uintptr{uintptr(C.blst_p1_sizeof()), uintptr(C.blst_p1_affine_sizeof()),
		uintptr(C.blst_p2_sizeof()), uintptr(C.blst_p2_affine_sizeof()), uintptr(C.blst_fp12_sizeof())}
}

func cP1(p *blst.P1) *C.blst_p1               { return (*C.blst_p1)(unsafe.Pointer(p)) }
func cP2(p *blst.P2) *C.blst_p2               { return (*C.blst_p2)(unsafe.Pointer(p)) }
func cP1A(p *blst.P1Affine) *C.blst_p1_affine { return (*C.blst_p1_affine)(unsafe.Pointer(p)) }
func cP2A(p *blst.P2Affine) *C.blst_p2_affine { return (*C.blst_p2_affine)(unsafe.Pointer(p)) }
func cFp12(f *blst.Fp12) *C.blst_fp12         { return (*C.blst_fp12)(unsafe.Pointer(f)) }

func uncompressG1(out *blst.P1Affine, in *[48]byte) int {
	return int(C.blst_p1_uncompress(cP1A(out), (*C.byte)(unsafe.Pointer(&in[0]))))
}

func uncompressG2(out *blst.P2Affine, in *[96]byte) int {
	return int(C.blst_p2_uncompress(cP2A(out), (*C.byte)(unsafe.Pointer(&in[0]))))
}

func p2Double(p *blst.P2)              { C.blst_p2_double(cP2(p), cP2(p)) }
func p1Double(p *blst.P1)              { C.blst_p1_double(cP1(p), cP1(p)) }
func p2Neg(p *blst.P2)                 { C.blst_p2_cneg(cP2(p), true) }
func p1Neg(p *blst.P1)                 { C.blst_p1_cneg(cP1(p), true) }
func p2InG2(p *blst.P2) bool           { return bool(C.blst_p2_in_g2(cP2(p))) }
func p2IsInf(p *blst.P2) bool          { return bool(C.blst_p2_is_inf(cP2(p))) }
func p1IsInf(p *blst.P1) bool          { return bool(C.blst_p1_is_inf(cP1(p))) }
func p2AffIsInf(p *blst.P2Affine) bool { return bool(C.blst_p2_affine_is_inf(cP2A(p))) }
func p1AffIsInf(p *blst.P1Affine) bool { return bool(C.blst_p1_affine_is_inf(cP1A(p))) }
func p2Add(out, a, b *blst.P2)         { C.blst_p2_add_or_double(cP2(out), cP2(a), cP2(b)) }
func p1Add(out, a, b *blst.P1)         { C.blst_p1_add_or_double(cP1(out), cP1(a), cP1(b)) }
func p2Mul13Add(acc, h *blst.P2)       { C.attpool_g2_mul13_add(cP2(acc), cP2(h)) }
func p1Mul13Add(acc, h *blst.P1)       { C.attpool_g1_mul13_add(cP1(acc), cP1(h)) }

// p2Mult and p1Mult multiply by a little-endian scalar of nbits bits with a
// plain windowed method, right for every point of the curve (blst_p2_mult
// uses the GLS endomorphism for some sizes, right only in the subgroup).
// The caller guarantees 0 < nbits <= 8*len(scalar).
func p2Mult(out, p *blst.P2, scalar []byte, nbits int) {
	C.blst_p2_unchecked_mult(cP2(out), cP2(p), (*C.byte)(unsafe.Pointer(&scalar[0])), C.size_t(nbits))
}

func p1Mult(out, p *blst.P1, scalar []byte, nbits int) {
	C.blst_p1_unchecked_mult(cP1(out), cP1(p), (*C.byte)(unsafe.Pointer(&scalar[0])), C.size_t(nbits))
}

func signHash(out, hash *blst.P2, sk *blst.SecretKey) {
	C.blst_sign_pk_in_g1(cP2(out), cP2(hash), (*C.blst_scalar)(unsafe.Pointer(sk)))
}

func millerLoopN(out *blst.Fp12, qs []blst.P2Affine, ps []blst.P1Affine) {
	C.attpool_miller_loop_n(cFp12(out), cP2A(&qs[0]), cP1A(&ps[0]), C.size_t(len(qs)))
}

// precomputeLines sets out to q's lines (q not at infinity).
func precomputeLines(out *Lines, q *blst.P2Affine) {
	C.blst_precompute_lines((*C.blst_fp6)(unsafe.Pointer(&out.l[0])), cP2A(q))
}

// millerLoopMixed is millerLoopN where lines[i], when not nil, holds the
// precomputed lines of qs[i].
func millerLoopMixed(out *blst.Fp12, qs []blst.P2Affine, ps []blst.P1Affine, lines []*Lines) {
	ls := make([]*C.blst_fp6, len(lines))
	var pin runtime.Pinner
	defer pin.Unpin()
	for i, l := range lines {
		if l != nil {
			pin.Pin(l)
			ls[i] = (*C.blst_fp6)(unsafe.Pointer(&l.l[0]))
		}
	}
	C.attpool_miller_loop_mixed(cFp12(out), cP2A(&qs[0]), cP1A(&ps[0]), &ls[0], C.size_t(len(qs)))
}

func fp12Mul(out, a, b *blst.Fp12) { C.blst_fp12_mul(cFp12(out), cFp12(a), cFp12(b)) }

func finalExp(out, f *blst.Fp12)     { C.blst_final_exp(cFp12(out), cFp12(f)) }
func fp12IsOne(f *blst.Fp12) bool    { return bool(C.blst_fp12_is_one(cFp12(f))) }
func fp12Equal(a, b *blst.Fp12) bool { return bool(C.blst_fp12_is_equal(cFp12(a), cFp12(b))) }
func fp12Conjugate(f *blst.Fp12)     { C.blst_fp12_conjugate(cFp12(f)) }

func gtExp(out, a *blst.Fp12, k []byte, nbits int) {
	C.attpool_gt_exp(cFp12(out), cFp12(a), (*C.byte)(unsafe.Pointer(&k[0])), C.size_t(nbits))
}

func finalExpIsOne(f *blst.Fp12) bool {
	var t blst.Fp12
	C.blst_final_exp(cFp12(&t), cFp12(f))
	return bool(C.blst_fp12_is_one(cFp12(&t)))
}
