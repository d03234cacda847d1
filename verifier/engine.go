package verifier

import (
	crand "crypto/rand"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// Cost model of the planner, in microseconds on one core (measured on a
// 2-core x86-64 machine with blst v0.3.17; only ratios matter).
const (
	costInG2      = 60.0  // one G2 subgroup check
	costPairAdd   = 0.8   // one point of a G2 pair round (two digit rounds)
	costPairFixed = 150.0 // bucket grid and running sums of one pair round
	costMSMG2     = 14.0  // one point of a 64-bit G2 multi-scalar multiplication
	costMiller    = 280.0 // one Miller loop
	costFinalExp  = 470.0 // one final exponentiation
	costMSMG1     = 5.0   // one point of a 64-to-130-bit G1 multi-scalar multiplication
	// costSmallMSM is one set's share, per 64 bits of scalar, of the sums
	// of a call too small for the fused rounds to pay: its signature's and
	// its key's products, about 50 and 20 µs below 32 sets (Straus's method,
	// BenchmarkSmallMultiExp) and about 42 together from 32 to 64 (blst's
	// Pippenger). Straus's cost grows about linearly with the scalars' bits.
	costSmallMSM = 70.0
	// costDecode is one signature's decompression, without its subgroup
	// check.
	costDecode = 50.0

	// costSingle is one set's own check: e(pk, H(m)) * e(-g1, s), two
	// Miller loops and a final exponentiation.
	costSingle = 2*costMiller + costFinalExp
	// costMSMSet is one set's share of a range's sums by multi-scalar
	// multiplication: its key in G1 and its signature in G2.
	costMSMSet = costMSMG1 + costMSMG2
)

// denseBudget is the share of the cost of checking every candidate alone
// that bisection may spend, counted from the failed check of the whole call
// (its own sums and check, which every call pays, are not the search's),
// before the rest is checked one by one: the most a search can waste when
// invalid sets are too dense for it to pay, so a dense call costs at most
// about 1.15 times checking each set alone (TestDenseSwitch holds a
// half-invalid call within 1.2 checks per set). A call of a few sets has
// about one check of budget: one try of the exponentiation method.
// By the cost model, a search costs about 2 log2(n) checks per invalid set
// among n, so 15% lets it find about 0.15 n / (2 log2 n) of them: 14 in a
// call of 2,048, where a denser call is bisected only to that point.
const denseBudget = 0.15

// individualBelow: failing ranges of at most this many sets are checked one
// by one (in parallel) instead of being halved: halving down to one invalid
// set among four takes about as many checks (one or two per level, two
// levels) as checking the four alone, and the sums besides.
const individualBelow = 4

// digitBase is the base of the fused rounds' digits: the least prime factor
// of G2's cofactor. A point outside G2 has a component whose order is such a
// prime, so a round of uniform digits in [0, digitBase) keeps it out of the
// sum's subgroup part with probability at least 12/13 (see the package doc's
// Soundness).
const digitBase = 13

// sharedChecksMax bounds the checks of one call that share its scalars and
// may accept a set (see the package doc's Soundness): each accepts a range
// holding an invalid set with probability at most 13^-R (2^-(bits+9) for
// fresh scalars), so a call accepts one with probability at most
// sharedChecksMax times that. Past it, the call checks sets one by one. 512
// is more than a call of 2,048 sets with 5% invalid uses.
const (
	sharedChecksMax = 1 << marginBits
	marginBits      = 9
)

// A fused call starts on firstRounds rounds, which bound its first
// firstChecks shared checks: those of a passing call (the rounds' and the
// whole call's) and of a failing one that the locate step settles (its
// final check and the early acceptance). A call that needs more (its rounds
// fail, or it goes on to bisection) first draws the margin rounds up to
// roundsFor, whose scalars bound sharedChecksMax more checks. Both together
// err with probability at most firstChecks*13^-R0 + sharedChecksMax*13^-R
// <= 2^-bits (see the package doc's Soundness).
//
// A call over many roots (manyRootsCall) starts on more rounds, which
// bound 2^chunkFirstChecksBits first checks: its failing whole check's
// chunk search (locateChunks) checks ranges of chunks under the first
// rounds' scalars, up to two per chunk, and a range check that errs would
// keep the search from the invalid sets it holds.
const (
	firstChecks          = 1 << firstChecksBits
	firstChecksBits      = 2
	chunkFirstChecksBits = 10
)

// firstRounds returns R0, the least number of rounds with firstChecks *
// 13^-R0 <= 2^-bits: 18 for 64 bits, 36 for 128.
func firstRounds(bits int) int { return firstRoundsN(bits, firstChecksBits) }

// firstRoundsN is firstRounds for 2^cb first checks: 20 for 64 bits and
// 38 for 128 with chunkFirstChecksBits.
func firstRoundsN(bits, cb int) int {
	return int(math.Ceil(float64(bits+cb) / math.Log2(digitBase)))
}

// roundsFor returns R, the least number of rounds with firstChecks *
// 13^-R0 + sharedChecksMax * 13^-R <= 2^-bits (R0 = firstRounds(bits)):
// 21 for 64 bits, 38 for 128.
func roundsFor(bits int) int { return roundsForN(bits, firstChecksBits) }

// roundsForN is roundsFor for 2^cb first checks on firstRoundsN rounds: 22
// for 64 bits and 38 for 128 with chunkFirstChecksBits (2^-64.005 and
// 2^-130.03 in all).
func roundsForN(bits, cb int) int {
	first := math.Ldexp(math.Pow(digitBase, -float64(firstRoundsN(bits, cb))), cb)
	left := math.Ldexp(1, -bits) - first
	return int(math.Ceil(math.Log(sharedChecksMax/left) / math.Log(digitBase)))
}

// pairPasses is the number of pair rounds (curve.PairRoundG2, two digit
// rounds per pass over the points) that R rounds take.
func pairPasses(R int) int { return (R + 1) / 2 }

// reserve takes n of the call's shared checks, or reports false when fewer
// are left: firstChecks while the call is on its first rounds,
// sharedChecksMax more after the margin rounds.
func (c *call) reserve(n int) bool {
	limit := c.sharedBase + sharedChecksMax
	if c.first != nil {
		limit = c.firstLimit
	}
	if c.shared+n > limit {
		return false
	}
	c.shared += n
	return true
}

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

	// Blinding scalars, nbytes little-endian bytes per candidate.
	nbits, nbytes int
	scalars       []byte

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

// verify checks sets, telling report (when not nil) each verdict as soon as
// it is settled and searching (when not nil) when the search for invalid
// sets begins, and returns the verdicts; share is the recent invalid share
// that steers its search and that its verdicts join.
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

// pathCosts is the planner's choice of path: what the fused rounds on R
// rounds cost and what a subgroup check per point and a multi-scalar
// multiplication cost (fused is infinite for a call of one candidate).
func (c *call) pathCosts(R int) (fused, conventional float64) {
	m := float64(len(c.cand))
	passes := float64(pairPasses(R))
	fused = passes*(2*costInG2+costPairFixed) + passes*m*costPairAdd
	if m <= 1 {
		fused = math.Inf(1)
	}
	scale := float64(c.v.cfg.SecurityBits) / 64
	return fused, m * (costInG2 + costSmallMSM*scale)
}

// checkWork is the planner's estimate of a passing call's work after its
// decoding, on one core (µs): its subgroup checks and sums by the path
// chosen (sums), its key sums, a Miller loop per root and one more, and
// the final exponentiation.
func (c *call) checkWork(sums float64) float64 {
	m, g := float64(len(c.cand)), float64(len(c.groups))
	return sums + m*costMSMG1 + (g+1)*costMiller + costFinalExp
}

// helperGrain is the least work (µs on one core, by the planner's cost
// model) a call gives each goroutine of the pool it takes beside its own: a
// goroutine taken costs a wake-up and the scheduler's search for work at
// every parallel step of the call (a dozen), which calls of a few sets, whose
// steps are a chunk or two, do not repay (BenchmarkSmallCall: a call of 3 sets
// takes as long on two goroutines as on one, for more CPU; from 16 sets, about
// 3 ms, the second goroutine shortens it). Calls of 1,024 sets take every worker.
const helperGrain = 2000.0

// helpersFor is the workers a call of work µs takes beside its caller: one
// per helperGrain of it, at most Config.Workers.
func (v *Verifier) helpersFor(work float64) int {
	return min(v.cfg.Workers, int(work/helperGrain))
}

// width is the goroutines the call's parallel steps split their work for:
// its caller and its helpers, at most Config.Workers (a call that takes
// every worker splits for as many parts as there are workers).
func (c *call) width() int { return min(c.helpers+1, c.v.cfg.Workers) }

// each is the workers' forEach with the call's helpers.
func (c *call) each(n, chunk int, f func(i int)) { c.v.w.forEach(c.helpers, n, chunk, f) }

// decode decompresses every signature once, in parallel, rejects the sets
// that cannot take part in a sum, and orders the others by signing root.
func (c *call) decode() {
	n := len(c.sets)
	c.sigs = make([]crypto.Signature, n)
	ok := make([]bool, n)
	undecoded := 0 // the sets whose caller decoded the signature cost a copy
	for i := range c.sets {
		if c.sets[i].Decoded == nil {
			undecoded++
		}
	}
	c.helpers = c.v.helpersFor(float64(undecoded) * costDecode)
	c.each(n, min(decodeChunk, max(1, n/(2*c.width()))), func(i int) { ok[i] = c.decodeOne(i) })
	for i := range n {
		if !ok[i] {
			c.settle(i, false) // decided by this set alone: no key or no point
		}
	}
	c.orderByRoot(ok)
}

// decodeOne decodes set i's signature into c.sigs[i] and reports whether
// the set is a candidate. No key, the zero-value key and the point at
// infinity (no valid key is) make this set invalid, and no other: they
// never enter a sum; nor does the infinity signature, which never verifies
// against a valid key.
func (c *call) decodeOne(i int) bool {
	s := &c.sets[i]
	if s.PublicKey == nil || blspoint.Key(s.PublicKey).IsInfinity() {
		return false
	}
	if s.Decoded != nil {
		c.sigs[i] = *s.Decoded
	} else if _, err := c.sigs[i].SetBytesNoSubgroupCheck(s.Signature[:]); err != nil {
		return false
	}
	return !c.sigs[i].IsInfinity()
}

// orderByRoot makes the candidates, the sets with ok, and their groups, one
// per signing root: each group's candidates consecutive, in the sets' order.
func (c *call) orderByRoot(ok []bool) {
	index := make(map[[32]byte]int)
	var members [][]int
	for i := range c.sets {
		if !ok[i] {
			continue
		}
		g, seen := index[c.sets[i].Root]
		if !seen {
			g = len(c.groups)
			index[c.sets[i].Root] = g
			c.groups = append(c.groups, group{root: c.sets[i].Root})
			members = append(members, nil)
		}
		members[g] = append(members[g], i)
	}
	for g, ms := range members {
		c.groups[g].lo = len(c.cand)
		c.cand = append(c.cand, ms...)
		c.groups[g].hi = len(c.cand)
		for range ms {
			c.gOf = append(c.gOf, g)
		}
	}
}

func (c *call) hashRoots() {
	get := c.v.hashes.get
	if c.share == &c.v.suspect {
		get = c.v.hashes.peek // VerifySuspect: the cache is the trusted calls'
	}
	c.each(len(c.groups), 1, func(g int) {
		c.groups[g].h, c.groups[g].lines = get(c.groups[g].root)
	})
}

// searchLinesGroups is the most roots of a call whose hashes' lines
// searchLines makes: a search's checks then mostly meet one or two roots
// each, so each root's lines serve several checks. Over more roots (the
// aggregate topic's calls) a check meets a few of them and its lines would
// serve it alone.
const searchLinesGroups = 8

// searchLines makes the lines of the groups' hashes that have none, when a
// call over at most searchLinesGroups roots begins a search: making them
// costs about what computing them inside one Miller loop does, and the
// search's checks each pair a key sum with the hash of their roots.
func (c *call) searchLines() {
	if len(c.groups) > searchLinesGroups {
		return
	}
	c.each(len(c.groups), 1, func(g int) {
		if c.groups[g].lines == nil {
			c.groups[g].lines = curve.NewLines(&c.groups[g].h)
		}
	})
}

// newRand returns a ChaCha8 CSPRNG seeded from crypto/rand.
func newRand() *rand.ChaCha8 {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		panic("attpool/verifier: crypto/rand failed: " + err.Error())
	}
	return rand.NewChaCha8(seed)
}

