package verifier

import (
	"math"

	"github.com/attpool/attpool/internal/curve"
)

// locateMin is the least failing call that locateAll searches before
// bisection. Plain values and public weights cost less than bisection's secret
// sums, down to a few sets (BenchmarkLocalisationBySize).
const locateMin = 8

// locatePartSize is the size of the parts locateAll splits a call over many
// roots into. It is also the least size of any call's parts. At 1% invalid,
// most failing parts of 64 hold one invalid set. The public weights name it
// with a single pairing. A call over a root or two has fewer, larger parts
// when the recent share expects fewer invalid sets than that (partsFor). A
// call is cut into at least locatePartsMin parts, so the workers have parts
// to share.
const (
	locatePartSize = 64
	locatePartsMin = 4
)

// locateBudget is the share of checking every candidate alone that
// locateAll's search may spend before checking its failing ranges set by
// set. At about four pairings per invalid set, it pays up to one in eight.
//
// Denser invalid sets show sooner. When the recent share puts one in every
// locateDense sets, the step checks every set alone at once. When the first
// denseEvidenceLevels levels name no invalid set and the ranges are down to
// denseRangeMax sets, each holds several: their sets are checked alone.
const (
	locateBudget        = 0.5
	locateDense         = 4
	denseEvidenceLevels = 2
	denseRangeMax       = 32
)

// peel takes invalid set f out of p: its term leaves p's plain value and,
// when weighted, p's weighted value (d^w for its public weight w).
func (p *plainRange) peel(f peel, weighted bool) {
	p.A.Mul(inverse(f.d))
	if weighted {
		p.B.Mul(weightedTerm(f.d, f.k-p.base))
	}
	p.peeled = append(p.peeled, f)
	p.named = 0
}

// locateAll finds the invalid sets of a failing call cheaply. The call comes
// whole, with its value under the call's secret scalars. Every verdict is
// decided by a check that covers it:
//
//  1. The call is cut into parts (partsFor). A part has about
//     locatePartSize sets, or, over a root or two, there is about one part
//     per expected invalid set. Each part's plain value takes unweighted
//     sums, by batch-affine addition, and one pairing. It is not one exactly
//     when the part holds an invalid set (the points are in G2). Rarely,
//     invalid sets cancel; step 4 catches that.
//     When the call likely holds a single invalid set (wholeFirst), the
//     whole call is weighed first (tryWhole). When that does not settle it,
//     the whole call, with its values, is the one failing range instead of
//     the parts.
//  2. In each failing range, the exponentiation method names a suspect i
//     when B = A^w_i. It uses the public weights w_k = k-base+1 (a 7-bit
//     multi-scalar multiplication and one pairing). A range where no weight
//     matches holds two or more invalid sets: it is halved. In halve, the
//     left half's plain value is computed, the right half's by division.
//     When a half passes, the other keeps the range's weighted value. When
//     both fail, a range of at most jointMax sets first tries to name one
//     suspect in each half from the values it has (jointNames, no pairing).
//     Only then is the left half's weighted value computed, a second check.
//  3. Each suspect's unblinded one-set check d_i decides it. An invalid
//     suspect's term leaves its range's values (A/d_i, B/d_i^w_i). The
//     range is done when that leaves one. A valid suspect (the weights were
//     fooled) sends its range to be halved. Ranges of at most
//     individualBelow sets are checked one by one. So is everything once
//     the search has spent its budget.
//  4. The call less the invalid sets found has the value
//     A / prod_i d_i^(r_i) under the call's secret scalars. By bilinearity,
//     this is the pairing product of its sums. When it is one, that check
//     accepts every set not yet decided. Otherwise (crafted signatures,
//     which then only cost time) locateAll reports false and the caller
//     bisects.
//
// The plain values and public weights only steer the search: sets are
// rejected by their own one-set checks, and accepted by their own or by
// step 4's check.
func (c *call) locateAll(whole blindedRange) bool {
	if c.dense(whole.size()) {
		// The recent share is dense: finding the invalid sets would cost
		// more than checking every set alone.
		c.checkAlone(allOf(whole))
		return true
	}
	if !c.reserve(1) { // step 4's check
		return false
	}
	return c.acceptRest(whole, c.findInvalid(whole))
}

// findInvalid returns the invalid sets of a failing range (whole, with its
// value under the call's scalars), with their one-set values: steps 1-3 of
// locateAll.
func (c *call) findInvalid(whole blindedRange) []peel {
	k := c.partsFor(whole.lo, whole.hi)
	if c.wholeFirst(whole, k) {
		p, f, done := c.tryWhole(whole)
		if done {
			return f
		}
		// The whole call's values are known and it holds two invalid sets
		// or more. Halving it costs a pairing or two a level, the right
		// half's values by division. k parts would cost k pairings.
		budget := c.spent + locateBudget*float64(whole.size())*costSingle
		return c.search(whole, []plainRange{p}, f, budget, -wholeLevels)
	}
	frontier := c.failingParts(whole, k)
	budget := c.spent + locateBudget*float64(whole.size())*costSingle
	return c.search(whole, frontier, nil, budget, 0)
}

