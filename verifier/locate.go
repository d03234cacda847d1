package verifier

import (
	"math"
	"math/bits"
	"sync"

	"github.com/attpool/attpool/internal/curve"
)

// locateMin is the least number of candidates of a failing call for which
// locateAll runs before bisection. Its plain values and public weights cost
// a fraction of bisection's multi-scalar multiplications under the secret
// scalars down to calls of a few sets: at 1% and 5% invalid in calls of 16
// to 128 sets, 1.95-3.2 single verifications per invalid set in wall time
// and 2.2-3.8 in CPU, against 5.0-8.65 and 5.9-12.5 bisecting
// (BenchmarkLocalisationBySize). Calls of fewer sets are bisected, down to
// ranges of individualBelow checked alone.
const locateMin = 8

// locatePartSize is the size of the parts locateAll splits a call over many
// roots into, and the least size of any call's parts: at 1% invalid, most
// failing parts of 64 hold one invalid set, which the public weights name
// with a single pairing. A call over a root or two has fewer, larger parts
// when the recent share expects fewer invalid sets than that (partsFor). A
// call is cut into at least locatePartsMin parts, so the workers have parts
// to share.
const (
	locatePartSize = 64
	locatePartsMin = 4
)

// locateBudget is the share of the cost of checking every candidate alone
// that locateAll's search may spend before checking the sets of its failing
// ranges one by one: its cost per invalid set is about four pairings, so it
// pays up to about one invalid set in eight. Denser invalid sets show
// sooner: when the recent share puts one in every locateDense sets the step
// checks every set alone at once, and when the search's first
// denseEvidenceLevels levels name no invalid set and its ranges are down to
// denseRangeMax sets (every range holds several: one in sixteen or more) it
// checks the sets of its ranges alone then. Larger ranges holding several
// are no evidence: parts sized to the recent share hold several each when
// the share rises.
const (
	locateBudget        = 0.5
	locateDense         = 4
	denseEvidenceLevels = 2
	denseRangeMax       = 32
)

// widest returns the size of the largest of the ranges.
func widest(ps []pnode) int {
	w := 0
	for _, p := range ps {
		w = max(w, p.size())
	}
	return w
}

// pnode is a failing range of locateAll's search. A is its plain value
// prod_k e(pk_k, H(m_k)) * e(-g1, s_k) (not one) and B, when hasB, its
// value under the public weights w_k = k-base+1; both are taken after the
// final exponentiation, with the terms of the invalid sets already found in
// the range (peeled) divided out. named, when not 0, is the public weight of
// the range's suspect, found with its halving (jointNames).
type pnode struct {
	lo, hi, base int
	A, B         curve.GT
	hasB         bool
	named        int
	peeled       []peel
}

// peel is an invalid set found inside a pnode: candidate k, with the value
// d of its own one-set check (its term of the node's plain value).
type peel struct {
	k int
	d curve.GT
}

func (p *pnode) size() int { return p.hi - p.lo }

// has reports whether candidate k is in p's range.
func (p *pnode) has(k int) bool { return p.lo <= k && k < p.hi }

// peel takes invalid set f out of p: its term leaves p's plain value and,
// when weighted, p's weighted value (d^w for its public weight w).
func (p *pnode) peel(f peel, weighted bool) {
	p.A.Mul(inverse(f.d))
	if weighted {
		p.B.Mul(weightedTerm(f.d, f.k-p.base))
	}
	p.peeled = append(p.peeled, f)
	p.named = 0
}

