package pool

import (
	"math"
	"time"
)

// The latency budget (Config.LatencyBudget). When a verify worker is free
// and sets are queued, it either starts a call at once or waits for
// companions. It waits at most until the oldest queued set has waited the
// budget. It picks whichever costs less CPU per set by the pool's own
// figures. One is the cost of its recent calls (callCost: a fixed cost per
// call, a cost per distinct signing root, a cost per set). The other is the
// recent arrival rates (arrivals: of every set, and of each signing root met
// more than once). From them it expects the sets and the new roots that the
// time left would bring. A call's fixed cost (its final exponentiation, its
// signature sum's Miller loop, the parallel steps' wake-ups) is most of a
// small call's. So at light traffic a few sets more halve the cost per set.
// A set on a root of its own costs a Miller loop (and a hash) whatever the
// batching.

// rateWindow is the time constant of the arrival rates: a count decays by
// e every rateWindow, so a rate is about the arrivals of the last
// rateWindow. At the arrival model's peak (latency benchmark) 50 ms holds
// dozens of arrivals even at 2 subnets. A rate follows the slot's rise and
// fall within a tenth of it. A longer window would keep sets waiting after
// the arrivals have stopped.
const rateWindow = 50 * time.Millisecond

// rateForget is the decayed count below which a root's rate is forgotten
// (its last set is about 7 windows old): its expected sets in any budget
// are then negligible.
const rateForget = 1e-3

// waitGainMin is the least expected cut of the CPU per set for which a
// worker waits. Below it the estimates' noise (a rate over rateWindow, a
// fit over the last calls) is about the size of the gain. The wait then
// costs latency for nothing.
const waitGainMin = 0.1

// arrivals is the recent arrival rate of the signature sets queued (not the
// isolated peers'), in all and per signing root. It keeps counts that decay
// by e every rateWindow: a count divided by rateWindow is a rate per second.
// Roots met once (an aggregate's own message) are counted apart as fresh.
// Each brings a new root to any call. A root met again (a committee's
// AttestationData, a slot's selection proof) brings one only to a call that
// has none of its sets yet.
type arrivals struct {
	at    time.Time // of total and fresh
	total float64   // every set
	fresh float64   // sets whose root was not met in the last few windows
	roots map[[32]byte]*rootRate
	sweep int // len(roots) at which forgotten roots are swept out
}

// rootRate is the decayed count of one root's sets, as of at.
type rootRate struct {
	count  float64
	at     time.Time
	repeat bool // met more than once
}

// decay is the factor a count keeps over d.
func decay(d time.Duration) float64 {
	if d <= 0 {
		return 1
	}
	return math.Exp(-float64(d) / float64(rateWindow))
}

// seen counts a set of root arriving at now.
func (a *arrivals) seen(root [32]byte, now time.Time) {
	a.advance(now)
	a.total++
	if a.roots == nil {
		a.roots = make(map[[32]byte]*rootRate)
	}
	r := a.roots[root]
	if r == nil {
		a.fresh++
		a.roots[root] = &rootRate{count: 1, at: now}
		if len(a.roots) >= a.sweep {
			a.forget(now)
		}
		return
	}
	r.count = r.count*decay(now.Sub(r.at)) + 1
	r.at, r.repeat = now, true
}

// advance decays the counts of every set and of the fresh roots to now.
func (a *arrivals) advance(now time.Time) {
	f := decay(now.Sub(a.at))
	a.total *= f
	a.fresh *= f
	a.at = now
}

// forget drops the roots whose count has decayed below rateForget; the next
// sweep comes when the map has doubled.
func (a *arrivals) forget(now time.Time) {
	for k, r := range a.roots {
		if r.count*decay(now.Sub(r.at)) < rateForget {
			delete(a.roots, k)
		}
	}
	a.sweep = 2*len(a.roots) + 64
}

