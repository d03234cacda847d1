package verifier

import (
	"slices"

	"github.com/attpool/attpool/internal/curve"
)

// A call over many roots (the aggregate topic's: a root per aggregator)
// pays a Miller loop per root in its whole check. The locate step's part
// checks would pay those loops again, so such a call's whole check keeps its
// Miller loops in chunks of chunkGroups roots. A failing one is searched
// chunk by chunk first: a range of chunks has the value
//
//	V = FinalExp(prod_c f_c * e(-g1, sum_c S_c)),
//
// f_c the chunk's kept loops and S_c its signature sum under the secret
// scalars. That is one Miller loop and one final exponentiation, whatever
// the roots. The search halves failing ranges, accepts the sets outside the
// failing chunks by one check, and searches each failing chunk as locateAll
// does. These values are shared checks, so such a call starts on more
// rounds.
//
// Calls of chunkMaxGroupMean sets a root or more go to locateAll instead:
// their parts meet few roots, and cost less than the chunks' secret sums
// (BenchmarkLocalisation; docs/bench/HISTORY.md has the figures).
const (
	chunkGroups       = 8
	chunkMinGroups    = 64
	chunkMaxGroupMean = 6
)

// manyRootsCall reports whether the call's check keeps its Miller loops in
// chunks, and a failing one is searched chunk by chunk. That is when it
// meets at least chunkMinGroups roots, with fewer than chunkMaxGroupMean
// sets each on average. It is decided once, when the call starts
// (c.manyRoots), as such a call starts on more rounds.
func (c *call) manyRootsCall() bool {
	ng := len(c.groups)
	return ng >= chunkMinGroups && len(c.cand) < chunkMaxGroupMean*ng
}

// chunk is a run of groups [gLo, gHi) of a call, over candidates [lo, hi).
// f is the product of the groups' Miller loops in the whole check. S is the
// sum r_k s_k of its candidates' signatures under the call's scalars (set
// by locateChunks).
type chunk struct {
	gLo, gHi, lo, hi int
	f                curve.GT
	S                curve.G2
}

// wholeValue returns the value of the whole call's check (value), keeping
// the Miller loops of its groups in chunks when it meets many roots
// (manyRootsCall).
func (c *call) wholeValue(whole blindedRange) curve.GT {
	c.chunks = nil
	ng := len(whole.P)
	if !c.manyRoots || whole.lo != 0 || whole.hi != len(c.cand) || c.emptyGroup() {
		return c.value(whole)
	}
	aff, qs, lines := c.pairs(whole) // a pair per group in order (none is empty), then (-g1, S)
	if len(aff) != ng+1 {
		return c.v.pairingValue(c.width(), aff, qs, lines)
	}
	nc := (ng + chunkGroups - 1) / chunkGroups
	chunks := make([]chunk, nc)
	var fS curve.GT
	c.each(nc+1, 1, func(x int) {
		if x == nc {
			fS = curve.MillerLoop(aff[ng:], qs[ng:])
			return
		}
		a, b := x*chunkGroups, min((x+1)*chunkGroups, ng)
		ga, gb := whole.gLo+a, whole.gLo+b
		chunks[x] = chunk{gLo: ga, gHi: gb, lo: c.groups[ga].lo, hi: c.groups[gb-1].hi,
			f: curve.MillerLoopLines(aff[a:b], qs[a:b], lines[a:b])}
	})
	for x := range chunks {
		fS.Mul(&chunks[x].f)
	}
	c.chunks = chunks
	c.v.stats.checks.Add(1)
	return fS.FinalExp()
}

// emptyGroup reports whether a group has no candidate left (its points
// outside G2 dropped). Its key sum is then the point at infinity. The
// whole check leaves it out of its pairs.
func (c *call) emptyGroup() bool {
	for _, g := range c.groups {
		if g.lo >= g.hi {
			return true
		}
	}
	return false
}

// locateChunks finds the invalid sets of a failing call whose whole check
// kept its chunks (whole with its value). It finds the failing chunks by
// halving ranges of chunks. Then it finds each failing chunk's invalid sets
// by the locate step's search: its plain parts and public weights, and
// one-set checks that decide. It reports false when the call less the
// invalid sets found does not check (crafted signatures): the caller
// bisects.
func (c *call) locateChunks(whole blindedRange) bool {
	if !c.reserve(1) { // the final check
		return false
	}
	nb := c.nbytes
	c.each(len(c.chunks), 1, func(x int) {
		ch := &c.chunks[x]
		ch.S = c.multiExpG2(c.pts[ch.lo:ch.hi], c.scalars[ch.lo*nb:ch.hi*nb], c.nbits)
	})
	c.spent += float64(whole.size()) * costMSMSet
	leaves, ok := c.failingChunks(whole.A)
	if !ok {
		return false
	}
	if c.reserve(1) {
		c.acceptOutsideChunks(whole, leaves)
	}
	var found []peel
	for _, r := range leaves {
		found = append(found, c.searchChunk(c.chunks[r.a], r.V)...)
	}
	return c.acceptRest(whole, found)
}