// decodeChunk is the most signatures a worker decompresses per chunk (about
// 50 µs each, costDecode): enough to make the scheduling overhead
// negligible, few enough that two workers share a small call evenly.
const decodeChunk = 16

// inG2Chunk is the number of per-point subgroup checks (about 45 µs each)
// per chunk of the conventional path, for the same reason.
const inG2Chunk = 4

// digitSource yields uniform digits in [0, digitBase) from a CSPRNG by
// rejection sampling of bytes: a byte below digitBytes (the largest multiple
// of the base that fits a byte) gives its residue, so no digit is favoured.
type digitSource struct {
	r   *rand.ChaCha8
	buf [digitBuf]byte
	pos int
}

const (
	digitBytes = 256 / digitBase * digitBase
	// digitBuf is the bytes drawn from the generator at a time: 512
	// (about 494 digits) amortise a read's overhead and stay in L1.
	digitBuf = 512
)

func (d *digitSource) next() uint8 {
	for {
		if d.pos == len(d.buf) {
			_, _ = d.r.Read(d.buf[:])
			d.pos = 0
		}
		b := d.buf[d.pos]
		d.pos++
		if b < digitBytes {
			return b % digitBase
		}
	}
}

// fused runs the fused subgroup-and-blinding check of the design note over
// every candidate: rounds of random digits c_kj in [0, 13); each round sum
// H_j = sum_k c_kj s_k must be in G2; then r_k = sum_j c_kj 13^j blind the
// pairing check, with S = sum_k r_k s_k = sum_j 13^j H_j by Horner's rule.
// It runs on R0 rounds (firstRoundsN); when they fail, or later when the call
// goes on to bisection (withMargin), the margin rounds up to R come first.
// It reports false when a round sum is outside G2 and the descent to the
// points outside does not pay: the caller falls back to checking each point.
func (c *call) fused(R0, R int) bool {
	digits := drawDigits(len(c.cand), R0, true)
	c.pks, c.pts = c.points()
	big := c.bigGroups()
	c.reserve(1) // the rounds' check
	H, PG, ok := c.v.pairRounds(c.helpers, c.pts, c.pks, digits, R0, c.groups, big)
	if ok {
		c.first = &fusedRounds{digits: digits, H: H, PG: PG, big: big, R: R}
		c.checkWhole(c.blindedSums(digits, R0, H, PG, big))
		return true
	}
	// The rounds are checked again after each point dropped: more shared
	// checks, so the margin rounds first.
	c.searchBegins()
	c.v.stats.subgroupFallbacks.Add(1)
	digits, H, PG, _ = c.marginRounds(digits, R0, R, H, PG, big)
	digits, ok = c.dropOutsideG2(digits, R, H, PG, big)
	if !ok {
		return false
	}
	if len(c.cand) > 0 {
		c.checkWhole(c.blindedSums(digits, R, H, PG, big))
	}
	return true
}

