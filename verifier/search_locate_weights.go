package verifier

import (
	"math/bits"

	"github.com/attpool/attpool/internal/curve"
)

// plainWeighted returns the value of [lo, hi) under the public weights
// w_k = k-p.base+1.
func (c *call) plainWeighted(p *plainRange, lo, hi int) curve.GT {
	if hi-lo >= weightRoundsMin && hi-p.base < weightRoundsMax {
		return c.valueSerial(c.weightedByRounds(p.base, lo, hi))
	}
	s := hi - lo
	nbits := bits.Len(uint(hi - p.base))
	nb := (nbits + 7) / 8
	w := make([]byte, s*nb)
	for k := range s {
		x := lo + k - p.base + 1
		for b := range nb {
			w[k*nb+b] = byte(x >> (8 * b))
		}
	}
	return c.valueSerial(c.weighted(lo, hi, w, nbits))
}

// weightRoundsMin: ranges at least this large get their weighted sums from two
// pair rounds. Below it a multi-scalar multiplication of the small weights
// costs less.
const weightRoundsMin = 256

// weightRounds is the number of base-13 digits weightedByRounds takes of a
// weight: two pair rounds, for weights below weightRoundsMax = 13^4 =
// 28,561. A larger range's weights go through a multi-scalar
// multiplication instead.
const (
	weightRounds    = 4
	weightRoundsMax = digitBase * digitBase * digitBase * digitBase
)

// weightedByRounds returns the range [lo, hi) with sums under the public
// weights w_k = k-base+1, below 13^4. The weights' base-13 digits go through
// two pair rounds, H_j = sum_k d_jk P_k, in G2 and per group in G1. Horner's
// rule then gives S = ((13 H3 + H2) 13 + H1) 13 + H0.
//
// The candidates are never nil nor infinity and the digits are below 13, so
// the rounds return no error. Were one to fail, the weighted value would only
// misdirect the search; it decides nothing.
func (c *call) weightedByRounds(base, lo, hi int) blindedRange {
	d := weightDigits(base, lo, hi)
	sc := c.v.scratch.Get().(*curve.PairRoundScratch)
	defer c.v.scratch.Put(sc)
	nd := c.groupSums(lo, hi, false, func(_, a, b int) curve.G1 {
		var H [weightRounds]curve.G1
		H[0], H[1], _ = curve.PairRoundG1(sc, c.pks[a:b], d[0][a-lo:b-lo], d[1][a-lo:b-lo])
		H[2], H[3], _ = curve.PairRoundG1(sc, c.pks[a:b], d[2][a-lo:b-lo], d[3][a-lo:b-lo])
		return horner(H[:])
	}, nil)
	var H [weightRounds]curve.G2
	H[0], H[1], _ = curve.PairRoundG2(sc, c.pts[lo:hi], d[0], d[1])
	H[2], H[3], _ = curve.PairRoundG2(sc, c.pts[lo:hi], d[2], d[3])
	nd.S = horner(H[:])
	return nd
}

// weightDigits returns the base-13 digits d[j][k] of the public weights
// w_k = lo+k-base+1 of the candidates of [lo, hi).
func weightDigits(base, lo, hi int) [weightRounds][]uint8 {
	var d [weightRounds][]uint8
	for j := range d {
		d[j] = make([]uint8, hi-lo)
	}
	for k := range hi - lo {
		w := lo + k - base + 1
		for j := range d {
			d[j][k] = uint8(w % digitBase)
			w /= digitBase
		}
	}
	return d
}

// weightedTerm returns the inverse of d^w for the public weight w = k+1 of
// the set at offset k in its part. Dividing d's term out of a weighted
// value multiplies by it.
func weightedTerm(d curve.GT, k int) *curve.GT {
	w := uint32(k + 1)
	dw := d.Exp([]byte{byte(w), byte(w >> 8), byte(w >> 16), byte(w >> 24)}, 32)
	return dw.Conjugate()
}
