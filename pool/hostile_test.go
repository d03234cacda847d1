package pool

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
)

// hostileScale is the factor the hostile-load tests scale the default
// bounds by (MaxPending, MaxPeers): 1/64, so that a flood that fills them
// takes a few thousand messages.
const hostileScale = 64

// costVerifier is a SignatureVerifier whose sets are valid unless their
// signature is bad, and whose calls take, in the fake time of a synctest
// bubble, perSet a set and perBad more a call that holds a bad one (the
// search of a failing call); it counts its calls.
type costVerifier struct {
	bad           [96]byte
	perSet        time.Duration
	perBad        time.Duration
	calls, checks atomic.Int64
}

func (v *costVerifier) Verify(sets []verifier.Set) []bool {
	v.calls.Add(1)
	v.checks.Add(int64(len(sets)))
	out := make([]bool, len(sets))
	cost := time.Duration(len(sets)) * v.perSet
	for i, s := range sets {
		out[i] = s.Signature != v.bad
		if !out[i] {
			cost += v.perBad
		}
	}
	time.Sleep(cost)
	return out
}

// crafted is an attestation of the validator at pos of committee ci for d
// with signature sig, which the node does not check before the verifier,
// and its subnet.
func (e *env) crafted(d *attestation.AttestationData, ci, pos uint64, sig [96]byte) attMsg {
	v := e.comm.validator(d.Slot, ci, pos)
	subnet := (e.comm.cps*(d.Slot%e.spe) + ci) % AttestationSubnetCount
	return attMsg{&attestation.SingleAttestation{CommitteeIndex: ci, AttesterIndex: v, Data: d, Signature: sig}, subnet}
}

// TestIsolatedPeersKeepHonestPlaces: as many hostile peers as the peer
// table holds (MaxPeers, the default bounds scaled by 1/hostileScale) flood
// invalid signatures that look valid, isolated by a first invalid one
// before the flood or found out in it; an honest peer's messages, sent
// while the flood is queued, are all accepted (none refused with
// ErrQueueFull), and every flood message gets its verdict promptly, long
// before its caller's deadline.
func TestIsolatedPeersKeepHonestPlaces(t *testing.T) {
	for _, first := range []bool{true, false} {
		t.Run(fmt.Sprintf("isolated_first=%v", first), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { testIsolatedPeersKeepHonestPlaces(t, first) })
		})
	}
}

func testIsolatedPeersKeepHonestPlaces(t *testing.T, isolateFirst bool) {
	const (
		committees, size = 16, 320
		perPeer          = 300 // more than MaxPendingPerPeer
		honest, inFlight = 64, 8
		deadline         = 20 * time.Second
		prompt           = 3 * time.Second
	)
	e := newEnv(t, committees, size, 100)
	e.setSlot(testSlot, 1000)
	d := e.data(testSlot)
	v := &costVerifier{bad: e.sign(0, [32]byte{0xba, 0xd}), perSet: 20 * time.Microsecond, perBad: time.Millisecond}
	def := DefaultConfig()
	peers := def.MaxPeers / hostileScale
	p := e.pool(Config{SignatureVerifier: v, MaxPending: def.MaxPending / hostileScale, MaxPeers: peers, BatchTime: def.BatchTime})
	next := uint64(0)
	msg := func(sig *[96]byte) attMsg {
		ci, pos := next/size, next%size
		next++
		if sig == nil {
			return attMsg{}.signed(e, d, ci, pos)
		}
		return e.crafted(d, ci, pos, *sig)
	}
	ctx := context.Background()
	if isolateFirst {
		for h := range peers {
			wantResult(t, msg(&v.bad).wait(ctx, p, Peer(fmt.Sprint("hostile", h))), Reject, ErrInvalidSignature)
		}
		if n := p.batch.isolatedPeers(); n != peers {
			t.Fatalf("%d peers isolated, want %d", n, peers)
		}
	}
	fctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	start := time.Now()
	var flood []<-chan Result
	for h := range peers {
		for range perPeer {
			flood = append(flood, msg(&v.bad).submit(fctx, p, Peer(fmt.Sprint("hostile", h))))
		}
	}
	for i := 0; i < honest; i += inFlight {
		var cs []<-chan Result
		for range inFlight {
			cs = append(cs, msg(nil).submit(ctx, p, "honest"))
		}
		for k, c := range cs {
			if r := <-c; r.Verdict != Accept {
				t.Fatalf("honest message %d beside %d hostile peers' flood: %v", i+k, peers, r)
			}
		}
	}
	refused := 0
	for i, c := range flood {
		r := <-c
		if took := time.Since(start); took > prompt {
			t.Fatalf("flood message %d answered after %v (deadline %v), want within %v", i, took, deadline, prompt)
		}
		switch {
		case r.Verdict == Reject && faultIsAny(r, ErrInvalidSignature):
		case r.Verdict == Ignore && faultIsAny(r, ErrQueueFull):
			refused++
		default:
			t.Fatalf("flood message %d: %v", i, r)
		}
	}
	if refused == 0 {
		t.Fatal("no flood message refused: the flood did not reach the bounds")
	}
}

