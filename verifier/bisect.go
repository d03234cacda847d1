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
// and known holds key sums of groups that lie wholly inside the range. It
// only reads the call, so nodes may be summed concurrently; callers account
// for the cost.
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
	if S != nil {
		nd.S = *S
	} else {
		nd.S = crypto.MultiExpG2(c.pts[lo:hi], c.scalars[lo*nb:hi*nb], nbits)
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
	ps, qs := c.pairs(nd)
	c.v.stats.checks.Add(1)
	return c.v.pairingIsOne(ps, qs)
}

// checkSerial is check on the calling goroutine alone.
func (c *call) checkSerial(nd node) bool {
	ps, qs := c.pairs(nd)
	c.v.stats.checks.Add(1)
	gt := crypto.MillerLoop(ps, qs)
	return gt.FinalExpIsOne()
}

// pairs returns the pairing inputs of a node's check.
func (c *call) pairs(nd node) ([]crypto.G1Affine, []crypto.G2Affine) {
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
	return crypto.BatchAffineG1(ps), qs
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

// bisect finds the invalid sets of a node known to hold at least one,
// level by level: every failing node of a level is halved at once, the left
// halves' sums computed and checked in parallel. A passing half is accepted
// whole; when the left half passes the right half must fail and is not
// checked; the right half's sums are the parent's less the left's. Small
// nodes, and everything once the cost ledger passes the dense budget, are
// checked one by one.
func (c *call) bisect(root node) {
	frontier := []node{root}
	for len(frontier) > 0 {
		var split []node
		var alone []int // candidates to check one by one
		for _, nd := range frontier {
			size := nd.hi - nd.lo
			switch {
			case size == 1:
				// Known to fail, and r_k != 0 mod r: this set is invalid.
			case size <= individualBelow || c.spent > c.budget:
				for k := nd.lo; k < nd.hi; k++ {
					alone = append(alone, k)
				}
			default:
				split = append(split, nd)
			}
		}
		c.individual(alone)
		if len(split) == 0 {
			return
		}
		c.v.stats.bisections.Add(int64(len(split)))
		lefts := make([]node, len(split))
		rights := make([]node, len(split))
		c.v.w.forEach(len(split), 1, func(x int) {
			nd := &split[x]
			lefts[x] = c.sums(nd.lo, nd.lo+(nd.hi-nd.lo)/2, nil, nil)
			rights[x] = c.minus(nd, &lefts[x])
		})
		for x := range split {
			c.spent += float64(lefts[x].hi-lefts[x].lo)*(costMSMG1+costMSMG2) + c.checkCost(lefts[x])
		}
		leftOK := c.checkMany(lefts)
		var unknown []node
		frontier = frontier[:0]
		for x := range split {
			if leftOK[x] {
				c.accept(lefts[x].lo, lefts[x].hi)
				frontier = append(frontier, rights[x])
				continue
			}
			frontier = append(frontier, lefts[x])
			unknown = append(unknown, rights[x])
			c.spent += c.checkCost(rights[x])
		}
		for x, ok := range c.checkMany(unknown) {
			if ok {
				c.accept(unknown[x].lo, unknown[x].hi)
			} else {
				frontier = append(frontier, unknown[x])
			}
		}
	}
}

// checkMany checks nodes in parallel: one node spreads its Miller loops over
// the workers; several are checked one per worker.
func (c *call) checkMany(nodes []node) []bool {
	ok := make([]bool, len(nodes))
	if len(nodes) == 1 {
		ok[0] = c.check(nodes[0])
		return ok
	}
	c.v.w.forEach(len(nodes), 1, func(x int) {
		ok[x] = c.checkSerial(nodes[x])
	})
	return ok
}

// individual checks candidates one by one, in parallel (their points are
// known to be in G2): e(pk, H(m)) * e(-g1, s) == 1.
func (c *call) individual(ks []int) {
	if len(ks) == 0 {
		return
	}
	c.v.stats.individual.Add(int64(len(ks)))
	c.spent += float64(len(ks)) * (2*costMiller + costFinalExp)
	c.v.w.forEach(len(ks), 1, func(x int) {
		k := ks[x]
		i := c.cand[k]
		ps := []crypto.G1Affine{*c.sets[i].PublicKey.Point(), c.v.negG1Affine}
		qs := []crypto.G2Affine{c.groups[c.gOf[k]].h, *c.sigs[i].Point()}
		gt := crypto.MillerLoop(ps, qs)
		c.out[i] = gt.FinalExpIsOne()
	})
}
