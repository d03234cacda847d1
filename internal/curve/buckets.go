package curve

// Batch-affine bucket accumulation for the verifier's digit rounds.
//
// A "pair round" sums points weighted by two independent digits in [0, 13)
// at once: every point goes to bucket 13a+b, the 168 non-empty-index buckets
// are summed with batch-affine additions (one shared field inversion per
// level of pairwise reduction across all buckets), and the two weighted sums
// H1 = sum a*P and H2 = sum b*P are read off the row and column sums of the
// 13x13 bucket grid. Each point costs one batch-affine addition per pair of
// rounds instead of one per round. The field arithmetic is blst's (declared
// below from blst.h and linked from the blst Go package); only the
// bookkeeping is here. Not constant-time: the digits' bucket sizes show in
// the timing, which reveals nothing usable before the call returns.

/*
#include "buckets.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	blst "github.com/supranational/blst/bindings/go"
)

// The digit rounds' input errors (wrapped; test with [errors.Is]): digit
// slices of another length than the points, a nil point or a digit not below
// 13, the point at infinity (which the formulas exclude).
var (
	ErrInvalidLength   = errors.New("attpool/curve: invalid length")
	ErrInvalidArgument = errors.New("attpool/curve: invalid argument")
	ErrInfinity        = errors.New("attpool/curve: point at infinity")
)

// wrapf returns err with the formatted context after it.
func wrapf(err error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{err}, args...)...)
}

// maxRoundPoints bounds the points one C call sorts, and so the scratch a
// round holds: a larger call is summed in chunks of this many (H1 and H2 are
// linear in the points). A chunk needs 1.5*maxRoundPoints Jacobian points,
// 14 MB in G2 (a million points took 453 MB in one piece:
// BenchmarkPairRoundMemory); the grid sums a chunk adds cost about 340
// batch-affine additions, under 1% of its 32768 points.
const maxRoundPoints = 1 << 15

// PairRoundScratch is reusable memory for [PairRoundG2] and [PairRoundG1]
// calls: it grows to what a chunk of maxRoundPoints points needs. The zero
// value is ready to use. It is cleared after every call (the order of the
// points and the bucket counts follow the digits, which derive from secret
// blinding scalars). Not safe for concurrent use.
type PairRoundScratch struct {
	p2  []blst.P2
	p1  []blst.P1
	cnt [169]C.size_t
}

// PairRoundG2 returns H1 = sum_k d1[k]*pts[k] and H2 = sum_k d2[k]*pts[k]
// for digits d1, d2 in [0, 13), with one batch-affine addition per point
// (see the file comment). It checks its inputs first: d1 and d2 as long as
// pts (else an error wrapping [ErrInvalidLength]), no nil point and no digit
// of 13 or more ([ErrInvalidArgument]), no point at infinity ([ErrInfinity]:
// the batch-affine formulas exclude it; leave it out, it adds nothing). A
// nil s uses fresh scratch memory.
func PairRoundG2(s *PairRoundScratch, pts []*G2Affine, d1, d2 []uint8) (H1, H2 G2, err error) {
	return pairRound[G2Affine, G2](s, pts, d1, d2, func(s *PairRoundScratch) *[]blst.P2 { return &s.p2 })
}

// PairRoundG1 is [PairRoundG2] in G1, with the same checks of its inputs.
func PairRoundG1(s *PairRoundScratch, pts []*G1Affine, d1, d2 []uint8) (H1, H2 G1, err error) {
	return pairRound[G1Affine, G1](s, pts, d1, d2, func(s *PairRoundScratch) *[]blst.P1 { return &s.p1 })
}

// pairRound checks the inputs and sums them chunk by chunk, each chunk one
// C call on the scratch buf picks (A is G1Affine or G2Affine, J its
// Jacobian form, E J's blst type).
func pairRound[A G1Affine | G2Affine, J any, PJ interface {
	*J
	Add(*J) *J
}, E blst.P1 | blst.P2](s *PairRoundScratch, pts []*A, d1, d2 []uint8, buf func(*PairRoundScratch) *[]E) (H1, H2 J, err error) {
	if err := checkRound(pts, d1, d2); err != nil {
		return H1, H2, err
	}
	if s == nil {
		s = new(PairRoundScratch)
	}
	_, g2 := any(pts).([]*G2Affine)
	for lo := 0; lo < len(pts); lo += maxRoundPoints {
		hi := min(lo+maxRoundPoints, len(pts))
		var h1, h2 J
		work, res := sorted(s, buf(s), pts[lo:hi], d1[lo:hi], d2[lo:hi])
		C.attpool_pair_round(C.bool(g2), unsafe.Pointer(&h1), unsafe.Pointer(&h2),
			unsafe.Pointer(unsafe.SliceData(work)), &s.cnt[0],
			unsafe.Pointer(unsafe.SliceData(res)), C.size_t(len(res)))
		wipe(s, *buf(s))
		PJ(&H1).Add(&h1)
		PJ(&H2).Add(&h2)
	}
	return H1, H2, nil
}

// wipe zeroes what a round left in s: the sorted points (buf) and the
// bucket counts.
func wipe[E blst.P1 | blst.P2](s *PairRoundScratch, buf []E) {
	clear(buf)
	clear(s.cnt[:])
}

// sorted grows buf to the points and the C code's result space, puts the
// points in bucket order at its start (x, y copied; the Jacobian z slot is
// scratch for the C code) and returns the two parts. A (G1Affine or
// G2Affine) is J's affine form, a prefix of J's layout.
func sorted[A G1Affine | G2Affine, J blst.P1 | blst.P2](s *PairRoundScratch, buf *[]J, pts []*A, d1, d2 []uint8) (work, res []J) {
	m := len(pts)
	nres := m/2 + 2*169 + 1
	if cap(*buf) < m+nres {
		*buf = make([]J, m+nres)
	}
	*buf = (*buf)[:m+nres]
	work, res = (*buf)[:m], (*buf)[m:]
	s.sort(d1, d2, func(dst, k int) {
		*(*A)(unsafe.Pointer(&work[dst])) = *pts[k]
	})
	return work, res
}

// checkRound checks the inputs of a pair round (P is G1Affine or G2Affine).
func checkRound[P G1Affine | G2Affine](pts []*P, d1, d2 []uint8) error {
	m := len(pts)
	if len(d1) != m || len(d2) != m {
		return wrapf(ErrInvalidLength, "pair round of %d points with %d and %d digits", m, len(d1), len(d2))
	}
	for k := range m {
		if d1[k] >= 13 || d2[k] >= 13 {
			return wrapf(ErrInvalidArgument, "pair round: digits %d, %d of point %d (want below 13)", d1[k], d2[k], k)
		}
		switch {
		case pts[k] == nil:
			return wrapf(ErrInvalidArgument, "pair round: point %d is nil", k)
		case affineIsZero(unsafe.Pointer(pts[k]), unsafe.Sizeof(*pts[k])):
			return wrapf(ErrInfinity, "pair round: point %d", k)
		}
	}
	return nil
}

// affineIsZero reports whether the n bytes at p (an affine point, whose
// point at infinity is all zeros in blst) are all zero.
func affineIsZero(p unsafe.Pointer, n uintptr) bool {
	for _, w := range unsafe.Slice((*uint64)(p), n/8) {
		if w != 0 {
			return false
		}
	}
	return true
}

// sort counts the points per bucket 13*d1+d2 into s.cnt (bucket 0 dropped)
// and calls place(dst, k) to put point k at position dst of the sorted
// order.
func (s *PairRoundScratch) sort(d1, d2 []uint8, place func(dst, k int)) {
	var count, next [169]int
	for k := range d1 {
		count[13*int(d1[k])+int(d2[k])]++
	}
	count[0] = 0
	pos := 0
	for b := range 169 {
		next[b] = pos
		pos += count[b]
		s.cnt[b] = C.size_t(count[b])
	}
	for k := range d1 {
		if b := 13*int(d1[k]) + int(d2[k]); b != 0 {
			place(next[b], k)
			next[b]++
		}
	}
}
