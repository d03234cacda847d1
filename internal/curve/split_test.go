package curve

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// splitScalar returns the nb little-endian bytes of k0 + k1*x^2, with the
// halves of h bits each (k0 negated when neg0), or false when it is
// negative.
func splitScalar(rng *rand.Rand, h int, neg0 bool, nb int) ([]byte, bool) {
	k0, k1 := randInt(rng, h), randInt(rng, h)
	if neg0 {
		k0.Neg(k0)
	}
	v := k1.Mul(k1, splitBase).Add(k1, k0)
	if v.Sign() < 0 || v.BitLen() > nb*8 {
		return nil, false
	}
	be := v.FillBytes(make([]byte, nb))
	le := make([]byte, nb)
	for i, b := range be {
		le[nb-1-i] = b
	}
	return le, true
}

// randInt returns a random integer of at most h bits.
func randInt(rng *rand.Rand, h int) *big.Int {
	b := make([]byte, (h+7)/8)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	v := new(big.Int).SetBytes(b)
	return v.Rsh(v, uint(len(b)*8-h))
}

// TestSplit: the split multiplications equal the sum of blst's products,
// for dense scalars of 1 to 263 bits, scalars of the split form with short
// halves (a negative low half among them), zero scalars, the point at
// infinity, a repeated point, and StrausMax points (blst's Pippenger).
func TestSplit(t *testing.T) {
	rng := rand.New(rand.NewChaCha8([32]byte{'s', 'p', 'l', 'i', 't'}))
	for _, nbits := range []int{1, 64, 128, 129, 130, 192, 255, 263} {
		for _, n := range []int{1, 2, 5, 17, 31, 32} {
			g1s, g2s := strausPoints(rng, n)
			nb := (nbits + 7) / 8
			k := make([]byte, n*nb)
			for b := range k {
				k[b] = byte(rng.Uint32())
			}
			if n > 2 {
				clear(k[:nb]) // a zero scalar
			}
			if nbits > 200 { // the split form: halves of 20 to 70 bits
				for i := 1; i < n; i++ {
					if s, ok := splitScalar(rng, 20+i%51, i%2 == 0, nb); ok {
						copy(k[i*nb:], s)
					}
				}
			}
			if got, want := MultiExpG2Split(g2s, k, nbits), perPoint[*G2Affine, G2](g2s, k, nbits); !got.Equal(&want) {
				t.Errorf("G2, %d points, %d bits: the sum differs from blst's", n, nbits)
			}
			if got, want := MultiExpG1Split(g1s, k, nbits), perPoint[*G1Affine, G1](g1s, k, nbits); !got.Equal(&want) {
				t.Errorf("G1, %d points, %d bits: the sum differs from blst's", n, nbits)
			}
		}
	}
}

// TestSplitScalars: the halves recombine to the scalar, the low half
// within x^2/2, and a scalar built from short halves gives them back.
func TestSplitScalars(t *testing.T) {
	rng := rand.New(rand.NewChaCha8([32]byte{'h'}))
	nb := 33
	half := new(big.Int).Rsh(splitBase, 1)
	for range 200 {
		s, ok := splitScalar(rng, 60, rng.IntN(2) == 0, nb)
		if !ok {
			continue
		}
		k, neg, kbits := splitScalars(s, 1, nb*8)
		if kbits > 61 {
			t.Fatalf("halves of 60 bits came back with %d bits", kbits)
		}
		kb := (kbits + 7) / 8
		k0, k1 := leInt(k[:kb]), leInt(k[kb:2*kb])
		if k0.Cmp(half) > 0 {
			t.Fatalf("low half %v above x^2/2", k0)
		}
		if neg[0] == 1 {
			k0.Neg(k0)
		}
		if v := k1.Mul(k1, splitBase).Add(k1, k0); v.Cmp(leInt(s)) != 0 {
			t.Fatalf("halves recombine to %v, want %v", v, leInt(s))
		}
	}
}

