package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestArrivalMainnet checks the derivation on mainnet's figures: the model's
// mean and p95 are the ones asked for, and draws follow it.
func TestArrivalMainnet(t *testing.T) {
	a, err := newArrival(831*time.Millisecond, 1962*time.Millisecond, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.Sigma-0.651) > 0.001 || math.Abs(a.Mu-6.511) > 0.001 {
		t.Fatalf("mu %.4f sigma %.4f, want 6.511 and 0.651", a.Mu, a.Sigma)
	}
	if mean := math.Exp(a.Mu + a.Sigma*a.Sigma/2); math.Abs(mean-831) > 1e-6 {
		t.Errorf("model mean %.3f ms", mean)
	}
	if p95 := a.quantile(0.95); math.Abs(p95-1962) > 1e-6 {
		t.Errorf("model p95 %.3f ms", p95)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	d := make([]float64, 200_000)
	sum := 0.0
	for i := range d {
		d[i] = ms64(a.draw(rng))
		sum += d[i]
	}
	slices.Sort(d)
	if mean := sum / float64(len(d)); math.Abs(mean-831) > 10 {
		t.Errorf("mean of the draws %.1f ms, want about 831", mean)
	}
	if p95 := d[len(d)*95/100]; math.Abs(p95-1962) > 30 {
		t.Errorf("p95 of the draws %.1f ms, want about 1962", p95)
	}
}

// The cut: no draw beyond max, and the share it removes is the model's.
func TestArrivalCut(t *testing.T) {
	a, err := newArrival(831*time.Millisecond, 1962*time.Millisecond, 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if cut := 1 - a.cdf(4*time.Second); cut < 0.002 || cut > 0.004 {
		t.Errorf("the cut at 4 s removes %.4f of the draws, want about 0.003", cut)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100_000 {
		if d := a.draw(rng); d > 4*time.Second || d < 0 {
			t.Fatalf("draw %v outside [0, 4s]", d)
		}
	}
}

func TestArrivalBadModels(t *testing.T) {
	for _, c := range []struct{ mean, p95, max time.Duration }{
		{0, time.Second, time.Second},
		{time.Second, time.Second, time.Hour},            // p95 = mean
		{time.Second, 4 * time.Second, time.Hour},        // p95/mean above 3.87
		{time.Second, 2 * time.Second, time.Millisecond}, // max below the median
	} {
		if _, err := newArrival(c.mean, c.p95, c.max); err == nil {
			t.Errorf("mean %v p95 %v max %v: no error", c.mean, c.p95, c.max)
		}
	}
}
