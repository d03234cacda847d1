package verifier

import "math"

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
