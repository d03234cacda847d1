package main

import (
	"math"
	"time"
)

// fluidBound is what the arrival model alone costs a node as fast as the
// burst run: the attestations' arrival rate at its peak, and the longest
// wait in a queue that drains at the burst's rate (a fluid queue: work
// that arrives faster than it is served waits, nothing else does). A
// streaming run's p99 above Wait is the cost of streaming (smaller calls,
// scheduling); a target below Wait cannot be met without a faster burst.
type fluidBound struct {
	Rate     float64 `json:"burst_rate_per_second"` // messages a second, of the burst run
	Peak     float64 `json:"peak_rate_per_second"`  // the attestations' arrival rate at its peak
	PeakAtMs float64 `json:"peak_at_ms"`            // after the attestation deadline
	WaitMs   float64 `json:"wait_ms"`               // the longest wait in the fluid queue
}

// fluidStep is the integration step of fluidQueue, far below the waits it
// reports.
const fluidStep = 100 * time.Microsecond

// fluidQueue integrates n arrivals of model a (its density, renormalised to
// the cut at a.Max, as draw redraws longer delays) against a server of rate
// messages a second.
func fluidQueue(a arrival, n int, rate float64) fluidBound {
	b := fluidBound{Rate: rate}
	if rate <= 0 || n == 0 {
		return b
	}
	kept := 0.5 * math.Erfc(-(math.Log(float64(a.Max)/float64(time.Millisecond))-a.Mu)/(a.Sigma*math.Sqrt2))
	dt := fluidStep.Seconds()
	queue, worst := 0.0, 0.0
	for t := fluidStep; t <= a.Max; t += fluidStep {
		ms := float64(t) / float64(time.Millisecond)
		z := (math.Log(ms) - a.Mu) / a.Sigma
		perMs := math.Exp(-z*z/2) / (ms * a.Sigma * math.Sqrt(2*math.Pi)) / kept
		arriving := float64(n) * perMs * 1000 // a second
		if arriving > b.Peak {
			b.Peak, b.PeakAtMs = arriving, ms
		}
		queue = max(0, queue+(arriving-rate)*dt)
		worst = max(worst, queue/rate)
	}
	b.WaitMs = 1000 * worst
	return b
}
