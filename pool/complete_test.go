package pool

import (
	"context"
	"errors"
	"maps"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
)

// newTestVerifier returns a verifier closed when the test ends (after the
// pools the test starts later, which Cleanup closes first).
func newTestVerifier(t testing.TB) *verifier.Verifier {
	t.Helper()
	v, err := verifier.New(verifier.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

// slowSearch is a StreamVerifier that behaves as a verifier whose search
// of a failing call is long: it reports the valid sets of a call at once,
// then, if the call has invalid sets, waits for release before reporting
// them. With quiet set it never says that a search begins, as a verifier
// that breaks that part of the contract: the pool must not depend on it.
type slowSearch struct {
	v        *verifier.Verifier
	searched chan struct{} // signalled when a call with invalid sets waits
	release  chan struct{}
	quiet    bool
}

func newSlowSearch(t testing.TB) *slowSearch {
	return &slowSearch{v: newTestVerifier(t), searched: make(chan struct{}, 4), release: make(chan struct{})}
}

func (s *slowSearch) Verify(sets []verifier.Set) []bool { return s.v.Verify(sets) }
func (s *slowSearch) Stats() verifier.Stats             { return s.v.Stats() }

func (s *slowSearch) VerifySuspect(sets []verifier.Set, report func(int, bool)) {
	s.VerifyStreamSearch(sets, report, nil)
}

func (s *slowSearch) VerifyStreamSearch(sets []verifier.Set, report func(int, bool), searching func()) {
	ok := s.v.Verify(sets)
	failing := false
	for i, valid := range ok {
		if valid {
			report(i, true)
		} else {
			failing = true
		}
	}
	if !failing {
		return
	}
	if searching != nil && !s.quiet {
		searching()
	}
	s.searched <- struct{}{}
	<-s.release
	for i, valid := range ok {
		if !valid {
			report(i, false)
		}
	}
}

// TestStreamedVerdicts: a failing batch's valid set is answered while the
// verifier still searches for the invalid one, and other batches are
// verified and answered meanwhile; the invalid set is answered after.
func TestStreamedVerdicts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 16, 100)
		e.setSlot(testSlot, 1000)
		s := newSlowSearch(t)
		// One batch of two (Min 2), then batches of whatever is queued.
		p := e.pool(Config{fixed: fifo(2, 2, time.Hour), VerifyWorkers: 2, SignatureVerifier: s})
		ctx := context.Background()
		d := e.data(testSlot)
		good, subnet := e.single(d, 0, 0)
		bad, _ := e.single(d, 0, 1)
		bad.Signature = e.sign(bad.AttesterIndex, [32]byte{7})
		badc := p.validateAttestationAsync(ctx, NoPeer, bad, subnet)
		goodc := p.validateAttestationAsync(ctx, NoPeer, good, subnet)
		<-s.searched
		wantResult(t, <-goodc, Accept, nil) // while the search goes on
		select {
		case r := <-badc:
			t.Fatalf("the invalid set answered before the search ended: %v", r)
		default:
		}
		// Another batch, taken by the other worker, is answered meanwhile.
		var later []<-chan Result
		for pos := uint64(2); pos < 4; pos++ {
			att, subnet := e.single(d, 0, pos)
			later = append(later, p.validateAttestationAsync(ctx, NoPeer, att, subnet))
		}
		for _, c := range later {
			wantResult(t, <-c, Accept, nil)
		}
		close(s.release)
		wantResult(t, <-badc, Reject, ErrInvalidSignature)
	})
}

// TestAggregateAcrossBatches: an aggregate's three sets (three signing
// roots) may be verified in different batches; it is answered once, when
// the last is reported, with the verdict of the first invalid in the specs'
// order.
func TestAggregateAcrossBatches(t *testing.T) {
	e := newEnv(t, 1, 16, 100)
	e.setSlot(testSlot+1, 0)
	d := e.data(testSlot)
	// BatchSize 1: every set alone, so each aggregate spans three batches.
	p := e.pool(Config{BatchSize: 1, VerifyWorkers: 3})
	ctx := context.Background()
	wantResult(t, p.ValidateAggregate(ctx, NoPeer, e.aggregate(d, 0, []uint64{1, 2})), Accept, nil)
	bad := e.aggregate(d, 0, []uint64{3, 4, 5})
	bad.Message.AggregatorIndex = e.comm.validator(d.Slot, 0, 6) // selection proof of another
	bad.Signature = e.signAggregateAndProof(bad.Message)
	wantResult(t, p.ValidateAggregate(ctx, NoPeer, bad), Reject, ErrInvalidSelectionProof)
}

