package pool

import (
	"runtime"
	"testing"

	"github.com/attpool/attpool/crypto"
)

// TestTwoEpochsHeap fills a pool with two epochs of mainnet traffic (64
// slots of 64 committees of 512 accepted attestations: 2,097,152, each
// marked seen and merged into its aggregate) and checks the heap the pool
// keeps: at most 64 MiB (asserted with ATTPOOL_TIMING_TESTS: the heap
// depends on the Go runtime; logged otherwise). Signing two million messages would take many
// minutes, so the accepted attestations are fed to the pool's indexes
// directly, all with one signature point; what the pool keeps per
// attestation is the same.
func TestTwoEpochsHeap(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("two epochs of attestations: not in -short or -race")
	}
	const slots, cps, size = 64, 64, 512
	e := newEnv(t, cps, size, 2*32+1)
	e.setSlot(64, 0)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	p := e.pool(Config{})
	sk, _ := crypto.InteropSecretKey(1)
	sig := crypto.Sign(sk, []byte("heap"))
	for slot := uint64(0); slot < slots; slot++ {
		d := e.data(slot)
		info, err := p.roots.get(d, slot/32)
		if err != nil {
			t.Fatal(err)
		}
		xs := make([]*single, 0, cps*size)
		p.mu.Lock()
		for ci := range uint64(cps) {
			for pos := range uint64(size) {
				p.attSeen.add(slot/32, e.comm.validator(slot, ci, pos))
				xs = append(xs, &single{key: aggKey{info.root, ci}, data: d, pos: pos, size: size, sig: sig})
			}
		}
		p.store.addSingles(xs)
		p.mu.Unlock()
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	s := p.Stats()
	t.Logf("two epochs: %d aggregates, %d seen attesters, heap %.1f MiB", s.Aggregates, s.SeenAttesters, float64(heap)/(1<<20))
	if s.SeenAttesters != slots*cps*size || s.Aggregates != slots*cps {
		t.Fatalf("pool holds %+v", s)
	}
	if timingTests() && heap > 64<<20 {
		t.Fatalf("heap %d bytes, over 64 MiB", heap)
	}
	runtime.KeepAlive(p)
}