// fusedRounds is what the margin rounds extend: the first rounds' digits
// and sums, the groups whose key sums come from the rounds, and R, the
// rounds to extend to.
type fusedRounds struct {
	digits []uint8
	H      []curve.G2
	PG     [][]curve.G1
	big    []int
	R      int
}

// withMargin draws the margin rounds of a call still on its first rounds,
// before bisection's many shared checks: the scalars grow to R rounds' and
// the whole call's sums and value are computed again under them (a call on
// random scalars has its margin already; one whose first rounds are R
// already has none to draw, and keeps its scalars and whole). It returns
// the whole call's failing node, or false when the call needs no
// bisection: the new check
// passes (it accepts every set not yet decided), or, with probability at
// most 13^-R0 for each point outside G2, a margin round sum is outside G2
// (every undecided point is then checked alone: subgroup, then pairing).
func (c *call) withMargin(whole node) (node, bool) {
	f := c.first
	if f == nil {
		return whole, true
	}
	c.first, c.sharedBase = nil, c.shared
	if f.R <= len(f.H) {
		// The first rounds are already R (a call over many roots at 128
		// bits): no fresh digits, the same scalars, and the whole call's
		// value is the failing one already computed.
		return whole, true
	}
	digits, H, PG, ok := c.marginRounds(f.digits, len(f.H), f.R, f.H, f.PG, f.big)
	if !ok {
		c.v.stats.subgroupFallbacks.Add(1)
		c.aloneWithSubgroup()
		return whole, false
	}
	c.blinded, c.chunks = nil, nil // terms and Miller loops under the first rounds' scalars
	whole = c.blindedSums(digits, f.R, H, PG, f.big)
	if !c.reserve(1) {
		c.checkAlone(allOf(whole))
		return whole, false
	}
	A := c.value(whole)
	if A.IsOne() {
		c.accept(whole.lo, whole.hi)
		return whole, false
	}
	return whole.failing(A, whole.size() <= emRoot, true), true
}

