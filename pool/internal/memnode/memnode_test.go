package memnode

import (
	"slices"
	"testing"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/ssz"
)

// TestShuffledCommittees: every epoch's committees hold each validator
// exactly once, and an epoch's committees are the same after its shuffling
// was evicted from the cache and computed again.
func TestShuffledCommittees(t *testing.T) {
	const n, spe = 10_000, 32
	c := NewShuffledCommittees(n, spe)
	committees := func(epoch uint64) [][]uint64 {
		var out [][]uint64
		cps, _ := c.CommitteeCountPerSlot(epoch)
		for s := epoch * spe; s < (epoch+1)*spe; s++ {
			for i := range cps {
				cm, ok := c.BeaconCommittee(s, i)
				if !ok {
					t.Fatalf("no committee %d at slot %d", i, s)
				}
				out = append(out, slices.Clone(cm))
			}
		}
		return out
	}
	first := committees(3)
	count := make([]int, n)
	for _, cm := range first {
		for _, v := range cm {
			count[v]++
		}
	}
	for v, k := range count {
		if k != 1 {
			t.Fatalf("validator %d is in %d committees of epoch 3", v, k)
		}
	}
	for e := uint64(4); e < 4+2*keptShufflings; e++ {
		committees(e)
	}
	if again := committees(3); !slices.EqualFunc(first, again, slices.Equal) {
		t.Fatal("epoch 3's committees changed once recomputed")
	}
	if len(c.epochs) > keptShufflings {
		t.Fatalf("%d shufflings cached, want at most %d", len(c.epochs), keptShufflings)
	}
	if _, ok := c.BeaconCommittee(0, 64); ok {
		t.Fatal("committee index past the count answered")
	}
}

// TestMemChain: CheckpointBlock walks back to the last block at or before
// the epoch's first slot; a block starts with the zero payload status.
func TestMemChain(t *testing.T) {
	c := NewMemChain[uint8](4)
	root := func(s uint64) [32]byte { return [32]byte{byte(s + 1)} }
	for _, s := range []uint64{0, 1, 3, 5, 6} { // slots 2 and 4 are empty
		parent := [32]byte{}
		if s > 0 {
			parent = root(s - 1)
			if s == 3 || s == 5 {
				parent = root(s - 2)
			}
		}
		c.AddBlock(root(s), parent, s, s != 6)
	}
	if cp, ok := c.CheckpointBlock(root(6), 1); !ok || cp != root(3) {
		t.Fatalf("checkpoint of epoch 1 from slot 6: %x %v, want the block of slot 3", cp, ok)
	}
	if seen, valid := c.Block(root(6)); !seen || valid {
		t.Fatalf("block of slot 6: seen %v valid %v, want seen and invalid", seen, valid)
	}
	if _, status, ok := c.BlockPayload(root(5)); !ok || status != 0 {
		t.Fatalf("payload of slot 5: %d %v", status, ok)
	}
	c.SetPayloadStatus(root(5), 2)
	if slot, status, _ := c.BlockPayload(root(5)); slot != 5 || status != 2 {
		t.Fatalf("payload of slot 5: slot %d status %d, want 5 and 2", slot, status)
	}
	c.SetFinalized(attestation.Checkpoint{Epoch: 1, Root: root(3)})
	if f := c.FinalizedCheckpoint(); f.Root != root(3) {
		t.Fatalf("finalized %x", f.Root)
	}
}

// TestForkList: the version of an epoch is that of the last fork at or
// before it.
func TestForkList(t *testing.T) {
	f := &ForkList{Epochs: []uint64{0, 10}, Versions: []ssz.Version{{1}, {2}}, Root: ssz.Root{7}}
	for epoch, want := range map[uint64]ssz.Version{0: {1}, 9: {1}, 10: {2}, 1 << 40: {2}} {
		if got := f.ForkVersion(epoch); got != want {
			t.Errorf("epoch %d: version %x, want %x", epoch, got, want)
		}
	}
}

// TestCommitteePTC: a slot's PTC is its committees' concatenation taken in
// turn, PTC_SIZE members: read from the first committees alone when they
// hold that many, repeated when the slot's committees hold fewer.
func TestCommitteePTC(t *testing.T) {
	const spe = 32
	for _, tc := range []struct {
		n    uint64
		size int
	}{{1 << 20, 0}, {1 << 17, 0}, {10_000, 0}, {2_000, attestation.MinimalPTCSize}, {200, 0}} {
		c := NewShuffledCommittees(tc.n, spe)
		p := CommitteePTC{Committees: c, SlotsPerEpoch: spe, Size: tc.size}
		size := tc.size
		if size == 0 {
			size = attestation.PTCSize
		}
		for _, slot := range []uint64{0, 37, 1000} {
			var all []uint64
			cps, _ := c.CommitteeCountPerSlot(slot / spe)
			for i := range cps {
				cm, _ := c.BeaconCommittee(slot, i)
				all = append(all, cm...)
			}
			got, ok := p.PTC(slot)
			if !ok || len(got) != size {
				t.Fatalf("n %d, slot %d: PTC of %d members (ok %v), want %d", tc.n, slot, len(got), ok, size)
			}
			for i, v := range got {
				if v != all[i%len(all)] {
					t.Fatalf("n %d, slot %d: member %d is %d, want %d", tc.n, slot, i, v, all[i%len(all)])
				}
			}
		}
	}
}
