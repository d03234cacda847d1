package pool

import (
	"bytes"
	"context"
	"testing"
	"testing/synctest"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/ssz"
	"github.com/attpool/attpool/verifier"
)

const testSlot = 40 // epoch 1

// ruleCase is a row of a gossip-rule table: setup changes a valid message
// of type M (or the node), and the pool must answer verdict with err.
type ruleCase[M any] struct {
	name    string
	setup   func(p *Pool, m M)
	verdict Verdict
	err     error
}

func TestAttestationRules(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, 2, 8, 100)
	e.setSlot(testSlot, 1000)
	resign := func(att *attestation.SingleAttestation) {
		att.Signature = e.sign(att.AttesterIndex, e.dataSigningRoot(att.Data))
	}
	cases := []struct {
		name    string
		setup   func(p *Pool, att *attestation.SingleAttestation, subnet *uint64)
		verdict Verdict
		err     error
	}{
		{"accept", nil, Accept, nil},
		{"malformed", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) { att.Data = nil }, Reject, ErrMalformed},
		{"data index", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) { att.Data.Index = 1; resign(att) }, Reject, ErrDataIndexNonZero},
		{"committee index", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) { att.CommitteeIndex = 2 }, Reject, ErrCommitteeIndex},
		{"wrong subnet", func(_ *Pool, _ *attestation.SingleAttestation, subnet *uint64) { *subnet++ }, Reject, ErrWrongSubnet},
		{"future slot", func(_ *Pool, _ *attestation.SingleAttestation, _ *uint64) { e.setSlot(testSlot, -501) }, Ignore, ErrFutureSlot},
		{"clock disparity", func(_ *Pool, _ *attestation.SingleAttestation, _ *uint64) { e.setSlot(testSlot, -500) }, Accept, nil},
		{"previous epoch", func(_ *Pool, _ *attestation.SingleAttestation, _ *uint64) { e.setSlot(95, 0) }, Accept, nil},
		{"epoch window", func(_ *Pool, _ *attestation.SingleAttestation, _ *uint64) { e.setSlot(96, 501) }, Ignore, ErrEpochWindow},
		{"epoch window disparity", func(_ *Pool, _ *attestation.SingleAttestation, _ *uint64) { e.setSlot(96, 500) }, Accept, nil},
		{"target epoch", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) {
			att.Data.Target.Epoch = 0
			resign(att)
		}, Reject, ErrTargetEpoch},
		{"not in committee", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) {
			att.AttesterIndex = e.comm.validator(testSlot, 0, 0)
			resign(att)
		}, Reject, ErrNotInCommittee},
		{"invalid signature", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) {
			att.Signature = e.sign(att.AttesterIndex+1, e.dataSigningRoot(att.Data))
		}, Reject, ErrInvalidSignature},
		{"bad signature encoding", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) { att.Signature = [96]byte{1} }, Reject, ErrInvalidSignature},
		{"block unknown", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) {
			att.Data.BeaconBlockRoot = [32]byte{9}
			resign(att)
		}, Ignore, ErrBlockUnknown},
		{"block invalid", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) {
			e.chain.AddBlock([32]byte{8}, blockRoot(testSlot-1), testSlot, false)
			att.Data.BeaconBlockRoot = [32]byte{8}
			resign(att)
		}, Reject, ErrBlockInvalid},
		{"target not ancestor", func(_ *Pool, att *attestation.SingleAttestation, _ *uint64) {
			att.Data.Target.Root = blockRoot(33)
			resign(att)
		}, Reject, ErrTargetNotAncestor},
		{"finalized not ancestor", func(_ *Pool, _ *attestation.SingleAttestation, _ *uint64) {
			e.chain.SetFinalized(attestation.Checkpoint{Epoch: 1, Root: blockRoot(31)})
		}, Ignore, ErrFinalizedNotAncestor},
		{"already seen", func(p *Pool, att *attestation.SingleAttestation, subnet *uint64) {
			// Another valid attestation of the same validator for the epoch.
			other := *att
			other.Data = e.data(testSlot)
			other.Data.BeaconBlockRoot = blockRoot(testSlot - 1)
			resign(&other)
			if r := p.ValidateAttestation(context.Background(), NoPeer, &other, *subnet); r.Verdict != Accept {
				panic(r)
			}
		}, Ignore, ErrAlreadySeen},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.setSlot(testSlot, 1000)
			e.chain.SetFinalized(attestation.Checkpoint{Epoch: 0, Root: blockRoot(0)})
			p := e.pool(Config{})
			att, subnet := e.single(e.data(testSlot), 1, 3)
			if c.setup != nil {
				c.setup(p, att, &subnet)
			}
			wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), c.verdict, c.err)
		})
	}
}

