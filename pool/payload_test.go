package pool

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/pool/internal/memnode"
	"github.com/attpool/attpool/ssz"
)

// newPTCEnv is an env of cps committees of size a slot, Gloas from genesis,
// its clock 1 s into testSlot, and a pool over it.
func newPTCEnv(t testing.TB, cps, size uint64, cfg Config) (*env, *Pool) {
	e := newEnv(t, cps, size, 100)
	e.gloas(0)
	e.setSlot(testSlot, 1000)
	return e, e.pool(cfg)
}

// ptcVote is the signed payload attestation of validator for the block of
// slot, with the given payload and blob data flags.
func (e *env) ptcVote(slot, validator uint64, present, blobs bool) *attestation.PayloadAttestationMessage {
	m := e.ptcMessage(slot, validator, present)
	m.Data.BlobDataAvailable = blobs
	e.signPTC(m)
	return m
}

// payloadAtt is a PayloadAttestation of either preset: its bits (a
// Bitvector: position i's bit is bits[i/8]>>(i%8)&1), data and signature.
type payloadAtt struct {
	bits []byte
	data *attestation.PayloadAttestationData
	sig  [96]byte
}

func mainnetAtt(pa *attestation.PayloadAttestation) payloadAtt {
	return payloadAtt{pa.AggregationBits, pa.Data, pa.Signature}
}

func minimalAtt(pa *attestation.MinimalPayloadAttestation) payloadAtt {
	return payloadAtt{pa.AggregationBits[:], pa.Data, pa.Signature}
}

func (a payloadAtt) bit(i int) bool { return a.bits[i/8]>>(i%8)&1 == 1 }

// processPayloadAttestation runs the specs' process_payload_attestation on
// pa for a block of slot with parent parentRoot, over the PTC the node
// supplies: the slot and root checks, get_indexed_payload_attestation and
// is_valid_indexed_payload_attestation (non-empty, sorted indices and
// crypto.FastAggregateVerify over their keys). It returns the attesting
// indices.
func (e *env) processPayloadAttestation(t *testing.T, pa payloadAtt, slot uint64, parentRoot [32]byte) []uint64 {
	t.Helper()
	d := pa.data
	if d.BeaconBlockRoot != parentRoot || d.Slot+1 != slot {
		t.Fatalf("payload attestation of slot %d, root %x, for a block of slot %d on %x", d.Slot, d.BeaconBlockRoot, slot, parentRoot)
	}
	ptc, ok := e.node.Gloas.PTC.PTC(d.Slot)
	if !ok || 8*len(pa.bits) != len(ptc) {
		t.Fatalf("%d bits for a PTC of %d", 8*len(pa.bits), len(ptc))
	}
	var indices []uint64
	for i, v := range ptc {
		if pa.bit(i) {
			indices = append(indices, v)
		}
	}
	slices.Sort(indices)
	if len(indices) == 0 {
		t.Fatal("no attesting indices")
	}
	pks := make([]*crypto.PublicKey, len(indices))
	for i, v := range indices {
		pks[i] = e.keys.PublicKey(v)
	}
	sig, err := crypto.SignatureFromBytes(pa.sig[:])
	if err != nil {
		t.Fatal(err)
	}
	root, err := ssz.ComputeSigningRoot(d, e.domain(ssz.DomainPTCAttester, d.Slot/e.spe))
	if err != nil {
		t.Fatal(err)
	}
	if !crypto.FastAggregateVerify(pks, root[:], sig) {
		t.Fatalf("the aggregate of %v (payload present %v) does not verify", indices, d.PayloadPresent)
	}
	return indices
}

// wantBits checks that pa's bits are set exactly at the positions, in the
// node's PTC of its slot, of the validators of voters.
func (e *env) wantBits(t *testing.T, pa payloadAtt, voters []uint64) {
	t.Helper()
	ptc, _ := e.node.Gloas.PTC.PTC(pa.data.Slot)
	for i, v := range ptc {
		if want := slices.Contains(voters, v); pa.bit(i) != want {
			t.Fatalf("bit %d (validator %d) is %v, want %v", i, v, !want, want)
		}
	}
}