// acceptOutsideChunks accepts at once the sets outside the failing chunks,
// before those are searched. It does so when the call less those chunks
// checks under the call's secret scalars. Its value is whole.A over the
// failing chunks' own values.
func (c *call) acceptOutsideChunks(whole blindedRange, leaves []chunkRange) {
	rest := whole.A
	for _, r := range leaves {
		rest.Mul(inverse(r.V))
	}
	if !rest.IsOne() {
		return
	}
	lo := whole.lo
	for _, r := range append(leaves, chunkRange{a: len(c.chunks)}) {
		hi := whole.hi
		if r.a < len(c.chunks) {
			hi = c.chunks[r.a].lo
		}
		c.accept(lo, hi)
		if r.a < len(c.chunks) {
			lo = c.chunks[r.a].hi
		}
	}
}

// failingChunks returns the single chunks whose own values fail, in order,
// with their values. It halves the failing ranges of chunks level by level,
// from the whole call's value A. A left half's value is computed, and the
// right half's is its parent's over the left's. A right chunk that fails so
// gets its own value before it is searched.
//
// Each range check is one of the call's shared checks: one that erred would
// hide its range's invalid sets. ok is false when those checks are used up.
func (c *call) failingChunks(A curve.GT) (leaves []chunkRange, ok bool) {
	for frontier := []chunkRange{{0, len(c.chunks), A, true}}; len(frontier) > 0; {
		var todo []chunkRange // ranges whose own value is computed
		for _, r := range frontier {
			switch {
			case r.b-r.a > 1:
				todo = append(todo, chunkRange{a: r.a, b: (r.a + r.b) / 2})
			case !r.own:
				todo = append(todo, chunkRange{a: r.a, b: r.b})
			default:
				leaves = append(leaves, r)
			}
		}
		if !c.reserve(len(todo)) {
			return nil, false
		}
		c.each(len(todo), 1, func(x int) { todo[x].V, todo[x].own = c.chunkValue(todo[x].a, todo[x].b), true })
		c.spent += float64(len(todo)) * (costMiller + costFinalExp)
		var next []chunkRange
		t := 0
		for _, r := range frontier {
			if r.b-r.a == 1 && r.own {
				continue
			}
			l := todo[t]
			t++
			if r.b-r.a == 1 { // a right chunk's own value
				next = appendFailing(next, l)
				continue
			}
			right := chunkRange{a: l.b, b: r.b, V: r.V}
			right.V.Mul(inverse(l.V))
			next = appendFailing(next, l, right)
		}
		frontier = next
	}
	slices.SortFunc(leaves, func(x, y chunkRange) int { return x.a - y.a })
	return leaves, true
}

// chunkValue returns the value of the chunks [a, b) under the call's
// scalars, from their kept Miller loops: one Miller loop for their
// signature sums and one final exponentiation.
func (c *call) chunkValue(a, b int) curve.GT {
	S := c.chunks[a].S
	for x := a + 1; x < b; x++ {
		S.Add(&c.chunks[x].S)
	}
	f := curve.MillerLoop([]curve.G1Affine{c.v.negG1Affine}, []curve.G2Affine{S.Affine()})
	for x := a; x < b; x++ {
		f.Mul(&c.chunks[x].f)
	}
	c.v.stats.checks.Add(1)
	c.v.stats.chunkChecks.Add(1)
	return f.FinalExp()
}

// searchChunk returns the invalid sets of a failing chunk (its own value V
// under the call's scalars). It finds them as locateAll finds a call's
// (findInvalid). That is the whole chunk's public weights first when it
// likely holds a single invalid set, then plain parts and one-set checks.
// A chunk of fewer than locateMin sets has each set checked alone. It
// accepts nothing itself: the call's final check does.
func (c *call) searchChunk(ch chunk, V curve.GT) []peel {
	nd := blindedRange{lo: ch.lo, hi: ch.hi, A: V, hasA: true, own: true}
	if nd.size() < locateMin {
		return c.checkAlone(allOf(nd))
	}
	return c.findInvalid(nd)
}
