package curve

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// multiples returns 1*g, 2*g, ..., n*g (A is G1Affine or G2Affine, J its
// Jacobian form).
func multiples[A any, J any, PA interface {
	*A
	Jacobian() J
}, PJ interface {
	*J
	AddAffine(*A) *J
	Affine() A
}](g A, n int) []A {
	acc := PA(&g).Jacobian()
	out := make([]A, n)
	for i := range out {
		out[i] = PJ(&acc).Affine()
		PJ(&acc).AddAffine(&g)
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
	m := multiples[G2Affine, G2](G2Generator(), 8)
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
	base := multiples[G2Affine, G2](G2Generator(), distinct)
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

// TestPairRoundInputs: bad inputs to the exported digit rounds give typed
// errors, never a panic or a wrong sum: mismatched lengths, digits of 13 or
// more (which would index past the bucket grid), nil points and the point at
// infinity (which the batch-affine formulas exclude). A nil scratch works.
func TestPairRoundInputs(t *testing.T) {
	g2 := multiples[G2Affine, G2](G2Generator(), 3)
	g1 := multiples[G1Affine, G1](G1Generator(), 3)
	p2 := []*G2Affine{&g2[0], &g2[1], &g2[2]}
	p1 := []*G1Affine{&g1[0], &g1[1], &g1[2]}
	var inf2 G2Affine
	var inf1 G1Affine
	ok := []uint8{1, 2, 3}
	cases := []struct {
		name   string
		p2     []*G2Affine
		p1     []*G1Affine
		d1, d2 []uint8
		want   error
	}{
		{"short digits", p2, p1, ok[:2], ok, ErrInvalidLength},
		{"long digits", p2, p1, ok, []uint8{1, 2, 3, 4}, ErrInvalidLength},
		{"digit 13", p2, p1, []uint8{1, 13, 3}, ok, ErrInvalidArgument},
		{"digit 255", p2, p1, ok, []uint8{255, 0, 0}, ErrInvalidArgument},
		{"nil point", []*G2Affine{&g2[0], nil, &g2[2]}, []*G1Affine{&g1[0], nil, &g1[2]}, ok, ok, ErrInvalidArgument},
		{"infinity", []*G2Affine{&g2[0], &g2[1], &inf2}, []*G1Affine{&g1[0], &g1[1], &inf1}, ok, ok, ErrInfinity},
	}
	for _, c := range cases {
		if _, _, err := PairRoundG2(nil, c.p2, c.d1, c.d2); !errors.Is(err, c.want) {
			t.Errorf("G2, %s: error %v, want %v", c.name, err, c.want)
		}
		if _, _, err := PairRoundG1(nil, c.p1, c.d1, c.d2); !errors.Is(err, c.want) {
			t.Errorf("G1, %s: error %v, want %v", c.name, err, c.want)
		}
	}
	h1, h2, err := PairRoundG2(nil, p2, ok, ok)
	if err != nil || !h1.Equal(&h2) {
		t.Errorf("valid round with nil scratch: err %v, equal sums %v", err, h1.Equal(&h2))
	}
}
