package pool_test

import (
	"sync"
	"testing"
	"time"

	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/verifier/baseline"

	"github.com/attpool/attpool/internal/testenv"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

var aggLoad struct {
	once          sync.Once
	net           *pooltest.Network
	clean, faulty []pooltest.AggregateMsg
	err           error
}

// loadAggregates generates the aggregates of a mainnet slot, clean and with
// 1% of them (10) carrying an invalid signature.
func loadAggregates(b *testing.B) {
	aggLoad.once.Do(func() {
		b.Log("deriving 32,768 keys and generating a mainnet slot of aggregates (takes a while)")
		net := pooltest.NewNetwork(1<<20, benchSlot)
		gen := pooltest.NewAggregateTraffic(net, pooltest.AggregateConfig{Seed: 1})
		aggLoad.net = net
		if aggLoad.clean, aggLoad.err = gen.Slot(benchSlot, nil); aggLoad.err != nil {
			return
		}
		aggLoad.faulty, aggLoad.err = gen.Slot(benchSlot, pooltest.SignatureFaults(len(aggLoad.clean)/100))
	})
	if aggLoad.err != nil {
		b.Fatal(aggLoad.err)
	}
}

// BenchmarkAggregateSlot submits the SignedAggregateAndProof of a mainnet
// slot (64 committees of 512, about 1,000 aggregators, each seeing 85-100%
// of its committee) from 64 goroutines through validateAggregateAsync and
// waits for every verdict, against the same load verified as Prysm and
// Lighthouse do (per aggregate: the participants' key summed, its three sets
// in one distinct-message batch, each alone if it fails; 64 goroutines).
// wall-s runs from the first submission to the last verdict (the
// baseline's: from its start to its end), x-baseline is the baseline's
// wall-s over this one's, and cpu-s is the process's CPU time per slot
// (user and system; less sensitive to other processes on a shared machine
// than wall time; on 2 cores the wall time is at least half of it). Every verdict is checked: the
// invalid ones must be rejected with their rule.
func BenchmarkAggregateSlot(b *testing.B) {
	loadAggregates(b)
	net := aggLoad.net
	var baseline time.Duration
	for _, c := range []struct {
		name string
		msgs []pooltest.AggregateMsg
	}{
		{"baseline", aggLoad.clean},
		{"pool", aggLoad.clean},
		{"pool-1pct-invalid", aggLoad.faulty},
	} {
		b.Run(c.name, func(b *testing.B) {
			var total time.Duration
			cpu0 := testenv.CPUTime()
			for b.Loop() {
				if c.name == "baseline" {
					valid, wall := lighthouseAggregates(net, c.msgs, 64)
					for i, ok := range valid {
						if !ok {
							b.Fatalf("baseline: valid aggregate %d failed", i)
						}
					}
					total += wall
					continue
				}
				var results []pool.Result
				total += poolSlot(b, pool.Config{}, net, 8*time.Second, func(p *pool.Pool) (wall time.Duration) {
					results, wall = pooltest.SubmitAggregates(p, c.msgs, 64)
					return wall
				})
				if t := pooltest.CheckAggregates(c.msgs, results); len(t.Wrong) > 0 {
					i := t.Wrong[0]
					b.Fatalf("%d wrong verdicts (first: %v, %v)", len(t.Wrong), c.msgs[i].Fault, results[i])
				}
			}
			wall := total / time.Duration(b.N)
			b.ReportMetric(wall.Seconds(), "wall-s")
			b.ReportMetric((testenv.CPUTime()-cpu0).Seconds()/float64(b.N), "cpu-s")
			b.ReportMetric(float64(len(c.msgs)), "msgs")
			if c.name == "baseline" {
				baseline = wall
			} else if baseline > 0 {
				b.ReportMetric(baseline.Seconds()/wall.Seconds(), "x-baseline")
			}
		})
	}
}

// lighthouseAggregates verifies the signatures of msgs as Prysm and
// Lighthouse do, the baseline of the aggregate benchmarks: per message its
// three sets in one distinct-message batch, each alone if the batch fails
// (baseline.Lighthouse), the messages spread over goroutines as a node's
// gossip validators run. valid[i] reports whether all three signatures of
// msgs[i] are valid; wall runs from the start to the last verdict.
func lighthouseAggregates(net *pooltest.Network, msgs []pooltest.AggregateMsg, goroutines int) (valid []bool, wall time.Duration) {
	valid = make([]bool, len(msgs))
	t0 := time.Now()
	par.ForOn(max(1, goroutines), len(msgs), 1, func(i int) {
		if sets, ok := net.AggregateSets(msgs[i].Msg); ok {
			v := baseline.Lighthouse{}.Verify(sets[:])
			valid[i] = v[0] && v[1] && v[2]
		}
	})
	return valid, time.Since(t0)
}
