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

// Cost model of the planner, in microseconds on one core (measured on the
// project's 2-core machine with blst v0.3.17; only ratios matter).
const (
	costInG2      = 60.0  // one G2 subgroup check
	costPairAdd   = 0.8   // one point of a G2 pair round (two digit rounds)
	costPairFixed = 150.0 // bucket grid and running sums of one pair round
	costMSMG2     = 14.0  // one point of a 64-bit G2 multi-scalar multiplication
	costMiller    = 280.0 // one Miller loop
	costFinalExp  = 470.0 // one final exponentiation
	costMSMG1     = 5.0   // one point of a 64-to-130-bit G1 multi-scalar multiplication
)

// denseBudget is the share of the cost of checking every candidate alone that
// bisection may spend before the rest is checked one by one.
const denseBudget = 0.15

// individualBelow: failing ranges of at most this many sets are checked one
// by one (in parallel) instead of being halved.
const individualBelow = 4

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

// roundsFor returns the number of subgroup rounds R for a per-call soundness
// of 2^-bits: the least R with sharedChecksMax * 13^-R <= 2^-bits (20 for
// 64 bits, 38 for 128).
func roundsFor(bits int) int {
	return int(math.Ceil(float64(bits+marginBits) / math.Log2(13)))
}

// reserve takes n of the call's shared checks, or reports false when fewer
// are left.
func (c *call) reserve(n int) bool {
	if c.shared+n > sharedChecksMax {
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

	// report, when not nil, is told each verdict once, as soon as it is
	// settled (VerifyStream); settled marks the sets already decided.
	report  func(i int, valid bool)
	settled []bool

	// Candidates: sets whose key is present and whose signature decoded to a
	// point other than infinity, ordered by group. cand[k] is a set index.
	cand   []int
	groups []group
	gOf    []int // gOf[k]: group of candidate k

	// Blinding scalars, nbytes little-endian bytes per candidate.
	nbits, nbytes int
	scalars       []byte

	spent, budget float64 // planner cost ledger for bisection, µs
	shared        int     // shared checks reserved (sharedChecksMax)

	pks []*curve.G1Affine // candidate keys, built by sums
	pts []*curve.G2Affine // candidate signatures, built by sums
}

type group struct {
	root   [32]byte
	h      curve.G2Affine // hash of root to G2
	lo, hi int            // candidates [lo, hi)
}

// verify checks sets, telling report (when not nil) each verdict as soon as
// it is settled, and returns the verdicts.
func (v *Verifier) verify(sets []Set, report func(i int, valid bool)) []bool {
	c := &call{v: v, sets: sets, out: make([]bool, len(sets)), report: report, settled: make([]bool, len(sets))}
	if len(sets) == 0 {
		return c.out
	}
	c.decode()
	defer c.settleRest()
	if len(c.cand) == 0 {
		return c.out
	}
	c.hashRoots()
	m := len(c.cand)
	c.budget = denseBudget * float64(m) * (2*costMiller + costFinalExp)
	R := roundsFor(v.cfg.SecurityBits)
	pairs := float64((R + 1) / 2)
	fused := pairs*(2*costInG2+costPairFixed) + pairs*float64(m)*costPairAdd
	// A G2 multi-scalar multiplication of a small call costs more than
	// linearly in the scalars' bits (measured: 128-bit about 4x 64-bit).
	scale := float64(v.cfg.SecurityBits) / 64
	conventional := float64(m) * (costInG2 + costMSMG2*scale*scale)
	if m > 1 && fused < conventional {
		if c.fused(R) {
			return c.out
		}
	}
	c.conventional()
	return c.out
}

// decode decompresses every signature once, in parallel, and orders the
// candidates by signing root.
func (c *call) decode() {
	n := len(c.sets)
	c.sigs = make([]crypto.Signature, n)
	okSig := make([]bool, n)
	c.v.w.forEach(n, min(decodeChunk, max(1, n/(2*c.v.cfg.Workers))), func(i int) {
		s := &c.sets[i]
		// No key, the zero-value key and the point at infinity (no valid
		// key is) make this set invalid, and no other: they never enter a
		// sum.
		if s.PublicKey == nil || blspoint.Key(s.PublicKey).IsInfinity() {
			return
		}
		if s.Decoded != nil {
			c.sigs[i] = *s.Decoded
		} else if _, err := c.sigs[i].SetBytesNoSubgroupCheck(s.Signature[:]); err != nil {
			return
		}
		// The infinity signature never verifies against a valid key.
		okSig[i] = !c.sigs[i].IsInfinity()
	})
	for i := range n {
		if !okSig[i] {
			c.settle(i, false) // decided by this set alone: no key or no point
		}
	}
	index := make(map[[32]byte]int)
	var count []int
	gOfSet := make([]int, n)
	for i := range n {
		if !okSig[i] {
			continue
		}
		g, ok := index[c.sets[i].Root]
		if !ok {
			g = len(c.groups)
			index[c.sets[i].Root] = g
			c.groups = append(c.groups, group{root: c.sets[i].Root})
			count = append(count, 0)
		}
		gOfSet[i] = g
		count[g]++
	}
	pos := 0
	for g := range c.groups {
		c.groups[g].lo = pos
		pos += count[g]
		c.groups[g].hi = c.groups[g].lo
	}
	c.cand = make([]int, pos)
	c.gOf = make([]int, pos)
	for i := range n {
		if !okSig[i] {
			continue
		}
		g := &c.groups[gOfSet[i]]
		c.cand[g.hi] = i
		c.gOf[g.hi] = gOfSet[i]
		g.hi++
	}
}

func (c *call) hashRoots() {
	c.v.w.forEach(len(c.groups), 1, func(g int) {
		c.groups[g].h = c.v.hashes.get(c.groups[g].root)
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
// 50 µs each): enough to make the scheduling overhead negligible, few enough
// that two workers share a small call evenly.
const decodeChunk = 16

// inG2Chunk is the number of per-point subgroup checks (about 45 µs each)
// per chunk of the conventional path, for the same reason.
const inG2Chunk = 4

// digitSource yields uniform digits in [0, 13) from a CSPRNG by rejection
// sampling of bytes: a byte below digitBytes (19*13, the largest multiple of
// 13 that fits a byte) gives its residue, so no digit is favoured.
type digitSource struct {
	r   *rand.ChaCha8
	buf [digitBuf]byte
	pos int
}

const (
	digitBytes = 19 * 13
	digitBuf   = 512 // bytes drawn from the generator at a time
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
			return b % 13
		}
	}
}

// fused runs the fused subgroup-and-blinding check of the design note over
// every candidate: R rounds of random digits c_kj in [0, 13); each round sum
// H_j = sum_k c_kj s_k must be in G2; then r_k = sum_j c_kj 13^j blind the
// pairing check, with S = sum_k r_k s_k = sum_j 13^j H_j by Horner's rule.
// It reports false when a round sum is outside G2: some signature is, and
// the caller falls back to checking each point.
func (c *call) fused(R int) bool {
	m := len(c.cand)
	digits := drawDigits(m, R)
	c.pks, c.pts = c.points()
	// Groups large enough get their key sums P_g = sum r_k pk_k from the same
	// digit rounds in G1 (Horner again); the others use a multi-scalar
	// multiplication with the r_k.
	var big []int
	for g := range c.groups {
		if c.groups[g].hi-c.groups[g].lo >= g1RoundsMin {
			big = append(big, g)
		}
	}
	c.reserve(1) // the rounds' check
	H, PG, ok := c.v.pairRounds(c.pts, c.pks, digits, R, c.groups, big)
	if !ok {
		c.v.stats.subgroupFallbacks.Add(1)
		if digits, ok = c.dropOutsideG2(digits, R, H, PG, big); !ok {
			return false
		}
		if m = len(c.cand); m == 0 {
			return true
		}
	}
	// Scalars r_k = sum_j c_kj 13^j, little-endian.
	c.nbits = int(math.Ceil(float64(R) * math.Log2(13)))
	c.nbytes = (c.nbits + 7) / 8
	c.scalars = make([]byte, m*c.nbytes)
	for k := range m {
		var x [3]uint64 // 13^38 < 2^141 < 2^192
		for j := R - 1; j >= 0; j-- {
			mulAdd13(&x, uint64(digits[j*m+k]))
		}
		putLE(c.scalars[k*c.nbytes:(k+1)*c.nbytes], x)
	}
	S := H[R-1]
	for j := R - 2; j >= 0; j-- {
		S.Mul13Add(&H[j])
	}
	known := make(map[int]curve.G1, len(big))
	for x, g := range big {
		P := PG[x][R-1]
		for j := R - 2; j >= 0; j-- {
			P.Mul13Add(&PG[x][j])
		}
		known[g] = P
	}
	whole := c.sums(0, m, &S, known)
	c.spent += c.checkCost(whole)
	c.checkWhole(whole)
	return true
}

// g1RoundsMin is the group size from which a group's key sum comes from the
// digit rounds in G1 rather than from a multi-scalar multiplication.
const g1RoundsMin = 192

// pairRounds computes the R round sums H_j = sum_k c_kj s_k over the
// signatures, two rounds per pass (curve.PairRoundG2), and checks each in
// G2; for every group in big it also computes the round sums of its keys in
// G1. Passes are spread over the workers. It reports false when a round sum
// is outside G2.
func (v *Verifier) pairRounds(pts []*curve.G2Affine, pks []*curve.G1Affine, digits []uint8, R int,
	groups []group, big []int) ([]curve.G2, [][]curve.G1, bool) {
	m := len(pts)
	T := (R + 1) / 2
	H := make([]curve.G2, 2*T)
	PG := make([][]curve.G1, len(big))
	for x := range PG {
		PG[x] = make([]curve.G1, 2*T)
	}
	var zeros []uint8
	if R%2 == 1 {
		zeros = make([]uint8, m)
	}
	roundDigits := func(j int) []uint8 {
		if j >= R {
			return zeros
		}
		return digits[j*m : (j+1)*m]
	}
	var bad atomic.Bool
	v.w.forEach(T*(1+len(big)), 1, func(task int) {
		t, which := task%T, task/T
		d1, d2 := roundDigits(2*t), roundDigits(2*t+1)
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
	return H[:R], PG, !bad.Load()
}

// drawDigits returns R*m uniform digits in [0, 13) from a fresh CSPRNG,
// digits[j*m+k] for round j and point k, with no point's digits all zero.
func drawDigits(m, R int) []uint8 {
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
			if !zero { // r_k must not be zero
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
	R := roundsFor(v.cfg.SecurityBits)
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
	_, _, ok := v.pairRounds(pts, nil, drawDigits(len(pts), R), R, nil, nil)
	return ok
}

func mulAdd13(x *[3]uint64, d uint64) {
	var carry uint64 = d
	for l := range x {
		hi, lo := bits.Mul64(x[l], 13)
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
	inG2 := make([]bool, m)
	c.v.w.forEach(m, inG2Chunk, func(k int) {
		inG2[k] = c.sigs[c.cand[k]].InG2()
	})
	// Drop the points outside G2: their sets are invalid.
	keep := c.cand[:0]
	gOf := c.gOf[:0]
	for k, i := range c.cand {
		if inG2[k] {
			keep = append(keep, i)
			gOf = append(gOf, c.gOf[k])
		} else {
			c.settle(i, false) // its own subgroup check failed
		}
	}
	c.cand, c.gOf = keep, gOf
	c.pks, c.pts = nil, nil
	c.regroup()
	m = len(c.cand)
	if m == 0 {
		return
	}
	if m == 1 {
		c.individual([]int{0})
		return
	}
	c.nbits = c.v.cfg.SecurityBits + marginBits
	c.nbytes = (c.nbits + 7) / 8
	c.scalars = make([]byte, m*c.nbytes)
	r := newRand()
	_, _ = r.Read(c.scalars)
	for k := range m {
		s := c.scalars[k*c.nbytes : (k+1)*c.nbytes]
		for isZero(s) {
			_, _ = r.Read(s)
		}
	}
	whole := c.sums(0, m, nil, nil)
	c.spent += float64(m)*(costMSMG1+costMSMG2) + c.checkCost(whole)
	c.checkWhole(whole)
}

// checkWhole checks the call's candidates together and bisects on failure.
func (c *call) checkWhole(whole node) {
	if !c.reserve(1) { // the fused rounds took them all
		c.individual(allOf(whole))
		return
	}
	A := c.value(whole)
	if A.IsOne() {
		c.accept(whole.lo, whole.hi)
		return
	}
	whole.A, whole.hasA, whole.em, whole.own = A, true, whole.hi-whole.lo <= emRoot, true
	if whole.hi-whole.lo >= locateMin && c.locateAll(whole) {
		return
	}
	c.bisect(whole)
}

// allOf returns the candidates of nd.
func allOf(nd node) []int {
	ks := make([]int, 0, nd.hi-nd.lo)
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

// regroup recomputes the groups' candidate ranges after candidates were
// dropped (c.gOf stays sorted).
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
	var open []int
	for k, i := range c.cand {
		if !c.settled[i] {
			open = append(open, k)
		}
	}
	c.individual(open)
	for i := range c.sets {
		c.settle(i, false) // no-op for the settled; the rest never were candidates
	}
}
