package curve

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkPairRound measures one pass of two digit rounds against summing
// the points once with blst's batch-affine addition (two single rounds cost
// about 2*12/13 of that).
func BenchmarkPairRound(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{512, 1024, 4096} {
		g2 := multiples[G2Affine, G2](G2Generator(), n)
		g1 := multiples[G1Affine, G1](G1Generator(), n)
		pts2 := make([]*G2Affine, n)
		pts1 := make([]*G1Affine, n)
		d1, d2 := make([]uint8, n), make([]uint8, n)
		for k := range n {
			pts2[k], pts1[k] = &g2[k], &g1[k]
			d1[k], d2[k] = uint8(rng.IntN(13)), uint8(rng.IntN(13))
		}
		var s PairRoundScratch
		perPoint := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n)/1000, "µs/pt")
		}
		b.Run(fmt.Sprintf("G2/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				_, _, _ = PairRoundG2(&s, pts2, d1, d2)
			}
			perPoint(b)
		})
		b.Run(fmt.Sprintf("G1/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				_, _, _ = PairRoundG1(&s, pts1, d1, d2)
			}
			perPoint(b)
		})
		b.Run(fmt.Sprintf("SumG2/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				SumG2(pts2)
			}
			perPoint(b)
		})
	}
}