func TestAggregateRules(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, 2, 32, 100) // committees of 32: modulo 2, half the validators aggregate
	e.setSlot(testSlot, 1000)
	positions := []uint64{1, 2, 5, 8}
	resign := func(sap *attestation.SignedAggregateAndProof) {
		sap.Signature = e.signAggregateAndProof(sap.Message)
	}
	notAggregator := func(sap *attestation.SignedAggregateAndProof) bool {
		d := sap.Message.Aggregate.Data
		root := e.dataSigningRoot(d) // any signature works as a proof
		for pos := range e.comm.size {
			v := e.comm.validator(d.Slot, 0, pos)
			proof := e.sign(v, root)
			if !isAggregator(int(e.comm.size), proof) {
				sap.Message.AggregatorIndex = v
				sap.Message.SelectionProof = proof
				resign(sap)
				return true
			}
		}
		return false
	}
	cases := []ruleCase[*attestation.SignedAggregateAndProof]{
		{"accept", nil, Accept, nil},
		{"malformed", func(_ *Pool, sap *attestation.SignedAggregateAndProof) { sap.Message.Aggregate = nil }, Reject, ErrMalformed},
		{"malformed bits", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			sap.Message.Aggregate.AggregationBits = bitfield.Bitlist{0}
		}, Reject, ErrMalformed},
		{"data index", func(_ *Pool, sap *attestation.SignedAggregateAndProof) { sap.Message.Aggregate.Data.Index = 1 }, Reject, ErrDataIndexNonZero},
		{"two committees", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			sap.Message.Aggregate.CommitteeBits.SetBitAt(1, true)
		}, Reject, ErrCommitteeBits},
		{"no committee", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			sap.Message.Aggregate.CommitteeBits = bitfield.NewBitvector64()
		}, Reject, ErrCommitteeBits},
		{"committee index", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			sap.Message.Aggregate.CommitteeBits = bitfield.NewBitvector64()
			sap.Message.Aggregate.CommitteeBits.SetBitAt(5, true)
		}, Reject, ErrCommitteeIndex},
		{"future slot", func(*Pool, *attestation.SignedAggregateAndProof) { e.setSlot(testSlot, -501) }, Ignore, ErrFutureSlot},
		{"epoch window", func(*Pool, *attestation.SignedAggregateAndProof) { e.setSlot(96, 501) }, Ignore, ErrEpochWindow},
		{"target epoch", func(_ *Pool, sap *attestation.SignedAggregateAndProof) { sap.Message.Aggregate.Data.Target.Epoch = 2 }, Reject, ErrTargetEpoch},
		{"bits length", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			b := bitfield.NewBitlist(e.comm.size + 1)
			b.SetBitAt(1, true)
			sap.Message.Aggregate.AggregationBits = b
		}, Reject, ErrAggregationBitsLength},
		{"no participants", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			sap.Message.Aggregate.AggregationBits = bitfield.NewBitlist(e.comm.size)
		}, Reject, ErrNoParticipants},
		{"superset seen", func(p *Pool, sap *attestation.SignedAggregateAndProof) {
			bigger := e.aggregate(e.data(testSlot), 0, []uint64{1, 2, 5, 8, 9})
			bigger.Message.AggregatorIndex = e.comm.validator(testSlot, 0, 99%e.comm.size)
			// Any aggregator: sign its own selection proof until selected.
			for pos := range e.comm.size {
				v := e.comm.validator(testSlot, 0, pos)
				if v == sap.Message.AggregatorIndex {
					continue
				}
				proof := e.sign(v, selectionRoot(e, testSlot))
				if isAggregator(int(e.comm.size), proof) {
					bigger.Message.AggregatorIndex, bigger.Message.SelectionProof = v, proof
					break
				}
			}
			resign(bigger)
			wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, bigger), Accept, nil)
		}, Ignore, ErrAggregateSeen},
		// The superset rule counts the valid gossip aggregates only
		// (seen.aggregate_data_roots), not the pool's own aggregates.
		{"locally covered", func(p *Pool, _ *attestation.SignedAggregateAndProof) {
			for _, pos := range positions {
				att, subnet := e.single(e.data(testSlot), 0, pos)
				wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), Accept, nil)
			}
		}, Accept, nil},
		{"superset invalid", func(p *Pool, _ *attestation.SignedAggregateAndProof) {
			bigger := e.aggregate(e.data(testSlot), 0, []uint64{1, 2, 5, 8, 9})
			bigger.Message.Aggregate.Signature = e.sign(0, [32]byte{7})
			resign(bigger)
			wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, bigger), Reject, ErrInvalidAggregateSignature)
		}, Accept, nil},
		{"aggregator seen", func(p *Pool, sap *attestation.SignedAggregateAndProof) {
			other := e.aggregate(e.data(testSlot), 0, []uint64{3})
			wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, other), Accept, nil)
		}, Ignore, ErrAggregatorSeen},
		{"not aggregator", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			if !notAggregator(sap) {
				t.Skip("every validator selected")
			}
		}, Reject, ErrNotAggregator},
		{"aggregator not in committee", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			sap.Message.AggregatorIndex = e.comm.validator(testSlot, 1, 0)
			resign(sap)
		}, Reject, ErrAggregatorNotInCommittee},
		{"invalid selection proof", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			// A proof by another validator that still selects.
			for pos := range e.comm.size {
				proof := e.sign(e.comm.validator(testSlot, 1, pos), selectionRoot(e, testSlot))
				if isAggregator(int(e.comm.size), proof) {
					sap.Message.SelectionProof = proof
					resign(sap)
					return
				}
			}
		}, Reject, ErrInvalidSelectionProof},
		{"invalid aggregator signature", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			sap.Signature = e.sign(sap.Message.AggregatorIndex, [32]byte{1})
		}, Reject, ErrInvalidAggregatorSignature},
		{"invalid aggregate signature", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			sap.Message.Aggregate.AggregationBits.SetBitAt(20, true)
			resign(sap)
		}, Reject, ErrInvalidAggregateSignature},
		{"block unknown", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			*sap = *e.aggregate(dataWithBlock(e, [32]byte{9}), 0, positions)
		}, Ignore, ErrBlockUnknown},
		{"target not ancestor", func(_ *Pool, sap *attestation.SignedAggregateAndProof) {
			d := e.data(testSlot)
			d.Target.Root = blockRoot(33)
			*sap = *e.aggregate(d, 0, positions)
		}, Reject, ErrTargetNotAncestor},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.setSlot(testSlot, 1000)
			p := e.pool(Config{})
			sap := e.aggregate(e.data(testSlot), 0, positions)
			if c.setup != nil {
				c.setup(p, sap)
			}
			wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, sap), c.verdict, c.err)
		})
	}
}

