package verifier

import (
	"math"
	"math/bits"

	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/verifier/internal/rounds"
)

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

// randomScalars sets the blinding scalars to fresh random nonzero ones, each
// uniform over at least 2^(SecurityBits+marginBits) values, from a CSPRNG
// seeded from crypto/rand: sparse ones below curve.StrausMax candidates,
// dense ones of SecurityBits+marginBits bits from it.
func (c *call) randomScalars() {
	if c.sparseCall() {
		c.sparseScalars(pickForm(c.v.sparse, len(c.cand), len(c.groups)))
		return
	}
	c.newScalars(c.v.cfg.SecurityBits + marginBits)
	r := rounds.NewRand()
	_, _ = r.Read(c.scalars)
	for k := range c.cand {
		s := c.scalar(k)
		for c.clip(s); isZero(s); c.clip(s) {
			_, _ = r.Read(s)
		}
	}
}

// clip clears the bits of scalar s above the call's nbits. The sums read
// only nbits bits. The exponentiation method's weighted scalars
// (expSuspect) multiply the whole bytes, so the two must agree.
func (c *call) clip(s []byte) {
	if extra := c.nbytes*8 - c.nbits; extra > 0 {
		s[c.nbytes-1] &= 0xff >> extra
	}
}

// sparseCall reports whether the call's random scalars are sparse: below
// curve.StrausMax candidates, whose sums use Straus's method.
func (c *call) sparseCall() bool { return len(c.cand) < curve.StrausMax }

// newScalars makes room for a scalar of nbits bits per candidate, dense
// until sparseScalars says otherwise.
func (c *call) newScalars(nbits int) {
	c.nbits, c.nbytes, c.split = nbits, (nbits+7)/8, false
	c.scalars = make([]byte, len(c.cand)*c.nbytes)
}

// scalar returns candidate k's blinding scalar.
func (c *call) scalar(k int) []byte { return c.scalars[k*c.nbytes : (k+1)*c.nbytes] }

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}
