package verifier

import (
	"math"
	"math/bits"

	"github.com/attpool/attpool/internal/curve"
)

// Exponentiation method limits. Ranges of at most emMax sets may try it. The
// weights lengthen the scalars by log2(s) bits, and findPower takes about 2
// sqrt(s) multiplications. A failing range of at most emSmall sets whose
// sibling also failed is presumed to hold one invalid set. emSmall is where
// ranges of a call with few invalid sets start to pass.
const (
	emMax   = 512
	emSmall = karyPartSize
	emRoot  = emMax // a whole call of at most this many candidates tries it
)

// expSuspect looks for the single invalid set of a failing range with one more
// pairing. This is the exponentiation method of Law and Matt, with weights w_k
// = 1..s on the range's sets. When set i alone is invalid, the weighted value
// B equals A^w_i, A being the range's value. Trying A^j for j = 1..s finds it.
//
// It returns the candidate i, or ok false when no j matches: the range holds
// several invalid sets and must be split. The match only names a suspect;
// expMethod decides it.
func (c *call) expSuspect(nd blindedRange) (k int, ok bool) {
	s := nd.size()
	nbits := c.nbits + bits.Len(uint(s))
	nb := (nbits + 7) / 8
	sc := make([]byte, s*nb)
	for k := range s {
		mulSmall(sc[k*nb:(k+1)*nb], c.scalar(nd.lo+k), uint64(k+1))
	}
	j := findPower(nd.A, c.valueSerial(c.weighted(nd.lo, nd.hi, sc, nbits)), s)
	if j == 0 {
		return 0, false
	}
	return nd.lo + j - 1, true
}

// expMethod resolves failing nodes likely to hold a single invalid set each.
// expSuspect names a suspect k. The one-set check of k under the call's
// scalars, V_k = e(r_k pk_k, H) * e(-g1, r_k s_k), decides it (see
// judgeSuspect). It reports, per node, whether it was resolved. An
// unresolved node keeps what its suspect's check settled and is split.
func (c *call) expMethod(nodes []blindedRange) []bool {
	ks := make([]int, len(nodes))
	oks := make([]bool, len(nodes))
	vals := make([]curve.GT, len(nodes))
	c.each(len(nodes), 1, func(x int) {
		ks[x], oks[x] = c.expSuspect(nodes[x])
		if oks[x] {
			vals[x] = c.valueSerial(c.sums(ks[x], ks[x]+1, nil, nil))
		}
	})
	done := make([]bool, len(nodes))
	for x := range nodes {
		done[x] = oks[x] && c.judgeSuspect(&nodes[x], ks[x], vals[x])
	}
	return done
}

// judgeSuspect settles suspect k of a failing range by its one-set check value
// V, valid exactly when V is one. It reports whether that resolves the range.
// When V equals the range's value A, the rest of the range has value A/V = 1,
// by bilinearity, and is accepted.
func (c *call) judgeSuspect(nd *blindedRange, k int, V curve.GT) bool {
	if V.IsOne() { // the suspect is valid: the weights were fooled
		c.settle(c.cand[k], true)
		return false
	}
	c.settle(c.cand[k], false)
	if !V.Equal(&nd.A) { // more invalid sets in the node
		return false
	}
	c.v.stats.expMethod.Add(1)
	c.accept(nd.lo, k)
	c.accept(k+1, nd.hi)
	return true
}

// findPower returns the j in [1, s] with A^j == B, or 0, for values of GT.
// When s is large it takes baby steps and giant steps (about 2*sqrt(s)
// multiplications); otherwise it tries them one by one.
func findPower(A, B curve.GT, s int) int {
	if s <= bsgsMin {
		cur := A
		for j := 1; j <= s; j++ {
			if cur.Equal(&B) {
				return j
			}
			cur.Mul(&A)
		}
		return 0
	}
	b := int(math.Ceil(math.Sqrt(float64(s))))
	baby := make(map[curve.GT]int, b)
	cur := A
	for j := 1; j <= b; j++ {
		baby[cur] = j
		cur.Mul(&A)
	}
	// cur is A^(b+1); the giant step is A^-b.
	giant := cur
	giant.Mul(A.Conjugate()) // A^b (A is its own copy here)
	giant.Conjugate()
	g := B
	for i := 0; i*b < s; i++ {
		if j, ok := baby[g]; ok && i*b+j <= s {
			return i*b + j
		}
		g.Mul(&giant)
	}
	return 0
}

// bsgsMin: findPower steps one by one up to this many exponents. Baby and
// giant steps would save a few multiplications beside the pairing that made B.
const bsgsMin = 32

// mulSmall sets dst = x * w for a little-endian x (dst has room).
func mulSmall(dst, x []byte, w uint64) {
	var carry uint64
	for i := range dst {
		var b uint64
		if i < len(x) {
			b = uint64(x[i])
		}
		t := b*w + carry
		dst[i] = byte(t)
		carry = t >> 8
	}
}