// aloneWithSubgroup checks each undecided candidate alone, its point's
// subgroup first (the rounds did not vouch for it).
func (c *call) aloneWithSubgroup() {
	ks := c.undecided(0, len(c.cand))
	outside := make([]bool, len(ks))
	c.each(len(ks), inG2Chunk, func(x int) { outside[x] = !c.pts[ks[x]].InG2() })
	var in []int
	for x, k := range ks {
		if outside[x] {
			c.settle(c.cand[k], false)
		} else {
			in = append(in, k)
		}
	}
	c.checkAlone(in)
}

// marginRounds extends the fused rounds [0, from) to [0, to): fresh uniform
// digits for every candidate (the first rounds' digits already make each
// scalar nonzero, and r_k < 13^from keeps it so), their round sums in G2
// and, for the big groups, in G1. It reports whether the new sums are in
// G2. With to <= from it draws nothing and returns its inputs. The call's candidates must be those the first rounds were drawn for.
func (c *call) marginRounds(digits []uint8, from, to int, H []curve.G2, PG [][]curve.G1, big []int) ([]uint8, []curve.G2, [][]curve.G1, bool) {
	if to <= from { // no margin rounds to draw
		return digits, H, PG, true
	}
	c.v.stats.marginRounds.Add(1)
	m := len(c.cand)
	extra := drawDigits(m, to-from, false)
	h, pg, ok := c.v.pairRounds(c.helpers, c.pts, c.pks, extra, to-from, c.groups, big)
	digits = append(digits[:from*m:from*m], extra...)
	H = append(H[:from:from], h...)
	for x := range PG {
		PG[x] = append(PG[x][:from:from], pg[x]...)
	}
	return digits, H, PG, ok
}

