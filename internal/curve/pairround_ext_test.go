package curve_test

import (
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

// TestPairRound checks PairRoundG2 and PairRoundG1 against Mul: H1 = sum
// d1[k]*P_k and H2 = sum d2[k]*P_k, with repeated points (doublings inside a
// bucket), cancelling pairs, zero digits and, in G2, points outside G2 (the
// verifier's subgroup rounds run on unchecked signatures).
func TestPairRound(t *testing.T) {
	rng := newRand(50)
	g2 := g2Points(300, 51)
	g1 := g1Points(300, 52)
	var pts2 []*curve.G2Affine
	var pts1 []*curve.G1Affine
	for i := range g2 {
		pts2 = append(pts2, &g2[i])
		pts1 = append(pts1, &g1[i])
	}
	// Duplicates and negations, so that buckets hold P+P and P+(-P).
	for i := range 20 {
		n2 := g2[i].Jacobian()
		n2A := n2.Neg().Affine()
		n1 := g1[i].Jacobian()
		n1A := n1.Neg().Affine()
		pts2 = append(pts2, &g2[i], &n2A)
		pts1 = append(pts1, &g1[i], &n1A)
	}
	for range 5 {
		pts2 = append(pts2, randomCurvePoint(t, rng))
	}
	T := order13Point(t, rng)
	TA := T.Affine()
	pts2 = append(pts2, &TA)

	var scratch curve.PairRoundScratch
	for _, n := range []int{0, 1, 2, 13, 100, len(pts1), len(pts2)} {
		d1, d2 := make([]uint8, n), make([]uint8, n)
		for k := range n {
			d1[k], d2[k] = uint8(rng.IntN(13)), uint8(rng.IntN(13))
		}
		if n >= 2 {
			// Same bucket for a point and its duplicate or negation.
			d1[0], d2[0], d1[1], d2[1] = 0, 0, 0, 0
		}
		if n > 300 {
			for i := range 20 {
				j, k := 300+2*i, 301+2*i
				if k < n && i%2 == 0 {
					d1[j], d2[j], d1[k], d2[k] = d1[i], d2[i], d1[i], d2[i]
				}
			}
		}
		if n <= len(pts2) {
			checkPairRound(t, "PairRoundG2", &scratch, pts2[:n], d1, d2, curve.PairRoundG2)
		}
		if n <= len(pts1) {
			checkPairRound(t, "PairRoundG1", &scratch, pts1[:n], d1, d2, curve.PairRoundG1)
		}
	}
	// A point outside G2 with a non-zero digit makes the round sum leave G2
	// unless its digit is 0 mod 13 (here: the order-13 point alone).
	h1, h2, err := curve.PairRoundG2(&scratch, []*curve.G2Affine{&g2[0], &TA}, []uint8{3, 5}, []uint8{4, 0})
	if err != nil {
		t.Fatal(err)
	}
	if h1.InG2() || !h2.InG2() {
		t.Errorf("order-13 point: H1 in G2 %v (want false), H2 in G2 %v (want true)", h1.InG2(), h2.InG2())
	}
}

// checkPairRound compares a round with the sums of Mul by each digit.
func checkPairRound[A interface{ Jacobian() J }, J any, PJ interface {
	*J
	Add(*J) *J
	Mul([]byte, int) *J
	Equal(*J) bool
}](t *testing.T, name string, s *curve.PairRoundScratch, pts []A, d1, d2 []uint8, round func(*curve.PairRoundScratch, []A, []uint8, []uint8) (J, J, error)) {
	t.Helper()
	h1, h2, err := round(s, pts, d1, d2)
	if err != nil {
		t.Fatal(err)
	}
	var w1, w2 J
	for k := range pts {
		a, b := pts[k].Jacobian(), pts[k].Jacobian()
		PJ(&w1).Add(PJ(&a).Mul([]byte{d1[k]}, 4))
		PJ(&w2).Add(PJ(&b).Mul([]byte{d2[k]}, 4))
	}
	if !PJ(&h1).Equal(&w1) || !PJ(&h2).Equal(&w2) {
		t.Errorf("%s, %d points: H1 ok %v, H2 ok %v", name, len(pts), PJ(&h1).Equal(&w1), PJ(&h2).Equal(&w2))
	}
}
