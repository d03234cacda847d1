package verifier

import "github.com/attpool/attpool/internal/curve"

// Each search keeps its ranges of candidates in its own type: blindedRange
// for bisection (search_bisect.go), plainRange for the locate step
// (search_locate*.go), chunkRange for the chunk search (search_chunks.go).

// blindedRange is a range [lo, hi) of candidates with its blinded sums. S =
// sum r_k s_k over the range. P[g-gLo] = sum r_k pk_k over the range's part
// of group g, for the groups gLo..gLo+len(P)-1 that the range meets.
type blindedRange struct {
	lo, hi int
	S      curve.G2
	gLo    int
	P      []curve.G1

	// A is the node's check value in GT (not one: the node fails), when
	// hasA. em marks a node likely to hold a single invalid set, for the
	// exponentiation method. own marks a value computed by a pairing of sums
	// made from the node's own points. Such a value is not inherited from a
	// parent, nor made of a parent's sums less a sibling's. For a single
	// set, it is a check of that set alone.
	A    curve.GT
	hasA bool
	em   bool
	own  bool
}

func (nd *blindedRange) size() int { return nd.hi - nd.lo }

// failing returns nd with its failing check value A; em and own are as in
// node.
func (nd blindedRange) failing(A curve.GT, em, own bool) blindedRange {
	nd.A, nd.hasA, nd.em, nd.own = A, true, em, own
	return nd
}

// add adds the sums of p, a range inside nd's groups, to nd's.
func (nd *blindedRange) add(p *blindedRange) {
	nd.S.Add(&p.S)
	for y := range p.P {
		nd.P[p.gLo+y-nd.gLo].Add(&p.P[y])
	}
}

// plainRange is a failing range of locateAll's search. A is its plain value,
// prod_k e(pk_k, H(m_k)) * e(-g1, s_k), which is not one. B, when hasB, is its
// value under the public weights w_k = k-base+1. Both are taken after the
// final exponentiation, less the terms of the invalid sets already found in
// the range (peeled). named, when not 0, is the public weight of the range's
// suspect, found with its halving (jointNames).
type plainRange struct {
	lo, hi, base int
	A, B         curve.GT
	hasB         bool
	named        int
	peeled       []peel
}

// peel is an invalid set found inside a plainRange: candidate k, with the
// value d of its own one-set check (its term of the node's plain value).
type peel struct {
	k int
	d curve.GT
}

func (p *plainRange) size() int { return p.hi - p.lo }

// has reports whether candidate k is in p's range.
func (p *plainRange) has(k int) bool { return p.lo <= k && k < p.hi }

// fails reports whether the range's plain value is not one.
func (p plainRange) fails() bool { return !p.A.IsOne() }

// widest returns the size of the largest of the ranges.
func widest(ps []plainRange) int {
	w := 0
	for _, p := range ps {
		w = max(w, p.size())
	}
	return w
}

// chunkRange is a failing range of chunks [a, b) of locateChunks' search, with
// its value V; own marks a value computed from the range's own sums (not by
// division).
type chunkRange struct {
	a, b int
	V    curve.GT
	own  bool
}

// fails reports whether the range's value is not one.
func (r chunkRange) fails() bool { return !r.V.IsOne() }

// appendFailing appends the ranges of ps whose value fails (a plainRange's plain
// value, a chunkRange's value under the call's scalars).
func appendFailing[R interface{ fails() bool }](dst []R, ps ...R) []R {
	for _, p := range ps {
		if p.fails() {
			dst = append(dst, p)
		}
	}
	return dst
}

// allOf returns the candidates of nd.
func allOf(nd blindedRange) []int {
	ks := make([]int, 0, nd.size())
	for k := nd.lo; k < nd.hi; k++ {
		ks = append(ks, k)
	}
	return ks
}