// expect is what the next d brings at the current rates. That is the sets,
// and the roots among them that a call holding the queued roots lacks. Each
// fresh set brings one. A root met before, not queued, brings one if any of
// its sets comes.
func (a *arrivals) expect(now time.Time, d time.Duration, queued func([32]byte) bool) (sets, roots float64) {
	a.advance(now)
	per := d.Seconds() / rateWindow.Seconds() // a count times per is the sets expected in d
	sets, roots = a.total*per, a.fresh*per
	for k, r := range a.roots {
		if r.repeat && !queued(k) {
			roots += 1 - math.Exp(-r.count*decay(now.Sub(r.at))*per)
		}
	}
	return sets, min(roots, sets)
}

// callCost is the pool's fitted cost of a verification call: seconds =
// perCall + perRoot*roots + perSet*sets. It is fitted by least squares over
// its recent passing calls (each weighs costDecay times less at each newer
// one). It is held near a prior in the directions the calls do not tell
// apart. At light traffic every call is one or two sets on a root or two. It
// is fitted to each call's wall time, which for a call on one core is its
// CPU time.
type callCost struct {
	xx    [3][3]float64 // decayed sum of x x^T, x = (1, roots, sets)
	xy    [3]float64    // decayed sum of x * seconds
	theta [3]float64    // seconds per call, per root, per set; zero until a call is fitted
}

// callCostPrior is the fit before any call and where the calls say
// nothing. It is the verifier's cost on a 2-core machine (BenchmarkSmallCall:
// 0.85 ms for one set, about 0.13 ms a set more in small calls; a root
// more, a Miller loop and often its hash, about 0.4 ms).
var callCostPrior = [3]float64{700e-6, 400e-6, 130e-6}

// callCostRidge is the weight of the prior, in calls: enough to keep a fit
// on one kind of call finite, little beside the last tens of calls.
const callCostRidge = 1.0

// add fits a passing call of sets over roots that took took.
func (c *callCost) add(roots, sets int, took time.Duration) {
	x := [3]float64{1, float64(roots), float64(sets)}
	for i := range x {
		for j := range x {
			c.xx[i][j] = costDecay*c.xx[i][j] + x[i]*x[j]
		}
		c.xy[i] = costDecay*c.xy[i] + x[i]*took.Seconds()
	}
	c.fit()
}

// fit solves the ridge normal equations (XX + k I) theta = XY + k prior
// and keeps the coefficients non-negative.
func (c *callCost) fit() {
	var m [3][4]float64
	for i := range m {
		for j := range 3 {
			m[i][j] = c.xx[i][j]
		}
		m[i][i] += callCostRidge
		m[i][3] = c.xy[i] + callCostRidge*callCostPrior[i]
	}
	theta, ok := solve3(m)
	if !ok {
		return
	}
	for i := range theta {
		c.theta[i] = max(theta[i], 0)
	}
}

// solve3 solves a 3x3 linear system given as its augmented matrix, by
// Gaussian elimination with partial pivoting; false if it is singular.
func solve3(m [3][4]float64) ([3]float64, bool) {
	for col := range 3 {
		p := col
		for r := col + 1; r < 3; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[p][col]) {
				p = r
			}
		}
		if m[p][col] == 0 {
			return [3]float64{}, false
		}
		m[col], m[p] = m[p], m[col]
		for r := col + 1; r < 3; r++ {
			f := m[r][col] / m[col][col]
			for k := col; k < 4; k++ {
				m[r][k] -= f * m[col][k]
			}
		}
	}
	var x [3]float64
	for r := 2; r >= 0; r-- {
		s := m[r][3]
		for k := r + 1; k < 3; k++ {
			s -= m[r][k] * x[k]
		}
		x[r] = s / m[r][r]
	}
	return x, true
}

// seconds is the fitted cost of a call of sets over roots (the prior's
// before any call).
func (c *callCost) seconds(roots, sets float64) float64 {
	t := c.theta
	if t == ([3]float64{}) {
		t = callCostPrior
	}
	return t[0] + t[1]*roots + t[2]*sets
}

