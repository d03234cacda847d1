package verifier

import (
	"math/big"
	"math/rand/v2"
	"slices"

	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/verifier/internal/rounds"
)

// Sparse blinding scalars. A call below curve.StrausMax candidates checks
// every signature's subgroup first, so its sums may use the endomorphism that
// multiplies G1 and G2 by x^2 (curve.MultiExpG2Split). It draws each scalar as
// r = a0 + a2*x^2 from a non-adjacent form of 2h digits with exactly w
// nonzero: a0 holds the low h digits, a2 the high h, and the top nonzero
// digit is positive, so r > 0. Distinct draws are distinct scalars (|a0| <
// 2^h <= x^2/2), so r is uniform over count(h, w) values. A sum then costs
// w additions per set and h doublings per call, against a third of the
// scalar's bits and all its bits for a dense scalar.

// sparseForm is the shape of a sparse scalar: halves of h digits, w of the
// 2h nonzero.
type sparseForm struct{ h, w int }

// Halves of sparseMinH to sparseMaxH digits; sparseMaxH keeps 2^(h+1)
// below x^2/2 (x^2 has 128 bits).
const (
	sparseMinH = 32
	sparseMaxH = 124
)

// sparseForms returns, for each half length that has one, the fewest
// nonzero digits whose draws number at least 2^bits, shortest first.
// Shorter halves never need fewer digits, so the lengths are taken from
// the longest down, each from the next one's count. A count falls with w
// past its peak: once a longer w counts less and still too few, no shorter
// half has a form.
func sparseForms(bits int) []sparseForm {
	need := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	var forms []sparseForm
	w := 1
	for h := sparseMaxH; h >= sparseMinH; h-- {
		c := sparseCount(h, w)
		for c.Cmp(need) < 0 {
			next := sparseCount(h, w+1)
			if next.Cmp(c) <= 0 {
				slices.Reverse(forms)
				return forms
			}
			w, c = w+1, next
		}
		forms = append(forms, sparseForm{h, w})
	}
	slices.Reverse(forms)
	return forms
}

// sparseCount is the number of draws of a form: the non-adjacent placements
// of w digits among 2h, C(2h-w+1, w), times the signs of all but the top.
func sparseCount(h, w int) *big.Int {
	c := new(big.Int).Binomial(int64(2*h-w+1), int64(w))
	return c.Lsh(c, uint(w-1))
}

// Relative costs of a sparse sum's steps in G2 (BenchmarkSplitMultiExp): a
// mixed addition per nonzero digit and set, a doubling per digit and sum.
// G1's cost a third as much.
const (
	costSparseAdd    = 1.3
	costSparseDouble = 1.0
	costSparseG1     = 1.0 / 3
)

// pickForm returns the form whose sums cost least for m sets over g roots:
// one G2 sum and a G1 sum per root.
func pickForm(forms []sparseForm, m, g int) sparseForm {
	best, bestCost := forms[0], 0.0
	adds, doubles := float64(m)*(1+costSparseG1)*costSparseAdd, (1+float64(g)*costSparseG1)*costSparseDouble
	for i, f := range forms {
		cost := float64(f.w)*adds + float64(f.h)*doubles
		if i == 0 || cost < bestCost {
			best, bestCost = f, cost
		}
	}
	return best
}

// sparseScalars sets the call's scalars to sparse ones of form f, each
// uniform over its form's draws.
func (c *call) sparseScalars(f sparseForm) {
	c.newScalars(f.h + 129) // r < 2^h * x^2 + 2^h
	c.split = true
	r := rand.New(rounds.NewRand())
	base := curve.SplitBase()
	var a0, a2, v big.Int
	for k := range c.cand {
		drawSparse(r, f, &a0, &a2)
		v.Mul(&a2, base)
		v.Add(&v, &a0)
		putBig(c.scalar(k), &v)
	}
}

// drawSparse sets a0 and a2 to the halves of a uniform draw of form f. Its
// digits' places are a uniform w-subset s_1 < ... < s_w of [0, 2h-w+1)
// (Floyd's method), spread to s_i + i so that no two are adjacent.
func drawSparse(r *rand.Rand, f sparseForm, a0, a2 *big.Int) {
	m := 2*f.h - f.w + 1
	var chosen [2*sparseMaxH + 1]bool
	for j := m - f.w; j < m; j++ {
		if t := r.IntN(j + 1); chosen[t] {
			chosen[j] = true
		} else {
			chosen[t] = true
		}
	}
	var half [2][2]big.Int // [half][positive, negative] digits
	i, top := 0, 0
	for s := range m {
		if chosen[s] {
			top = s + i
			i++
		}
	}
	i = 0
	for s := range m {
		if !chosen[s] {
			continue
		}
		p := s + i
		i++
		sign := int(r.Uint32() & 1)
		if p == top {
			sign = 0
		}
		x := &half[p/f.h][sign]
		x.SetBit(x, p%f.h, 1)
	}
	a0.Sub(&half[0][0], &half[0][1])
	a2.Sub(&half[1][0], &half[1][1])
}

// putBig writes the nonnegative v into dst, little-endian.
func putBig(dst []byte, v *big.Int) {
	v.FillBytes(dst)
	slices.Reverse(dst)
}
