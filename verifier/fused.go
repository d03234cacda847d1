package verifier

import (
	"sync/atomic"

	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/verifier/internal/rounds"
)

// fused runs the fused subgroup-and-blinding check over every candidate
// (docs/DESIGN.md). Each round draws random digits c_kj in [0, 13), and its
// sum H_j = sum_k c_kj s_k must be in G2. Then r_k = sum_j c_kj 13^j blind the
// pairing check, and S = sum_j 13^j H_j by Horner's rule.
//
// It runs on R0 rounds (firstRoundsN). When they fail, or when the call goes
// on to bisection, the margin rounds up to R come first. It reports false when
// a round sum is outside G2 and the descent does not pay. The caller then
// falls back to checking each point.
func (c *call) fused(R0, R int) bool {
	digits := rounds.Draw(len(c.cand), R0, true)
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
// before bisection's many shared checks. The scalars grow to R rounds', and
// the whole call's sums and value are computed again under them. A call on
// random scalars has its margin already; one whose first rounds are R has none
// to draw.
//
// It returns the whole call's failing range, or false when the call needs no
// bisection. That is when the new check passes and accepts every undecided
// set. It is also when a margin round sum is outside G2, with probability at
// most 13^-R0 per point outside: every undecided point is then checked alone.
func (c *call) withMargin(whole blindedRange) (blindedRange, bool) {
	f := c.first
	if f == nil {
		return whole, true
	}
	c.first, c.sharedBase = nil, c.shared
	if f.R <= len(f.H) {
		// The first rounds are already R (a call over many roots at 128
		// bits). There are no fresh digits and the same scalars. The whole
		// call's value is the failing one already computed.
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

// marginRounds extends the fused rounds [0, from) to [0, to). It draws fresh
// uniform digits for every candidate. The first rounds' digits already make
// each scalar nonzero, and r_k < 13^from keeps it so. It computes their
// round sums in G2 and, for the big groups, in G1. It reports whether the
// new sums are in G2. With to <= from it draws nothing and returns its
// inputs. The call's candidates must be those the first rounds were drawn
// for.
func (c *call) marginRounds(digits []uint8, from, to int, H []curve.G2, PG [][]curve.G1, big []int) ([]uint8, []curve.G2, [][]curve.G1, bool) {
	if to <= from { // no margin rounds to draw
		return digits, H, PG, true
	}
	c.v.stats.marginRounds.Add(1)
	m := len(c.cand)
	extra := rounds.Draw(m, to-from, false)
	h, pg, ok := c.v.pairRounds(c.helpers, c.pts, c.pks, extra, to-from, c.groups, big)
	digits = append(digits[:from*m:from*m], extra...)
	H = append(H[:from:from], h...)
	for x := range PG {
		PG[x] = append(PG[x][:from:from], pg[x]...)
	}
	return digits, H, PG, ok
}

// blindedSums sets the call's scalars from the digits of R rounds and
// returns the whole call's node under them. S comes by Horner's rule over
// the round sums, and the big groups' key sums likewise. The others' come by
// multi-scalar multiplication. The spent ledger is charged for its check.
func (c *call) blindedSums(digits []uint8, R int, H []curve.G2, PG [][]curve.G1, big []int) blindedRange {
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
// r_k pk_k come from the digit rounds in G1 (Horner again). The others' come
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

// g1RoundsMin is the group size from which its key sum comes from the digit
// rounds in G1. There the rounds break even with a multi-scalar multiplication
// (BenchmarkG1RoundsMin).
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

// pairRounds computes the R round sums H_j = sum_k c_kj s_k over the
// signatures, two rounds per pass (curve.PairRoundG2), and checks each in
// G2. For every group in big it also computes the round sums of its keys in
// G1. Passes are spread over the caller and at most helpers workers. It
// reports false when a round sum is outside G2.
func (v *Verifier) pairRounds(helpers int, pts []*curve.G2Affine, pks []*curve.G1Affine, digits []uint8, R int,
	groups []group, big []int) ([]curve.G2, [][]curve.G1, bool) {
	T := rounds.Passes(R)
	H := make([]curve.G2, 2*T)
	PG := make([][]curve.G1, len(big))
	for x := range PG {
		PG[x] = make([]curve.G1, 2*T)
	}
	round := rounds.Round(digits, len(pts), R)
	var bad atomic.Bool
	v.w.forEach(helpers, T*(1+len(big)), 1, func(task int) {
		t, which := task%T, task/T
		sc := v.scratch.Get().(*curve.PairRoundScratch)
		defer v.scratch.Put(sc)
		if which == 0 {
			var ok bool
			H[2*t], H[2*t+1], ok = rounds.G2Pass(sc, pts, round, t, R)
			if !ok {
				bad.Store(true)
			}
			return
		}
		d1, d2 := round(2*t), round(2*t+1)
		g := groups[big[which-1]]
		var err error
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
