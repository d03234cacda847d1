package verifier

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

// TestSparseForms: each form's draws number at least 2^bits, with the
// fewest nonzero digits that do, for the bounds of 64- and 128-bit calls.
func TestSparseForms(t *testing.T) {
	for _, bits := range []int{64 + marginBits, 128 + marginBits} {
		need := new(big.Int).Lsh(big.NewInt(1), uint(bits))
		forms := sparseForms(bits)
		if len(forms) == 0 || forms[len(forms)-1].h != sparseMaxH {
			t.Fatalf("%d bits: forms %v, want one per half length up to %d", bits, forms, sparseMaxH)
		}
		for i, f := range forms {
			if i > 0 && f.h != forms[i-1].h+1 {
				t.Errorf("%d bits: no form of %d digits a half", bits, forms[i-1].h+1)
			}
			if sparseCount(f.h, f.w).Cmp(need) < 0 {
				t.Errorf("%d bits: form %+v has fewer than 2^%d draws", bits, f, bits)
			}
			if f.w > 1 && sparseCount(f.h, f.w-1).Cmp(need) >= 0 {
				t.Errorf("%d bits: form %+v has more nonzero digits than it needs", bits, f)
			}
		}
		for _, m := range []int{2, 16, 31} { // a dense scalar's sums: a third of its bits in additions
			f := pickForm(forms, m, 1)
			sparse := float64(m*f.w)*costSparseAdd + float64(f.h)*costSparseDouble
			dense := float64(m*bits)/3*costSparseAdd + float64(bits)*costSparseDouble
			if sparse >= 0.9*dense {
				t.Errorf("%d bits, %d sets: form %+v costs %.0f, dense scalars %.0f", bits, m, f, sparse, dense)
			}
		}
	}
	if f := pickForm(sparseForms(73), 16, 1); f.w > 15 {
		t.Errorf("73 bits, 16 sets: %+v, want at most 15 additions a set", f)
	}
}

// TestDrawSparse: a draw is a non-adjacent form of exactly w digits whose
// top digit is positive, and the draws of a small form are uniform over
// its count (each value within 25% of its expected frequency).
func TestDrawSparse(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'d'}))
	f := sparseForm{h: 4, w: 2}
	count := int(sparseCount(f.h, f.w).Int64()) // 42
	const per = 2000
	seen := map[string]int{}
	var a0, a2 big.Int
	for range count * per {
		drawSparse(r, f, &a0, &a2)
		digits := nafDigits(t, &a0, &a2, f.h)
		weight, top := 0, 0
		for i, d := range digits {
			if d != 0 {
				weight++
				top = d
				if i > 0 && digits[i-1] != 0 {
					t.Fatalf("adjacent digits in %v", digits)
				}
			}
		}
		if weight != f.w || top != 1 {
			t.Fatalf("digits %v: weight %d, top %d", digits, weight, top)
		}
		seen[a0.String()+","+a2.String()]++
	}
	if len(seen) != count {
		t.Fatalf("%d distinct draws, want %d", len(seen), count)
	}
	for k, n := range seen {
		if n < per*3/4 || n > per*5/4 {
			t.Errorf("draw %s came %d times, want about %d", k, n, per)
		}
	}
}

// nafDigits returns the 2h digits of a0 and a2's non-adjacent forms (a0's
// first), failing when either needs more than h.
func nafDigits(t *testing.T, a0, a2 *big.Int, h int) []int {
	var out []int
	for _, a := range []*big.Int{a0, a2} {
		v := new(big.Int).Set(a)
		for range h {
			d := 0
			if v.Bit(0) == 1 || (v.Sign() < 0 && new(big.Int).Abs(v).Bit(0) == 1) {
				m := new(big.Int).And(v, big.NewInt(3)).Int64() // v mod 4 in [0, 4)
				d = 1
				if m == 3 {
					d = -1
				}
			}
			v.Sub(v, big.NewInt(int64(d)))
			v.Rsh(v, 1)
			out = append(out, d)
		}
		if v.Sign() != 0 {
			t.Fatalf("half %v needs more than %d digits", a, h)
		}
	}
	return out
}

// TestSparseScalars: a small call's scalars are r = a0 + a2*x^2 of its form,
// positive, within nbits, and not all alike.
func TestSparseScalars(t *testing.T) {
	v := newVerifier(t, 64)
	c := &call{v: v, cand: make([]int, 12)}
	c.randomScalars()
	if !c.split {
		t.Fatal("a call of 12 candidates has dense scalars")
	}
	distinct := map[string]bool{}
	for k := range c.cand {
		s := leBig(c.scalar(k))
		if s.Sign() <= 0 || s.BitLen() > c.nbits {
			t.Fatalf("scalar %v of %d bits, nbits %d", s, s.BitLen(), c.nbits)
		}
		distinct[s.String()] = true
	}
	if len(distinct) != len(c.cand) {
		t.Errorf("%d distinct scalars of %d", len(distinct), len(c.cand))
	}
	c = &call{v: v, cand: make([]int, curve.StrausMax)}
	if c.randomScalars(); c.split || c.nbits != 64+marginBits {
		t.Errorf("a call of %d candidates: split %v, %d bits", curve.StrausMax, c.split, c.nbits)
	}
}

func leBig(le []byte) *big.Int {
	be := make([]byte, len(le))
	for i, b := range le {
		be[len(le)-1-i] = b
	}
	return new(big.Int).SetBytes(be)
}
