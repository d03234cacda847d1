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
