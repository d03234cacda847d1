package verifier

import "github.com/attpool/attpool/internal/curve"

// searchLevel runs one level of locateAll's search over the failing ranges
// and returns the ranges of the next level, with the invalid sets found
// appended to found.
func (c *call) searchLevel(frontier []plainRange, found []peel) ([]plainRange, []peel) {
	lv := c.sortRanges(frontier)
	out := levelOut{found: append(found, c.aloneAll(lv.small)...)}
	ds, halves := c.checkAndHalve(lv)
	for _, h := range halves {
		out.next = appendFailing(out.next, h[:]...)
	}
	for x, p := range lv.named {
		c.judgeNamed(p, lv.suspects[x], ds[x], &out)
	}
	return out.next, append(out.found, c.aloneAll(out.fooled)...)
}

// rangeLevel is one level of locateAll's failing ranges, sorted by what is
// done with them.
type rangeLevel struct {
	small    []plainRange // checked set by set
	named    []plainRange // the weights name a suspect in each...
	suspects []int        // ...named[x]'s, to be checked alone
	split    []plainRange // no suspect: halved
}

// levelOut is what a level of locateAll's search leaves.
type levelOut struct {
	next   []plainRange // the next level's failing ranges
	fooled []plainRange // small ranges whose suspect was valid: checked set by set
	found  []peel       // the invalid sets found so far
}

// sortRanges sorts a level's failing ranges, giving each its weighted value
// where missing and naming its suspect.
func (c *call) sortRanges(frontier []plainRange) rangeLevel {
	// Small ranges are checked set by set, unless their weighted value is
	// known (a right half's, by division), which names a suspect for free.
	var lv rangeLevel
	var rest []plainRange
	for _, p := range frontier {
		if p.size() <= individualBelow && !p.hasB {
			lv.small = append(lv.small, p)
		} else {
			rest = append(rest, p)
		}
	}
	c.each(len(rest), 1, func(x int) { c.weigh(&rest[x]) })
	for _, p := range rest {
		switch i := c.suspect(p); {
		case i >= 0:
			lv.named = append(lv.named, p)
			lv.suspects = append(lv.suspects, i)
		case p.size() <= individualBelow:
			lv.small = append(lv.small, p)
		default:
			lv.split = append(lv.split, p)
		}
	}
	return lv
}

// weigh gives p its weighted value, when it has none.
func (c *call) weigh(p *plainRange) {
	if !p.hasB {
		p.B, p.hasB = c.plainWeighted(p, p.lo, p.hi), true
	}
}

// checkAndHalve computes, in parallel, the one-set values of a level's
// suspects and the halves of its ranges to split.
func (c *call) checkAndHalve(lv rangeLevel) ([]curve.GT, [][2]plainRange) {
	n := len(lv.suspects)
	ds := make([]curve.GT, n)
	halves := make([][2]plainRange, len(lv.split))
	checks := make([]int, len(lv.split))
	// There may be fewer tasks than workers: the last levels, a range or
	// two with several invalid sets. Then a left half's weighted value is
	// computed beside its plain value, on a worker that would idle, instead
	// of after.
	spec := n+len(lv.split) < c.width()
	c.each(n+len(lv.split), 1, func(x int) {
		if x < n {
			ds[x] = c.oneSetValue(lv.suspects[x])
			return
		}
		halves[x-n], checks[x-n] = c.halve(lv.split[x-n], spec)
	})
	c.v.stats.individual.Add(int64(n))
	c.v.stats.bisections.Add(int64(len(lv.split)))
	c.spent += float64(n) * costSingle
	for x, h := range halves {
		c.spent += float64(checks[x]) * c.checkCost(h[0].lo, h[0].hi)
	}
	return ds, halves
}

// judgeNamed settles range p's suspect i by its one-set value d. It puts
// what is left of p where the search goes next. An invalid suspect's terms
// leave the range's values (done when that leaves one). A valid one (the
// weights were fooled) sends the range to be halved.
func (c *call) judgeNamed(p plainRange, i int, d curve.GT, out *levelOut) {
	if d.IsOne() {
		c.settle(c.cand[i], true)
		if p.size() <= individualBelow {
			out.fooled = append(out.fooled, p)
			return
		}
		h, checks := c.halve(p, false)
		c.spent += float64(checks) * c.checkCost(h[0].lo, h[0].hi)
		out.next = append(out.next, h[0], h[1])
		return
	}
	c.settle(c.cand[i], false)
	out.found = append(out.found, peel{i, d})
	if d.Equal(&p.A) { // nothing else invalid in the range
		return
	}
	p.peel(peel{i, d}, true)
	out.next = append(out.next, p)
}

