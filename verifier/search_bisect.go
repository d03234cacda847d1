package verifier

import "github.com/attpool/attpool/internal/curve"

// bisect finds the invalid sets of a node known to hold at least one,
// level by level. Every failing node of a level is halved at once. The left
// halves' sums are computed and checked in parallel. A passing half is
// accepted whole. When the left half passes, the right half must fail and
// is not checked. The right half's sums and value are its parent's less
// (over) the left's. A failing node likely to hold a single invalid set (its
// sibling passed, or it is small) first tries the exponentiation method
// (expMethod).
// Small nodes, and everything once the cost ledger passes the dense budget,
// are checked one by one.
func (c *call) bisect(root blindedRange) {
	for frontier := []blindedRange{root}; len(frontier) > 0; {
		lv := c.sortLevel(frontier)
		c.checkAlone(lv.alone)
		split := append(lv.split, c.tryExpMethod(lv.em)...)
		frontier = append(lv.next, c.halveAll(split)...)
	}
}

// level is one level of bisect's failing nodes, sorted by what is done with
// them.
type level struct {
	split []blindedRange // to be halved
	em    []blindedRange // to try the exponentiation method first
	next  []blindedRange // already split many ways: the next level's
	alone []int          // candidates to check one by one
}

// expMethodChecks is the shared checks a range sent to the exponentiation
// method reserves. One accepts the range less its suspect (A/V_k); two are its
// halves', should it be split after all. The suspect's own check needs none: a
// one-set check cannot err.
const expMethodChecks = 1 + 2

// sortLevel settles or sorts each failing node of a level.
func (c *call) sortLevel(frontier []blindedRange) level {
	var lv level
	for _, nd := range frontier {
		size := nd.size()
		switch {
		case size == 1 && nd.hasA && nd.own:
			// Its own one-set check failed (r_k != 0 mod r): invalid.
			c.settle(c.cand[nd.lo], false)
		case c.spent > c.budget:
			lv.alone = append(lv.alone, allOf(nd)...)
		case nd.em && nd.hasA && size <= emMax && c.reserve(expMethodChecks):
			lv.em = append(lv.em, nd)
		case nd.hasA && size >= karyMin && size == len(c.cand) && c.reserve(karyParts(size)):
			// The whole call failed and is large: split it many ways at
			// once (its invalid sets are likely several).
			lv.next = append(lv.next, c.splitK(nd, karyParts(size))...)
		case size > individualBelow && c.reserve(2): // the left and right halves
			lv.split = append(lv.split, nd)
		default: // small, or no shared check left: one by one
			lv.alone = append(lv.alone, allOf(nd)...)
		}
	}
	return lv
}

// tryExpMethod runs the exponentiation method on nodes likely to hold a
// single invalid set each. It returns those it did not resolve, to be
// halved. The small ones, and every one once the dense budget is spent, are
// checked one by one instead.
func (c *call) tryExpMethod(em []blindedRange) []blindedRange {
	if len(em) == 0 {
		return nil
	}
	done := c.expMethod(em)
	var split []blindedRange
	for x, nd := range em {
		c.spent += c.sumsCost(nd) + c.checkCost(nd.lo, nd.hi)
		switch {
		case done[x]:
		case nd.size() <= individualBelow || c.spent > c.budget:
			// Small, or the budget is spent (a small call's is about
			// one check): halving would only add checks.
			c.checkAlone(allOf(nd))
		default:
			nd.em = false
			split = append(split, nd)
		}
	}
	return split
}

// halveAll halves failing nodes at once and returns the failing halves with
// their values, accepting the passing ones. The left halves' sums are
// computed and checked in parallel. A right half's sums are its parent's
// less its left half's. When the left half passes, the right half's value
// is its parent's.
func (c *call) halveAll(split []blindedRange) []blindedRange {
	if len(split) == 0 {
		return nil
	}
	c.v.stats.bisections.Add(int64(len(split)))
	lefts, rights := c.halves(split)
	leftVals := c.valueMany(lefts)
	var failing, unknown []blindedRange
	for x := range split {
		if leftVals[x].IsOne() {
			c.accept(lefts[x].lo, lefts[x].hi)
			failing = append(failing, c.inherit(rights[x], &split[x]))
			continue
		}
		failing = append(failing, lefts[x].failing(leftVals[x], lefts[x].size() <= emSmall, true))
		unknown = append(unknown, rights[x])
		c.spent += c.checkCost(rights[x].lo, rights[x].hi)
	}
	return append(failing, c.failingOf(unknown)...)
}