// TestBackupTakesOver: by default the second verify goroutine, a
// backup, takes the sets queued behind the primary's long search: within
// the latency budget with a verifier that says when a failing call's search
// begins, and once a set has waited BatchTime with one that does not (fake
// time: at most the budget, or exactly BatchTime, for each of two sets
// submitted one after the other). Once the search is over, no search is
// counted.
func TestBackupTakesOver(t *testing.T) {
	const budget, batchTime = 2 * time.Millisecond, 10 * time.Millisecond
	for _, tc := range []struct {
		name   string
		signal bool
		want   time.Duration
	}{{"search signalled", true, 2 * budget}, {"no signal", false, 2 * batchTime}} { // two sets, one after the other
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 1, 16, 100)
				e.setSlot(testSlot, 1000)
				d := e.data(testSlot)
				s := newSlowSearch(t)
				s.quiet = !tc.signal
				p := e.pool(Config{VerifyWorkers: 2, BatchTime: batchTime, LatencyBudget: budget, SignatureVerifier: s})
				ctx := context.Background()
				bad, subnet := e.single(d, 0, 1)
				bad.Signature = e.sign(bad.AttesterIndex, [32]byte{7})
				badc := p.validateAttestationAsync(ctx, NoPeer, bad, subnet)
				<-s.searched
				start := time.Now()
				for pos := uint64(2); pos < 4; pos++ {
					good, subnet := e.single(d, 0, pos)
					wantResult(t, p.ValidateAttestation(ctx, NoPeer, good, subnet), Accept, nil)
				}
				if got := time.Since(start); got > tc.want || (!tc.signal && got != tc.want) {
					t.Errorf("answered after %v, want %v", got, tc.want)
				}
				close(s.release)
				wantResult(t, <-badc, Reject, ErrInvalidSignature)
				synctest.Wait()
				p.batch.mu.Lock()
				n, suspects := p.batch.searching, len(p.batch.suspects)
				p.batch.mu.Unlock()
				if n != 0 || suspects != 0 {
					t.Errorf("searching %d, %d suspects after the search ended, want none", n, suspects)
				}
			})
		})
	}
}

// gated is slowSearch whose first call waits for gate to close.
type gated struct {
	*slowSearch
	gate   chan struct{}
	passed atomic.Bool
}

func (g *gated) VerifyStreamSearch(sets []verifier.Set, report func(int, bool), searching func()) {
	if !g.passed.Swap(true) {
		<-g.gate
	}
	g.slowSearch.VerifyStreamSearch(sets, report, searching)
}

// TestSearchSuspects: while a batch is searched, the peers that forwarded
// its sets are suspects (NoPeer never is), until the search ends; then the
// peer of its invalid set is isolated.
func TestSearchSuspects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 16, 100)
		e.setSlot(testSlot, 1000)
		d := e.data(testSlot)
		s := newSlowSearch(t)
		// The first call, of a valid set, waits at gate: the three queued
		// meanwhile make the primary's next batch (no backup: one worker).
		g := &gated{slowSearch: s, gate: make(chan struct{})}
		p := e.pool(Config{VerifyWorkers: 1, SignatureVerifier: g})
		ctx := context.Background()
		warm, subnet := e.single(d, 0, 0)
		warmc := p.validateAttestationAsync(ctx, NoPeer, warm, subnet)
		synctest.Wait()
		bad, subnet := e.single(d, 0, 1)
		bad.Signature = e.sign(bad.AttesterIndex, [32]byte{7})
		cs := []<-chan Result{p.validateAttestationAsync(ctx, "attacker", bad, subnet)}
		for pos, from := range []Peer{"honest", NoPeer} {
			att, subnet := e.single(d, 0, uint64(pos+2))
			cs = append(cs, p.validateAttestationAsync(ctx, from, att, subnet))
		}
		synctest.Wait()
		close(g.gate)
		wantResult(t, <-warmc, Accept, nil)
		<-s.searched
		p.batch.mu.Lock()
		got := maps.Clone(p.batch.suspects)
		p.batch.mu.Unlock()
		if want := map[Peer]int{"attacker": 1, "honest": 1}; !maps.Equal(got, want) {
			t.Errorf("suspects during the search %v, want %v", got, want)
		}
		close(s.release)
		wantResult(t, <-cs[0], Reject, ErrInvalidSignature)
		for _, c := range cs[1:] {
			wantResult(t, <-c, Accept, nil)
		}
		synctest.Wait()
		p.batch.mu.Lock()
		n := len(p.batch.suspects)
		p.batch.mu.Unlock()
		if n != 0 || p.batch.isolatedPeers() != 1 {
			t.Errorf("after the search: %d suspects, %d isolated peers; want none, the attacker", n, p.batch.isolatedPeers())
		}
	})
}

