package pool

import (
	"bytes"
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
			chans = append(chans, p.validateAttestationAsync(context.Background(), NoPeer, att, subnet))
		}
		for _, c := range chans {
			wantResult(t, <-c, Accept, nil)
		}
		packed := p.AttestationsForBlock(testSlot+1, BlockFilter{}).Attestations()
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

// TestGloasAggregatorSigningRoot: from the Gloas fork on, the aggregator
// signs the root of the AggregateAndProof holding the Gloas Attestation (a
// progressive container, EIP-7688); before it, the Electra one's. An
// aggregate signed over the other fork's root is rejected.
func TestGloasAggregatorSigningRoot(t *testing.T) {
	for _, c := range []struct {
		name      string
		forkEpoch uint64 // testSlot is in epoch 1
		gloasRoot bool   // the aggregator signs the Gloas root
		verdict   Verdict
	}{
		{"gloas, gloas root", 1, true, Accept},
		{"gloas, electra root", 1, false, Reject},
		{"electra, electra root", 2, false, Accept},
		{"electra, gloas root", 2, true, Reject},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 2, 32, 100)
				e.gloas(c.forkEpoch)
				e.setSlot(testSlot, 1000)
				p := e.pool(Config{})
				sap := e.aggregate(e.data(testSlot), 1, []uint64{0, 5, 31})
				aap := *sap.Message
				var msg hashRooter = &aap
				if c.gloasRoot {
					msg = aap.Gloas()
				}
				sap.Signature = e.signAggregateAndProofRoot(aap.AggregatorIndex, msg, 1)
				res := p.ValidateAggregate(context.Background(), NoPeer, sap)
				if c.verdict == Accept {
					wantResult(t, res, Accept, nil)
				} else {
					wantResult(t, res, Reject, ErrInvalidAggregatorSignature)
				}
			})
		})
	}
}

// TestGloasAttestationsForBlock: a block of a Gloas slot gets the packed
// attestations as Gloas containers, the same bytes as the Electra ones but
// the progressive roots; before the fork, Electra ones.
func TestGloasAttestationsForBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 16, 100)
		e.gloas(1)
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{})
		for _, ci := range []uint64{0, 1} {
			wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, e.aggregate(e.data(testSlot), ci, []uint64{ci, 2, 9})), Accept, nil)
		}
		got := p.AttestationsForBlock(testSlot+1, BlockFilter{})
		gloas := got.Gloas
		if got.Electra != nil || len(gloas) != 1 {
			t.Fatalf("%d Electra and %d Gloas attestations, want 0 and 1", len(got.Electra), len(gloas))
		}
		electra := got.Attestations()
		ge, err := electra[0].MarshalSSZ()
		if err != nil {
			t.Fatal(err)
		}
		gg, err := gloas[0].MarshalSSZ()
		if err != nil {
			t.Fatal(err)
		}
		re, _ := electra[0].HashTreeRoot()
		rg, _ := gloas[0].HashTreeRoot()
		if !bytes.Equal(ge, gg) || re == rg || gloas[0].CommitteeBits.Count() != 2 || !e.verifyOnChain((*attestation.Attestation)(gloas[0])) {
			t.Fatalf("Gloas attestation: same bytes %v, roots %x %x, %d committees", bytes.Equal(ge, gg), re, rg, gloas[0].CommitteeBits.Count())
		}
		if got := p.AttestationsForBlock(testSlot+1, BlockFilter{Includable: func(*attestation.AttestationData) bool { return false }}); got.Len() != 0 {
			t.Fatalf("%d attestations for nothing includable", got.Len())
		}
		e.node.Gloas.ForkEpoch = 2
		if got := p.AttestationsForBlock(testSlot+1, BlockFilter{}); got.Gloas != nil || len(got.Electra) != 1 {
			t.Fatalf("before the fork: %d Gloas, %d Electra attestations, want 0 and 1", len(got.Gloas), len(got.Electra))
		}
	})
}
