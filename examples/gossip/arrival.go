package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// arrival is the model of when a topic's messages reach the node: each
// message's delay after its deadline (4 s into the slot for attestations,
// 8 s for aggregates; with -gloas 3 s, 6 s, and 9 s for the PTC's votes)
// is lognormal, given by its mean and 95th percentile, and cut at max (a
// delay beyond it is drawn again).
//
// The lognormal parameters follow from the two figures. With X = exp(mu +
// sigma*Z) and Z standard normal:
//
//	mean = exp(mu + sigma^2/2)    p95 = exp(mu + z*sigma),  z = 1.6448536 (the 95th percentile of Z)
//
// Taking logs and subtracting, sigma^2/2 - z*sigma + ln(p95/mean) = 0, so
//
//	sigma = z - sqrt(z^2 - 2*ln(p95/mean))    mu = ln(mean) - sigma^2/2
//
// The other root, z + sqrt(...), is a distribution whose mean is made by a
// far tail (for mainnet's figures sigma 2.6, a median of 25 ms); the smaller
// root is the one that fits a measured spread. A real solution needs
// p95/mean <= exp(z^2/2), about 3.87. For mainnet's 831 ms and 1,962 ms:
// sigma = 0.651, mu = 6.511 (a median of 672 ms); the cut at 4 s removes
// about 0.3% of the draws.
type arrival struct {
	Mean  time.Duration `json:"mean_ns"`
	P95   time.Duration `json:"p95_ns"`
	Max   time.Duration `json:"max_ns"`
	Mu    float64       `json:"mu"`    // of the delay in milliseconds
	Sigma float64       `json:"sigma"` // of the delay in milliseconds
}

// z95 is the 95th percentile of the standard normal distribution.
const z95 = 1.6448536269514722

// newArrival derives the lognormal model of mean and p95, cut at max.
func newArrival(mean, p95, max time.Duration) (arrival, error) {
	if mean <= 0 || p95 <= mean || max <= 0 {
		return arrival{}, fmt.Errorf("arrival model: mean %v, p95 %v, max %v: want 0 < mean < p95 and max > 0", mean, p95, max)
	}
	m, q := ms64(mean), ms64(p95)
	d := z95*z95 - 2*math.Log(q/m)
	if d < 0 {
		return arrival{}, fmt.Errorf("arrival model: p95/mean = %.2f: no lognormal has it (at most %.2f)", q/m, math.Exp(z95*z95/2))
	}
	sigma := z95 - math.Sqrt(d)
	a := arrival{Mean: mean, P95: p95, Max: max, Sigma: sigma, Mu: math.Log(m) - sigma*sigma/2}
	if a.cdf(max) < 0.5 {
		return a, fmt.Errorf("arrival model: max %v is below the median %.0f ms", max, a.quantile(0.5))
	}
	return a, nil
}

func ms64(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// quantile is the model's q-quantile before the cut, in milliseconds.
func (a arrival) quantile(q float64) float64 {
	return math.Exp(a.Mu + a.Sigma*math.Sqrt2*math.Erfinv(2*q-1))
}

// cdf is the share of draws at most d before the cut.
func (a arrival) cdf(d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return 0.5 * math.Erfc(-(math.Log(ms64(d))-a.Mu)/(a.Sigma*math.Sqrt2))
}

// draw returns one delay.
func (a arrival) draw(rng *rand.Rand) time.Duration {
	for {
		d := time.Duration(math.Exp(a.Mu+a.Sigma*rng.NormFloat64()) * float64(time.Millisecond))
		if d <= a.Max {
			return d
		}
	}
}