// TestUndecodableSignatureInBatch: when submitters are already decoding,
// the attestation topic decodes signatures in the verify goroutine, with
// the rest of the batch (here always: intakeDecodes 0). A signature that
// does not decode, from a signer whose key the node has, is rejected there,
// its peer is tainted, and the valid sets of its batch are accepted.
func TestUndecodableSignatureInBatch(t *testing.T) {
	e := newEnv(t, 1, 16, 100)
	e.setSlot(testSlot, 1000)
	d := e.data(testSlot)
	synctest.Test(t, func(t *testing.T) {
		p, err := New(Config{pruneEvery: time.Hour}, e.node)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		p.intakeDecodes = 0
		ctx := context.Background()
		var goods []<-chan Result
		for pos := uint64(0); pos < 3; pos++ {
			att, subnet := e.single(d, 0, pos)
			goods = append(goods, p.validateAttestationAsync(ctx, NoPeer, att, subnet))
		}
		bad, subnet := e.single(d, 0, 3)
		bad.Signature = [96]byte{1}
		badc := p.validateAttestationAsync(ctx, "peer", bad, subnet)
		wantResult(t, <-badc, Reject, ErrInvalidSignature)
		for _, c := range goods {
			wantResult(t, <-c, Accept, nil)
		}
		if n := p.batch.isolatedPeers(); n != 1 {
			t.Fatalf("%d isolated peers after a signature that does not decode", n)
		}
		// The isolated peer's next one is decoded in its lane, whatever
		// the intake's bound, and rejected there.
		p.intakeDecodes = 1
		bad, subnet = e.single(d, 0, 4)
		bad.Signature = [96]byte{2}
		wantResult(t, p.ValidateAttestation(ctx, "peer", bad, subnet), Reject, ErrInvalidSignature)
		// The rejected message is not seen: the signer's valid one is accepted.
		good, subnet := e.single(d, 0, 3)
		wantResult(t, p.ValidateAttestation(ctx, NoPeer, good, subnet), Accept, nil)
	})
}

// TestIntakeDecodeBound: a submitter decodes the signature itself while
// fewer than intakeDecodes others do, and leaves it to the verify goroutine
// past that or when its peer is isolated; a signer whose key the node lacks
// has it decoded in any case.
func TestIntakeDecodeBound(t *testing.T) {
	e := newEnv(t, 1, 16, 100)
	e.setSlot(testSlot, 1000)
	p := e.pool(Config{})
	att, _ := e.single(e.data(testSlot), 0, 0)
	for _, c := range []struct {
		bound, busy int64
		deferred    bool
	}{{1, 0, false}, {1, 1, true}, {2, 1, false}, {0, 0, true}} {
		p.intakeDecodes = c.bound
		p.decoding.Store(c.busy)
		g := &group{sig: att.Signature}
		pk, undecoded, res := p.attesterKey(g, NoPeer, att.AttesterIndex)
		if pk == nil || res.Err != nil || undecoded != c.deferred {
			t.Fatalf("bound %d, %d decoding: key %v, undecoded %v, %v; want deferred %v", c.bound, c.busy, pk != nil, undecoded, res, c.deferred)
		}
		if decoded := g.point != (crypto.Signature{}); decoded == c.deferred {
			t.Fatalf("bound %d, %d decoding: point decoded %v with undecoded %v", c.bound, c.busy, decoded, undecoded)
		}
		if n := p.decoding.Load(); n != c.busy {
			t.Fatalf("bound %d: %d decoding after the call, want %d", c.bound, n, c.busy)
		}
	}
	p.decoding.Store(0)
	p.intakeDecodes = 1
	p.batch.taint("isolated")
	for _, from := range []Peer{"isolated", "other"} {
		g := &group{sig: att.Signature}
		if _, undecoded, _ := p.attesterKey(g, from, att.AttesterIndex); undecoded != (from == "isolated") {
			t.Fatalf("peer %s, isolated %v: undecoded %v", from, p.batch.isolatedPeer(from), undecoded)
		}
	}
	p.intakeDecodes = 0
	p.node.Keys = keysWithout{e.keys, att.AttesterIndex}
	g := &group{sig: [96]byte{1}}
	if _, _, res := p.attesterKey(g, NoPeer, att.AttesterIndex); res.Verdict != Reject || !errors.Is(res, ErrInvalidSignature) {
		t.Fatalf("an undecodable signature of an unknown signer: %v, want a REJECT", res)
	}
}
