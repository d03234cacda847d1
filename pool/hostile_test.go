package pool

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attpool/attpool/attestation"
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
	p := e.pool(Config{SignatureVerifier: v, MaxPending: def.MaxPending / hostileScale, MaxPeers: peers, BatchDelay: def.BatchDelay})
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
