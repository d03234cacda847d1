package pool

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
)

// queryEnv is a pool over 2 committees of 8 (every member an aggregator)
// at testSlot, and a maker of aggregates by any member.
func queryEnv(t *testing.T) (*env, *Pool, func(ci, aggregatorPos uint64, positions ...uint64) *attestation.SignedAggregateAndProof) {
	e := newEnv(t, 2, 8, 100)
	e.setSlot(testSlot, 1000)
	p := e.pool(Config{})
	d := e.data(testSlot)
	mk := func(ci, aggregatorPos uint64, positions ...uint64) *attestation.SignedAggregateAndProof {
		sap := e.aggregate(d, ci, positions)
		v := e.comm.validator(testSlot, ci, aggregatorPos)
		sap.Message.AggregatorIndex = v
		sap.Message.SelectionProof = e.sign(v, selectionRoot(e, testSlot))
		sap.Signature = e.signAggregateAndProof(sap.Message)
		return sap
	}
	return e, p, mk
}

// TestResultIndexed: an accepted attestation or aggregate comes with its
// sorted attesting indices, its data and its signature; other verdicts
// with none.
func TestResultIndexed(t *testing.T) {
	e, p, mk := queryEnv(t)
	ctx := context.Background()
	sap := mk(1, 0, 6, 2, 5)
	res := p.ValidateAggregate(ctx, NoPeer, sap)
	wantResult(t, res, Accept, nil)
	ia := res.Indexed
	if ia == nil {
		t.Fatal("accepted aggregate without Indexed")
	}
	var want []uint64
	for _, pos := range []uint64{2, 5, 6} {
		want = append(want, e.comm.validator(testSlot, 1, pos))
	}
	slices.Sort(want)
	if !slices.Equal(ia.AttestingIndices, want) || !ia.Data.Equal(sap.Message.Aggregate.Data) || ia.Signature != sap.Message.Aggregate.Signature {
		t.Fatalf("indexed %v, want indices %v and the aggregate's data and signature", ia.AttestingIndices, want)
	}
	if ia.Data == sap.Message.Aggregate.Data {
		t.Fatal("Indexed.Data is the caller's")
	}

	att, subnet := e.single(e.data(testSlot), 0, 3)
	res = p.ValidateAttestation(ctx, NoPeer, att, subnet)
	wantResult(t, res, Accept, nil)
	if res.Indexed == nil || !slices.Equal(res.Indexed.AttestingIndices, []uint64{att.AttesterIndex}) || res.Indexed.Signature != att.Signature {
		t.Fatalf("single: indexed %+v", res.Indexed)
	}
	// The same again: ignored, nothing indexed.
	if res = p.ValidateAttestation(ctx, NoPeer, att, subnet); res.Verdict == Accept || res.Indexed != nil {
		t.Fatalf("duplicate: %v with indexed %v", res, res.Indexed)
	}
	bad := mk(1, 1, 1, 2)
	bad.Message.Aggregate.Signature = sap.Message.Aggregate.Signature
	bad.Signature = e.signAggregateAndProof(bad.Message)
	if res = p.ValidateAggregate(ctx, NoPeer, bad); res.Verdict != Reject || res.Indexed != nil {
		t.Fatalf("invalid aggregate: %v with indexed %v", res, res.Indexed)
	}
}

// TestResultAsError: what a Result says as an error, on Accept (no error:
// no sentinel matches, nothing to unwrap) and on another verdict (its
// sentinel and the verdict).
func TestResultAsError(t *testing.T) {
	e, p, _ := queryEnv(t)
	ctx := context.Background()
	att, subnet := e.single(e.data(testSlot), 0, 3)
	res := p.ValidateAttestation(ctx, NoPeer, att, subnet)
	wantResult(t, res, Accept, nil)
	if res.Err != nil || res.Error() != "accept" || res.Unwrap() != nil || res.Rule() != "accept" {
		t.Fatalf("accepted: Err %v, Error %q, Unwrap %v, Rule %q", res.Err, res.Error(), res.Unwrap(), res.Rule())
	}
	for _, sentinel := range []error{ErrAlreadySeen, ErrInvalidSignature, ErrCancelled, context.Canceled} {
		if errors.Is(res, sentinel) {
			t.Errorf("accepted Result matches %v", sentinel)
		}
	}
	var err error = res
	if err == nil {
		t.Fatal("a Result in an error variable is nil")
	}

	res = p.ValidateAttestation(ctx, NoPeer, att, subnet)
	wantResult(t, res, Ignore, ErrAlreadySeen)
	if res.Unwrap() != res.Err || res.Error() != "ignore: "+res.Err.Error() || errors.Is(res, ErrInvalidSignature) {
		t.Fatalf("copy: Error %q, Unwrap %v", res.Error(), res.Unwrap())
	}
}