func selectionRoot(e *env, slot uint64) [32]byte {
	return ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(slot), e.domain(ssz.DomainSelectionProof, slot/e.spe))
}

func dataWithBlock(e *env, root [32]byte) *attestation.AttestationData {
	d := e.data(testSlot)
	d.BeaconBlockRoot = root
	return d
}

func TestSubnetAndAggregatorHelpers(t *testing.T) {
	for _, c := range []struct{ spe, cps, slot, index, want uint64 }{
		{32, 64, 0, 0, 0}, {32, 64, 0, 63, 63}, {32, 64, 1, 0, 0}, {32, 64, 1, 5, 5},
		{32, 1, 5, 0, 5}, {32, 3, 33, 2, 5}, {32, 2, 31, 1, 63}, {32, 4, 17, 3, 7},
		// The minimal preset's 8 slots an epoch; 0 means the mainnet's 32.
		{8, 4, 9, 2, 6}, {8, 16, 7, 3, 51}, {0, 2, 31, 1, 63},
	} {
		if got := ComputeSubnetForAttestation(c.spe, c.cps, c.slot, c.index); got != c.want {
			t.Errorf("ComputeSubnetForAttestation(%d, %d, %d, %d) = %d, want %d", c.spe, c.cps, c.slot, c.index, got, c.want)
		}
	}
	// Committees smaller than 16 per aggregator: everyone aggregates.
	if !isAggregator(15, [96]byte{1}) {
		t.Error("modulo 1 must select")
	}
}

// farCommittees is testCommittees whose node cannot count the committees
// of epochs other than known (a target far from the head), and optionally
// cannot give any committee.
type farCommittees struct {
	testCommittees
	known     uint64
	committee bool
}

func (c farCommittees) CommitteeCountPerSlot(epoch uint64) (uint64, bool) {
	if epoch != c.known {
		return 0, false
	}
	return c.cps, true
}

func (c farCommittees) BeaconCommittee(slot, index uint64) ([]uint64, bool) {
	if !c.committee {
		return nil, false
	}
	return c.testCommittees.BeaconCommittee(slot, index)
}

