package verifier

import (
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/curve"
)

// call is the state of one Verify call.
type call struct {
	v    *Verifier
	sets []Set
	out  []bool
	sigs []crypto.Signature
	// share is the recent invalid share the call's search reads and its
	// verdicts feed: the Verifier's recent, or its suspect for VerifySuspect.
	share *invalidShare

	// report, when not nil, is told each verdict once, as soon as it is
	// settled (VerifyStream); settled marks the sets already decided.
	report  func(i int, valid bool)
	settled []bool
	// searching, when not nil, is called once when the search for invalid
	// sets begins (VerifyStreamSearch; searchBegins).
	searching func()
	// helpers is the most workers the call takes beside its own goroutine,
	// sized to its work (helpersFor).
	helpers int

	// Candidates: sets whose key is present and whose signature decoded to a
	// point other than infinity, ordered by group. cand[k] is a set index.
	cand   []int
	groups []group
	gOf    []int // gOf[k]: group of candidate k

	// Blinding scalars, nbytes little-endian bytes per candidate. split:
	// they are sparse (sparseScalars), the points all checked, and the sums
	// use the endomorphism.
	nbits, nbytes int
	scalars       []byte
	split         bool

	spent, budget float64 // planner cost ledger for bisection, µs
	shared        int     // shared checks reserved (reserve)
	sharedBase    int     // shared checks made before the margin rounds
	firstLimit    int     // shared checks the first rounds bound
	manyRoots     bool    // chunked whole check and chunk search (manyRootsCall)

	// first holds the fused rounds of a call on its first rounds, for the
	// margin rounds that extend them (withMargin); nil otherwise.
	first *fusedRounds

	pks []*curve.G1Affine // candidate keys (points)
	pts []*curve.G2Affine // candidate signatures (points)

	// blinded holds the terms d^(r_k) of the invalid sets the locate step
	// found (blindedAll), by candidate.
	blinded map[int]curve.GT

	// chunks holds the Miller loops of the whole check of a call over many
	// roots, by runs of groups (wholeValue), for locateChunks.
	chunks []chunk
}

type group struct {
	root   [32]byte
	h      curve.G2Affine // hash of root to G2
	lines  *curve.Lines   // h's lines, when kept (hashCache) or made for a search; else nil
	lo, hi int            // candidates [lo, hi)
}

// verify checks sets and returns the verdicts. It tells report (when not
// nil) each verdict as soon as it is settled. It tells searching (when not
// nil) when the search for invalid sets begins. share is the recent invalid
// share that steers its search and that its verdicts join.
func (v *Verifier) verify(sets []Set, share *invalidShare, report func(i int, valid bool), searching func()) []bool {
	c := &call{v: v, sets: sets, share: share, out: make([]bool, len(sets)), report: report, searching: searching, settled: make([]bool, len(sets))}
	if len(sets) == 0 {
		return c.out
	}
	c.decode()
	defer share.observe(c.out) // after settleRest: every verdict is in
	defer c.settleRest()
	if len(c.cand) == 0 {
		return c.out
	}
	cb := firstChecksBits
	if c.manyRoots = c.manyRootsCall(); c.manyRoots {
		cb = chunkFirstChecksBits
	}
	c.firstLimit = 1 << cb
	R0, R := firstRoundsN(v.cfg.SecurityBits, cb), roundsForN(v.cfg.SecurityBits, cb)
	fused, conventional := c.pathCosts(R0)
	c.helpers = v.helpersFor(c.checkWork(min(fused, conventional)))
	c.hashRoots()
	if fused < conventional && c.fused(R0, R) {
		return c.out
	}
	c.conventional()
	return c.out
}

// width is the goroutines the call's parallel steps split their work for:
// its caller and its helpers, at most Config.Workers. A call that takes
// every worker splits for as many parts as there are workers.
func (c *call) width() int { return min(c.helpers+1, c.v.cfg.Workers) }

// each is the workers' forEach with the call's helpers.
func (c *call) each(n, chunk int, f func(i int)) { c.v.w.forEach(c.helpers, n, chunk, f) }

// conventional checks the subgroup of every candidate point one by one, then
// runs a blinded check with fresh random scalars of SecurityBits bits and
// bisects on failure. It is the path for small calls and for calls where a
// fused subgroup round failed.
func (c *call) conventional() {
	m := len(c.cand)
	outside := make([]bool, m)
	c.each(m, inG2Chunk, func(k int) { outside[k] = !c.sigs[c.cand[k]].InG2() })
	c.removeInvalid(outside) // their own subgroup checks failed
	switch len(c.cand) {
	case 0:
		return
	case 1:
		c.checkAlone([]int{0})
		return
	}
	c.randomScalars()
	whole := c.sums(0, len(c.cand), nil, nil)
	c.spent += c.sumsCost(whole)
	c.checkWhole(whole)
}

// checkWhole checks the call's candidates together and bisects on failure.
func (c *call) checkWhole(whole blindedRange) {
	if !c.reserve(1) { // the fused rounds took them all
		c.checkAlone(allOf(whole))
		return
	}
	A := c.wholeValue(whole)
	if A.IsOne() {
		c.accept(whole.lo, whole.hi)
		return
	}
	c.searchBegins()
	// The dense budget is the search's. The call's own sums and check,
	// which every call pays, leave it whole. A small call's would take
	// all of it and send every set to be checked alone.
	c.budget = c.spent + denseBudget*float64(whole.size())*costSingle
	whole = whole.failing(A, whole.size() <= emRoot, true)
	switch {
	case c.chunks != nil && !c.dense(whole.size()):
		if c.locateChunks(whole) {
			return
		}
	case whole.size() >= locateMin && c.locateAll(whole):
		return
	}
	if whole, ok := c.withMargin(whole); ok {
		c.bisect(whole)
	}
}

// searchBegins tells the caller, once, that the call has failed a check of its
// sets together and is looking for the invalid ones.
func (c *call) searchBegins() {
	if f := c.searching; f != nil {
		c.searching = nil
		f()
	}
	c.searchLines()
}