// suspect returns the candidate the public weights name in p (B = A^w), or
// -1 when none matches, or the match is outside the range or already
// decided.
func (c *call) suspect(p plainRange) int {
	j := p.named
	if j == 0 {
		j = findPower(p.A, p.B, p.hi-p.base)
	}
	i := p.base + j - 1
	if j == 0 || i < p.lo || c.settled[c.cand[i]] {
		return -1
	}
	return i
}

// halve returns p's halves with their plain and weighted values, and the
// number of checks it made. The left half's plain value is computed, less its
// peeled terms; the right half's comes by division.
//
// The left half's weighted value costs a check only when both halves fail and
// jointNames does not name a suspect in each. A passing half is taken as
// clean: these guesses only steer the search, and the secret check at the end
// decides. With spec, a large range's left weighted value is computed beside
// its plain value, and dropped when not needed.
func (c *call) halve(p plainRange, spec bool) ([2]plainRange, int) {
	mid := p.lo + p.size()/2
	l := plainRange{lo: p.lo, hi: mid, base: p.base, hasB: true}
	r := plainRange{lo: mid, hi: p.hi, base: p.base, hasB: true}
	var lB curve.GT
	spec = spec && p.size() > jointMax
	checks := 1
	if spec {
		checks++
		c.each(2, 1, func(x int) {
			if x == 0 {
				l.A = c.valueSerial(c.plainSums(p.lo, mid))
			} else {
				lB = c.plainWeighted(&p, p.lo, mid)
			}
		})
	} else {
		l.A = c.valueSerial(c.plainSums(p.lo, mid))
	}
	for _, q := range p.peeled {
		if q.k < mid {
			l.peel(q, false)
		} else {
			r.peeled = append(r.peeled, q)
		}
	}
	r.A = p.A
	r.A.Mul(inverse(l.A))
	switch {
	case l.A.IsOne():
		l.B = curve.GTOne()
	case r.A.IsOne():
		l.B = p.B
	case !spec && jointNames(&p, &l, &r):
	default:
		if !spec {
			checks++
			lB = c.plainWeighted(&l, p.lo, mid)
		}
		l.B = lB
		for _, q := range l.peeled {
			l.B.Mul(weightedTerm(q.d, q.k-p.base))
		}
	}
	r.B = p.B
	r.B.Mul(inverse(l.B))
	return [2]plainRange{l, r}, checks
}

// jointMax is the largest range whose halves jointNames tries to name
// together. Its walk costs a GT multiplication per set, against a multi-scalar
// multiplication and a pairing.
const jointMax = 128

// jointNames names, when it can, one suspect in each half of p, both
// failing. If each holds a single invalid set, p's weighted value is
// B = X^a * Y^b for the halves' plain values X, Y and the suspects' public
// weights a and b. A table of X^a and a walk over B * Y^-b find them, with
// no pairing. It gives the halves their weighted values X^a and Y^b and
// their named weights, and reports whether it found them. No match leaves
// the halves unchanged.
func jointNames(p, l, r *plainRange) bool {
	if p.size() > jointMax {
		return false
	}
	a0, b0 := l.lo-p.base+1, r.lo-p.base+1
	pows := make([]curve.GT, l.size())
	table := make(map[curve.GT]int, l.size())
	pows[0] = *weightedTerm(l.A, a0-1)
	pows[0].Conjugate() // X^a0
	for j := range pows {
		if j > 0 {
			pows[j] = pows[j-1]
			pows[j].Mul(&l.A)
		}
		table[pows[j]] = j
	}
	z := p.B
	z.Mul(weightedTerm(r.A, b0-1)) // B * Y^-b0
	yInv := r.A
	yInv.Conjugate()
	for j := range r.size() {
		if x, ok := table[z]; ok {
			l.B, l.named, r.named = pows[x], a0+x, b0+j
			return true
		}
		z.Mul(&yInv)
	}
	return false
}

// aloneAll checks the undecided sets of the ranges one by one and returns
// the invalid ones.
func (c *call) aloneAll(ps []plainRange) []peel {
	var ks []int
	for _, p := range ps {
		ks = append(ks, c.undecided(p.lo, p.hi)...)
	}
	return c.checkAlone(ks)
}
