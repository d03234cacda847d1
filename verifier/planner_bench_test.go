package verifier

import (
	"fmt"
	"math"
	"testing"

	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/verifier/internal/rounds"
)

// BenchmarkG1RoundsMin backs g1RoundsMin: a group's key sum from the digit
// rounds in G1 (R/2 pair rounds) against a multi-scalar multiplication with
// the scalars the rounds make, by group size. Run on one core:
//
//	go test -run - -bench G1RoundsMin -benchtime 20x -cpu 1 ./verifier/
func BenchmarkG1RoundsMin(b *testing.B) {
	_, pks := testKeys(b)
	for _, bits := range []int{64, 128} {
		R := roundsFor(bits)
		nbits := int(math.Ceil(float64(R) * math.Log2(digitBase)))
		for _, n := range []int{64, 128, 192, 256, 384} {
			pts := make([]*curve.G1Affine, n)
			for k := range pts {
				pts[k] = blspoint.Key(pks[k%len(pks)])
			}
			round := rounds.Round(rounds.Draw(n, R, true), n, R)
			scalars := make([]byte, n*((nbits+7)/8))
			for i := range scalars {
				scalars[i] = byte(i*7 + 1)
			}
			var sc curve.PairRoundScratch
			b.Run(fmt.Sprintf("bits=%d/n=%d/rounds", bits, n), func(b *testing.B) {
				for b.Loop() {
					for t := range rounds.Passes(R) {
						_, _, _ = curve.PairRoundG1(&sc, pts, round(2*t), round(2*t+1))
					}
				}
			})
			b.Run(fmt.Sprintf("bits=%d/n=%d/msm", bits, n), func(b *testing.B) {
				for b.Loop() {
					curve.MultiExpG1(pts, scalars, nbits)
				}
			})
		}
	}
}