// TestPayloadAttestationsForBlock: the votes of a slot's PTC, on three
// PayloadAttestationData, come back for the block of the next slot as three
// aggregates, best first, each one process_payload_attestation accepts
// over the node's PTC, its bits those of its voters. The PTC of 512 drawn
// from 16 validators names each 32 times: each voter's signature counts at
// each of its positions.
func TestPayloadAttestationsForBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, p := newPTCEnv(t, 2, 8, Config{})
		v := func(i uint64) uint64 { return e.comm.validator(testSlot, i/8, i%8) }
		type vote struct {
			present, blobs bool
			voters         []uint64
		}
		votes := []vote{
			{true, false, []uint64{v(0), v(3), v(5), v(9)}},
			{true, true, []uint64{v(1), v(2), v(4), v(8), v(10), v(12), v(15)}},
			{false, false, []uint64{v(6), v(13)}},
		}
		var chans []<-chan Result
		for _, vt := range votes {
			for _, x := range vt.voters {
				chans = append(chans, p.validatePayloadAttestationAsync(context.Background(), NoPeer, e.ptcVote(testSlot, x, vt.present, vt.blobs)))
			}
		}
		bad := e.ptcVote(testSlot, v(7), true, true)
		bad.Signature = e.sign(v(11), [32]byte{1})
		badCh := p.validatePayloadAttestationAsync(context.Background(), NoPeer, bad)
		for _, c := range chans {
			wantResult(t, <-c, Accept, nil)
		}
		wantResult(t, <-badCh, Reject, ErrInvalidPayloadAttestationSignature)

		parent := blockRoot(testSlot)
		got := p.PayloadAttestationsForBlock(testSlot+1, parent)
		if len(got) != len(votes) {
			t.Fatalf("%d payload attestations, want %d", len(got), len(votes))
		}
		for i, want := range []vote{votes[1], votes[0], votes[2]} { // most positions first
			pa := got[i]
			if pa.Data.PayloadPresent != want.present || pa.Data.BlobDataAvailable != want.blobs {
				t.Fatalf("payload attestation %d is of %+v, want present %v, blobs %v", i, pa.Data, want.present, want.blobs)
			}
			e.wantBits(t, mainnetAtt(pa), want.voters)
			if n := len(e.processPayloadAttestation(t, mainnetAtt(pa), testSlot+1, parent)); n != 32*len(want.voters) {
				t.Fatalf("payload attestation %d: %d attesting indices, want %d", i, n, 32*len(want.voters))
			}
		}
		for _, c := range []struct {
			name   string
			slot   uint64
			parent [32]byte
		}{
			{"another parent", testSlot + 1, blockRoot(testSlot - 1)},
			{"the votes' own slot", testSlot, parent},
			{"two slots later", testSlot + 2, parent},
			{"slot 0", 0, parent},
		} {
			if got := p.PayloadAttestationsForBlock(c.slot, c.parent); len(got) != 0 {
				t.Errorf("%s: %d payload attestations", c.name, len(got))
			}
		}
		if got := p.PayloadAttestationsForBlock(testSlot+1, parent); len(got) == 0 {
			t.Error("no payload attestations")
		} else if _, err := attestation.ToMinimalPayloadAttestation(got[0]); !errors.Is(err, attestation.ErrNotMinimal) {
			t.Errorf("a payload attestation over a PTC of 512 converted to the minimal preset's: %v", err)
		}
	})
}

// TestPayloadVote: an accepted payload attestation's Result carries what
// on_payload_attestation_message needs (the validator, the data, the
// validator's positions in the PTC); no other verdict carries it.
func TestPayloadVote(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, p := newPTCEnv(t, 2, 8, Config{})
		validator := e.comm.validator(testSlot, 1, 3)
		m := e.ptcVote(testSlot, validator, true, true)
		res := p.ValidatePayloadAttestation(context.Background(), NoPeer, m)
		wantResult(t, res, Accept, nil)
		ptc, _ := e.node.Gloas.PTC.PTC(testSlot)
		var positions []uint64
		for i, v := range ptc {
			if v == validator {
				positions = append(positions, uint64(i))
			}
		}
		vote := res.Payload
		if vote == nil || vote.ValidatorIndex != validator || *vote.Data != *m.Data || !slices.Equal(vote.Positions, positions) {
			t.Fatalf("vote %+v, want validator %d, data %+v, positions %v", vote, validator, m.Data, positions)
		}
		if vote.Data == m.Data || res.Indexed != nil {
			t.Fatal("the vote shares the caller's data, or carries an Indexed")
		}
		if r := p.ValidatePayloadAttestation(context.Background(), NoPeer, m); r.Payload != nil {
			t.Fatalf("a copy's verdict (%v) carries a vote", r)
		}
		other := e.ptcVote(testSlot, e.comm.validator(testSlot, 0, 0), false, false)
		other.Signature = m.Signature
		if r := p.ValidatePayloadAttestation(context.Background(), NoPeer, other); r.Verdict != Reject || r.Payload != nil {
			t.Fatalf("an invalid signature's verdict: %v, vote %v", r, r.Payload)
		}
	})
}

