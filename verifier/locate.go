package verifier

import (
	"math/bits"

	"github.com/attpool/attpool/crypto"
)

// locateMin is the least number of candidates of a failing call for which
// locateAll runs before bisection.
const locateMin = 256

// locatePartSize is the size of the parts locateAll splits a call into.
const locatePartSize = 64

// locateAll finds the invalid sets of a failing call (whole, with its sums
// and value under the call's secret scalars) cheaply:
//
//  1. The call is cut into parts of about locatePartSize; each part's plain
//     value prod_k e(pk_k, H(m_k)) * e(-g1, s_k) (unweighted sums, by
//     batch-affine addition) is not one exactly when the part holds an
//     invalid set (the points are in G2), or, rarely, when invalid sets
//     cancel, which step 4 catches.
//  2. In each failing part, the exponentiation method with the public
//     weights w_k = 1..s (a 6-bit multi-scalar multiplication and one
//     pairing) names a suspect when the part holds one invalid set; a part
//     where no weight matches stays unresolved.
//  3. Each suspect i gets its one-set check under the call's scalars,
//     V_i = e(r_i pk_i, H) * e(-g1, r_i s_i), which decides it: invalid when
//     V_i is not one. A valid suspect (the weights were fooled) leaves its
//     part unresolved. Each unresolved part gets its value U_p under the
//     call's scalars.
//  4. The call less the invalid suspects and the unresolved parts has the
//     value A / (prod V_i * prod U_p), by bilinearity the pairing product of
//     its sums under the call's scalars; when it is one, that check accepts
//     every set in it. The unresolved parts are bisected with their values.
//     Otherwise (crafted signatures, which then only cost time) locateAll
//     reports false and the caller bisects the whole call.
//
// The plain values and public weights only choose the suspects: no verdict
// rests on them.
func (c *call) locateAll(whole node) bool {
	m := whole.hi - whole.lo
	k := max(4, m/locatePartSize)
	if !c.reserve(1 + k) { // the rest's check, and each unresolved part's
		return false
	}
	parts := make([]node, k)
	vals := make([]crypto.GT, k)
	c.v.w.forEach(k, 1, func(x int) {
		parts[x] = c.plainSums(whole.lo+x*m/k, whole.lo+(x+1)*m/k)
		vals[x] = c.valueSerial(parts[x])
	})
	var failing []int
	for x := range parts {
		if !vals[x].IsOne() {
			failing = append(failing, x)
		}
	}
	// Suspects and their one-set checks, in parallel.
	named := make([]int, len(failing)) // candidate index, or -1: unresolved
	own := make([]crypto.GT, len(failing))
	c.v.w.forEach(len(failing), 1, func(y int) {
		x := failing[y]
		if named[y] = c.name(parts[x], vals[x]); named[y] >= 0 {
			own[y] = c.valueSerial(c.sums(named[y], named[y]+1, nil, nil))
		}
	})
	c.spent += float64(k+2*len(failing)) * c.checkCost(whole)
	var open []int // failing parts left unresolved
	rest := whole.A
	for y, x := range failing {
		i := named[y]
		if i < 0 || own[y].IsOne() {
			if i >= 0 {
				c.settle(c.cand[i], true)
			}
			open = append(open, x)
			continue
		}
		c.settle(c.cand[i], false)
		inv := own[y]
		rest.Mul(inv.Conjugate())
	}
	unresolved := make([]node, len(open))
	uvals := make([]crypto.GT, len(open))
	c.v.w.forEach(len(open), 1, func(y int) {
		p := parts[open[y]]
		unresolved[y] = c.sums(p.lo, p.hi, nil, nil)
		uvals[y] = c.valueSerial(unresolved[y])
	})
	for y := range open {
		c.spent += float64(unresolved[y].hi-unresolved[y].lo)*(costMSMG1+costMSMG2) + c.checkCost(unresolved[y])
		inv := uvals[y]
		rest.Mul(inv.Conjugate())
	}
	if !rest.IsOne() {
		return false
	}
	c.v.stats.located.Add(int64(len(failing) - len(open)))
	inOpen := make([]bool, m)
	for _, x := range open {
		for i := parts[x].lo; i < parts[x].hi; i++ {
			inOpen[i-whole.lo] = true
		}
	}
	for i := whole.lo; i < whole.hi; i++ {
		if !inOpen[i-whole.lo] {
			c.settle(c.cand[i], true) // no-op for the suspects settled above
		}
	}
	for y, p := range unresolved {
		if uvals[y].IsOne() {
			c.accept(p.lo, p.hi)
			continue
		}
		p.A, p.hasA, p.em, p.own = uvals[y], true, true, true
		c.bisect(p)
	}
	return true
}

// plainSums returns the node of [lo, hi) with unweighted sums: S = sum s_k
// and P_g = sum pk_k, by batch-affine addition.
func (c *call) plainSums(lo, hi int) node {
	nd := node{lo: lo, hi: hi, gLo: c.gOf[lo]}
	nd.P = make([]crypto.G1, c.gOf[hi-1]-nd.gLo+1)
	for x := range nd.P {
		g := nd.gLo + x
		a, b := max(lo, c.groups[g].lo), min(hi, c.groups[g].hi)
		if a < b {
			nd.P[x] = crypto.SumG1(c.pks[a:b])
		}
	}
	nd.S = crypto.SumG2(c.pts[lo:hi])
	return nd
}

// name returns the only invalid set of a part whose plain value A is not
// one, by the exponentiation method with weights w_k = 1..s: if set i alone
// is invalid, the weighted value B is A^w_i. It returns -1 when no weight
// matches (the part holds two or more invalid sets, or crafted ones).
func (c *call) name(part node, A crypto.GT) int {
	s := part.hi - part.lo
	nbits := bits.Len(uint(s))
	nb := (nbits + 7) / 8
	w := make([]byte, s*nb)
	for k := range s {
		for b := range nb {
			w[k*nb+b] = byte((k + 1) >> (8 * b))
		}
	}
	if j := findPower(A, c.valueSerial(c.weighted(part.lo, part.hi, w, nbits)), s); j > 0 {
		return part.lo + j - 1
	}
	return -1
}