// waitPays reports whether a call of the n queued sets over r roots costs
// more CPU per set, by at least waitGainMin, than a later call. That call
// also holds what the next left brings, up to limit sets. The arrivals are a
// Poisson count of the rate's mean. Each is on a new root with the share of
// new roots among them.
func (b *batcher) waitPays(n, r int, left time.Duration, limit int, now time.Time) bool {
	if n >= limit {
		return false
	}
	sets, roots := b.rates.expect(now, left, func(root [32]byte) bool { return b.roots[root] != nil })
	if sets <= 0 {
		return false
	}
	fn, fr := float64(n), float64(r)
	costNow := b.callCost.seconds(fr, fn) / fn
	costLater := b.callCost.perSetAfter(fn, fr, sets, roots/sets, float64(limit-n))
	return costLater < (1-waitGainMin)*costNow
}

// poissonPlain is the mean arrival count from which perSetAfter takes the
// mean's cost instead of the expectation over the Poisson counts. The cost
// per set is then nearly linear over the counts' spread.
const poissonPlain = 16

// perSetAfter is the expected cost per set of a call of n sets over r roots
// and k more. k is a Poisson count of mean m capped at room. Each is on a
// new root with probability perRoot.
func (c *callCost) perSetAfter(n, r, m, perRoot, room float64) float64 {
	at := func(k float64) float64 {
		k = min(k, room)
		return c.seconds(r+k*perRoot, n+k) / (n + k)
	}
	if m >= poissonPlain {
		return at(m)
	}
	p, seen, sum := math.Exp(-m), 0.0, 0.0
	for k := 0; k <= 4*poissonPlain && seen < 1-1e-9; k++ {
		sum += p * at(float64(k))
		seen += p
		p *= m / float64(k+1)
	}
	return sum + (1-seen)*at(room)
}

// The budget stretches under load. When the recent verdicts took many
// budgets (the workers fell behind at the arrival peak), a longer wait off
// the peak leaves that tail as it is and saves calls their fixed cost. So
// the primary waits for companions up to tailShare of the recent tail,
// between the budget and budgetStretch times it. A failing call ends the
// stretch, and for a window after it the share is halved: a larger call
// holds more sets to search.

// budgetStretch is the most the budget stretches: 4x (20 ms by default)
// keeps a wait well inside BatchTime.
const budgetStretch = 4

// tailShare is the share of the recent tail a stretched wait takes. A
// tail that a wait of a third of it feeds settles at 1.5x the calls' own
// delay.
const tailShare = 1.0 / 3

// tailShareFailing is tailShare within a window of a failing call: while
// invalid sets arrive, smaller calls keep each search short.
const tailShareFailing = 1.0 / 6

// tailLatency is the recent tail of the verdict latency: the slowest
// passing call's oldest set, submission to verdict, decaying by e every
// window. The window is half a slot (newBatcher). So the peak's tail still
// counts while the slot's late attestations and its aggregates come in, and
// has decayed to an eighth by the next slot's peak.
type tailLatency struct {
	window  time.Duration
	seconds float64
	at      time.Time
	failed  time.Time // the last failing call's verdict, zero if none
}

// add records a verdict latency at now.
func (t *tailLatency) add(latency time.Duration, now time.Time) {
	t.seconds = max(t.level(now), latency.Seconds())
	t.at = now
}

// failing forgets the tail after a call that failed at now.
func (t *tailLatency) failing(now time.Time) { t.seconds, t.failed = 0, now }

// stretch is the wait the tail allows at now: its share of the tail.
func (t *tailLatency) stretch(now time.Time) time.Duration {
	share := tailShare
	if !t.failed.IsZero() && now.Sub(t.failed) < t.window {
		share = tailShareFailing
	}
	return time.Duration(t.level(now) * share * float64(time.Second))
}

// level is the tail at now, in seconds.
func (t *tailLatency) level(now time.Time) float64 {
	d := now.Sub(t.at)
	if d <= 0 {
		return t.seconds
	}
	return t.seconds * math.Exp(-float64(d)/float64(t.window))
}

// budgetLocked is the budget of a take at now (takeBudgetLocked):
// Config.LatencyBudget, stretched by the recent tail.
func (b *batcher) budgetLocked(now time.Time) time.Duration {
	return min(max(b.budget, b.tail.stretch(now)), budgetStretch*b.budget)
}
