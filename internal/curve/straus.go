package curve

// Small multi-scalar multiplications. For fewer than 32 points blst
// multiplies each point on its own (a windowed multiplication with its own
// doublings, on goroutines of its own) and adds the products; Straus's
// method shares the doublings. Each scalar is written in non-adjacent form
// (digits -1, 0, 1, a third of them nonzero), so every bit costs one doubling
// for all the points, and each nonzero digit one mixed addition of the
// affine point or its negation: no table of multiples, whose Jacobian
// additions cost more than the mixed ones they would save. The arithmetic
// is blst's (declared in blst_copy.h); only the bookkeeping is here. Not
// constant-time: the scalars are the verifier's blinding, whose timing
// reveals nothing usable before the call returns (as in the digit rounds).

/*
#include "straus.h"
*/
import "C"

import (
	blst "github.com/supranational/blst/bindings/go"
)

// strausG1 returns sum_i k_i*points[i], scalars as in [MultiExpG1]; it
// runs on the calling goroutine.
func strausG1(points []*G1Affine, scalars []byte, nbits int) G1 {
	n, nbytes := len(points), (nbits+7)/8
	pts := make([]C.blst_p1_affine, 2*n)
	for i, p := range points {
		pts[i] = *cP1A(&p.p)
	}
	dig := make([]C.schar, n*(nbits+1))
	var out blst.P1
	C.attpool_blst_p1_straus(cP1(&out), &pts[0], C.size_t(n), (*C.byte)(&scalars[0]),
		C.size_t(nbytes), C.size_t(nbits), &pts[n], &dig[0])
	return G1{p: out}
}

// strausG2 returns sum_i k_i*points[i], as strausG1.
func strausG2(points []*G2Affine, scalars []byte, nbits int) G2 {
	n, nbytes := len(points), (nbits+7)/8
	pts := make([]C.blst_p2_affine, 2*n)
	for i, p := range points {
		pts[i] = *cP2A(&p.p)
	}
	dig := make([]C.schar, n*(nbits+1))
	var out blst.P2
	C.attpool_blst_p2_straus(cP2(&out), &pts[0], C.size_t(n), (*C.byte)(&scalars[0]),
		C.size_t(nbytes), C.size_t(nbits), &pts[n], &dig[0])
	return G2{p: out}
}