func leInt(le []byte) *big.Int {
	be := make([]byte, len(le))
	for i, b := range le {
		be[len(le)-1-i] = b
	}
	return new(big.Int).SetBytes(be)
}

// sparseSplit returns n scalars k0 + k1*x^2 (little-endian, nbits bits)
// whose halves of h digits hold w nonzero digits, non-adjacent, in all.
func sparseSplit(rng *rand.Rand, n, h, w, nbits int) []byte {
	nb := (nbits + 7) / 8
	out := make([]byte, n*nb)
	for i := range n {
		var pos []int
		for len(pos) < w {
			p := rng.IntN(2 * h)
			ok := true
			for _, q := range pos {
				if q >= p-1 && q <= p+1 {
					ok = false
				}
			}
			if ok {
				pos = append(pos, p)
			}
		}
		k := [2]*big.Int{new(big.Int), new(big.Int)}
		for _, p := range pos {
			d := new(big.Int).Lsh(big.NewInt(1), uint(p%h))
			if rng.IntN(2) == 0 {
				d.Neg(d)
			}
			k[p/h].Add(k[p/h], d)
		}
		v := k[1].Mul(k[1], splitBase).Add(k[1], k[0])
		v.Abs(v)
		be := v.FillBytes(make([]byte, nb))
		for j, b := range be {
			out[i*nb+nb-1-j] = b
		}
	}
	return out
}

// BenchmarkSplitMultiExp compares the split multiplications of sparse
// scalars (halves of h digits, w nonzero digits in all: the verifier's
// draws) with Straus's method on dense 73-bit scalars: CPU time per point.
func BenchmarkSplitMultiExp(b *testing.B) {
	rng := rand.New(rand.NewChaCha8([32]byte{'b'}))
	for _, n := range []int{2, 4, 8, 16, 31} {
		g1s, g2s := strausPoints(rng, n)
		dense := make([]byte, n*10)
		for i := range dense {
			dense[i] = byte(rng.Uint32())
		}
		run := func(name string, f func()) {
			b.Run(name+"/n="+itoa(n), func(b *testing.B) {
				for b.Loop() {
					f()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N*n), "µs/point")
			})
		}
		run("g2/dense73", func() { strausG2(g2s, dense, 73, nil) })
		run("g1/dense73", func() { strausG1(g1s, dense, 73, nil) })
		for _, hw := range [][2]int{{40, 21}, {48, 18}, {64, 15}, {80, 14}} {
			k := sparseSplit(rng, n, hw[0], hw[1], 130+hw[0])
			name := "h=" + itoa(hw[0]) + ",w=" + itoa(hw[1])
			run("g2/split/"+name, func() { MultiExpG2Split(g2s, k, 130+hw[0]) })
			run("g1/split/"+name, func() { MultiExpG1Split(g1s, k, 130+hw[0]) })
		}
	}
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

// TestExpSplit: the split exponentiation equals the plain one for values
// of GT, for dense scalars of 1 to 263 bits, scalars of the split form
// (a negative low half among them) and zero.
func TestExpSplit(t *testing.T) {
	rng := rand.New(rand.NewChaCha8([32]byte{'g', 't'}))
	g1, g2 := G1Generator(), G2Generator()
	m := MillerLoop([]G1Affine{g1}, []G2Affine{g2})
	a := m.FinalExp()
	for _, nbits := range []int{1, 64, 128, 129, 193, 255, 263} {
		nb := (nbits + 7) / 8
		for i := range 6 {
			k := make([]byte, nb)
			switch {
			case i == 0:
			case i%2 == 0 && nbits > 200:
				s, ok := splitScalar(rng, 64, i == 4, nb)
				if !ok {
					continue
				}
				k = s
			default:
				for b := range k {
					k[b] = byte(rng.Uint32())
				}
			}
			if got, want := a.ExpSplit(k, nbits), a.Exp(k, nbits); !got.Equal(&want) {
				t.Errorf("%d bits, scalar %d: a^k differs from the plain exponentiation", nbits, i)
			}
		}
	}
}
