package verifier

import (
	"math"

	"github.com/attpool/attpool/verifier/internal/rounds"
)

// The planner's cost model, in microseconds on one core. Only the ratios
// matter; they were measured on a 2-core x86-64 machine with blst v0.3.17.
const (
	costInG2      = 60.0  // one G2 subgroup check
	costPairAdd   = 0.8   // one point of a G2 pair round (two digit rounds)
	costPairFixed = 150.0 // bucket grid and running sums of one pair round
	costMSMG2     = 14.0  // one point of a 64-bit G2 multi-scalar multiplication
	costMiller    = 280.0 // one Miller loop
	costFinalExp  = 470.0 // one final exponentiation
	costMSMG1     = 5.0   // one point of a 64-to-130-bit G1 multi-scalar multiplication
	// costSmallMSM is one set's share, per 64 bits of scalar, of a small
	// call's sums under dense scalars (from curve.StrausMax sets), and
	// costSparseMSM under sparse ones (below it). Their cost grows with the
	// bound's bits.
	costSmallMSM  = 50.0
	costSparseMSM = 36.0
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

// denseBudget is the share of checking every candidate alone that bisection
// may spend. It counts from the failed whole check, so a small call keeps one
// check of budget.
//
// Past it the rest is checked set by set, so a dense call costs at most about
// 1.15 checks per set. TestDenseSwitch holds a half-invalid call within 1.2.
const denseBudget = 0.15

// individualBelow: failing ranges this small are checked set by set, not
// halved. Halving four sets down to one costs as many checks, and the sums
// besides.
const individualBelow = 4

// pathCosts is the planner's choice of path. It holds what the fused rounds
// on R rounds cost, and what a subgroup check per point and a multi-scalar
// multiplication cost. fused is infinite for a call of one candidate.
func (c *call) pathCosts(R int) (fused, conventional float64) {
	m := float64(len(c.cand))
	passes := float64(rounds.Passes(R))
	fused = passes*(2*costInG2+costPairFixed) + passes*m*costPairAdd
	if m <= 1 {
		fused = math.Inf(1)
	}
	sums := costSmallMSM
	if c.sparseCall() {
		sums = costSparseMSM
	}
	scale := float64(c.v.cfg.SecurityBits) / 64
	return fused, m * (costInG2 + sums*scale)
}

// checkWork is the planner's estimate of a passing call's work after its
// decoding, on one core (µs). It counts its subgroup checks and sums by the
// path chosen (sums) and its key sums. It adds a Miller loop per root and
// one more, and the final exponentiation.
func (c *call) checkWork(sums float64) float64 {
	m, g := float64(len(c.cand)), float64(len(c.groups))
	return sums + m*costMSMG1 + (g+1)*costMiller + costFinalExp
}

// helperGrain is the least work, in cost-model µs, a call gives each helper
// goroutine. A helper costs a wake-up per parallel step, which a call of a few
// sets does not repay.
const helperGrain = 2000.0

// helpersFor is the workers a call of work µs takes beside its caller: one
// per helperGrain of it, at most Config.Workers.
func (v *Verifier) helpersFor(work float64) int {
	return min(v.cfg.Workers, int(work/helperGrain))
}

// checkCost is the planner's cost of one check of [lo, hi): a Miller loop
// per group it meets, one more, and a final exponentiation.
func (c *call) checkCost(lo, hi int) float64 {
	return float64(c.gOf[hi-1]-c.gOf[lo]+2)*costMiller + costFinalExp
}

// sumsCost is the planner's cost of a node's sums by multi-scalar
// multiplication and its check.
func (c *call) sumsCost(nd blindedRange) float64 {
	return float64(nd.size())*costMSMSet + c.checkCost(nd.lo, nd.hi)
}

// inG2Chunk is the number of per-point subgroup checks in one chunk of the
// conventional path. Chunks that small let two workers share a small call
// evenly.
const inG2Chunk = 4