// blindedSums sets the call's scalars from the digits of R rounds and
// returns the whole call's node under them: S by Horner's rule over the
// round sums, the big groups' key sums likewise, the others' by
// multi-scalar multiplication. The spent ledger is charged for its check.
func (c *call) blindedSums(digits []uint8, R int, H []curve.G2, PG [][]curve.G1, big []int) node {
	c.scalarsFromDigits(digits, R)
	S := horner(H)
	known := make(map[int]curve.G1, len(big))
	for x, g := range big {
		known[g] = horner(PG[x])
	}
	whole := c.sums(0, len(c.cand), &S, known)
	c.spent += c.checkCost(whole.lo, whole.hi)
	return whole
}

// bigGroups returns the groups large enough that their key sums P_g = sum
// r_k pk_k come from the digit rounds in G1 (Horner again); the others' come
// from a multi-scalar multiplication with the r_k.
func (c *call) bigGroups() []int {
	var big []int
	for g := range c.groups {
		if c.groups[g].hi-c.groups[g].lo >= g1RoundsMin {
			big = append(big, g)
		}
	}
	return big
}

// g1RoundsMin is the group size from which a group's key sum comes from the
// digit rounds in G1 rather than from a multi-scalar multiplication. The
// rounds cost a bucket grid per pass (R/2 passes) and little per point, the
// multiplication more per point: they break even at about 192 to 256 sets
// (BenchmarkG1RoundsMin, one core: the rounds 1.2x the multiplication at
// 192 sets, 1.0x at 256, for 64 and 128 bits alike).
const g1RoundsMin = 192

// horner returns sum_j 13^j H[j] by Horner's rule (H not empty).
func horner[P any, PP interface {
	*P
	Mul13Add(*P) *P
}](H []P) P {
	S := H[len(H)-1]
	for j := len(H) - 2; j >= 0; j-- {
		PP(&S).Mul13Add(&H[j])
	}
	return S
}

// scalarsFromDigits sets the blinding scalars to r_k = sum_j c_kj 13^j,
// little-endian (13^38 < 2^141 < 2^192: three words hold them).
func (c *call) scalarsFromDigits(digits []uint8, R int) {
	m := len(c.cand)
	c.newScalars(int(math.Ceil(float64(R) * math.Log2(digitBase))))
	for k := range m {
		var x [3]uint64
		for j := R - 1; j >= 0; j-- {
			mulAdd13(&x, uint64(digits[j*m+k]))
		}
		putLE(c.scalar(k), x)
	}
}