// wholeLevels is the number of halvings that cut a call into locatePartsMin
// parts. A search from the whole call counts levels from -wholeLevels, so the
// dense-evidence rule meets ranges of the parts' size.
//
// Searching from the whole call after tryWhole fails takes fewer pairings than
// cutting it into parts (TestSearchFromWhole).
const wholeLevels = 2 // log2(locatePartsMin)

// partsFor is the number of parts locateAll cuts a failing call of
// [lo, hi) into. It is one per locatePartSize sets (at least
// locatePartsMin). When the call meets no more roots than that, it is fewer:
// about one per expected invalid set at the recent share. Then most failing
// parts hold one invalid set, which the public weights name. Fewer parts
// pass for nothing. A part's check costs about the same whatever its size,
// as it meets a root or two. Over many roots a check costs a Miller loop per
// root its range meets. Small parts keep the failing parts' checks cheap.
func (c *call) partsFor(lo, hi int) int {
	m := hi - lo
	k := max(locatePartsMin, m/locatePartSize)
	e := max(locatePartsMin, int(math.Ceil(c.share.expected(m))))
	if e < k && c.gOf[hi-1]-c.gOf[lo]+1 <= e {
		return e
	}
	return k
}

// dense reports whether the recent share puts an invalid set in every
// locateDense sets or more among m: then checking every set alone costs
// less than finding them.
func (c *call) dense(m int) bool {
	return locateDense*c.share.expected(m) >= float64(m)
}

// failingParts cuts the call into k parts and returns those whose plain
// values fail, computed in parallel.
func (c *call) failingParts(whole blindedRange, k int) []plainRange {
	m := whole.size()
	parts := make([]plainRange, k)
	c.each(k, 1, func(x int) {
		lo, hi := whole.lo+x*m/k, whole.lo+(x+1)*m/k
		parts[x] = plainRange{lo: lo, hi: hi, base: lo, A: c.valueSerial(c.plainSums(lo, hi))}
	})
	c.spent += float64(k) * c.checkCost(whole.lo, whole.hi)
	var failing []plainRange
	for _, p := range parts {
		if !p.A.IsOne() {
			failing = append(failing, p)
		}
	}
	return failing
}

// acceptOutsideLevel is the search level after which the sets outside the
// ranges still searched are accepted at once. Only a streaming call runs that
// check: Verify answers every set together, and the check's sums cost CPU.
const acceptOutsideLevel = 1

// outsidePays reports whether acceptOutside is worth its multi-scalar
// multiplications. It is when the ranges still searched (open) hold at most
// acceptOutsideShare of the call.
func outsidePays(whole blindedRange, open []plainRange) bool {
	n := 0
	for _, p := range open {
		n += p.size()
	}
	return float64(n) <= acceptOutsideShare*float64(whole.size())
}

// acceptOutsideShare is the largest share of the call the open ranges may hold
// for acceptOutside to run. At 1% invalid they hold about an eighth of a call;
// at 5%, most of it, and early answers no longer pay.
const acceptOutsideShare = 0.25

// search runs locateAll's levels over the failing ranges and returns found
// with the invalid sets it found. It stops when no range is left or the
// search has spent its budget. It also stops when its first
// denseEvidenceLevels levels found no invalid set; the rest is then checked
// set by set.
//
// The levels count from level0: 0 for a frontier of parts, -wholeLevels for
// the whole call. The whole call's halvings reach ranges of about the parts'
// size at level 0. So its small ranges, where the weights name suspects, are
// not taken as evidence of dense invalid sets.
func (c *call) search(whole blindedRange, frontier []plainRange, found []peel, budget float64, level0 int) []peel {
	before := len(found)
	for level := level0; len(frontier) > 0; level++ {
		if c.spent > budget || (level >= denseEvidenceLevels && len(found) == before && widest(frontier) <= denseRangeMax) {
			return append(found, c.aloneAll(frontier)...)
		}
		if level == acceptOutsideLevel && c.report != nil && outsidePays(whole, frontier) && c.reserve(1) {
			c.acceptOutside(whole, found, frontier)
		}
		frontier, found = c.searchLevel(frontier, found)
	}
	return found
}

