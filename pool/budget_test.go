package pool

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
)

// clockVerifier is a SignatureVerifier that accepts every set and takes
// callTime(len(sets)) of the clock (the fake one, in a synctest bubble) per
// call, recording when each call started and its sets' keys.
type clockVerifier struct {
	mu    sync.Mutex
	calls []clockCall
}

type clockCall struct {
	start time.Time
	keys  []*crypto.PublicKey
}

// callTime is a call's time in the budget tests: a fixed part and a part
// per set, with an odd 137 ns so that no call ends on a whole microsecond,
// where the arrivals are (no tie for the order of the two).
func callTime(sets int) time.Duration {
	return 300*time.Microsecond + time.Duration(sets)*20*time.Microsecond + 137*time.Nanosecond
}

func (v *clockVerifier) Verify(sets []verifier.Set) []bool {
	c := clockCall{start: time.Now()}
	out := make([]bool, len(sets))
	for i := range sets {
		c.keys = append(c.keys, sets[i].PublicKey)
		out[i] = true
	}
	v.mu.Lock()
	v.calls = append(v.calls, c)
	v.mu.Unlock()
	time.Sleep(callTime(len(sets)))
	return out
}

// budgetArrivals is the tests' arrival schedule, offsets from the first
// set on whole microseconds: dense sets about 500 µs apart (exponential
// gaps), then sparse ones 100 ms apart.
func budgetArrivals(dense, sparse int) []time.Duration {
	rng := rand.New(rand.NewPCG(7, 9))
	var at []time.Duration
	t := time.Duration(0)
	for range dense {
		t += max(time.Microsecond, (time.Duration(rng.ExpFloat64()*500) * time.Microsecond))
		at = append(at, t)
	}
	for range sparse {
		t += 100*time.Millisecond + time.Duration(rng.IntN(1000))*time.Microsecond
		at = append(at, t)
	}
	return at
}

// budgetRun submits one attestation at each offset of at (distinct
// attesters of one committee, one signature for all: the verifier accepts
// every set) to a pool of cfg over clockVerifier, in a synctest bubble. It
// returns the calls, each as the indexes of its sets in at, and, for each
// set, how long after its submission its call started.
func budgetRun(t *testing.T, cfg Config, at []time.Duration) (calls [][]int, waits []time.Duration) {
	e := newEnv(t, 1, uint64(len(at)), testSlot)
	att0, subnet := e.single(e.data(testSlot), 0, 0)
	index := make(map[*crypto.PublicKey]int)
	submitted := make([]time.Time, len(at))
	waits = make([]time.Duration, len(at))
	var recorded []clockCall
	synctest.Test(t, func(t *testing.T) {
		v := &clockVerifier{}
		cfg.SignatureVerifier = v
		p, err := New(cfg, e.node)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		start := time.Now()
		var results []<-chan Result
		for i, off := range at {
			time.Sleep(start.Add(off).Sub(time.Now()))
			att := *att0
			att.AttesterIndex = e.comm.validator(testSlot, 0, uint64(i))
			index[e.keys.PublicKey(att.AttesterIndex)] = i
			submitted[i] = time.Now()
			results = append(results, p.validateAttestationAsync(context.Background(), NoPeer, &att, subnet))
		}
		for _, r := range results {
			wantResult(t, <-r, Accept, nil)
		}
		v.mu.Lock()
		recorded = v.calls
		v.mu.Unlock()
	})
	seen := 0
	for _, c := range recorded {
		var call []int
		for _, k := range c.keys {
			i, ok := index[k]
			if !ok {
				t.Fatal("a call holds a set that was not submitted")
			}
			call = append(call, i)
			waits[i] = c.start.Sub(submitted[i])
			seen++
		}
		calls = append(calls, call)
	}
	if seen != len(at) {
		t.Fatalf("%d sets verified, %d submitted", seen, len(at))
	}
	return calls, waits
}