// halves returns the left halves of the nodes, summed, and the right halves
// by subtraction, in parallel.
func (c *call) halves(split []blindedRange) (lefts, rights []blindedRange) {
	lefts, rights = make([]blindedRange, len(split)), make([]blindedRange, len(split))
	c.each(len(split), 1, func(x int) {
		nd := &split[x]
		lefts[x] = c.sums(nd.lo, nd.lo+nd.size()/2, nil, nil)
		rights[x] = c.minus(nd, &lefts[x])
	})
	for x := range lefts {
		c.spent += c.sumsCost(lefts[x])
	}
	return lefts, rights
}

// inherit returns the right half of a parent whose left half passed: it
// must fail, and value(parent) = value(left) * value(right) gives its value.
func (c *call) inherit(right blindedRange, parent *blindedRange) blindedRange {
	if !parent.hasA {
		return right
	}
	return right.failing(parent.A, true, false)
}

// failingOf checks nodes whose values are not known yet and returns the
// failing ones with their values, accepting the others.
func (c *call) failingOf(nodes []blindedRange) []blindedRange {
	var failing []blindedRange
	for x, val := range c.valueMany(nodes) {
		if val.IsOne() {
			c.accept(nodes[x].lo, nodes[x].hi)
			continue
		}
		failing = append(failing, nodes[x].failing(val, nodes[x].size() <= emSmall, false))
	}
	return failing
}

// A failing whole call of at least karyMin candidates is split at once into
// parts of about karyPartSize (karyPartsMin to karyPartsMax parts). All but
// one are summed and checked in parallel. The last part's sums and value
// come by subtraction and division. Halving such a call level by level would
// spend its first levels on ranges that all fail. Parts of 64 are where a
// range of a call with a few invalid sets starts to pass. Fewer than 8 parts
// would not fill the workers. More than 32 cost more checks than the
// halvings they replace.
const (
	karyMin      = 512
	karyPartSize = 64
	karyPartsMin = 8
	karyPartsMax = 32
)

// karyParts is the number of parts a failing whole call of size candidates
// is split into.
func karyParts(size int) int { return min(max(size/karyPartSize, karyPartsMin), karyPartsMax) }

// splitK splits a failing node (with its value) into k parts and returns the
// failing ones, accepting the others. Each returned part carries its value.
// Unless every part fails, each is marked for the exponentiation method.
func (c *call) splitK(nd blindedRange, k int) []blindedRange {
	c.v.stats.bisections.Add(1)
	parts := c.cut(nd, k)
	last := nd.A // value(nd) = prod of the parts' values
	var failing []blindedRange
	for x, val := range c.valueMany(parts[:k-1]) {
		if val.IsOne() {
			c.accept(parts[x].lo, parts[x].hi)
			continue
		}
		last.Mul(inverse(val))
		failing = append(failing, parts[x].failing(val, true, true))
	}
	if last.IsOne() {
		c.accept(parts[k-1].lo, parts[k-1].hi)
	} else {
		failing = append(failing, parts[k-1].failing(last, true, false))
	}
	if len(failing) == k { // every part fails: invalid sets are dense
		for x := range failing {
			failing[x].em = failing[x].size() <= emSmall
		}
	}
	return failing
}

// cut returns nd's k parts: all but the last summed in parallel, the last
// one's sums nd's less theirs.
func (c *call) cut(nd blindedRange, k int) []blindedRange {
	size := nd.size()
	parts := make([]blindedRange, k)
	c.each(k-1, 1, func(x int) {
		parts[x] = c.sums(nd.lo+x*size/k, nd.lo+(x+1)*size/k, nil, nil)
	})
	prefix := blindedRange{lo: nd.lo, hi: parts[k-2].hi, gLo: nd.gLo, P: make([]curve.G1, len(nd.P))}
	for x := range k - 1 {
		prefix.add(&parts[x])
		c.spent += c.sumsCost(parts[x])
	}
	parts[k-1] = c.minus(&nd, &prefix)
	return parts
}
