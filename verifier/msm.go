package verifier

import (
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// points returns the candidates' key and signature points, which sums and
// checks read.
func (c *call) points() (pks []*curve.G1Affine, sigs []*curve.G2Affine) {
	pks = make([]*curve.G1Affine, len(c.cand))
	sigs = make([]*curve.G2Affine, len(c.cand))
	for k, i := range c.cand {
		pks[k] = blspoint.Key(c.sets[i].PublicKey)
		sigs[k] = blspoint.Signature(&c.sigs[i])
	}
	return pks, sigs
}

// part returns the candidates [a, b) of group g inside [lo, hi) (a >= b
// when there are none).
func (c *call) part(g, lo, hi int) (a, b int) {
	return max(lo, c.groups[g].lo), min(hi, c.groups[g].hi)
}

// groupSums returns the range [lo, hi) with each group's key sum keySum(g, a,
// b) over its candidates [a, b). When spread, the groups are spread over the
// workers, with also as one more task beside them. The caller sets the
// signature sum S. This is the one place a range's per-group key sums are laid
// out, whatever their weights.
func (c *call) groupSums(lo, hi int, spread bool, keySum func(g, a, b int) curve.G1, also func()) blindedRange {
	nd := blindedRange{lo: lo, hi: hi, gLo: c.gOf[lo]}
	nd.P = make([]curve.G1, c.gOf[hi-1]-nd.gLo+1)
	sumPart := func(x int) {
		if a, b := c.part(nd.gLo+x, lo, hi); a < b {
			nd.P[x] = keySum(nd.gLo+x, a, b)
		}
	}
	if spread {
		n, tasks := len(nd.P), len(nd.P)
		if also != nil {
			tasks++
		}
		c.each(tasks, 1, func(x int) {
			if x == n {
				also()
				return
			}
			sumPart(x)
		})
		return nd
	}
	for x := range nd.P {
		sumPart(x)
	}
	return nd
}

// sums computes the node of [lo, hi) under the call's scalars. S, when not
// nil, is its known G2 sum. known holds key sums of groups that lie wholly
// inside the range. It only reads the call, so nodes may be summed
// concurrently. Callers account for the cost.
//
// The G2 sum runs beside the key sums. Below curve.StrausMax points both
// are multiplied on one goroutine each (Straus's method). So a small call's
// sums take the longer of the two instead of their total.
func (c *call) sums(lo, hi int, S *curve.G2, known map[int]curve.G1) blindedRange {
	nb := c.nbytes
	var sum curve.G2
	g2 := func() { sum = c.multiExpG2(c.pts[lo:hi], c.scalars[lo*nb:hi*nb], c.nbits) }
	if S != nil {
		sum, g2 = *S, nil
	}
	nd := c.groupSums(lo, hi, true, func(g, a, b int) curve.G1 {
		if P, ok := known[g]; ok {
			return P
		}
		return c.multiExpG1(c.pks[a:b], c.scalars[a*nb:b*nb], c.nbits)
	}, g2)
	nd.S = sum
	return nd
}

// weighted returns the node of [lo, hi) with sums under the given scalars
// (nbits bits, little-endian, one per set from lo).
func (c *call) weighted(lo, hi int, sc []byte, nbits int) blindedRange {
	nb := (nbits + 7) / 8
	nd := c.groupSums(lo, hi, false, func(_, a, b int) curve.G1 {
		return c.multiExpG1(c.pks[a:b], sc[(a-lo)*nb:(b-lo)*nb], nbits)
	}, nil)
	nd.S = c.multiExpG2(c.pts[lo:hi], sc, nbits)
	return nd
}

// plainSums returns the node of [lo, hi) with unweighted sums: S = sum s_k
// and P_g = sum pk_k, by batch-affine addition.
func (c *call) plainSums(lo, hi int) blindedRange {
	nd := c.groupSums(lo, hi, false, func(_, a, b int) curve.G1 { return curve.SumG1(c.pks[a:b]) }, nil)
	nd.S = curve.SumG2(c.pts[lo:hi])
	return nd
}

// minus returns the node of parent's range less left's (left is a prefix).
func (c *call) minus(parent, left *blindedRange) blindedRange {
	nd := blindedRange{lo: left.hi, hi: parent.hi, gLo: c.gOf[left.hi], S: parent.S}
	nd.S.Sub(&left.S)
	gHi := parent.gLo + len(parent.P) - 1
	nd.P = make([]curve.G1, gHi-nd.gLo+1)
	for x := range nd.P {
		g := nd.gLo + x
		nd.P[x] = parent.P[g-parent.gLo]
		if g-left.gLo < len(left.P) {
			nd.P[x].Sub(&left.P[g-left.gLo])
		}
	}
	return nd
}

// multiExpG1 is the key sum under scalars of the call's form: split when
// they are sparse.
func (c *call) multiExpG1(pks []*curve.G1Affine, sc []byte, nbits int) curve.G1 {
	if c.split {
		return curve.MultiExpG1Split(pks, sc, nbits)
	}
	return curve.MultiExpG1(pks, sc, nbits)
}

// multiExpG2 is the signature sum under scalars of the call's form.
func (c *call) multiExpG2(pts []*curve.G2Affine, sc []byte, nbits int) curve.G2 {
	if c.split {
		return curve.MultiExpG2Split(pts, sc, nbits)
	}
	return curve.MultiExpG2(pts, sc, nbits)
}

// exp is d^k in GT under a scalar of the call's form.
func (c *call) exp(d *curve.GT, k []byte, nbits int) curve.GT {
	if c.split {
		return d.ExpSplit(k, nbits)
	}
	return d.Exp(k, nbits)
}
