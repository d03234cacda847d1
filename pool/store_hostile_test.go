package pool

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
)

// mainnetCommittee is the committee size at the registry the defaults are
// sized for (2^20 validators, 32 slots of 64 committees).
const mainnetCommittee = mainnetValidators / mainnetSlotsPerEpoch / MaxCommitteesPerSlot

// storeData is an AttestationData of slot whose source is source, and its
// root (a distinct stand-in: the store keys data by the root it is given).
func storeData(slot, source uint64) (*attestation.AttestationData, [32]byte) {
	d := &attestation.AttestationData{
		Slot:   slot,
		Source: &attestation.Checkpoint{Epoch: source},
		Target: &attestation.Checkpoint{Epoch: slot / mainnetSlotsPerEpoch},
	}
	var r [32]byte
	binary.LittleEndian.PutUint64(r[:], slot)
	binary.LittleEndian.PutUint64(r[8:], source)
	return d, r
}

// storeSig is a signature point for the store tests (the store sums them,
// never checks them).
func storeSig(t testing.TB) *crypto.Signature {
	t.Helper()
	e := newEnv(t, 1, 1, 0)
	s, err := crypto.SignatureFromBytes(func() []byte { b := e.sign(0, [32]byte{1}); return b[:] }())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHonestAggregatesFitStore: two epochs of mainnet-shaped honest
// aggregate traffic (64 committees of 512 a slot, each member an aggregator
// with probability 1/32, about 16 a committee and 1,024 a slot; each
// aggregator's view is the committee less a shared 3% offline and 2% of its
// own misses) fit the store and the seen-aggregates cache at the default
// bounds: every aggregate not covered by one seen is stored and
// remembered, with room for the count's upper tail, and each committee
// keeps its largest aggregate.
func TestHonestAggregatesFitStore(t *testing.T) {
	cfg, err := DefaultConfig().sanitize()
	if err != nil {
		t.Fatal(err)
	}
	store := newAggStore(cfg.MaxAggregates, cfg.MaxData, 1)
	seen := newSeenAggregates(cfg.seenAggregates)
	sig := storeSig(t)
	rng := rand.New(rand.NewPCG(1, 2))
	total, notStored, notSeen := 0, 0, 0
	for slot := range uint64(keptEpochs * mainnetSlotsPerEpoch) {
		d, root := storeData(slot, 0)
		for ci := range uint64(MaxCommitteesPerSlot) {
			k := aggKey{root, ci}
			offline := make([]bool, mainnetCommittee)
			for i := range offline {
				offline[i] = rng.Float64() < 0.03
			}
			best := 0
			for range mainnetCommittee {
				if rng.IntN(mainnetCommittee/TargetAggregatorsPerCommittee) != 0 {
					continue
				}
				bits := bitfield.NewBitlist(mainnetCommittee)
				for i := range mainnetCommittee {
					if !offline[i] && rng.Float64() >= 0.02 {
						bits.SetBitAt(uint64(i), true)
					}
				}
				if seen.covered(k, bits) {
					continue
				}
				total++
				best = max(best, int(bits.Count()))
				if !store.addAggregate(k, d, bits, sig) {
					notStored++
				}
				if !seen.add(k, slot, bits) {
					notSeen++
				}
			}
			if e := store.byRoot[root]; best > 0 && (e == nil || largest(e.committees[ci]) != best) {
				t.Fatalf("slot %d committee %d: the largest aggregate (%d attesters) not kept", slot, ci, best)
			}
		}
	}
	t.Logf("%d aggregates: %d not stored, %d not remembered as seen; store holds %d", total, notStored, notSeen, store.n)
	// The count is random (about 2^16): the bound must hold its upper tail,
	// four standard deviations (about sqrt(total)) above this draw.
	if tail := total + 4*int(math.Sqrt(float64(total))); tail > cfg.seenAggregates {
		t.Errorf("honest traffic of %d aggregates: the seen-aggregates bound %d holds no upper tail (%d)", total, cfg.seenAggregates, tail)
	}
	if notStored > 0 || notSeen > 0 {
		t.Fatalf("honest traffic of %d aggregates: %d not stored (MaxAggregates %d), %d not remembered (the seen-aggregates bound %d)",
			total, notStored, cfg.MaxAggregates, notSeen, cfg.seenAggregates)
	}
}

// largest is the most attesters of an aggregate of aggs.
func largest(aggs []*aggregate) int {
	n := 0
	for _, a := range aggs {
		n = max(n, a.participants())
	}
	return n
}

// TestCraftedSourcesKeepHonestData: attackers' attestations whose data
// differ by source checkpoint, more of them than MaxData (8,192 distinct
// data, one attester each), interleaved with two epochs of honest data (one
// a slot, each a committee's worth of attesters, the first of a slot coming
// while the crafted ones flood): every honest attestation is stored, and no
// honest data leaves the store.
func TestCraftedSourcesKeepHonestData(t *testing.T) {
	cfg := DefaultConfig()
	store := newAggStore(cfg.MaxAggregates, cfg.MaxData, 1)
	sig := storeSig(t)
	const crafted, slots, attesters = 8192, keptEpochs * mainnetSlotsPerEpoch, 64
	single := func(d *attestation.AttestationData, root [32]byte, pos uint64) bool {
		return store.addSingles([]*single{{key: aggKey{root, 0}, data: d, pos: pos, size: mainnetCommittee, sig: sig}})[0]
	}
	var honest [][32]byte
	next := uint64(0)
	for slot := range uint64(slots) {
		d, root := storeData(slot, 0)
		honest = append(honest, root)
		for pos := range uint64(attesters) {
			if !single(d, root, pos) {
				t.Fatalf("slot %d: honest attestation %d not stored", slot, pos)
			}
			// The crafted data come between the honest attestations.
			for range crafted / (slots * attesters / 2) {
				next++
				cd, croot := storeData(slot, 1+next)
				single(cd, croot, 0)
			}
		}
	}
	for i, r := range honest {
		if store.byRoot[r] == nil {
			t.Fatalf("honest data of slot %d evicted by %d crafted data (MaxData %d)", i, next, cfg.MaxData)
		}
	}
	t.Logf("%d crafted data, %d evicted; the store holds %d data", next, store.evicted, len(store.byRoot))
}

// TestFullCommitteeKeepsIncludableAttesters fills a committee's aggregates
// and offers one more: the one left out is the one whose attesters the
// others cover, not merely the smallest, so that no attester a block could
// include is lost.
func TestFullCommitteeKeepsIncludableAttesters(t *testing.T) {
	const size = 32
	span := func(lo, hi int) bitfield.Bitlist {
		b := bitfield.NewBitlist(size)
		for i := lo; i <= hi; i++ {
			b.SetBitAt(uint64(i), true)
		}
		return b
	}
	sig := storeSig(t)
	aggs := []*aggregate{
		newAggregate(span(0, 7), sig),   // 0 is its own
		newAggregate(span(4, 11), sig),  // covered by the others and the new one
		newAggregate(span(8, 15), sig),  // 15 is its own
		newAggregate(span(20, 22), sig), // smallest, all its own
	}
	if len(aggs) != aggregatesPerCommittee {
		t.Fatalf("the test fills %d aggregates; a committee keeps %d", len(aggs), aggregatesPerCommittee)
	}
	fresh := span(1, 14)
	want := union(append(slices.Clone(aggs), newAggregate(fresh, sig)))
	got := replaceMostCovered(aggs, fresh, sig)
	if len(got) != aggregatesPerCommittee {
		t.Fatalf("kept %d aggregates, want %d", len(got), aggregatesPerCommittee)
	}
	if u := union(got); u.Count() != want.Count() {
		t.Errorf("kept aggregates cover %d attesters, want all %d", u.Count(), want.Count())
	}
	// A new aggregate the kept ones cover is accepted without being kept.
	if again := replaceMostCovered(got, span(2, 5), sig); !slices.Equal(again, got) {
		t.Error("an aggregate covered by the kept ones replaced one of them")
	}
}

// union is the attesters of any of aggs.
func union(aggs []*aggregate) bitfield.Bitlist {
	u := bitfield.NewBitlist(aggs[0].bits.Len())
	for _, a := range aggs {
		for _, i := range a.bits.BitIndices() {
			u.SetBitAt(uint64(i), true)
		}
	}
	return u
}
