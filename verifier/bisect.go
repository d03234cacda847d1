package verifier

import (
	"math"
	"math/bits"

	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// node is a range [lo, hi) of candidates with its blinded sums: S = sum r_k
// s_k over the range, and P[g-gLo] = sum r_k pk_k over the range's part of
// group g, for the groups gLo..gLo+len(P)-1 that the range meets.
type node struct {
	lo, hi int
	S      curve.G2
	gLo    int
	P      []curve.G1

	// A is the node's check value in GT (not one: the node fails), when
	// hasA; em marks a node likely to hold a single invalid set, for the
	// exponentiation method. own marks a value computed by a pairing of sums
	// made from the node's own points (not inherited from a parent, nor a
	// parent's sums less a sibling's): for a single set, a check of that set
	// alone.
	A    curve.GT
	hasA bool
	em   bool
	own  bool
}

func (nd *node) size() int { return nd.hi - nd.lo }

// failing returns nd with its failing check value A; em and own are as in
// node.
func (nd node) failing(A curve.GT, em, own bool) node {
	nd.A, nd.hasA, nd.em, nd.own = A, true, em, own
	return nd
}

// add adds the sums of p, a range inside nd's groups, to nd's.
func (nd *node) add(p *node) {
	nd.S.Add(&p.S)
	for y := range p.P {
		nd.P[p.gLo+y-nd.gLo].Add(&p.P[y])
	}
}

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

// groupSums returns the node of [lo, hi) with, for each group the range
// meets, the key sum keySum(g, a, b) of its candidates [a, b); the groups
// are spread over the workers when spread, with also (when not nil; only
// with spread) as one more task beside them. The caller sets the signature
// sum S. It is the one place a node's per-group key sums are laid out,
// whatever their weights.
func (c *call) groupSums(lo, hi int, spread bool, keySum func(g, a, b int) curve.G1, also func()) node {
	nd := node{lo: lo, hi: hi, gLo: c.gOf[lo]}
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

// sums computes the node of [lo, hi) under the call's scalars; S, when not
// nil, is its known G2 sum, and known holds key sums of groups that lie
// wholly inside the range. It only reads the call, so nodes may be summed
// concurrently; callers account for the cost.
//
// The G2 sum runs beside the key sums: below curve.StrausMax points both
// are multiplied on one goroutine each (Straus's method), so a small call's
// sums take the longer of the two instead of their total.
func (c *call) sums(lo, hi int, S *curve.G2, known map[int]curve.G1) node {
	nb := c.nbytes
	var sum curve.G2
	g2 := func() { sum = curve.MultiExpG2(c.pts[lo:hi], c.scalars[lo*nb:hi*nb], c.nbits) }
	if S != nil {
		sum, g2 = *S, nil
	}
	nd := c.groupSums(lo, hi, true, func(g, a, b int) curve.G1 {
		if P, ok := known[g]; ok {
			return P
		}
		return curve.MultiExpG1(c.pks[a:b], c.scalars[a*nb:b*nb], c.nbits)
	}, g2)
	nd.S = sum
	return nd
}

// weighted returns the node of [lo, hi) with sums under the given scalars
// (nbits bits, little-endian, one per set from lo).
func (c *call) weighted(lo, hi int, sc []byte, nbits int) node {
	nb := (nbits + 7) / 8
	nd := c.groupSums(lo, hi, false, func(_, a, b int) curve.G1 {
		return curve.MultiExpG1(c.pks[a:b], sc[(a-lo)*nb:(b-lo)*nb], nbits)
	}, nil)
	nd.S = curve.MultiExpG2(c.pts[lo:hi], sc, nbits)
	return nd
}

// plainSums returns the node of [lo, hi) with unweighted sums: S = sum s_k
// and P_g = sum pk_k, by batch-affine addition.
func (c *call) plainSums(lo, hi int) node {
	nd := c.groupSums(lo, hi, false, func(_, a, b int) curve.G1 { return curve.SumG1(c.pks[a:b]) }, nil)
	nd.S = curve.SumG2(c.pts[lo:hi])
	return nd
}

// minus returns the node of parent's range less left's (left is a prefix).
func (c *call) minus(parent, left *node) node {
	nd := node{lo: left.hi, hi: parent.hi, gLo: c.gOf[left.hi], S: parent.S}
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

// checkCost is the planner's cost of one check of [lo, hi): a Miller loop
// per group it meets, one more, and a final exponentiation.
func (c *call) checkCost(lo, hi int) float64 {
	return float64(c.gOf[hi-1]-c.gOf[lo]+2)*costMiller + costFinalExp
}

// sumsCost is the planner's cost of a node's sums by multi-scalar
// multiplication and its check.
func (c *call) sumsCost(nd node) float64 {
	return float64(nd.size())*costMSMSet + c.checkCost(nd.lo, nd.hi)
}

// value returns prod_g e(P_g, H(m_g)) * e(-g1, S) in GT: one Miller loop per
// group the node meets plus one, spread over the workers, and one final
// exponentiation. The node's sets are all valid (with the soundness of the
// blinding) exactly when it is one.
func (c *call) value(nd node) curve.GT {
	ps, qs, lines := c.pairs(nd)
	c.v.stats.checks.Add(1)
	return c.v.pairingValue(c.width(), ps, qs, lines)
}

// valueSerial is value on the calling goroutine alone.
func (c *call) valueSerial(nd node) curve.GT {
	ps, qs, lines := c.pairs(nd)
	c.v.stats.checks.Add(1)
	gt := curve.MillerLoopLines(ps, qs, lines)
	return gt.FinalExp()
}

// valueMany computes the values of nodes in parallel: one node spreads its
// Miller loops over the workers; several are computed one per worker.
func (c *call) valueMany(nodes []node) []curve.GT {
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
func (c *call) pairs(nd node) ([]curve.G1Affine, []curve.G2Affine, []*curve.Lines) {
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

// pairingValue returns the product of the pairings of (ps[i], qs[i]), with
// the Miller loops in at most width parts spread over the workers (each
// part's loop pays the squarings again); lines[i], when not nil, holds the
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

// bisect finds the invalid sets of a node known to hold at least one,
// level by level: every failing node of a level is halved at once, the left
// halves' sums computed and checked in parallel. A passing half is accepted
// whole; when the left half passes the right half must fail and is not
// checked; the right half's sums and value are its parent's less (over) the
// left's. A failing node likely to hold a single invalid set (its sibling
// passed, or it is small) first tries the exponentiation method (expMethod).
// Small nodes, and everything once the cost ledger passes the dense budget,
// are checked one by one.
func (c *call) bisect(root node) {
	for frontier := []node{root}; len(frontier) > 0; {
		lv := c.sortLevel(frontier)
		c.checkAlone(lv.alone)
		split := append(lv.split, c.tryExpMethod(lv.em)...)
		frontier = append(lv.next, c.halveAll(split)...)
	}
}

// level is one level of bisect's failing nodes, sorted by what is done with
// them.
type level struct {
	split []node // to be halved
	em    []node // to try the exponentiation method first
	next  []node // already split many ways: the next level's
	alone []int  // candidates to check one by one
}

// expMethodChecks is the shared checks a node sent to the exponentiation
// method reserves: the check of the node less its suspect (A/V_k) that
// accepts it, and the two halves' checks for when it is split after all
// (tryExpMethod hands an unresolved node to halveAll, which reserves no
// more). The suspect's own check needs none: a one-set check cannot err.
const expMethodChecks = 1 + 2

// sortLevel settles or sorts each failing node of a level.
func (c *call) sortLevel(frontier []node) level {
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
// single invalid set each and returns those it did not resolve, to be
// halved (the small ones, and every one once the dense budget is spent, are
// checked one by one instead).
func (c *call) tryExpMethod(em []node) []node {
	if len(em) == 0 {
		return nil
	}
	done := c.expMethod(em)
	var split []node
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
// computed and checked in parallel; a right half's sums are its parent's
// less its left half's, and its value, when the left half passes, its
// parent's.
func (c *call) halveAll(split []node) []node {
	if len(split) == 0 {
		return nil
	}
	c.v.stats.bisections.Add(int64(len(split)))
	lefts, rights := c.halves(split)
	leftVals := c.valueMany(lefts)
	var failing, unknown []node
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
func (c *call) halves(split []node) (lefts, rights []node) {
	lefts, rights = make([]node, len(split)), make([]node, len(split))
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
func (c *call) inherit(right node, parent *node) node {
	if !parent.hasA {
		return right
	}
	return right.failing(parent.A, true, false)
}

// failingOf checks nodes whose values are not known yet and returns the
// failing ones with their values, accepting the others.
func (c *call) failingOf(nodes []node) []node {
	var failing []node
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
// parts of about karyPartSize (karyPartsMin to karyPartsMax parts): all but
// one summed and checked in parallel, the last part's sums and value by
// subtraction and division. Halving such a call level by level would spend
// its first levels on ranges that all fail; parts of 64 are where a range
// of a call with a few invalid sets starts to pass. Fewer than 8 parts would
// not fill the workers; more than 32 cost more checks than the halvings they
// replace.
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
// failing ones, accepting the others; each returned part carries its value
// and, unless every part fails, is marked for the exponentiation method.
func (c *call) splitK(nd node, k int) []node {
	c.v.stats.bisections.Add(1)
	parts := c.cut(nd, k)
	last := nd.A // value(nd) = prod of the parts' values
	var failing []node
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
func (c *call) cut(nd node, k int) []node {
	size := nd.size()
	parts := make([]node, k)
	c.each(k-1, 1, func(x int) {
		parts[x] = c.sums(nd.lo+x*size/k, nd.lo+(x+1)*size/k, nil, nil)
	})
	prefix := node{lo: nd.lo, hi: parts[k-2].hi, gLo: nd.gLo, P: make([]curve.G1, len(nd.P))}
	for x := range k - 1 {
		prefix.add(&parts[x])
		c.spent += c.sumsCost(parts[x])
	}
	parts[k-1] = c.minus(&nd, &prefix)
	return parts
}

// Exponentiation method limits: nodes of at most emMax sets may try it (the
// weights lengthen the scalars by log2(s) bits and findPower takes about
// 2 sqrt(s) multiplications: at 512, 9 bits and 46), and a failing node of
// at most emSmall sets (karyPartSize: where a range of a call with a few
// invalid sets starts to pass) whose sibling also failed is presumed to hold
// a single invalid set.
const (
	emMax   = 512
	emSmall = karyPartSize
	emRoot  = emMax // a whole call of at most this many candidates tries it
)

// locate looks for the single invalid set of a failing node with one more
// pairing (the exponentiation method of Law and Matt): with weights
// w_k = 1..s on the node's sets, the weighted value B equals A^w_i when set
// i alone is invalid (A is the node's value), found by trying A^j for
// j = 1..s. It returns the candidate i, or ok false when no j matches (the
// node holds two or more invalid sets and must be split). The match only
// names a suspect: expMethod decides.
func (c *call) locate(nd node) (k int, ok bool) {
	s := nd.size()
	nbits := c.nbits + bits.Len(uint(s))
	nb := (nbits + 7) / 8
	sc := make([]byte, s*nb)
	for k := range s {
		mulSmall(sc[k*nb:(k+1)*nb], c.scalar(nd.lo+k), uint64(k+1))
	}
	j := findPower(nd.A, c.valueSerial(c.weighted(nd.lo, nd.hi, sc, nbits)), s)
	if j == 0 {
		return 0, false
	}
	return nd.lo + j - 1, true
}

// expMethod resolves failing nodes likely to hold a single invalid set each:
// locate names a suspect k, and the one-set check of k under the call's
// scalars, V_k = e(r_k pk_k, H) * e(-g1, r_k s_k), decides it (see
// judgeSuspect). It reports, per node, whether it was resolved; an
// unresolved node keeps what its suspect's check settled and is split.
func (c *call) expMethod(nodes []node) []bool {
	ks := make([]int, len(nodes))
	oks := make([]bool, len(nodes))
	vals := make([]curve.GT, len(nodes))
	c.each(len(nodes), 1, func(x int) {
		ks[x], oks[x] = c.locate(nodes[x])
		if oks[x] {
			vals[x] = c.valueSerial(c.sums(ks[x], ks[x]+1, nil, nil))
		}
	})
	done := make([]bool, len(nodes))
	for x := range nodes {
		done[x] = oks[x] && c.judgeSuspect(&nodes[x], ks[x], vals[x])
	}
	return done
}

// judgeSuspect settles suspect k of a failing node by its one-set check
// value V (valid exactly when V is one) and reports whether that resolves
// the node: when V equals the node's value A, the node less k has value
// A/V = 1, the check of the rest of the node (the pairing product of its
// sums, by bilinearity), which accepts it.
func (c *call) judgeSuspect(nd *node, k int, V curve.GT) bool {
	if V.IsOne() { // the suspect is valid: the weights were fooled
		c.settle(c.cand[k], true)
		return false
	}
	c.settle(c.cand[k], false)
	if !V.Equal(&nd.A) { // more invalid sets in the node
		return false
	}
	c.v.stats.expMethod.Add(1)
	c.accept(nd.lo, k)
	c.accept(k+1, nd.hi)
	return true
}

// findPower returns the j in [1, s] with A^j == B, or 0, for values of GT:
// by baby steps and giant steps (about 2*sqrt(s) multiplications) when s is
// large, one by one otherwise.
func findPower(A, B curve.GT, s int) int {
	if s <= bsgsMin {
		cur := A
		for j := 1; j <= s; j++ {
			if cur.Equal(&B) {
				return j
			}
			cur.Mul(&A)
		}
		return 0
	}
	b := int(math.Ceil(math.Sqrt(float64(s))))
	baby := make(map[curve.GT]int, b)
	cur := A
	for j := 1; j <= b; j++ {
		baby[cur] = j
		cur.Mul(&A)
	}
	// cur is A^(b+1); the giant step is A^-b.
	giant := cur
	giant.Mul(A.Conjugate()) // A^b (A is its own copy here)
	giant.Conjugate()
	g := B
	for i := 0; i*b < s; i++ {
		if j, ok := baby[g]; ok && i*b+j <= s {
			return i*b + j
		}
		g.Mul(&giant)
	}
	return 0
}

// bsgsMin: findPower steps one by one up to this many exponents: the plain
// scan's s multiplications are cheap beside the pairing that made B, and
// baby steps and giant steps would save a score of them at most, at the
// price of a map of 576-byte keys.
const bsgsMin = 32

// mulSmall sets dst = x * w for a little-endian x (dst has room).
func mulSmall(dst, x []byte, w uint64) {
	var carry uint64
	for i := range dst {
		var b uint64
		if i < len(x) {
			b = uint64(x[i])
		}
		t := b*w + carry
		dst[i] = byte(t)
		carry = t >> 8
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
// (their points are known to be in G2), settles each by its own check,
// e(pk, H(m)) * e(-g1, s) == 1, and returns the invalid ones with the values
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
