package pool

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/pool/internal/memnode"
)

// gloas turns on the Gloas rules from forkEpoch.
func (e *env) gloas(forkEpoch uint64) {
	e.node.Gloas = &GloasNode{ForkEpoch: forkEpoch, PTC: memnode.CommitteePTC{Committees: e.comm, SlotsPerEpoch: e.spe}}
}

// payloadData is the data of slot voting for the block of the slot before
// with data.index 1 (payload present) or 0.
func (e *env) payloadData(slot, index uint64) *attestation.AttestationData {
	d := e.data(slot)
	d.BeaconBlockRoot = blockRoot(slot - 1)
	d.Index = index
	return d
}

func TestGloasAttestationRules(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, 2, 32, 100)
	e.gloas(1)
	head := blockRoot(testSlot - 1)
	cases := []struct {
		name    string
		data    func() *attestation.AttestationData
		status  PayloadStatus
		verdict Verdict
		err     error
	}{
		{"index 0, payload unverified", func() *attestation.AttestationData { return e.payloadData(testSlot, 0) }, PayloadUnverified, Accept, nil},
		{"index 1, payload valid", func() *attestation.AttestationData { return e.payloadData(testSlot, 1) }, PayloadValid, Accept, nil},
		{"index 2", func() *attestation.AttestationData { return e.payloadData(testSlot, 2) }, PayloadValid, Reject, ErrDataIndexRange},
		{"index 1, payload unverified", func() *attestation.AttestationData { return e.payloadData(testSlot, 1) }, PayloadUnverified, Ignore, ErrPayloadUnverified},
		{"index 1, payload optimistic", func() *attestation.AttestationData { return e.payloadData(testSlot, 1) }, PayloadOptimistic, Ignore, ErrPayloadOptimistic},
		{"index 1, payload invalidated", func() *attestation.AttestationData { return e.payloadData(testSlot, 1) }, PayloadInvalidated, Reject, ErrPayloadInvalid},
		{"same slot, index 1", func() *attestation.AttestationData {
			d := e.data(testSlot)
			d.Index = 1
			return d
		}, PayloadValid, Reject, ErrSameSlotPayload},
		{"same slot, index 0", func() *attestation.AttestationData { return e.data(testSlot) }, PayloadUnverified, Accept, nil},
		{"index 1 before the fork", func() *attestation.AttestationData { return e.payloadData(20, 1) }, PayloadValid, Reject, ErrDataIndexNonZero},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.setSlot(testSlot, 1000)
			d := c.data()
			if d.Slot < testSlot {
				e.setSlot(d.Slot, 1000)
			}
			e.chain.SetPayloadStatus(head, c.status)
			e.chain.SetPayloadStatus(blockRoot(d.Slot-1), c.status)
			e.chain.SetPayloadStatus(blockRoot(testSlot), c.status)
			p := e.pool(Config{})
			att, subnet := e.single(d, 1, 3)
			wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), c.verdict, c.err)
			sap := e.aggregate(c.data(), 0, []uint64{1, 2})
			wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, sap), c.verdict, c.err)
		})
	}
}

// TestGloasTwoRootsPerHead: attestations of one (slot, head) with index 0
// and 1 are two data roots, kept apart and packed apart, each verifying.
func TestGloasTwoRootsPerHead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 16, 100)
		e.gloas(0)
		e.setSlot(testSlot, 1000)
		e.chain.SetPayloadStatus(blockRoot(testSlot-1), PayloadValid)
		p := e.pool(Config{})
		var chans []<-chan Result
		for pos := range uint64(16) {
			att, subnet := e.single(e.payloadData(testSlot, pos%2), 0, pos)
			chans = append(chans, p.ValidateAttestationAsync(context.Background(), NoPeer, att, subnet))
		}
		for _, c := range chans {
			wantResult(t, <-c, Accept, nil)
		}
		packed := p.AttestationsForBlock(testSlot + 1)
		if len(packed) != 2 {
			t.Fatalf("%d attestations packed, want 2 (index 0 and 1)", len(packed))
		}
		indices := map[uint64]bool{}
		for _, a := range packed {
			indices[a.Data.Index] = true
			if a.AggregationBits.Count() != 8 || !e.verifyOnChain(a) {
				t.Fatalf("index %d: %d participants, or does not verify", a.Data.Index, a.AggregationBits.Count())
			}
		}
		if !indices[0] || !indices[1] {
			t.Fatalf("packed indices %v", indices)
		}
	})
}

// blindChain is a MemChain that cannot give the checkpoint blocks of
// epochs after 0.
type blindChain struct {
	*memnode.MemChain[PayloadStatus]
}

func (c blindChain) CheckpointBlock(root [32]byte, epoch uint64) ([32]byte, bool) {
	if epoch > 0 {
		return [32]byte{}, false
	}
	return c.MemChain.CheckpointBlock(root, epoch)
}

// TestGloasCheckpointLookupKeepsReject: when the node cannot give the
// target's checkpoint block, the payload rules that follow still REJECT.
func TestGloasCheckpointLookupKeepsReject(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 32, 100)
		e.gloas(0)
		e.node.Chain = blindChain{e.chain}
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{})
		sameSlot := e.data(testSlot)
		sameSlot.Index = 1
		att, subnet := e.single(sameSlot, 1, 3)
		wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), Reject, ErrSameSlotPayload)
		att, subnet = e.single(e.data(testSlot), 1, 4)
		wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), Ignore, ErrBlockUnknown)
	})
}