// signed is the validly signed attestation of the validator at pos of
// committee ci for d.
func (attMsg) signed(e *env, d *attestation.AttestationData, ci, pos uint64) attMsg {
	att, subnet := e.single(d, ci, pos)
	return attMsg{att, subnet}
}

// wait submits m and waits for its verdict.
func (m attMsg) wait(ctx context.Context, p *Pool, from Peer) Result {
	return <-m.submit(ctx, p, from)
}

// TestUnknownBlockCostsNoSignature: an attestation and an aggregate whose
// block the node has not seen, each sent twice, are IGNOREd
// (ErrBlockUnknown) without a signature verified.
func TestUnknownBlockCostsNoSignature(t *testing.T) {
	e := newEnv(t, 2, 32, 100)
	e.setSlot(testSlot, 1000)
	v := &costVerifier{}
	p := e.pool(Config{SignatureVerifier: v})
	d := e.data(testSlot)
	d.BeaconBlockRoot = [32]byte{0xee, 0xee}
	att, subnet := e.single(d, 0, 3)
	sap := e.aggregate(d, 1, []uint64{0, 1, 2})
	ctx := context.Background()
	for i := range 2 {
		wantResult(t, p.ValidateAttestation(ctx, "peer", att, subnet), Ignore, ErrBlockUnknown)
		wantResult(t, p.ValidateAggregate(ctx, "peer", sap), Ignore, ErrBlockUnknown)
		if n := v.checks.Load(); n != 0 {
			t.Fatalf("send %d: %d signature sets verified for messages of an unknown block", i+1, n)
		}
	}
}

// countingKeys counts the public keys the pool looks up: the work of its
// key sums, a lookup per term.
type countingKeys struct {
	PublicKeys
	n atomic.Int64
}

func (k *countingKeys) PublicKey(index uint64) *crypto.PublicKey {
	k.n.Add(1)
	return k.PublicKeys.PublicKey(index)
}

// TestCraftedAggregatesCostNoKeySum: an isolated peer's crafted aggregates
// (random participants, a selection proof that passes is_aggregator after a
// few SHA-256 tries but is no signature) cost the intake and the lanes no
// more key lookups each than 4 times an honest aggregate's (its
// aggregator's key and a key sum from a recent sum of its committee, a few
// bits apart); their verdicts are Reject or Ignore (ErrQueueFull).
func TestCraftedAggregatesCostNoKeySum(t *testing.T) {
	const size, crafted = 256, 64 // a mainnet-sized committee
	e := newEnv(t, 2, size, 100)
	e.setSlot(testSlot, 1000)
	keys := &countingKeys{PublicKeys: e.node.Keys}
	e.node.Keys = keys
	p := e.pool(Config{SignatureVerifier: newTestVerifier(t)})
	d := e.data(testSlot)
	const ci = 1
	committee, _ := e.comm.BeaconCommittee(d.Slot, ci)

	// An honest aggregate's cost: its aggregator's key, and its sum from
	// the last one of its committee.
	near := bitfield.NewBitlist(size)
	for i := range uint64(200) {
		near.SetBitAt(i, true)
	}
	if pk, res := p.participantsKey(d.Slot, ci, committee, near); pk == nil {
		t.Fatal(res)
	}
	near.SetBitAt(200, true)
	near.SetBitAt(201, true)
	before := keys.n.Load()
	if pk, res := p.participantsKey(d.Slot, ci, committee, near); pk == nil {
		t.Fatal(res)
	}
	honest := 1 + keys.n.Load() - before

	ctx := context.Background()
	bad := e.crafted(d, 0, 0, e.sign(0, [32]byte{0xba, 0xd}))
	wantResult(t, bad.wait(ctx, p, "crafter"), Reject, ErrInvalidSignature)
	point := e.sign(1, [32]byte{1})
	var chans []<-chan Result
	before = keys.n.Load()
	for k := range crafted {
		bits := bitfield.NewBitlist(size)
		for i := range uint64(size) {
			bits.SetBitAt(i, randBit())
		}
		bits.SetBitAt(0, true)
		var proof [96]byte
		for !isAggregator(size, proof) {
			if _, err := rand.Read(proof[:]); err != nil {
				t.Fatal(err)
			}
		}
		sap := &attestation.SignedAggregateAndProof{
			Message: &attestation.AggregateAndProof{
				AggregatorIndex: committee[k%size],
				Aggregate:       &attestation.Attestation{AggregationBits: bits, Data: d, Signature: point, CommitteeBits: committeeBits(ci)},
				SelectionProof:  proof,
			},
			Signature: point,
		}
		chans = append(chans, p.validateAggregateAsync(ctx, "crafter", sap))
	}
	for i, c := range chans {
		if r := <-c; r.Verdict == Accept || (r.Verdict == Ignore && !errors.Is(r, ErrQueueFull)) {
			t.Fatalf("crafted aggregate %d: %v", i, r)
		}
	}
	per := float64(keys.n.Load()-before) / crafted
	t.Logf("key lookups: %.1f a crafted aggregate, %d an honest one", per, honest)
	if per > 4*float64(honest) {
		t.Fatalf("a crafted aggregate of an isolated peer costs %.1f key lookups, an honest one %d", per, honest)
	}
}

// randBit is a random bit from crypto/rand.
func randBit() bool {
	var b [1]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return b[0]&1 == 1
}
