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
// runs on the calling goroutine. With split (a split multiplication's
// signs, one per point) the sum is over each point and its image
// (attpool_blst_p1_affine_split), two scalars per point.
func strausG1(points []*G1Affine, scalars []byte, nbits int, split []byte) G1 {
	n := len(points)
	size := 2 * n // the points (summed), their negations
	if split != nil {
		size = 5 * n // the points, the 2n summed, their negations
	}
	pts := make([]C.blst_p1_affine, size)
	for i, p := range points {
		pts[i] = *cP1A(&p.p)
	}
	sum, neg := pts[:n], pts[n:]
	if split != nil {
		sum, neg = pts[n:3*n], pts[3*n:]
		C.attpool_blst_p1_affine_split(&sum[0], &pts[0], C.size_t(n), (*C.byte)(&split[0]))
	}
	m := len(sum)
	dig := make([]C.schar, m*(nbits+1))
	var out blst.P1
	C.attpool_blst_p1_straus(cP1(&out), &sum[0], C.size_t(m), (*C.byte)(&scalars[0]),
		C.size_t((nbits+7)/8), C.size_t(nbits), &neg[0], &dig[0])
	return G1{p: out}
}

// strausG2 returns sum_i k_i*points[i], as strausG1.
func strausG2(points []*G2Affine, scalars []byte, nbits int, split []byte) G2 {
	n := len(points)
	size := 2 * n // the points (summed), their negations
	if split != nil {
		size = 5 * n // the points, the 2n summed, their negations
	}
	pts := make([]C.blst_p2_affine, size)
	for i, p := range points {
		pts[i] = *cP2A(&p.p)
	}
	sum, neg := pts[:n], pts[n:]
	if split != nil {
		sum, neg = pts[n:3*n], pts[3*n:]
		C.attpool_blst_p2_affine_split(&sum[0], &pts[0], C.size_t(n), (*C.byte)(&split[0]))
	}
	m := len(sum)
	dig := make([]C.schar, m*(nbits+1))
	var out blst.P2
	C.attpool_blst_p2_straus(cP2(&out), &sum[0], C.size_t(m), (*C.byte)(&scalars[0]),
		C.size_t((nbits+7)/8), C.size_t(nbits), &neg[0], &dig[0])
	return G2{p: out}
}
