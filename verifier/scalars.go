package verifier

import (
	crand "crypto/rand"
	"math"
	"math/bits"
	"math/rand/v2"
)

// newRand returns a ChaCha8 CSPRNG seeded from crypto/rand.
func newRand() *rand.ChaCha8 {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		panic("attpool/verifier: crypto/rand failed: " + err.Error())
	}
	return rand.NewChaCha8(seed)
}

// digitSource yields uniform digits in [0, digitBase) from a CSPRNG by
// rejection sampling of bytes. A byte below digitBytes (the largest multiple
// of the base that fits a byte) gives its residue. So no digit is favoured.
type digitSource struct {
	r   *rand.ChaCha8
	buf [digitBuf]byte
	pos int
}

const (
	digitBytes = 256 / digitBase * digitBase
	// digitBuf is the bytes drawn from the generator at a time: 512
	// (about 494 digits) amortise a read's overhead and stay in L1.
	digitBuf = 512
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
			return b % digitBase
		}
	}
}

// drawDigits returns R*m uniform digits in [0, 13) from a fresh CSPRNG,
// digits[j*m+k] for round j and point k. No point's digits are all zero
// when nonzero: a point whose digits are all zero draws them again.
func drawDigits(m, R int, nonzero bool) []uint8 {
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
			if !zero || !nonzero { // r_k must not be zero
				break
			}
		}
	}
	return digits
}

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

// randomScalars sets the blinding scalars to fresh random nonzero ones of
// SecurityBits+marginBits bits, from a CSPRNG seeded from crypto/rand.
func (c *call) randomScalars() {
	c.newScalars(c.v.cfg.SecurityBits + marginBits)
	r := newRand()
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

// newScalars makes room for a scalar of nbits bits per candidate.
func (c *call) newScalars(nbits int) {
	c.nbits, c.nbytes = nbits, (nbits+7)/8
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
