package verifier

import (
	"math/bits"

	"github.com/attpool/attpool/internal/curve"
)

// subgroupLeaf: the descent of dropOutsideG2 stops at ranges of at most this
// many points and checks their subgroups one by one. A pair round costs
// about costPairFixed+costInG2, three or four single subgroup checks.
const subgroupLeaf = 4

// dropOutsideG2 handles fused rounds that failed: some signature is outside
// G2. Rather than checking every point alone, it follows a failing round sum
// down to the point that makes it fail. The round's sum over a range's left
// half costs one pair round with the same digits; the right half's is the
// range's less it. A sum of points of G2 is in G2, so one half fails, and the
// descent goes there.
//
// At a few points, each one's own subgroup check finds the point outside G2
// and rejects its set. Its terms leave every round sum, its key's too where
// key sums come from the rounds. The rounds are checked again until all are in
// G2, and the fused check goes on with no fresh draw. It reports false,
// leaving the call unchanged, when the points outside G2 are too many for the
// descent to pay.
func (c *call) dropOutsideG2(digits []uint8, R int, H []curve.G2, PG [][]curve.G1, big []int) ([]uint8, bool) {
	m := len(c.cand)
	work := append([]uint8(nil), digits...) // digits with the dropped points' zeroed
	outside := make([]bool, m)
	found, limit := 0, c.dropLimit(R)
	for j := firstOutside(H); j >= 0; j = firstOutside(H) {
		if found >= limit || !c.reserve(1) { // the next check of the rounds
			return nil, false
		}
		k := c.descend(work, m, j, H[j])
		if k < 0 { // the arithmetic disagrees with itself: take the safe path
			return nil, false
		}
		outside[k] = true
		found++
		c.removeTerms(k, digits, m, R, H, PG, big)
		for jj := range R {
			work[jj*m+k] = 0
		}
	}
	c.v.stats.outsideG2.Add(int64(found))
	kept := c.removeInvalid(outside) // their own subgroup checks failed
	return keptDigits(digits, kept, m, R), true
}

// firstOutside returns the first round whose sum is outside G2, or -1.
func firstOutside(H []curve.G2) int {
	for j := range H {
		if !H[j].InG2() {
			return j
		}
	}
	return -1
}

// keptDigits returns the digits of the kept candidates (their former
// indexes, of m), round by round.
func keptDigits(digits []uint8, kept []int, m, R int) []uint8 {
	out := make([]uint8, R*len(kept))
	for x, k := range kept {
		for j := range R {
			out[j*len(kept)+x] = digits[j*m+k]
		}
	}
	return out
}

// dropLimit is how many points outside G2 dropOutsideG2 may look for before
// checking every point alone costs less (by the planner's cost model).
func (c *call) dropLimit(R int) int {
	m := float64(len(c.cand))
	levels := float64(bits.Len(uint(len(c.cand))))
	descent := m*costPairAdd + levels*(costPairFixed+costInG2) + float64(subgroupLeaf+R)*costInG2
	alone := m * (costInG2 + costMSMG2 + costMSMG1)
	return int(alone / descent)
}

// descend returns a candidate outside G2 whose term makes round j's sum Hj
// (over the candidates, with digits work) leave G2, or -1 if none is found.
func (c *call) descend(work []uint8, m, j int, Hj curve.G2) int {
	d := work[j*m : (j+1)*m]
	zeros := make([]uint8, m)
	lo, hi, sum := 0, m, Hj
	sc := c.v.scratch.Get().(*curve.PairRoundScratch)
	defer c.v.scratch.Put(sc)
	for hi-lo > subgroupLeaf {
		mid := lo + (hi-lo)/2
		left, _, err := curve.PairRoundG2(sc, c.pts[lo:mid], d[lo:mid], zeros[lo:mid])
		if err != nil {
			return -1
		}
		if !left.InG2() {
			hi, sum = mid, left
			continue
		}
		sum.Sub(&left)
		lo = mid
	}
	for k := lo; k < hi; k++ {
		if d[k] != 0 && !c.pts[k].InG2() {
			return k
		}
	}
	return -1
}

// digitBits is the bits of a digit (below digitBase = 13 < 2^4).
const digitBits = 4

// removeTerms takes candidate k's terms c_kj s_k out of the round sums, and
// c_kj pk_k out of its group's key round sums when they come from the rounds.
func (c *call) removeTerms(k int, digits []uint8, m, R int, H []curve.G2, PG [][]curve.G1, big []int) {
	x := -1
	for y, g := range big {
		if g == c.gOf[k] {
			x = y
		}
	}
	for j := range R {
		dg := digits[j*m+k]
		if dg == 0 {
			continue
		}
		s := c.pts[k].Jacobian()
		s.Mul([]byte{dg}, digitBits)
		H[j].Sub(&s)
		if x >= 0 {
			p := c.pks[k].Jacobian()
			p.Mul([]byte{dg}, digitBits)
			PG[x][j].Sub(&p)
		}
	}
}
