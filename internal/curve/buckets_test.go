package curve

import (
	"math/rand/v2"
	"testing"
)

// multiplesG2 returns 1*g, 2*g, ..., n*g of G2's generator.
func multiplesG2(n int) []G2Affine {
	g := G2Generator()
	acc := g.Jacobian()
	out := make([]G2Affine, n)
	for i := range out {
		out[i] = acc.Affine()
		acc.AddAffine(&g)
	}
	return out
}

// roundWantG2 is sum_k d[k]*pts[k], one multiplication a point.
func roundWantG2(pts []*G2Affine, d []uint8) G2 {
	var w G2
	for k := range pts {
		q := pts[k].Jacobian()
		w.Add(q.Mul([]byte{d[k]}, 4))
	}
	return w
}

// TestPairRoundCancellingRuns: buckets whose pairs cancel (P + (-P), the
// zero denominators the batch inversion skips) at the start, the end, in
// runs and throughout, beside finite pairs and doublings, give the plain
// sums.
func TestPairRoundCancellingRuns(t *testing.T) {
	m := multiplesG2(8)
	neg := make([]G2Affine, len(m))
	for i := range m {
		j := m[i].Jacobian()
		neg[i] = j.Neg().Affine()
	}
	P, N := func(i int) *G2Affine { return &m[i] }, func(i int) *G2Affine { return &neg[i] }
	cases := map[string][]*G2Affine{
		"all cancel":   {P(0), N(0), P(1), N(1), P(2), N(2)},
		"cancel first": {P(0), N(0), P(1), P(2), P(3), P(4)},
		"cancel last":  {P(1), P(2), P(3), P(4), P(0), N(0)},
		"run inside":   {P(1), P(2), P(0), N(0), P(3), N(3), P(5), N(5), P(4), P(6)},
		"doublings":    {P(1), P(1), P(2), N(2), P(3), P(3), N(4), P(4), P(7)},
		"alternating":  {P(0), N(0), P(1), P(2), P(3), N(3), P(4), P(5), P(6), N(6), P(7), P(1)},
	}
	for name, pts := range cases {
		// Every point in one bucket (the pairs form as listed), and then the
		// same points spread over two buckets.
		for _, spread := range []bool{false, true} {
			d1, d2 := make([]uint8, len(pts)), make([]uint8, len(pts))
			for k := range pts {
				d1[k], d2[k] = 3, 7
				if spread && k >= len(pts)/2 {
					d1[k] = 5
				}
			}
			h1, h2, err := PairRoundG2(nil, pts, d1, d2)
			if err != nil {
				t.Fatal(err)
			}
			w1, w2 := roundWantG2(pts, d1), roundWantG2(pts, d2)
			if !h1.Equal(&w1) || !h2.Equal(&w2) {
				t.Errorf("%s (spread %v): H1 ok %v, H2 ok %v", name, spread, h1.Equal(&w1), h2.Equal(&w2))
			}
		}
	}
}

// TestPairRoundChunks: a call of more than maxRoundPoints points, summed in
// chunks, gives the sums of one piece; and the scratch holds nothing of the
// digits afterwards (the sorted points and the bucket counts are zero).
func TestPairRoundChunks(t *testing.T) {
	const distinct = 64
	base := multiplesG2(distinct)
	rng := rand.New(rand.NewPCG(3, 4))
	n := 2*maxRoundPoints + 5
	pts := make([]*G2Affine, n)
	d1, d2 := make([]uint8, n), make([]uint8, n)
	var tot1, tot2 [distinct]uint64
	for k := range n {
		j := k % distinct
		pts[k] = &base[j]
		d1[k], d2[k] = uint8(rng.IntN(13)), uint8(rng.IntN(13))
		tot1[j] += uint64(d1[k])
		tot2[j] += uint64(d2[k])
	}
	var s PairRoundScratch
	h1, h2, err := PairRoundG2(&s, pts, d1, d2)
	if err != nil {
		t.Fatal(err)
	}
	// sum_k d[k]*pts[k] = sum_j (sum of the digits of base[j]) * base[j].
	var w1, w2 G2
	for j := range distinct {
		for _, c := range []struct {
			w   *G2
			tot uint64
		}{{&w1, tot1[j]}, {&w2, tot2[j]}} {
			q := base[j].Jacobian()
			k := []byte{byte(c.tot), byte(c.tot >> 8), byte(c.tot >> 16), byte(c.tot >> 24)}
			c.w.Add(q.Mul(k, 32))
		}
	}
	if !h1.Equal(&w1) || !h2.Equal(&w2) {
		t.Errorf("%d points in chunks: H1 ok %v, H2 ok %v", n, h1.Equal(&w1), h2.Equal(&w2))
	}
	if got, limit := cap(s.p2), maxRoundPoints+maxRoundPoints/2+2*169+1; got > limit {
		t.Errorf("scratch grew to %d points for %d, want at most %d", got, n, limit)
	}
	for i, p := range s.p2[:cap(s.p2)] {
		if p != (G2{}).p {
			t.Fatalf("scratch point %d not cleared after the call", i)
		}
	}
	for b, c := range s.cnt {
		if c != 0 {
			t.Fatalf("bucket count %d not cleared after the call", b)
		}
	}
}
