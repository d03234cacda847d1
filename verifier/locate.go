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
// under the call's secret scalars) cheaply, and proves its answer with one
// blinded check:
//
//  1. The call is cut into parts of about locatePartSize; each part's plain
//     value prod_k e(pk_k, H(m_k)) * e(-g1, s_k) (unweighted sums, by
//     batch-affine addition) is not one exactly when the part holds an
//     invalid set (the points are in G2), or, rarely, when invalid sets
//     cancel, which step 3 catches.
//  2. In each failing part, the exponentiation method with the public
//     weights w_k = 1..s (a 6-bit multi-scalar multiplication and one
//     pairing) names the invalid set when it is the only one; a part where
//     no weight matches stays unresolved.
//  3. The call less the named sets and the unresolved parts is checked with
//     the call's secret scalars (its sums are the whole's less theirs). If
//     it passes, everything in it is valid (with the check's soundness), so
//     each named set, the only suspect left in a part known to fail, is
//     invalid; unresolved parts are bisected on their own. If it fails (the
//     weights can be fooled by crafted signatures, which then only cost
//     time), locateAll reports false and the caller bisects the whole call.
func (c *call) locateAll(whole node) bool {
	m := whole.hi - whole.lo
	k := max(4, m/locatePartSize)
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
	named := make([]int, len(failing)) // candidate index, or -1: unresolved
	c.v.w.forEach(len(failing), 1, func(y int) {
		x := failing[y]
		named[y] = c.name(parts[x], vals[x])
	})
	c.spent += float64(k+len(failing)+1) * c.checkCost(whole)

	// The call less the suspects, under the call's scalars.
	rest := whole
	rest.P = append([]crypto.G1(nil), whole.P...)
	var unresolved []node
	for y, x := range failing {
		if i := named[y]; i >= 0 {
			r := c.scalars[i*c.nbytes : (i+1)*c.nbytes]
			pk := c.pks[i].Jacobian()
			pk.Mul(r, c.nbits)
			rest.P[c.gOf[i]-whole.gLo].Sub(&pk)
			sig := c.pts[i].Jacobian()
			sig.Mul(r, c.nbits)
			rest.S.Sub(&sig)
			continue
		}
		p := c.sums(parts[x].lo, parts[x].hi, nil, nil)
		rest.S.Sub(&p.S)
		for z := range p.P {
			rest.P[p.gLo+z-whole.gLo].Sub(&p.P[z])
		}
		unresolved = append(unresolved, p)
	}
	if v := c.value(rest); !v.IsOne() {
		return false
	}
	c.v.stats.located.Add(int64(len(failing) - len(unresolved)))
	suspect := make(map[int]bool, len(failing))
	for y, x := range failing {
		if named[y] >= 0 {
			suspect[named[y]] = true
		} else {
			for i := parts[x].lo; i < parts[x].hi; i++ {
				suspect[i] = true
			}
		}
	}
	for i := whole.lo; i < whole.hi; i++ {
		if !suspect[i] {
			c.out[c.cand[i]] = true
		}
	}
	for _, p := range unresolved {
		v := c.value(p)
		if v.IsOne() {
			c.accept(p.lo, p.hi)
			continue
		}
		p.A, p.hasA, p.em = v, true, true
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