// locateAll finds the invalid sets of a failing call (whole, with its value
// under the call's secret scalars) cheaply, deciding every verdict by a
// check that covers it:
//
//  1. The call is cut into parts (partsFor: of about locatePartSize sets, or
//     about one per expected invalid set over a root or two); each part's plain
//     value (unweighted sums, by batch-affine addition, and one pairing) is
//     not one exactly when the part holds an invalid set (the points are in
//     G2), or, rarely, when invalid sets cancel, which step 4 catches.
//     When the call likely holds a single invalid set (wholeFirst), the
//     whole call is weighed first (tryWhole); when that does not settle it,
//     the whole call, with its values, is the one failing range instead of
//     the parts.
//  2. In each failing range, the exponentiation method with the public
//     weights w_k = k-base+1 (a 7-bit multi-scalar multiplication and one
//     pairing) names a suspect i when B = A^w_i. A range where no weight
//     matches holds two or more invalid sets: it is halved (halve: the left
//     half's plain value computed, the right half's by division). When a
//     half passes, the other keeps the range's weighted value; when both
//     fail, a range of at most jointMax sets first tries to name one suspect
//     in each half from the values it has (jointNames, no pairing), and only
//     then is the left half's weighted value computed, a second check.
//  3. Each suspect's unblinded one-set check d_i decides it. An invalid
//     suspect's term leaves its range's values (A/d_i, B/d_i^w_i), and the
//     range is done when that leaves one; a valid suspect (the weights were
//     fooled) sends its range to be halved. Ranges of at most
//     individualBelow sets, and everything once the search has spent its
//     budget, are checked one by one.
//  4. The call less the invalid sets found has the value
//     A / prod_i d_i^(r_i) under the call's secret scalars (by bilinearity,
//     the pairing product of its sums); when it is one, that check accepts
//     every set not yet decided. Otherwise (crafted signatures, which then
//     only cost time) locateAll reports false and the caller bisects.
//
// The plain values and public weights only steer the search: sets are
// rejected by their own one-set checks, and accepted by their own or by
// step 4's check.
func (c *call) locateAll(whole node) bool {
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
func (c *call) findInvalid(whole node) []peel {
	k := c.partsFor(whole.lo, whole.hi)
	if c.wholeFirst(whole, k) {
		p, f, done := c.tryWhole(whole)
		if done {
			return f
		}
		// The whole call's values are known and it holds two invalid sets
		// or more: halving it costs a pairing or two a level, the right
		// half's values by division, where k parts would cost k pairings.
		budget := c.spent + locateBudget*float64(whole.size())*costSingle
		return c.search(whole, []pnode{p}, f, budget, -wholeLevels)
	}
	frontier := c.failingParts(whole, k)
	budget := c.spent + locateBudget*float64(whole.size())*costSingle
	return c.search(whole, frontier, nil, budget, 0)
}

// wholeLevels is the number of halvings that cut a call into locatePartsMin
// parts: a search from the whole call (after tryWhole) counts its levels
// from -wholeLevels, so that the dense-evidence rule meets ranges of about
// the parts' size (see search). Searching from the whole instead of from
// parts when tryWhole fails takes 6.5-17.2 pairings (checks and sets alone)
// against 11.3-19.3 for two invalid sets among 12 to 512, 9.3-11.6 against
// 13.9-15.3 for three (random positions, twelve calls each, no recent
// invalid sets), and about two fewer at 1,024 with 3 to 20; over calls of
// 16 to 64 sets at 1% invalid (BenchmarkLocalisationBySize), 3.7-3.9
// pairings per invalid set against 4.5-4.7, and at 5% 3.6-3.8 against
// 4.8-5.3 in calls of 16 and 32 (TestSearchFromWhole holds a call of 15).
const wholeLevels = 2 // log2(locatePartsMin)

// partsFor is the number of parts locateAll cuts a failing call of
// [lo, hi) into: one per locatePartSize sets (at least locatePartsMin), or
// fewer, about one per expected invalid set at the recent share, when the
// call meets no more roots than that. Then most failing parts hold one
// invalid set, which the public weights name, and fewer parts pass for
// nothing; a part's check costs about the same whatever its size, as it
// meets a root or two. Over many roots a check costs a Miller loop per root
// its range meets, and small parts keep the failing parts' checks cheap.
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
func (c *call) failingParts(whole node, k int) []pnode {
	m := whole.size()
	parts := make([]pnode, k)
	c.each(k, 1, func(x int) {
		lo, hi := whole.lo+x*m/k, whole.lo+(x+1)*m/k
		parts[x] = pnode{lo: lo, hi: hi, base: lo, A: c.valueSerial(c.plainSums(lo, hi))}
	})
	c.spent += float64(k) * c.checkCost(whole.lo, whole.hi)
	var failing []pnode
	for _, p := range parts {
		if !p.A.IsOne() {
			failing = append(failing, p)
		}
	}
	return failing
}

// acceptOutsideLevel is the level of locateAll's search after which the sets
// outside the ranges still searched are accepted at once (acceptOutside):
// after one level the ranges left are the few holding several invalid sets,
// and the call's other sets need not wait for them. Only a streaming call
// (VerifyStream) runs it: Verify returns every verdict together, so the
// check would answer no one earlier, and its multi-scalar multiplications
// cost about 0.7 single verifications per invalid set in a 2,048-set call
// at 1% invalid (BenchmarkLocalisation, CPU: 3.18-3.23 with it, 2.47-2.53
// without).
const acceptOutsideLevel = 1

// outsidePays reports whether acceptOutside is worth its multi-scalar
// multiplications, which cover the ranges still searched (open): when those
// hold at most acceptOutsideShare of the call. With more, as at 5% invalid
// where most parts hold several invalid sets, the sums cover most of the
// call, for few sets left outside to answer early (skipping them saves
// about 0.7 single verifications per invalid set, about 40 ms of CPU in a
// 1,024-set call; see acceptOutsideShare).
func outsidePays(whole node, open []pnode) bool {
	n := 0
	for _, p := range open {
		n += p.size()
	}
	return float64(n) <= acceptOutsideShare*float64(whole.size())
}

// acceptOutsideShare is the largest share of the call the ranges still
// searched may hold for acceptOutside to run: at 1% invalid they hold about
// an eighth of a 1,024-set call, at 5% most of it. At 5% the bound against
// running acceptOutside whatever the share: BenchmarkLocalisation's 5%
// cases 1.9 against 2.3-2.6 single verifications per invalid set in wall
// time, 2.7-2.8 against 3.4 in CPU, and the latency benchmark (go run
// ./examples/gossip -latency) at 64 subnets 0.326 against 0.347 s of CPU
// per 1,000 messages; the 1% cases are the same either way.
const acceptOutsideShare = 0.25

// search runs locateAll's levels over the failing ranges until none is left,
// or the search has spent its budget, or its first denseEvidenceLevels
// levels found no invalid set (the rest is then checked set by set), and
// returns found with the invalid sets it found.
//
// The levels count from level0: 0 for a frontier of parts, -wholeLevels for
// the whole call, whose halvings reach ranges of about the parts' size at
// level 0 (so its small ranges, where the weights name suspects, are not
// taken as evidence of dense invalid sets).
func (c *call) search(whole node, frontier []pnode, found []peel, budget float64, level0 int) []peel {
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

// acceptOutside accepts at once, while the search goes on, the sets outside
// the ranges still searched when the call less those ranges and the invalid
// sets found outside them checks under the call's secret scalars: its value
// is whole.A / (prod_i d_i^(r_i) * U), with U the value of the ranges still
// searched under the scalars: their sums by multi-scalar multiplication,
// one per range in parallel, added up, and one pairing for them all (the
// ranges are few, those holding several invalid sets).
func (c *call) acceptOutside(whole node, found []peel, open []pnode) {
	nodes := make([]node, len(open))
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

// unionValue returns the product of the nodes' values (disjoint ranges)
// with one final exponentiation: the pairing of their signature sums added
// up and of their key sums added up per group, with the Miller loops spread
// over the workers. It accounts for its cost.
func (c *call) unionValue(nodes []node) curve.GT {
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

// blindedAll returns the invalid sets' terms of the call's secret check,
// d^(r_k) for each, computed in parallel the first time and kept for the
// call's next secret check (acceptOutside's terms are acceptRest's too).
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
	c.each(len(todo), 1, func(x int) { terms[x] = todo[x].d.Exp(c.scalar(todo[x].k), c.nbits) })
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
func (c *call) acceptRest(whole node, found []peel) bool {
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
// expected cost: when the call holds a single invalid set they settle it
// (with its one-set check, which the parts would need too), saving the k
// parts' plain values and the failing part's weighted value; otherwise they
// are spent for nothing. So they pay when q * saved > their cost, q being
// the chance of a single invalid set (singleShare, from the recent calls'
// invalid share): 1 with no history or a clean one; at 1% invalid 0.85 for
// a call of 32 sets and 0.0004 for 1,024. A call over many roots pays a
// Miller loop per root in the whole call's pairings, which the cost model
// counts.
func (c *call) wholeFirst(whole node, k int) bool {
	m := whole.size()
	saved := c.checkCost(whole.lo, whole.lo+m/k) // the failing part's weighted value
	for x := range k {
		saved += c.checkCost(whole.lo+x*m/k, whole.lo+(x+1)*m/k)
	}
	return c.share.singleShare(m)*saved > 2*c.checkCost(whole.lo, whole.hi)
}

// invalidShare keeps the share of invalid verdicts among the sets of the
// recent calls: counts that halve whenever the sets pass invalidShareWindow,
// so that the share follows a change of traffic within a few batches. It
// only steers the locate step (whether it searches at all, and its first
// move); no verdict depends on it.
type invalidShare struct {
	mu            sync.Mutex
	sets, invalid float64
}

// invalidShareWindow is about the number of recent sets the share is over:
// a few thousand, a few of the pool's batches.
const invalidShareWindow = 4096

// observe adds a call's verdicts.
func (s *invalidShare) observe(verdicts []bool) {
	bad := 0
	for _, ok := range verdicts {
		if !ok {
			bad++
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sets += float64(len(verdicts))
	s.invalid += float64(bad)
	for s.sets > invalidShareWindow {
		s.sets, s.invalid = s.sets/2, s.invalid/2
	}
}

// expected is the expected number of invalid sets among m at the recent
// share (0 before any call).
func (s *invalidShare) expected(m int) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sets == 0 {
		return 0
	}
	return float64(m) * s.invalid / s.sets
}

// singleShare is the chance that a failing call of m sets holds a single
// invalid set, for a Poisson number of them at the recent share: with mean
// l = expected(m), l e^-l / (1 - e^-l), which is 1 before any invalid set.
func (s *invalidShare) singleShare(m int) float64 {
	l := s.expected(m)
	if l < 1e-9 {
		return 1
	}
	return l * math.Exp(-l) / -math.Expm1(-l)
}

// tryWhole tries the exponentiation method with public weights on the whole
// call first (a failing call most often holds a single invalid set): two
// pairings and a 12-bit multi-scalar multiplication name a suspect, whose
// one-set check decides it. It returns the suspect when invalid, and done
// when it accounts for the whole call's plain value.
func (c *call) tryWhole(whole node) (p pnode, found []peel, done bool) {
	p = pnode{lo: whole.lo, hi: whole.hi, base: whole.lo, hasB: true}
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

// searchLevel runs one level of locateAll's search over the failing ranges
// and returns the ranges of the next level, with the invalid sets found
// appended to found.
func (c *call) searchLevel(frontier []pnode, found []peel) ([]pnode, []peel) {
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
	small    []pnode // checked set by set
	named    []pnode // the weights name a suspect in each...
	suspects []int   // ...named[x]'s, to be checked alone
	split    []pnode // no suspect: halved
}

// levelOut is what a level of locateAll's search leaves.
type levelOut struct {
	next   []pnode // the next level's failing ranges
	fooled []pnode // small ranges whose suspect was valid: checked set by set
	found  []peel  // the invalid sets found so far
}

// sortRanges sorts a level's failing ranges, giving each its weighted value
// where missing and naming its suspect.
func (c *call) sortRanges(frontier []pnode) rangeLevel {
	// Small ranges are checked set by set, unless their weighted value is
	// known (a right half's, by division), which names a suspect for free.
	var lv rangeLevel
	var rest []pnode
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
func (c *call) weigh(p *pnode) {
	if !p.hasB {
		p.B, p.hasB = c.plainWeighted(p, p.lo, p.hi), true
	}
}

// checkAndHalve computes, in parallel, the one-set values of a level's
// suspects and the halves of its ranges to split.
func (c *call) checkAndHalve(lv rangeLevel) ([]curve.GT, [][2]pnode) {
	n := len(lv.suspects)
	ds := make([]curve.GT, n)
	halves := make([][2]pnode, len(lv.split))
	checks := make([]int, len(lv.split))
	// With fewer tasks than workers (the last levels, a range or two with
	// several invalid sets), a left half's weighted value is computed
	// beside its plain value, on a worker that would idle, instead of after.
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

// appendFailing appends the ranges of ps whose value fails (a pnode's plain
// value, a crange's value under the call's scalars).
func appendFailing[R interface{ fails() bool }](dst []R, ps ...R) []R {
	for _, p := range ps {
		if p.fails() {
			dst = append(dst, p)
		}
	}
	return dst
}

// fails reports whether the range's plain value is not one.
func (p pnode) fails() bool { return !p.A.IsOne() }

// judgeNamed settles range p's suspect i by its one-set value d and puts
// what is left of p where the search goes next: an invalid suspect's terms
// leave the range's values (done when that leaves one); a valid one (the
// weights were fooled) sends the range to be halved.
func (c *call) judgeNamed(p pnode, i int, d curve.GT, out *levelOut) {
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
func (c *call) suspect(p pnode) int {
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

// halve returns p's halves with their plain and weighted values and the
// number of checks it made: the left half's plain value is computed (less
// the peeled terms in it), the right half's by division. The left half's
// weighted value costs a check only when neither half passes and the
// weights do not name one suspect in each (jointNames); a passing half is
// taken as clean, its weighted value one and the other half's the range's
// (guesses that only steer the search; the secret check at the end
// decides). With spec, a large range's left weighted value is computed in
// parallel with its plain value, and dropped when not needed.
func (c *call) halve(p pnode, spec bool) ([2]pnode, int) {
	mid := p.lo + p.size()/2
	l := pnode{lo: p.lo, hi: mid, base: p.base, hasB: true}
	r := pnode{lo: mid, hi: p.hi, base: p.base, hasB: true}
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
	return [2]pnode{l, r}, checks
}

// jointMax is the largest range whose halves jointNames tries to name
// together: its table and walk cost a multiplication in GT per set (about
// 4-6 µs with the table's insertion or lookup), against about 1.3 ms for
// the left half's weighted value (a multi-scalar multiplication and a
// pairing), and fail when a half holds several invalid sets.
const jointMax = 128

// jointNames names, when it can, one suspect in each half of p, both
// failing: if each holds a single invalid set, p's weighted value is
// B = X^a * Y^b for the halves' plain values X, Y and the suspects' public
// weights a and b, which a table of X^a and a walk over B * Y^-b find,
// with no pairing. It gives the halves their weighted values X^a and Y^b
// and their named weights, and reports whether it found them; no match
// leaves the halves unchanged.
func jointNames(p, l, r *pnode) bool {
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
func (c *call) aloneAll(ps []pnode) []peel {
	var ks []int
	for _, p := range ps {
		ks = append(ks, c.undecided(p.lo, p.hi)...)
	}
	return c.checkAlone(ks)
}

// plainWeighted returns the value of [lo, hi) under the public weights
// w_k = k-p.base+1.
func (c *call) plainWeighted(p *pnode, lo, hi int) curve.GT {
	if hi-lo >= weightRoundsMin && hi-p.base < weightRoundsMax {
		return c.valueSerial(c.weightedByRounds(p.base, lo, hi))
	}
	s := hi - lo
	nbits := bits.Len(uint(hi - p.base))
	nb := (nbits + 7) / 8
	w := make([]byte, s*nb)
	for k := range s {
		x := lo + k - p.base + 1
		for b := range nb {
			w[k*nb+b] = byte(x >> (8 * b))
		}
	}
	return c.valueSerial(c.weighted(lo, hi, w, nbits))
}

// weightRoundsMin: ranges of at least this many sets get their weighted sums
// from two pair rounds over the weights' base-13 digits (about 2*0.8 µs a
// point) rather than a multi-scalar multiplication (several µs a point in
// G2 for 9- to 12-bit weights).
const weightRoundsMin = 256

// weightRounds is the number of base-13 digits weightedByRounds takes of a
// weight: two pair rounds, for weights below weightRoundsMax = 13^4 =
// 28,561 (a larger range's weights go through a multi-scalar
// multiplication instead).
const (
	weightRounds    = 4
	weightRoundsMax = digitBase * digitBase * digitBase * digitBase
)

// weightedByRounds returns the node of [lo, hi) with sums under the public
// weights w_k = k-base+1 (below 13^4): the weights' base-13 digits w = d0 +
// 13 d1 + 169 d2 + 2197 d3 go through two pair rounds, H_j = sum_k d_jk P_k,
// and S = ((13 H3 + H2) 13 + H1) 13 + H0 by Horner's rule, in G2 and in G1
// per group. The candidates are never nil nor infinity and the digits are
// below 13, so the rounds return no error; if one did, the weighted value
// would be wrong, which only steers the search and decides nothing.
func (c *call) weightedByRounds(base, lo, hi int) node {
	d := weightDigits(base, lo, hi)
	sc := c.v.scratch.Get().(*curve.PairRoundScratch)
	defer c.v.scratch.Put(sc)
	nd := c.groupSums(lo, hi, false, func(_, a, b int) curve.G1 {
		var H [weightRounds]curve.G1
		H[0], H[1], _ = curve.PairRoundG1(sc, c.pks[a:b], d[0][a-lo:b-lo], d[1][a-lo:b-lo])
		H[2], H[3], _ = curve.PairRoundG1(sc, c.pks[a:b], d[2][a-lo:b-lo], d[3][a-lo:b-lo])
		return horner(H[:])
	}, nil)
	var H [weightRounds]curve.G2
	H[0], H[1], _ = curve.PairRoundG2(sc, c.pts[lo:hi], d[0], d[1])
	H[2], H[3], _ = curve.PairRoundG2(sc, c.pts[lo:hi], d[2], d[3])
	nd.S = horner(H[:])
	return nd
}

// weightDigits returns the base-13 digits d[j][k] of the public weights
// w_k = lo+k-base+1 of the candidates of [lo, hi).
func weightDigits(base, lo, hi int) [weightRounds][]uint8 {
	var d [weightRounds][]uint8
	for j := range d {
		d[j] = make([]uint8, hi-lo)
	}
	for k := range hi - lo {
		w := lo + k - base + 1
		for j := range d {
			d[j][k] = uint8(w % digitBase)
			w /= digitBase
		}
	}
	return d
}

// weightedTerm returns the inverse of d^w for the public weight w = k+1 of
// the set at offset k in its part: what dividing d's term out of a weighted
// value multiplies by.
func weightedTerm(d curve.GT, k int) *curve.GT {
	w := uint32(k + 1)
	dw := d.Exp([]byte{byte(w), byte(w >> 8), byte(w >> 16), byte(w >> 24)}, 32)
	return dw.Conjugate()
}

// inverse returns the inverse of a value of GT (its conjugate).
func inverse(a curve.GT) *curve.GT { return a.Conjugate() }