// TestLookupFailureKeepsReject: a committee lookup the node cannot answer
// does not turn a later REJECT that needs no lookup into an IGNORE, and
// gives an IGNORE (never a REJECT) when no such rule fails.
func TestLookupFailureKeepsReject(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, 2, 32, 100)
	e.setSlot(testSlot, 1000)
	att, subnet := e.single(e.data(testSlot), 1, 3)
	sap := e.aggregate(e.data(testSlot), 0, []uint64{1, 2})
	for _, c := range []struct {
		name      string
		committee bool
		mutate    func(d *attestation.AttestationData)
		clock     int64
		verdict   Verdict
		err       error
	}{
		{"bogus target epoch", true, func(d *attestation.AttestationData) { d.Target.Epoch = 1 << 40 }, 1000, Reject, ErrTargetEpoch},
		{"bogus target epoch, future slot", true, func(d *attestation.AttestationData) { d.Target.Epoch = 1 << 40 }, -501, Ignore, ErrFutureSlot},
		{"count unknown, target matches", true, nil, 1000, Ignore, ErrShufflingUnavailable},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.node.Committees = farCommittees{testCommittees: e.comm, known: 7, committee: c.committee}
			defer func() { e.node.Committees = e.comm }()
			e.setSlot(testSlot, c.clock)
			p := e.pool(Config{})
			a := *att
			a.Data = e.data(testSlot)
			s := *sap.Message.Aggregate
			s.Data = e.data(testSlot)
			if c.mutate != nil {
				c.mutate(a.Data)
				c.mutate(s.Data)
			}
			wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, &a, subnet), c.verdict, c.err)
			m := *sap.Message
			m.Aggregate = &s
			wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, &attestation.SignedAggregateAndProof{Message: &m, Signature: sap.Signature}), c.verdict, c.err)
		})
	}
	t.Run("committee unknown, no participants", func(t *testing.T) {
		e.node.Committees = farCommittees{testCommittees: e.comm, known: 1}
		defer func() { e.node.Committees = e.comm }()
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{})
		empty := *sap.Message
		agg := *empty.Aggregate
		agg.AggregationBits = bitfield.NewBitlist(e.comm.size)
		empty.Aggregate = &agg
		wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, &attestation.SignedAggregateAndProof{Message: &empty}), Reject, ErrNoParticipants)
		wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, sap), Ignore, ErrShufflingUnavailable)
		wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), Ignore, ErrShufflingUnavailable)
	})
	t.Run("committee index still first", func(t *testing.T) {
		// Known count: the committee index rule REJECTs before the clock
		// rules IGNORE, as in the specs.
		e.setSlot(testSlot, -501)
		p := e.pool(Config{})
		a := *att
		a.CommitteeIndex = 2
		wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, &a, subnet), Reject, ErrCommitteeIndex)
	})
}

// gateVerifier holds every batch until release is closed.
type gateVerifier struct {
	v       SignatureVerifier
	entered chan struct{}
	release chan struct{}
}

func (g *gateVerifier) Verify(sets []verifier.Set) []bool {
	select {
	case g.entered <- struct{}{}:
	default:
	}
	<-g.release
	return g.v.Verify(sets)
}

func newGateVerifier(t *testing.T) *gateVerifier {
	return &gateVerifier{v: newTestVerifier(t), entered: make(chan struct{}, 1), release: make(chan struct{})}
}

