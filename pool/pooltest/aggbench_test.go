package pooltest_test

import (
	"testing"
	"time"

	"github.com/attpool/attpool/pool/pooltest"
)

// BenchmarkAggregateSlot generates the aggregate traffic of a mainnet slot
// (1,048,576 validators: 64 committees of 512, about 1,024 aggregates). keys-s
// is the one-time derivation of the slot's 32,768 keys; first-s the first
// generation of the slot (32,768 selection proofs, the views, the
// signatures); gen-s a later one, with 1% invalid signatures (the selection
// proofs and views are kept, the messages signed again).
func BenchmarkAggregateSlot(b *testing.B) {
	const slot = 64
	net := pooltest.NewNetwork(1<<20, slot)
	t0 := time.Now()
	net.DeriveKeys(net.Attesters(slot))
	keys := time.Since(t0)
	gen := pooltest.NewAggregateTraffic(net, pooltest.AggregateConfig{Seed: 1})
	t0 = time.Now()
	if _, err := gen.Slot(slot, nil); err != nil {
		b.Fatal(err)
	}
	first := time.Since(t0)
	var n int
	for b.Loop() {
		msgs, err := gen.Slot(slot, pooltest.SignatureFaults(10))
		if err != nil {
			b.Fatal(err)
		}
		n = len(msgs)
	}
	b.ReportMetric(keys.Seconds(), "keys-s")
	b.ReportMetric(first.Seconds(), "first-s")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "gen-s")
	b.ReportMetric(float64(n), "aggregates")
}
