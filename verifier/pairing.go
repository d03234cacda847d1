package verifier

import "github.com/attpool/attpool/internal/curve"

// value returns prod_g e(P_g, H(m_g)) * e(-g1, S) in GT: one Miller loop per
// group the node meets plus one, spread over the workers, and one final
// exponentiation. The node's sets are all valid (with the soundness of the
// blinding) exactly when it is one.
func (c *call) value(nd blindedRange) curve.GT {
	ps, qs, lines := c.pairs(nd)
	c.v.stats.checks.Add(1)
	return c.v.pairingValue(c.width(), ps, qs, lines)
}

// valueSerial is value on the calling goroutine alone.
func (c *call) valueSerial(nd blindedRange) curve.GT {
	ps, qs, lines := c.pairs(nd)
	c.v.stats.checks.Add(1)
	gt := curve.MillerLoopLines(ps, qs, lines)
	return gt.FinalExp()
}

// valueMany computes the values of nodes in parallel: one node spreads its
// Miller loops over the workers; several are computed one per worker.
func (c *call) valueMany(nodes []blindedRange) []curve.GT {
	out := make([]curve.GT, len(nodes))
	if len(nodes) == 1 {
		out[0] = c.value(nodes[0])
		return out
	}
	c.each(len(nodes), 1, func(x int) {
		out[x] = c.valueSerial(nodes[x])
	})
	return out
}

// pairs returns the pairing inputs of a node's check, with the kept lines
// of its groups' hashes (nil where there are none, and for (-g1, S)).
func (c *call) pairs(nd blindedRange) ([]curve.G1Affine, []curve.G2Affine, []*curve.Lines) {
	ps := make([]curve.G1, 0, len(nd.P)+1)
	qs := make([]curve.G2Affine, 0, len(nd.P)+1)
	lines := make([]*curve.Lines, 0, len(nd.P)+1)
	for x := range nd.P {
		g := nd.gLo + x
		if a, b := c.part(g, nd.lo, nd.hi); a < b {
			ps = append(ps, nd.P[x])
			qs = append(qs, c.groups[g].h)
			lines = append(lines, c.groups[g].lines)
		}
	}
	ps = append(ps, c.v.negG1)
	qs = append(qs, nd.S.Affine())
	lines = append(lines, nil)
	return curve.BatchAffineG1(ps), qs, lines
}

// pairingValue returns the product of the pairings of (ps[i], qs[i]). The
// Miller loops run in at most width parts spread over the workers (each
// part's loop pays the squarings again). lines[i], when not nil, holds the
// lines of qs[i] (lines may be nil).
func (v *Verifier) pairingValue(width int, ps []curve.G1Affine, qs []curve.G2Affine, lines []*curve.Lines) curve.GT {
	n := len(ps)
	parts := max(1, min(n, width))
	per := (n + parts - 1) / parts
	parts = (n + per - 1) / per
	gts := make([]curve.GT, parts)
	v.w.forEach(parts-1, parts, 1, func(x int) {
		lo, hi := x*per, min((x+1)*per, n)
		var ls []*curve.Lines
		if lines != nil {
			ls = lines[lo:hi]
		}
		gts[x] = curve.MillerLoopLines(ps[lo:hi], qs[lo:hi], ls)
	})
	for x := 1; x < parts; x++ {
		gts[0].Mul(&gts[x])
	}
	return gts[0].FinalExp()
}

// unionValue returns the product of the nodes' values (disjoint ranges)
// with one final exponentiation. It pairs their signature sums added up and
// their key sums added up per group. The Miller loops are spread over the
// workers. It accounts for its cost.
func (c *call) unionValue(nodes []blindedRange) curve.GT {
	S := nodes[0].S
	keys := map[int]curve.G1{}
	var gs []int
	for x := range nodes {
		nd := &nodes[x]
		c.spent += float64(nd.size()) * costMSMSet
		if x > 0 {
			S.Add(&nd.S)
		}
		for y := range nd.P {
			g := nd.gLo + y
			if a, b := c.part(g, nd.lo, nd.hi); a < b {
				if P, ok := keys[g]; ok {
					keys[g] = *P.Add(&nd.P[y])
				} else {
					gs, keys[g] = append(gs, g), nd.P[y]
				}
			}
		}
	}
	c.spent += float64(len(gs)+1)*costMiller + costFinalExp
	ps := make([]curve.G1, 0, len(gs)+1)
	qs := make([]curve.G2Affine, 0, len(gs)+1)
	lines := make([]*curve.Lines, 0, len(gs)+1)
	for _, g := range gs {
		ps = append(ps, keys[g])
		qs = append(qs, c.groups[g].h)
		lines = append(lines, c.groups[g].lines)
	}
	ps = append(ps, c.v.negG1)
	qs = append(qs, S.Affine())
	lines = append(lines, nil)
	c.v.stats.checks.Add(1)
	return c.v.pairingValue(c.width(), curve.BatchAffineG1(ps), qs, lines)
}

// inverse returns the inverse of a value of GT (its conjugate).
func inverse(a curve.GT) *curve.GT { return a.Conjugate() }
