package verifier

import "github.com/attpool/attpool/crypto"

// node is a range [lo, hi) of candidates with its blinded sums: S = sum r_k
// s_k over the range, and P[g-gLo] = sum r_k pk_k over the range's part of
// group g, for the groups gLo..gLo+len(P)-1 that the range meets.
type node struct {
	lo, hi int
	S      crypto.G2
	gLo    int
	P      []crypto.G1
}

// prepare builds the candidate point slices that sums and checks read.
func (c *call) points() (pks []*crypto.G1Affine, sigs []*crypto.G2Affine) {
	pks = make([]*crypto.G1Affine, len(c.cand))
	sigs = make([]*crypto.G2Affine, len(c.cand))
	for k, i := range c.cand {
		pks[k] = c.sets[i].PublicKey.Point()
		sigs[k] = c.sigs[i].Point()
	}
	return pks, sigs
}

// sums computes the node of [lo, hi); S, when not nil, is its known G2 sum,
// and known holds key sums of groups that lie wholly inside the range.
func (c *call) sums(lo, hi int, S *crypto.G2, known map[int]crypto.G1) node {
	if c.pks == nil {
		c.pks, c.pts = c.points()
	}
	nb, nbits := c.nbytes, c.nbits
	nd := node{lo: lo, hi: hi, gLo: c.gOf[lo]}
	gHi := c.gOf[hi-1]
	nd.P = make([]crypto.G1, gHi-nd.gLo+1)
	part := func(g int) (int, int) {
		return max(lo, c.groups[g].lo), min(hi, c.groups[g].hi)
	}
	c.v.w.forEach(len(nd.P), 1, func(x int) {
		a, b := part(nd.gLo + x)
		if P, ok := known[nd.gLo+x]; ok {
			nd.P[x] = P
		} else if a < b {
			nd.P[x] = crypto.MultiExpG1(c.pks[a:b], c.scalars[a*nb:b*nb], nbits)
		}
	})
	c.spent += float64(hi-lo) * costMSMG1
	if S != nil {
		nd.S = *S
	} else {
		nd.S = crypto.MultiExpG2(c.pts[lo:hi], c.scalars[lo*nb:hi*nb], nbits)
		c.spent += float64(hi-lo) * costMSMG2
	}
	return nd
}

// minus returns the node of parent's range less left's (left is a prefix).
func (c *call) minus(parent, left *node) node {
	nd := node{lo: left.hi, hi: parent.hi, gLo: c.gOf[left.hi], S: parent.S}
	nd.S.Sub(&left.S)
	gHi := parent.gLo + len(parent.P) - 1
	nd.P = make([]crypto.G1, gHi-nd.gLo+1)
	for x := range nd.P {
		g := nd.gLo + x
		nd.P[x] = parent.P[g-parent.gLo]
		if g-left.gLo < len(left.P) {
			nd.P[x].Sub(&left.P[g-left.gLo])
		}
	}
	return nd
}

func (c *call) checkCost(nd node) float64 {
	return float64(len(nd.P)+1)*costMiller + costFinalExp
}

// check reports whether prod_g e(P_g, H(m_g)) * e(-g1, S) == 1: one Miller
// loop per group the node meets plus one, spread over the workers, and one
// final exponentiation.
func (c *call) check(nd node) bool {
	ps := make([]crypto.G1, 0, len(nd.P)+1)
	qs := make([]crypto.G2Affine, 0, len(nd.P)+1)
	for x := range nd.P {
		g := nd.gLo + x
		if max(nd.lo, c.groups[g].lo) >= min(nd.hi, c.groups[g].hi) {
			continue
		}
		ps = append(ps, nd.P[x])
		qs = append(qs, c.groups[g].h)
	}
	ps = append(ps, c.v.negG1)
	qs = append(qs, nd.S.Affine())
	aff := crypto.BatchAffineG1(ps)
	c.v.stats.checks.Add(1)
	return c.v.pairingIsOne(aff, qs)
}

// pairingIsOne reports whether the product of the pairings of (ps[i], qs[i])
// is one, with the Miller loops spread over the workers.
func (v *Verifier) pairingIsOne(ps []crypto.G1Affine, qs []crypto.G2Affine) bool {
	n := len(ps)
	parts := min(n, v.cfg.Workers)
	per := (n + parts - 1) / parts
	parts = (n + per - 1) / per
	gts := make([]crypto.GT, parts)
	v.w.forEach(parts, 1, func(x int) {
		lo, hi := x*per, min((x+1)*per, n)
		gts[x] = crypto.MillerLoop(ps[lo:hi], qs[lo:hi])
	})
	for x := 1; x < parts; x++ {
		gts[0].Mul(&gts[x])
	}
	return gts[0].FinalExpIsOne()
}

// bisect finds the invalid sets of a node known to hold at least one. A
// passing half is accepted whole; when the left half passes the right half
// must fail and is not checked; the right half's sums are the parent's less
// the left's. Small ranges, and everything once the cost ledger passes the
// dense budget, are checked one by one.
func (c *call) bisect(root node) {
	stack := []node{root}
	for len(stack) > 0 {
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		size := nd.hi - nd.lo
		if size == 1 {
			// Known to fail, and r_k != 0 mod r: this set is invalid.
			continue
		}
		if size <= individualBelow || c.spent > c.budget {
			c.individual(nd.lo, nd.hi)
			continue
		}
		c.v.stats.bisections.Add(1)
		mid := nd.lo + size/2
		left := c.sums(nd.lo, mid, nil, nil)
		right := c.minus(&nd, &left)
		c.spent += c.checkCost(left)
		if c.check(left) {
			c.accept(left.lo, left.hi)
			stack = append(stack, right)
			continue
		}
		c.spent += c.checkCost(right)
		if c.check(right) {
			c.accept(right.lo, right.hi)
		} else {
			stack = append(stack, right)
		}
		stack = append(stack, left)
	}
}

// individual checks candidates [lo, hi) one by one (their points are known to
// be in G2): e(pk, H(m)) * e(-g1, s) == 1.
func (c *call) individual(lo, hi int) {
	c.v.stats.individual.Add(int64(hi - lo))
	c.spent += float64(hi-lo) * (2*costMiller + costFinalExp)
	c.v.w.forEach(hi-lo, 1, func(x int) {
		k := lo + x
		i := c.cand[k]
		ps := []crypto.G1Affine{*c.sets[i].PublicKey.Point(), c.v.negG1Affine}
		qs := []crypto.G2Affine{c.groups[c.gOf[k]].h, *c.sigs[i].Point()}
		gt := crypto.MillerLoop(ps, qs)
		c.out[i] = gt.FinalExpIsOne()
	})
}
