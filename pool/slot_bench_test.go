package pool_test

import (
	"sync"
	"testing"
	"time"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
	"github.com/attpool/attpool/verifier/baseline"
)

const benchSlot = 64

var slotLoad struct {
	once          sync.Once
	net           *pooltest.Network
	clean, faulty []pooltest.Message
}

func loadSlot(b *testing.B) {
	slotLoad.once.Do(func() {
		b.Log("deriving 32,768 keys and signing a mainnet slot twice (takes a while)")
		net := pooltest.NewNetwork(1<<20, benchSlot)
		net.DeriveKeys(net.Attesters(benchSlot))
		slotLoad.net = net
		slotLoad.clean = net.SlotMessages(benchSlot, 0, 1)
		slotLoad.faulty = net.SlotMessages(benchSlot, 0.01, 1)
	})
}

// BenchmarkFullSlot submits a full mainnet slot (1,048,576 validators: 64
// committees of 512, 32,768 SingleAttestations sharing one AttestationData)
// from 64 goroutines and waits for every verdict. wall-s is the time from the
// first submission to the last verdict. Cases: batched; batched with 1% of
// the signatures invalid; the per-signature baseline (baseline.EachAlone)
// on the clean load. Every verdict is checked.
func BenchmarkFullSlot(b *testing.B) {
	loadSlot(b)
	net := slotLoad.net
	perSignature := baseline.EachAlone{}
	for _, c := range []struct {
		name string
		cfg  pool.Config
		msgs []pooltest.Message
	}{
		{"batched", pool.Config{}, slotLoad.clean},
		{"batched-1pct-invalid", pool.Config{}, slotLoad.faulty},
		{"per-signature", pool.Config{SignatureVerifier: perSignature}, slotLoad.clean},
	} {
		b.Run(c.name, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				var results []pool.Result
				total += poolSlot(b, c.cfg, net, 4*time.Second, func(p *pool.Pool) (wall time.Duration) {
					results, wall = pooltest.Submit(p, c.msgs, 64)
					return wall
				})
				if t := pooltest.Check(c.msgs, results); len(t.Wrong) > 0 {
					b.Fatalf("%d wrong verdicts (first: %v)", len(t.Wrong), results[t.Wrong[0]])
				}
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "wall-s")
			b.ReportMetric(float64(len(c.msgs)), "msgs")
		})
	}
}

// poolSlot runs submit on a new pool over net, its clock at into benchSlot,
// closes the pool and returns the wall time submit measured.
func poolSlot(b *testing.B, cfg pool.Config, net *pooltest.Network, at time.Duration, submit func(*pool.Pool) time.Duration) time.Duration {
	p, err := pool.New(cfg, net.Node())
	if err != nil {
		b.Fatal(err)
	}
	net.SetSlot(benchSlot, at)
	wall := submit(p)
	p.Close()
	return wall
}