// acceptOutside accepts at once the sets outside the ranges still searched,
// while the search goes on. It checks the call less those ranges and the
// invalid sets found, under the call's secret scalars. That value is whole.A /
// (prod_i d_i^(r_i) * U), U being the open ranges' value under the scalars. U
// costs a multi-scalar multiplication per range, in parallel, and one pairing
// for them all.
func (c *call) acceptOutside(whole blindedRange, found []peel, open []plainRange) {
	nodes := make([]blindedRange, len(open))
	c.each(len(open), 1, func(x int) { nodes[x] = c.sums(open[x].lo, open[x].hi, nil, nil) })
	inOpen := func(k int) bool {
		for _, p := range open {
			if p.has(k) {
				return true
			}
		}
		return false
	}
	rest := whole.A
	rest.Mul(inverse(c.unionValue(nodes)))
	var outside []peel
	for _, f := range found {
		if !inOpen(f.k) {
			outside = append(outside, f)
		}
	}
	for _, b := range c.blindedAll(outside) {
		rest.Mul(inverse(b))
	}
	if !rest.IsOne() {
		return
	}
	for k := whole.lo; k < whole.hi; k++ {
		if !inOpen(k) {
			c.settle(c.cand[k], true) // a no-op for the sets already decided
		}
	}
}

// blindedAll returns the invalid sets' terms of the call's secret check,
// d^(r_k) for each. They are computed in parallel the first time and kept
// for the call's next secret check (acceptOutside's terms are acceptRest's
// too).
func (c *call) blindedAll(fs []peel) []curve.GT {
	if c.blinded == nil {
		c.blinded = map[int]curve.GT{}
	}
	var todo []peel
	for _, f := range fs {
		if _, ok := c.blinded[f.k]; !ok {
			todo = append(todo, f)
		}
	}
	terms := make([]curve.GT, len(todo))
	c.each(len(todo), 1, func(x int) { terms[x] = c.exp(&todo[x].d, c.scalar(todo[x].k), c.nbits) })
	for x, f := range todo {
		c.blinded[f.k] = terms[x]
	}
	out := make([]curve.GT, len(fs))
	for x, f := range fs {
		out[x] = c.blinded[f.k]
	}
	return out
}

// acceptRest checks the call less the invalid sets found, under the call's
// secret scalars: its value is whole.A / prod_i d_i^(r_i). When it is one,
// every set not yet decided is accepted.
func (c *call) acceptRest(whole blindedRange, found []peel) bool {
	rest := whole.A
	for _, b := range c.blindedAll(found) {
		rest.Mul(inverse(b))
	}
	if !rest.IsOne() {
		return false
	}
	c.v.stats.located.Add(int64(len(found)))
	c.accept(whole.lo, whole.hi) // the sets not yet decided
	return true
}

// wholeFirst reports whether tryWhole is worth its two pairings, by their
// expected cost. When the call holds a single invalid set they settle it,
// with its one-set check, which the parts would need too. That saves the k
// parts' plain values and the failing part's weighted value. Otherwise they
// are spent for nothing. So they pay when q * saved > their cost. Here q is
// the chance of a single invalid set (singleShare, from the recent calls'
// invalid share). It is 1 with no history or a clean one. At 1% invalid it
// is 0.85 for a call of 32 sets and 0.0004 for 1,024. A call over many roots
// pays a Miller loop per root in the whole call's pairings, which the cost
// model counts.
func (c *call) wholeFirst(whole blindedRange, k int) bool {
	m := whole.size()
	saved := c.checkCost(whole.lo, whole.lo+m/k) // the failing part's weighted value
	for x := range k {
		saved += c.checkCost(whole.lo+x*m/k, whole.lo+(x+1)*m/k)
	}
	return c.share.singleShare(m)*saved > 2*c.checkCost(whole.lo, whole.hi)
}

// tryWhole tries the exponentiation method with public weights on the whole
// call first (a failing call most often holds a single invalid set). Two
// pairings and a 12-bit multi-scalar multiplication name a suspect. Its
// one-set check decides it. It returns the suspect when invalid, and done
// when it accounts for the whole call's plain value.
func (c *call) tryWhole(whole blindedRange) (p plainRange, found []peel, done bool) {
	p = plainRange{lo: whole.lo, hi: whole.hi, base: whole.lo, hasB: true}
	c.each(2, 1, func(x int) {
		if x == 0 {
			p.A = c.valueSerial(c.plainSums(p.lo, p.hi))
		} else {
			p.B = c.plainWeighted(&p, p.lo, p.hi)
		}
	})
	c.spent += 2*c.checkCost(whole.lo, whole.hi) + float64(whole.size())*costPairAdd
	i := c.suspect(p)
	if i < 0 {
		return p, nil, false
	}
	if found = c.checkAlone([]int{i}); len(found) == 0 { // valid: the weights were fooled
		return p, nil, false
	}
	if found[0].d.Equal(&p.A) {
		return p, found, true
	}
	p.peel(found[0], true)
	return p, found, false
}