// TestPoolOwnsItsInputs: the first caller of a message whose context ends
// while an identical copy from another peer waits on its verification gets
// its verdict; mutating its message afterwards does not reach the pool, and
// what the pool packs still verifies.
func TestPoolOwnsItsInputs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 32, 100)
		e.gloas(0)
		e.setSlot(testSlot, 1000)
		gate := newGateVerifier(t)
		p := e.pool(Config{SignatureVerifier: gate})

		att, subnet := e.single(e.data(testSlot), 0, 3)
		attCopy := *att
		attCopy.Data = att.Data.Copy()
		sap := e.aggregate(e.data(testSlot), 0, []uint64{1, 2, 5})
		sapCopy := cloneAggregate(sap)
		member := e.comm.validator(testSlot, 0, 9)
		ptc := e.ptcMessage(testSlot, member, true)
		ptcCopy := *ptc
		ptcCopy.Data = new(attestation.PayloadAttestationData)
		*ptcCopy.Data = *ptc.Data

		ctx, cancel := context.WithCancel(context.Background())
		first := []<-chan Result{
			p.validateAttestationAsync(ctx, "a", att, subnet),
			p.validateAggregateAsync(ctx, "a", sap),
			p.validatePayloadAttestationAsync(ctx, "a", ptc),
		}
		<-gate.entered
		second := []<-chan Result{
			p.validateAttestationAsync(context.Background(), "b", &attCopy, subnet),
			p.validateAggregateAsync(context.Background(), "b", sapCopy),
			p.validatePayloadAttestationAsync(context.Background(), "b", &ptcCopy),
		}
		cancel()
		for _, c := range first {
			wantResult(t, <-c, Ignore, ErrCancelled)
		}
		// The first caller reuses its structs.
		for _, d := range []*attestation.AttestationData{att.Data, sap.Message.Aggregate.Data} {
			d.BeaconBlockRoot = [32]byte{0xee}
			d.Target.Root = [32]byte{0xee}
			d.Source.Epoch = 99
		}
		bits := sap.Message.Aggregate.AggregationBits
		for i := range bits.Len() {
			bits.SetBitAt(i, true)
		}
		ptc.ValidatorIndex, ptc.Data.Slot, ptc.Signature = 0, 0, [96]byte{}
		close(gate.release)
		for _, c := range second {
			wantResult(t, <-c, Accept, nil)
		}
		// The accepted payload attestation was marked seen under its own key.
		wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcMessage(testSlot, member, false)), Ignore, ErrPayloadAttestationSeen)
		packed := p.AttestationsForBlock(testSlot+1, BlockFilter{}).Attestations()
		if len(packed) == 0 {
			t.Fatal("nothing packed")
		}
		for _, a := range packed {
			if a.Data.BeaconBlockRoot != blockRoot(testSlot) || !e.verifyOnChain(a) {
				t.Fatalf("packed attestation for %x does not verify", a.Data.BeaconBlockRoot[:4])
			}
		}
		if n := packed[0].AggregationBits.Count(); n != 4 {
			t.Fatalf("packed %d participants, want 4 (3 aggregated and 1 single)", n)
		}
	})
}

func cloneAggregate(sap *attestation.SignedAggregateAndProof) *attestation.SignedAggregateAndProof {
	aap := *sap.Message
	agg := *aap.Aggregate
	agg.Data = agg.Data.Copy()
	agg.AggregationBits = bytes.Clone(agg.AggregationBits)
	aap.Aggregate = &agg
	return &attestation.SignedAggregateAndProof{Message: &aap, Signature: sap.Signature}
}

// keysWithout is a PublicKeys that has no key for one validator.
type keysWithout struct {
	PublicKeys
	missing uint64
}

func (k keysWithout) PublicKey(i uint64) *crypto.PublicKey {
	if i == k.missing {
		return nil
	}
	return k.PublicKeys.PublicKey(i)
}

// TestUnknownKeyKeepsReject: a signature that does not decode is REJECTed
// even when the node has no key for the signer; a valid encoding from an
// unknown key is IGNOREd.
func TestUnknownKeyKeepsReject(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 32, 100)
		e.gloas(0)
		e.setSlot(testSlot, 1000)
		att, subnet := e.single(e.data(testSlot), 0, 3)
		sap := e.aggregate(e.data(testSlot), 0, []uint64{1, 2})
		ptc := e.ptcMessage(testSlot, e.comm.validator(testSlot, 0, 4), true)
		for _, v := range []uint64{att.AttesterIndex, sap.Message.AggregatorIndex, ptc.ValidatorIndex} {
			e.node.Keys = keysWithout{e.keys, v}
			p := e.pool(Config{})
			switch v {
			case att.AttesterIndex:
				wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), Ignore, ErrUnknownValidator)
				bad := *att
				bad.Signature = [96]byte{1}
				wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, &bad, subnet), Reject, ErrInvalidSignature)
			case sap.Message.AggregatorIndex:
				wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, sap), Ignore, ErrUnknownValidator)
				bad := cloneAggregate(sap)
				bad.Message.Aggregate.Signature = [96]byte{1}
				wantResult(t, p.ValidateAggregate(context.Background(), NoPeer, bad), Reject, ErrInvalidAggregateSignature)
			default:
				wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, ptc), Ignore, ErrUnknownValidator)
				bad := *ptc
				bad.Signature = [96]byte{1}
				wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, &bad), Reject, ErrInvalidPayloadAttestationSignature)
			}
		}
		e.node.Keys = e.keys
	})
}