// randomScalars sets the blinding scalars to fresh random nonzero ones of
// SecurityBits+marginBits bits, from a CSPRNG seeded from crypto/rand.
func (c *call) randomScalars() {
	c.newScalars(c.v.cfg.SecurityBits + marginBits)
	r := newRand()
	_, _ = r.Read(c.scalars)
	for k := range c.cand {
		s := c.scalar(k)
		for c.clip(s); isZero(s); c.clip(s) {
			_, _ = r.Read(s)
		}
	}
}

// clip clears the bits of scalar s above the call's nbits: the sums read
// only nbits bits, and the exponentiation method's weighted scalars
// (locate) multiply the whole bytes, so the two must agree.
func (c *call) clip(s []byte) {
	if extra := c.nbytes*8 - c.nbits; extra > 0 {
		s[c.nbytes-1] &= 0xff >> extra
	}
}

// newScalars makes room for a scalar of nbits bits per candidate.
func (c *call) newScalars(nbits int) {
	c.nbits, c.nbytes = nbits, (nbits+7)/8
	c.scalars = make([]byte, len(c.cand)*c.nbytes)
}

// scalar returns candidate k's blinding scalar.
func (c *call) scalar(k int) []byte { return c.scalars[k*c.nbytes : (k+1)*c.nbytes] }

// pairRounds computes the R round sums H_j = sum_k c_kj s_k over the
// signatures, two rounds per pass (curve.PairRoundG2), and checks each in
// G2; for every group in big it also computes the round sums of its keys in
// G1. Passes are spread over the caller and at most helpers workers. It
// reports false when a round sum is outside G2.
func (v *Verifier) pairRounds(helpers int, pts []*curve.G2Affine, pks []*curve.G1Affine, digits []uint8, R int,
	groups []group, big []int) ([]curve.G2, [][]curve.G1, bool) {
	T := pairPasses(R)
	H := make([]curve.G2, 2*T)
	PG := make([][]curve.G1, len(big))
	for x := range PG {
		PG[x] = make([]curve.G1, 2*T)
	}
	round := roundDigits(digits, len(pts), R)
	var bad atomic.Bool
	v.w.forEach(helpers, T*(1+len(big)), 1, func(task int) {
		t, which := task%T, task/T
		d1, d2 := round(2*t), round(2*t+1)
		sc := v.scratch.Get().(*curve.PairRoundScratch)
		defer v.scratch.Put(sc)
		var err error
		if which == 0 {
			H[2*t], H[2*t+1], err = curve.PairRoundG2(sc, pts, d1, d2)
			// An input error (never for the verifier's candidates) counts
			// as a failed round: the per-point checks then decide.
			if err != nil || !H[2*t].InG2() || (2*t+1 < R && !H[2*t+1].InG2()) {
				bad.Store(true)
			}
			return
		}
		g := groups[big[which-1]]
		PG[which-1][2*t], PG[which-1][2*t+1], err = curve.PairRoundG1(sc, pks[g.lo:g.hi], d1[g.lo:g.hi], d2[g.lo:g.hi])
		if err != nil {
			bad.Store(true)
		}
	})
	for x := range PG {
		PG[x] = PG[x][:R]
	}
	return H[:R], PG, !bad.Load()
}

// roundDigits returns the digits of round j of the m points (digits[j*m:
// (j+1)*m]); the round past R, which an odd R's last pass holds, has zeros.
func roundDigits(digits []uint8, m, R int) func(j int) []uint8 {
	var zeros []uint8
	if R%2 == 1 {
		zeros = make([]uint8, m)
	}
	return func(j int) []uint8 {
		if j >= R {
			return zeros
		}
		return digits[j*m : (j+1)*m]
	}
}

// drawDigits returns R*m uniform digits in [0, 13) from a fresh CSPRNG,
// digits[j*m+k] for round j and point k, with no point's digits all zero
// when nonzero (a point whose digits are all zero draws them again).
func drawDigits(m, R int, nonzero bool) []uint8 {
	digits := make([]uint8, R*m)
	ds := digitSource{r: newRand(), pos: digitBuf}
	for k := range m {
		for {
			zero := true
			for j := range R {
				d := ds.next()
				digits[j*m+k] = d
				zero = zero && d == 0
			}
			if !zero || !nonzero { // r_k must not be zero
				break
			}
		}
	}
	return digits
}

