package crypto

import (
	"fmt"
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

// BenchmarkPairRound measures one pass of two digit rounds against summing
// the points once with blst's batch-affine addition (two single rounds cost
// about 2*12/13 of that).
func BenchmarkPairRound(b *testing.B) {
	rng := newRand(7)
	for _, n := range []int{512, 1024, 4096} {
		g2 := g2Points(n, 8)
		g1 := g1Points(n, 9)
		pts2 := make([]*curve.G2Affine, n)
		pts1 := make([]*curve.G1Affine, n)
		d1, d2 := make([]uint8, n), make([]uint8, n)
		for k := range n {
			pts2[k], pts1[k] = &g2[k], &g1[k]
			d1[k], d2[k] = uint8(rng.IntN(13)), uint8(rng.IntN(13))
		}
		var s curve.PairRoundScratch
		perPoint := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n)/1000, "µs/pt")
		}
		b.Run(fmt.Sprintf("G2/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				_, _, _ = curve.PairRoundG2(&s, pts2, d1, d2)
			}
			perPoint(b)
		})
		b.Run(fmt.Sprintf("G1/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				_, _, _ = curve.PairRoundG1(&s, pts1, d1, d2)
			}
			perPoint(b)
		})
		b.Run(fmt.Sprintf("SumG2/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				curve.SumG2(pts2)
			}
			perPoint(b)
		})
	}
}