// TestAggregateAttestation: the query returns the aggregate with the most
// attesters of (slot, data root, committee), validly signed, and nothing for
// another slot, root or committee.
func TestAggregateAttestation(t *testing.T) {
	e, p, mk := queryEnv(t)
	ctx := context.Background()
	wantResult(t, p.ValidateAggregate(ctx, NoPeer, mk(0, 0, 0, 1, 2)), Accept, nil)
	wantResult(t, p.ValidateAggregate(ctx, NoPeer, mk(0, 1, 2, 3, 4, 5)), Accept, nil) // overlaps: kept apart
	root, err := e.data(testSlot).HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	got, ok := p.AggregateAttestation(testSlot, root, 0)
	if !ok {
		t.Fatal("no aggregate")
	}
	if !slices.Equal(got.AggregationBits.BitIndices(), []int{2, 3, 4, 5}) || got.AggregationBits.Len() != 8 {
		t.Fatalf("bits %v, want the larger aggregate {2,3,4,5} of 8", got.AggregationBits.BitIndices())
	}
	if !slices.Equal(got.CommitteeBits.BitIndices(), []int{0}) || !got.Data.Equal(e.data(testSlot)) || !e.verifyOnChain(got) {
		t.Fatal("not committee 0's aggregate of the data, validly signed")
	}
	for _, q := range []struct {
		slot, committee uint64
		root            [32]byte
	}{{testSlot + 1, 0, root}, {testSlot, 1, root}, {testSlot, 0, [32]byte{1}}} {
		if _, ok := p.AggregateAttestation(q.slot, q.root, q.committee); ok {
			t.Errorf("slot %d committee %d root %x: an aggregate", q.slot, q.committee, q.root[:2])
		}
	}
}

// onChain returns an on-chain attestation of d with the positions of each
// committee (committee index -> positions).
func onChain(e *env, d *attestation.AttestationData, positions map[uint64][]uint64) *attestation.Attestation {
	cb := bitfield.NewBitvector64()
	var committees []uint64
	for ci := range positions {
		committees = append(committees, ci)
	}
	slices.Sort(committees)
	bits := bitfield.NewBitlist(uint64(len(committees)) * e.comm.size)
	for k, ci := range committees {
		cb.SetBitAt(ci, true)
		for _, pos := range positions[ci] {
			bits.SetBitAt(uint64(k)*e.comm.size+pos, true)
		}
	}
	return &attestation.Attestation{AggregationBits: bits, Data: d, CommitteeBits: cb}
}

// TestMarkIncluded: attesters a block included are no longer counted by
// packing (whatever data they voted for), aggregates they cover entirely
// are dropped, and attestations that do not fit the committees are errors.
func TestMarkIncluded(t *testing.T) {
	e, p, mk := queryEnv(t)
	ctx := context.Background()
	wantResult(t, p.ValidateAggregate(ctx, NoPeer, mk(0, 0, 0, 1, 2, 3)), Accept, nil)
	wantResult(t, p.ValidateAggregate(ctx, NoPeer, mk(0, 1, 3, 4, 5)), Accept, nil)
	wantResult(t, p.ValidateAggregate(ctx, NoPeer, mk(1, 0, 0, 1)), Accept, nil)
	if n := p.Stats().Aggregates; n != 3 {
		t.Fatalf("%d aggregates, want 3", n)
	}
	// A block included {0,1,2,3} of committee 0 (with another data: the
	// attesters count, not the data) and {0} of committee 1.
	other := e.data(testSlot)
	other.BeaconBlockRoot = [32]byte{9}
	if err := p.MarkIncluded(onChain(e, other, map[uint64][]uint64{0: {0, 1, 2, 3}, 1: {0}})); err != nil {
		t.Fatal(err)
	}
	// {0,1,2,3} of committee 0 is covered: dropped.
	if n := p.Stats().Aggregates; n != 2 {
		t.Fatalf("%d aggregates after the block, want 2", n)
	}
	atts := p.AttestationsForBlock(testSlot+1, BlockFilter{}).Attestations()
	if len(atts) != 1 {
		t.Fatalf("%d attestations, want 1", len(atts))
	}
	// The block brings {3,4,5} of committee 0 (3 on chain already, but the
	// aggregate's other bits are new) and {0,1} of committee 1.
	if got := atts[0].AggregationBits.BitIndices(); !slices.Equal(got, []int{3, 4, 5, 8, 9}) {
		t.Fatalf("bits %v", got)
	}
	// Everything included: nothing to pack, nothing kept.
	if err := p.MarkIncluded(onChain(e, e.data(testSlot), map[uint64][]uint64{0: {4, 5}, 1: {1}})); err != nil {
		t.Fatal(err)
	}
	if atts := p.AttestationsForBlock(testSlot+1, BlockFilter{}).Attestations(); len(atts) != 0 {
		t.Fatalf("%d attestations with every attester on chain", len(atts))
	}
	if n := p.Stats().Aggregates; n != 0 {
		t.Fatalf("%d aggregates kept with every attester on chain", n)
	}

	bad := onChain(e, e.data(testSlot), map[uint64][]uint64{0: {1}})
	bad.AggregationBits = bitfield.NewBitlist(9)
	for _, a := range []*attestation.Attestation{nil, {Data: nil}, bad, onChain(e, e.data(testSlot), map[uint64][]uint64{5: {1}}), onChain(e, e.data(testSlot), nil)} {
		if err := p.MarkIncluded(a); !errors.Is(err, ErrInvalidIncluded) {
			t.Errorf("MarkIncluded(%v): %v, want ErrInvalidIncluded", a, err)
		}
	}
}
