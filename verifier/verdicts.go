package verifier

import (
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// settle records set i's verdict and reports it, once. A set already settled
// keeps its first verdict: a range accepted later may hold a set that a
// one-set check already rejected.
func (c *call) settle(i int, valid bool) {
	if c.settled[i] {
		return
	}
	c.settled[i], c.out[i] = true, valid
	if c.report != nil {
		c.report(i, valid)
	}
}

// accept settles candidates [lo, hi) as valid: a passing check covered them.
func (c *call) accept(lo, hi int) {
	for k := lo; k < hi; k++ {
		c.settle(c.cand[k], true)
	}
}

// settleRest makes sure every set has a verdict when the call ends. A
// candidate still open (which the search should never leave) is checked
// alone, so no set is rejected without a check of its own.
func (c *call) settleRest() {
	c.checkAlone(c.undecided(0, len(c.cand)))
	for i := range c.sets {
		c.settle(i, false) // no-op for the settled; the rest never were candidates
	}
}

// undecided returns the candidates of [lo, hi) not settled yet.
func (c *call) undecided(lo, hi int) []int {
	var ks []int
	for k := lo; k < hi; k++ {
		if !c.settled[c.cand[k]] {
			ks = append(ks, k)
		}
	}
	return ks
}

// checkAlone checks the undecided candidates of ks one by one, in parallel
// (their points are known to be in G2). It settles each by its own check,
// e(pk, H(m)) * e(-g1, s) == 1. It returns the invalid ones with the values
// of their checks.
func (c *call) checkAlone(ks []int) []peel {
	var open []int
	for _, k := range ks {
		if !c.settled[c.cand[k]] {
			open = append(open, k)
		}
	}
	ds := make([]curve.GT, len(open))
	c.each(len(open), 1, func(x int) { ds[x] = c.oneSetValue(open[x]) })
	c.v.stats.individual.Add(int64(len(open)))
	c.spent += float64(len(open)) * costSingle
	var bad []peel
	for x, k := range open {
		valid := ds[x].IsOne()
		c.settle(c.cand[k], valid)
		if !valid {
			bad = append(bad, peel{k, ds[x]})
		}
	}
	return bad
}

// oneSetValue returns the value e(pk_k, H(m_k)) * e(-g1, s_k) of candidate
// k's own check (one exactly when the set is valid: its point is in G2).
func (c *call) oneSetValue(k int) curve.GT {
	i := c.cand[k]
	ps := []curve.G1Affine{*blspoint.Key(c.sets[i].PublicKey), c.v.negG1Affine}
	g := &c.groups[c.gOf[k]]
	qs := []curve.G2Affine{g.h, *blspoint.Signature(&c.sigs[i])}
	gt := curve.MillerLoopLines(ps, qs, []*curve.Lines{g.lines, nil})
	return gt.FinalExp()
}

// removeInvalid settles the candidates k with bad[k] as invalid: a check
// of that set alone failed, its own subgroup check. It takes them out of
// the call: the candidates, their groups' ranges and the point slices. It
// returns the former indexes of the candidates kept, in order.
func (c *call) removeInvalid(bad []bool) (kept []int) {
	cand, gOf := make([]int, 0, len(c.cand)), make([]int, 0, len(c.cand))
	for k, i := range c.cand {
		if bad[k] {
			c.settle(i, false)
			continue
		}
		kept = append(kept, k)
		cand, gOf = append(cand, i), append(gOf, c.gOf[k])
	}
	c.cand, c.gOf = cand, gOf
	c.regroup()
	c.pks, c.pts = c.points()
	return kept
}

// regroup recomputes the groups' candidate ranges after candidates were
// removed (c.gOf stays sorted).
func (c *call) regroup() {
	for g := range c.groups {
		c.groups[g].lo, c.groups[g].hi = 0, 0
	}
	for k := len(c.gOf) - 1; k >= 0; k-- {
		c.groups[c.gOf[k]].lo = k
	}
	for k, g := range c.gOf {
		c.groups[g].hi = k + 1
	}
}