// BatchInG2 reports whether every point is in G2, with the batch subgroup
// check of the design note: R rounds of random digit sums, each checked with
// one subgroup test; a batch holding a point outside G2 passes with
// probability at most 13^-R <= 2^-SecurityBits. The point at infinity is in
// G2 (it takes no part in the rounds); a nil point gives false. No points
// give true.
func (v *Verifier) BatchInG2(points []*crypto.Signature) bool {
	if len(points) == 0 {
		return true
	}
	R := firstRounds(v.cfg.SecurityBits) // one test: 13^-R <= 2^-(bits+2)
	pts := make([]*curve.G2Affine, 0, len(points))
	for _, p := range points {
		if p == nil {
			return false
		}
		if !p.IsInfinity() { // in G2, and no term of any round sum
			pts = append(pts, blspoint.Signature(p))
		}
	}
	if len(pts) == 0 {
		return true
	}
	_, _, ok := v.pairRounds(v.cfg.Workers, pts, nil, drawDigits(len(pts), R, true), R, nil, nil)
	return ok
}

// mulAdd13 sets x = 13x + d.
func mulAdd13(x *[3]uint64, d uint64) {
	var carry uint64 = d
	for l := range x {
		hi, lo := bits.Mul64(x[l], digitBase)
		lo2 := lo + carry
		if lo2 < lo {
			hi++
		}
		x[l] = lo2
		carry = hi
	}
}

func putLE(dst []byte, x [3]uint64) {
	for i := range dst {
		dst[i] = byte(x[i/8] >> (8 * (i % 8)))
	}
}

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
func (c *call) checkWhole(whole node) {
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
	// The dense budget is the search's: the call's own sums and check,
	// which every call pays, leave it whole (a small call's would take
	// all of it and send every set to be checked alone).
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

// allOf returns the candidates of nd.
func allOf(nd node) []int {
	ks := make([]int, 0, nd.size())
	for k := nd.lo; k < nd.hi; k++ {
		ks = append(ks, k)
	}
	return ks
}

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// removeInvalid settles the candidates k with bad[k] as invalid (a check
// of that set alone failed: its own subgroup check) and takes them out of
// the call: the candidates, their groups' ranges and the point slices. It
// returns the former indexes of the candidates kept, in order.
func (c *call) removeInvalid(bad []bool) (kept []int) {
	cand, gOf := make([]int, 0, len(c.cand)), make([]int, 0, len(c.cand))
	for k, i := range c.cand {
		if bad[k] {
			c.settle(i, false)
			continue
		}
		kept = append(kept, k)
		cand, gOf = append(cand, i), append(gOf, c.gOf[k])
	}
	c.cand, c.gOf = cand, gOf
	c.regroup()
	c.pks, c.pts = c.points()
	return kept
}

// regroup recomputes the groups' candidate ranges after candidates were
// removed (c.gOf stays sorted).
func (c *call) regroup() {
	for g := range c.groups {
		c.groups[g].lo, c.groups[g].hi = 0, 0
	}
	for k := len(c.gOf) - 1; k >= 0; k-- {
		c.groups[c.gOf[k]].lo = k
	}
	for k, g := range c.gOf {
		c.groups[g].hi = k + 1
	}
}

// accept settles candidates [lo, hi) as valid: a passing check covered them.
func (c *call) accept(lo, hi int) {
	for k := lo; k < hi; k++ {
		c.settle(c.cand[k], true)
	}
}

// settle records set i's verdict and reports it, once: a set already settled
// keeps its first verdict (a range accepted later may hold a set that a
// one-set check already rejected).
func (c *call) settle(i int, valid bool) {
	if c.settled[i] {
		return
	}
	c.settled[i], c.out[i] = true, valid
	if c.report != nil {
		c.report(i, valid)
	}
}

// settleRest makes sure every set has a verdict when the call ends. A
// candidate still open (which the search should never leave) is checked
// alone, so no set is rejected without a check of its own.
func (c *call) settleRest() {
	c.checkAlone(c.undecided(0, len(c.cand)))
	for i := range c.sets {
		c.settle(i, false) // no-op for the settled; the rest never were candidates
	}
}
