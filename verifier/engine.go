package verifier

import (
	crand "crypto/rand"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/attpool/attpool/crypto"
)

// Cost model of the planner, in microseconds on one core (measured on the
// project's 2-core machine with blst v0.3.17; only ratios matter).
const (
	costInG2       = 60.0  // one G2 subgroup check
	costBatchAdd   = 0.8   // one point of a batch-affine G2 sum
	costRoundFixed = 40.0  // bucket combination and bookkeeping of one round
	costMSMG2      = 14.0  // one point of a 64-bit G2 multi-scalar multiplication
	costMiller     = 280.0 // one Miller loop
	costFinalExp   = 470.0 // one final exponentiation
	costMSMG1      = 5.0   // one point of a 64-to-130-bit G1 multi-scalar multiplication
)

// denseBudget is the share of the cost of checking every candidate alone that
// bisection may spend before the rest is checked one by one.
const denseBudget = 0.15

// individualBelow: failing ranges of at most this many sets are checked one
// by one (in parallel) instead of being halved.
const individualBelow = 4

// roundsFor returns the number of subgroup rounds R for a soundness of
// 2^-bits: the subgroup rounds and the blinding each fail with probability
// at most 13^-R, so R is the least with 2*13^-R <= 2^-bits.
func roundsFor(bits int) int {
	return int(math.Ceil(float64(bits+1) / math.Log2(13)))
}

// call is the state of one Verify call.
type call struct {
	v    *Verifier
	sets []Set
	out  []bool
	sigs []crypto.Signature

	// Candidates: sets whose key is present and whose signature decoded to a
	// point other than infinity, ordered by group. cand[k] is a set index.
	cand   []int
	groups []group
	gOf    []int // gOf[k]: group of candidate k

	// Blinding scalars, nbytes little-endian bytes per candidate.
	nbits, nbytes int
	scalars       []byte

	spent, budget float64 // planner cost ledger for bisection, µs

	pks []*crypto.G1Affine // candidate keys, built by sums
	pts []*crypto.G2Affine // candidate signatures, built by sums
}

type group struct {
	root   [32]byte
	h      crypto.G2Affine // hash of root to G2
	lo, hi int             // candidates [lo, hi)
}

func (v *Verifier) verify(sets []Set) []bool {
	c := &call{v: v, sets: sets, out: make([]bool, len(sets))}
	if len(sets) == 0 {
		return c.out
	}
	c.decode()
	if len(c.cand) == 0 {
		return c.out
	}
	c.hashRoots()
	m := len(c.cand)
	c.budget = denseBudget * float64(m) * (2*costMiller + costFinalExp)
	R := roundsFor(v.cfg.SecurityBits)
	fused := float64(R)*(costInG2+costRoundFixed) + float64(m*R)*costBatchAdd*12/13
	conventional := float64(m) * (costInG2 + costMSMG2)
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
	c.v.w.forEach(n, 16, func(i int) {
		s := &c.sets[i]
		if s.PublicKey == nil {
			return
		}
		if _, err := c.sigs[i].SetBytesNoSubgroupCheck(s.Signature[:]); err != nil {
			return
		}
		// The infinity signature never verifies against a valid key.
		okSig[i] = !c.sigs[i].IsInfinity()
	})
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

// digitSource yields uniform digits in [0, 13) from a CSPRNG by rejection
// sampling of bytes (a byte below 247 = 19*13 gives its residue).
type digitSource struct {
	r   *rand.ChaCha8
	buf [512]byte
	pos int
}

func (d *digitSource) next() uint8 {
	for {
		if d.pos == len(d.buf) {
			_, _ = d.r.Read(d.buf[:])
			d.pos = 0
		}
		b := d.buf[d.pos]
		d.pos++
		if b < 247 {
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
	digits := make([]uint8, R*m) // digits[j*m+k]
	ds := digitSource{r: newRand(), pos: 512}
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
	pts := make([]*crypto.G2Affine, m)
	for k, i := range c.cand {
		pts[k] = c.sigs[i].Point()
	}
	H := make([]crypto.G2, R)
	inG2 := make([]bool, R)
	c.v.w.forEach(R, 1, func(j int) {
		H[j] = roundSum(pts, digits[j*m:(j+1)*m])
		inG2[j] = H[j].InG2()
	})
	for _, ok := range inG2 {
		if !ok {
			c.v.stats.subgroupFallbacks.Add(1)
			return false
		}
	}
	// Scalars r_k = sum_j c_kj 13^j, little-endian.
	c.nbits = int(math.Ceil(float64(R) * math.Log2(13)))
	c.nbytes = (c.nbits + 7) / 8
	c.scalars = make([]byte, m*c.nbytes)
	for k := range m {
		var x [3]uint64 // 13^35 < 2^130 < 2^192
		for j := R - 1; j >= 0; j-- {
			mulAdd13(&x, uint64(digits[j*m+k]))
		}
		putLE(c.scalars[k*c.nbytes:(k+1)*c.nbytes], x)
	}
	S := H[R-1]
	for j := R - 2; j >= 0; j-- {
		S.Mul13Add(&H[j])
	}
	whole := c.sums(0, m, &S)
	c.spent += c.checkCost(whole)
	if c.check(whole) {
		c.accept(0, m)
		return true
	}
	c.bisect(whole)
	return true
}

// roundSum returns sum_k digits[k]*pts[k]: the points are sorted into twelve
// buckets by digit, each bucket summed with batch-affine addition, and the
// buckets combined by a running sum.
func roundSum(pts []*crypto.G2Affine, digits []uint8) crypto.G2 {
	var count [13]int
	for _, d := range digits {
		count[d]++
	}
	var start [13]int
	pos := 0
	for d := 1; d < 13; d++ {
		start[d] = pos
		pos += count[d]
	}
	sorted := make([]*crypto.G2Affine, pos)
	next := start
	for k, d := range digits {
		if d != 0 {
			sorted[next[d]] = pts[k]
			next[d]++
		}
	}
	acc, sum := crypto.G2Infinity(), crypto.G2Infinity()
	for d := 12; d >= 1; d-- {
		b := crypto.SumG2(sorted[start[d] : start[d]+count[d]])
		acc.Add(&b)
		sum.Add(&acc)
	}
	return sum
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
	c.v.w.forEach(m, 4, func(k int) {
		inG2[k] = c.sigs[c.cand[k]].InG2()
	})
	// Drop the points outside G2: their sets are invalid.
	keep := c.cand[:0]
	gOf := c.gOf[:0]
	for k, i := range c.cand {
		if inG2[k] {
			keep = append(keep, i)
			gOf = append(gOf, c.gOf[k])
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
		c.individual(0, 1)
		return
	}
	c.nbits = c.v.cfg.SecurityBits
	c.nbytes = c.nbits / 8
	c.scalars = make([]byte, m*c.nbytes)
	r := newRand()
	_, _ = r.Read(c.scalars)
	for k := range m {
		s := c.scalars[k*c.nbytes : (k+1)*c.nbytes]
		for isZero(s) {
			_, _ = r.Read(s)
		}
	}
	whole := c.sums(0, m, nil)
	c.spent += c.checkCost(whole)
	if c.check(whole) {
		c.accept(0, m)
		return
	}
	c.bisect(whole)
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

func (c *call) accept(lo, hi int) {
	for k := lo; k < hi; k++ {
		c.out[c.cand[k]] = true
	}
}
