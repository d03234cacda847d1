package verifier

import (
	"math"

	"github.com/attpool/attpool/verifier/internal/rounds"
)

// digitBase is the base of the fused rounds' digits, the least prime factor
// of G2's cofactor.
const digitBase = rounds.Base

// sharedChecksMax bounds the checks of one call that share its scalars and
// may accept a set. Each errs with probability at most 13^-R, so a call errs
// with at most sharedChecksMax times that; past it, sets are checked alone.
const (
	sharedChecksMax = 1 << marginBits
	marginBits      = 9
)

// A fused call starts on firstRoundsN rounds, enough for firstChecks shared
// checks: all a passing call makes, or a failing one the locate step
// settles. A call needing more first draws the margin rounds up to roundsFor,
// for sharedChecksMax more checks. The two bounds add up to at most 2^-bits.
//
// A call over many roots (manyRootsCall) starts on rounds for
// 2^chunkFirstChecksBits first checks. Its chunk search checks up to two
// ranges per chunk under the first scalars, and each could err.
const (
	firstChecks          = 1 << firstChecksBits
	firstChecksBits      = 2
	chunkFirstChecksBits = 10
)

// firstRoundsN returns R0, the least number of rounds with 2^cb *
// 13^-R0 <= 2^-bits: 18 for 64 bits and 36 for 128 with firstChecks, 20
// and 38 with chunkFirstChecksBits.
func firstRoundsN(bits, cb int) int { return rounds.For(bits, cb) }

// roundsFor returns R, the least number of rounds with firstChecks *
// 13^-R0 + sharedChecksMax * 13^-R <= 2^-bits, R0 their firstRoundsN: 21
// for 64 bits, 38 for 128.
func roundsFor(bits int) int { return roundsForN(bits, firstChecksBits) }

// roundsForN is roundsFor for 2^cb first checks on firstRoundsN rounds: 22
// for 64 bits and 38 for 128 with chunkFirstChecksBits (2^-64.005 and
// 2^-130.03 in all).
func roundsForN(bits, cb int) int {
	first := math.Ldexp(math.Pow(digitBase, -float64(firstRoundsN(bits, cb))), cb)
	left := math.Ldexp(1, -bits) - first
	return int(math.Ceil(math.Log(sharedChecksMax/left) / math.Log(digitBase)))
}

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
