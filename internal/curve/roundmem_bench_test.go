package curve

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkPairRoundMemory reports the memory one digit-round call takes
// with fresh scratch (B/op) for very large calls: a million points is what
// one verifier task can be handed. The points repeat 1024 distinct ones
// (the memory depends on the count, not on the values).
func BenchmarkPairRoundMemory(b *testing.B) {
	const distinct = 1024
	base := multiples[G2Affine, G2](G2Generator(), distinct)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1 << 16, 1 << 20} {
		pts := make([]*G2Affine, n)
		d1, d2 := make([]uint8, n), make([]uint8, n)
		for k := range n {
			pts[k] = &base[k%distinct]
			d1[k], d2[k] = uint8(rng.IntN(13)), uint8(rng.IntN(13))
		}
		b.Run(fmt.Sprintf("G2/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := PairRoundG2(nil, pts, d1, d2); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