// TestPayloadAttestationsPruned: a slot's aggregates stay until the block
// of the next slot can no longer be made (with the clock disparity
// allowance), then go; a vote of a later slot drops those of slots before
// its previous one at once.
func TestPayloadAttestationsPruned(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, p := newPTCEnv(t, 2, 8, Config{})
		wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcVote(testSlot, e.comm.validator(testSlot, 0, 1), true, false)), Accept, nil)
		for _, c := range []struct {
			slot uint64
			ms   int64
			kept bool
		}{
			{testSlot + 1, 600, true},
			{testSlot + 2, 400, true}, // within the disparity of slot testSlot+1
			{testSlot + 2, 600, false},
		} {
			e.setSlot(c.slot, c.ms)
			p.prune()
			got := p.PayloadAttestationsForBlock(testSlot+1, blockRoot(testSlot))
			if n := p.Stats().PayloadAggregates; (n == 1) != c.kept || (len(got) == 1) != c.kept {
				t.Fatalf("at %d ms into slot %d: %d data kept, %d for the block; want kept %v", c.ms, c.slot, n, len(got), c.kept)
			}
		}

		e.setSlot(testSlot, 1000)
		wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcVote(testSlot, e.comm.validator(testSlot, 0, 2), true, false)), Accept, nil)
		e.setSlot(testSlot+2, 1000)
		wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcVote(testSlot+2, e.comm.validator(testSlot+2, 0, 2), true, false)), Accept, nil)
		if n := p.Stats().PayloadAggregates; n != 1 {
			t.Fatalf("%d data kept after a vote two slots later, want 1", n)
		}
	})
}

// swappedPTC is a PTCs whose answer changes: with swap set, the first two
// members of the underlying PTC trade places.
type swappedPTC struct {
	PTCs
	mu   sync.Mutex
	swap bool
}

func (s *swappedPTC) PTC(slot uint64) ([]uint64, bool) {
	ptc, ok := s.PTCs.PTC(slot)
	s.mu.Lock()
	defer s.mu.Unlock()
	if ok && s.swap {
		ptc = slices.Clone(ptc)
		a, b := ptc[0], ptc[1]
		for i := range ptc {
			switch ptc[i] {
			case a:
				ptc[i] = b
			case b:
				ptc[i] = a
			}
		}
	}
	return ptc, ok
}

// TestPayloadAttestationPTCChanged: when the node's PTC of a slot changes
// between two votes, so that the second validator takes the positions of
// the first, both votes are accepted and aggregated apart, and a block gets
// the aggregate over the PTC the node gives when it is asked: each is valid
// over its own PTC, a position is never counted twice.
func TestPayloadAttestationPTCChanged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 4, 100)
		ptcs := &swappedPTC{PTCs: memnode.CommitteePTC{Committees: e.comm, SlotsPerEpoch: e.spe}}
		e.node.Gloas = &GloasNode{PTC: ptcs}
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{})
		setSwap := func(swap bool) {
			ptcs.mu.Lock()
			ptcs.swap = swap
			ptcs.mu.Unlock()
		}
		first, second := e.comm.validator(testSlot, 0, 0), e.comm.validator(testSlot, 0, 1)
		wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcVote(testSlot, first, true, false)), Accept, nil)
		setSwap(true)
		wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcVote(testSlot, second, true, false)), Accept, nil)
		if n := p.Stats().PayloadAggregates; n != 2 {
			t.Fatalf("%d aggregates, want 2 (one per PTC)", n)
		}
		for _, c := range []struct {
			swap  bool
			voter uint64
		}{{true, second}, {false, first}} {
			setSwap(c.swap)
			got := p.PayloadAttestationsForBlock(testSlot+1, blockRoot(testSlot))
			if len(got) != 1 {
				t.Fatalf("swapped %v: %d payload attestations", c.swap, len(got))
			}
			e.wantBits(t, mainnetAtt(got[0]), []uint64{c.voter})
			e.processPayloadAttestation(t, mainnetAtt(got[0]), testSlot+1, blockRoot(testSlot))
		}
	})
}
