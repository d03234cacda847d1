// Package rounds holds the digit rounds of the verifier's batch subgroup
// check (docs/DESIGN.md, "Soundness"): uniform digits in [0, 13) drawn from
// a CSPRNG seeded from crypto/rand, and the check of a pass's two round sums
// in G2. Package verifier builds its fused check on them, and package
// verifier/baseline its subgroup check alone.
package rounds

import (
	crand "crypto/rand"
	"math"
	"math/rand/v2"

	"github.com/attpool/attpool/internal/curve"
)

// Base is the least prime factor of G2's cofactor, the base of the digits. A
// round of uniform digits catches a point outside G2 with probability at
// least 12/13.
const Base = 13

// For returns the least number of rounds R with 2^checksBits * 13^-R <=
// 2^-bits: the rounds that keep 2^checksBits checks sharing them sound to
// bits bits (18 for 64 bits and 4 checks, 36 for 128).
func For(bits, checksBits int) int {
	return int(math.Ceil(float64(bits+checksBits) / math.Log2(Base)))
}

// Passes is the number of pair rounds (curve.PairRoundG2, two digit rounds
// per pass over the points) that R rounds take.
func Passes(R int) int { return (R + 1) / 2 }

// NewRand returns a ChaCha8 CSPRNG seeded from crypto/rand.
func NewRand() *rand.ChaCha8 {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		panic("attpool/verifier: crypto/rand failed: " + err.Error())
	}
	return rand.NewChaCha8(seed)
}

// Source yields uniform digits in [0, Base) from a CSPRNG by rejection
// sampling of bytes. A byte below digitBytes (the largest multiple of the
// base that fits a byte) gives its residue. So no digit is favoured.
type Source struct {
	r   *rand.ChaCha8
	buf [digitBuf]byte
	pos int
}

const (
	digitBytes = 256 / Base * Base
	// digitBuf is the bytes drawn from the generator at a time: 512
	// (about 494 digits) amortise a read's overhead and stay in L1.
	digitBuf = 512
)

// NewSource returns a Source on a fresh CSPRNG (NewRand).
func NewSource() *Source { return &Source{r: NewRand(), pos: digitBuf} }

// Next returns the next digit.
func (d *Source) Next() uint8 {
	for {
		if d.pos == len(d.buf) {
			_, _ = d.r.Read(d.buf[:])
			d.pos = 0
		}
		b := d.buf[d.pos]
		d.pos++
		if b < digitBytes {
			return b % Base
		}
	}
}

// Draw returns R*m uniform digits in [0, 13) from a fresh CSPRNG,
// digits[j*m+k] for round j and point k. With nonzero, no point's digits are
// all zero: a point whose digits are all zero draws them again.
func Draw(m, R int, nonzero bool) []uint8 {
	digits := make([]uint8, R*m)
	ds := NewSource()
	for k := range m {
		for {
			zero := true
			for j := range R {
				d := ds.Next()
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

// Round returns the digits of round j of the m points (digits[j*m:
// (j+1)*m]); the round past R, which an odd R's last pass holds, has zeros.
func Round(digits []uint8, m, R int) func(j int) []uint8 {
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

// G2Pass computes pass t of R rounds over the signature points: the round
// sums H_2t and H_2t+1 of round's digits. ok reports whether they are in G2
// (the second only when it is a round, 2t+1 < R). An input error counts as
// a failed round, so that per-point checks decide.
func G2Pass(sc *curve.PairRoundScratch, pts []*curve.G2Affine, round func(j int) []uint8, t, R int) (H1, H2 curve.G2, ok bool) {
	H1, H2, err := curve.PairRoundG2(sc, pts, round(2*t), round(2*t+1))
	ok = err == nil && H1.InG2() && (2*t+1 >= R || H2.InG2())
	return H1, H2, ok
}
