package curve

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/attpool/attpool/internal/testenv"
	blst "github.com/supranational/blst/bindings/go"
)

// strausPoints returns n random points of G1 and of G2 (multiples of the
// generators), with the point at infinity and a repeated point among them
// once n >= 4, so that the additions meet P+P and P+(-P).
func strausPoints(rng *rand.Rand, n int) ([]*G1Affine, []*G2Affine) {
	g1s, g2s := make([]*G1Affine, n), make([]*G2Affine, n)
	g1, g2 := G1Generator(), G2Generator()
	for i := range n {
		k := make([]byte, 32)
		for b := range k {
			k[b] = byte(rng.Uint32())
		}
		j1, j2 := g1.Jacobian(), g2.Jacobian()
		a1, a2 := j1.Mul(k, 255).Affine(), j2.Mul(k, 255).Affine()
		g1s[i], g2s[i] = &a1, &a2
	}
	if n >= 4 {
		g1s[1], g2s[1] = &G1Affine{}, &G2Affine{}
		g1s[3], g2s[3] = g1s[2], g2s[2]
	}
	return g1s, g2s
}

// perPoint is sum k_i*P_i by blst's multiplication of each point.
func perPoint[A interface{ Jacobian() J }, J any, PJ interface {
	*J
	Mul([]byte, int) *J
	Add(*J) *J
}](pts []A, k []byte, nbits int) J {
	nb := (nbits + 7) / 8
	var acc J
	for i, p := range pts {
		q := p.Jacobian()
		PJ(&acc).Add(PJ(&q).Mul(k[i*nb:(i+1)*nb], nbits))
	}
	return acc
}

// TestStraus: the small multi-scalar multiplications equal the sum of
// blst's products, for scalars of 1 to 255 bits (zero, one and all-ones
// scalars among them; bits above nbits in the last byte ignored), the point
// at infinity and a repeated point.
func TestStraus(t *testing.T) {
	rng := rand.New(rand.NewChaCha8([32]byte{'s', 't', 'r', 'a', 'u', 's'}))
	for _, nbits := range []int{1, 4, 7, 8, 63, 64, 65, 128, 130, 255} {
		for _, n := range []int{1, 2, 3, 5, 8, 17, 33} {
			g1s, g2s := strausPoints(rng, n)
			nb := (nbits + 7) / 8
			k := make([]byte, n*nb)
			for b := range k {
				k[b] = byte(rng.Uint32())
			}
			if n > 2 { // scalars zero, one and all ones
				clear(k[:2*nb])
				k[nb] = 1
				for b := range nb {
					k[2*nb+b] = 0xff
				}
			}
			if got, want := strausG2(g2s, k, nbits, nil), perPoint[*G2Affine, G2](g2s, k, nbits); !got.Equal(&want) {
				t.Errorf("G2, %d points, %d bits: the sum differs from blst's", n, nbits)
			}
			if got, want := strausG1(g1s, k, nbits, nil), perPoint[*G1Affine, G1](g1s, k, nbits); !got.Equal(&want) {
				t.Errorf("G1, %d points, %d bits: the sum differs from blst's", n, nbits)
			}
		}
	}
}

// BenchmarkSmallMultiExp compares Straus's method with blst's for few
// points: wall and CPU time per point (blst's runs on threads of its own).
func BenchmarkSmallMultiExp(b *testing.B) {
	rng := rand.New(rand.NewChaCha8([32]byte{'b'}))
	for _, nbits := range []int{7, 16, 64, 128} {
		for _, n := range []int{2, 4, 8, 16, 31, 32, 64} {
			g1s, g2s := strausPoints(rng, n)
			g1s[1], g2s[1] = g1s[0], g2s[0] // blst's Pippenger takes no infinity
			nb := (nbits + 7) / 8
			k := make([]byte, n*nb)
			for i := range k {
				k[i] = byte(rng.Uint32())
			}
			p2, p1 := make([]*blst.P2Affine, n), make([]*blst.P1Affine, n)
			for i := range n {
				p2[i], p1[i] = &g2s[i].p, &g1s[i].p
			}
			run := func(name string, f func()) {
				b.Run(fmt.Sprintf("%s/bits=%d/n=%d", name, nbits, n), func(b *testing.B) {
					c := testenv.CPUTime()
					for b.Loop() {
						f()
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N*n), "µs/point")
					b.ReportMetric(float64((testenv.CPUTime()-c).Nanoseconds())/1e3/float64(b.N*n), "cpu-µs/point")
				})
			}
			run("g2/straus", func() { strausG2(g2s, k, nbits, nil) })
			run("g2/blst", func() { blst.P2AffinesMult(p2, k, nbits) })
			run("g1/straus", func() { strausG1(g1s, k, nbits, nil) })
			run("g1/blst", func() { blst.P1AffinesMult(p1, k, nbits) })
		}
	}
}