// TestLatencyBudgetBound: with a budget, no set waits longer than the
// budget before its call starts (no call is running at a deadline here: a
// call takes less than the budget), the sets that arrive close together
// wait for companions (calls of several sets), and once the arrivals have
// thinned out no set waits at all.
func TestLatencyBudgetBound(t *testing.T) {
	const budget = 4 * time.Millisecond
	const dense, sparse = 300, 20
	at := budgetArrivals(dense, sparse)
	calls, waits := budgetRun(t, Config{LatencyBudget: budget}, at)
	waited := 0
	for i, w := range waits {
		if w > budget {
			t.Errorf("set %d waited %v for its call, budget %v", i, w, budget)
		}
		if i < dense && w > 0 {
			waited++
		}
	}
	denseCalls := 0
	for _, c := range calls {
		if c[0] < dense {
			denseCalls++
		}
	}
	t.Logf("dense arrivals: %d sets in %d calls, %d waited", dense, denseCalls, waited)
	if denseCalls*4 > dense || waited < dense/2 {
		t.Errorf("dense arrivals: %d calls for %d sets, %d sets waited: the budget was not used", denseCalls, dense, waited)
	}
	// The last sparse sets, 100 ms apart and long after the dense ones:
	// nothing is coming, nobody waits.
	for i := len(at) - sparse/2; i < len(at); i++ {
		if waits[i] != 0 {
			t.Errorf("set %d, arriving alone, waited %v", i, waits[i])
		}
	}
}

// TestLatencyBudgetZero: a negative budget (none) keeps the work-conserving
// rule: the calls are exactly those of a worker that takes every queued set
// the moment it is free, and start then (simulated here on the same
// arrivals and call times).
func TestLatencyBudgetZero(t *testing.T) {
	at := budgetArrivals(300, 5)
	calls, waits := budgetRun(t, Config{LatencyBudget: -1}, at)
	var want [][]int
	var wantWaits []time.Duration
	free := time.Duration(-1)
	for i := 0; i < len(at); {
		start := max(free, at[i])
		var call []int
		for ; i < len(at) && at[i] <= start; i++ {
			call = append(call, i)
			wantWaits = append(wantWaits, start-at[i])
		}
		want = append(want, call)
		free = start + callTime(len(call))
	}
	if len(calls) != len(want) {
		t.Fatalf("%d calls, work-conserving makes %d", len(calls), len(want))
	}
	for c := range want {
		if !slices.Equal(calls[c], want[c]) {
			t.Fatalf("call %d holds sets %v, work-conserving takes %v", c, calls[c], want[c])
		}
	}
	if !slices.Equal(waits, wantWaits) {
		t.Fatalf("waits %v, work-conserving %v", waits, wantWaits)
	}
}

// TestBudgetStretch: the primary's budget is Config.LatencyBudget while the
// recent verdicts are quick. It grows to a third of a slow tail, at most 4x
// the budget, and falls back to the budget as the tail decays or when a call
// fails; for a window after a failing call it grows to a sixth.
func TestBudgetStretch(t *testing.T) {
	const budget = 4 * time.Millisecond
	b := newTestBatcher(t, Config{LatencyBudget: budget})
	window := b.tail.window
	if window != DefaultConfig().SlotDuration/2 {
		t.Fatalf("the tail's window is %v, not half the slot", window)
	}
	now := time.Now()
	steps := []struct {
		latency time.Duration // a passing call's, 0: none
		after   time.Duration // since the previous step
		want    time.Duration
	}{
		{0, 0, budget},
		{10 * time.Millisecond, 0, budget},
		{30 * time.Millisecond, time.Millisecond, 10 * time.Millisecond},
		{0, window / 2, time.Duration(float64(10*time.Millisecond) * math.Exp(-0.5))},
		{600 * time.Millisecond, time.Millisecond, budgetStretch * budget},
		{0, 10 * window, budget},
	}
	for i, s := range steps {
		now = now.Add(s.after)
		if s.latency > 0 {
			b.tail.add(s.latency, now)
		}
		got := b.budgetLocked(now)
		if d := got - s.want; d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("step %d: budget %v, want %v", i, got, s.want)
		}
	}
	// A passing call's latency stretches it; a failing call ends the stretch.
	b.inflight = 2
	b.verified(10, 1, time.Millisecond, time.Second, true)
	if got := b.budgetLocked(time.Now()); got != budgetStretch*budget {
		t.Errorf("after a passing call of 1s: budget %v, want %v", got, budgetStretch*budget)
	}
	b.verified(10, 1, time.Millisecond, time.Second, false)
	if got := b.budgetLocked(time.Now()); got != budget {
		t.Errorf("after a failing call: budget %v, want %v", got, budget)
	}
	// Within a window of the failure a slow tail stretches it half as far.
	now = time.Now()
	b.tail.add(60*time.Millisecond, now)
	if got := b.budgetLocked(now); got < 10*time.Millisecond-time.Microsecond || got > 10*time.Millisecond {
		t.Errorf("a 60ms tail after a failing call: budget %v, want 10ms", got)
	}
	later := now.Add(window)
	b.tail.add(60*time.Millisecond, later)
	if got := b.budgetLocked(later); got != budgetStretch*budget {
		t.Errorf("a 60ms tail a window after the failure: budget %v, want %v", got, budgetStretch*budget)
	}
}
