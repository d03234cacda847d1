package pool

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/internal/clientbatch"
)

// The places of MaxPending: a message whose callers all went before its
// verdict gives its queued sets' places back, and no peer holds more than
// MaxPendingPerPeer of them.

// attMsg is an attestation and its subnet.
type attMsg struct {
	att    *attestation.SingleAttestation
	subnet uint64
}

// attMsgs returns the valid attestations of slot's committees, in
// committee order.
func (e *env) attMsgs(slot uint64) []attMsg {
	d := e.data(slot)
	var out []attMsg
	for ci := range e.comm.cps {
		for pos := range e.comm.size {
			att, subnet := e.single(d, ci, pos)
			out = append(out, attMsg{att, subnet})
		}
	}
	return out
}

func (m attMsg) submit(ctx context.Context, p *Pool, from Peer) <-chan Result {
	return p.validateAttestationAsync(ctx, from, m.att, m.subnet)
}

// isolate makes from an isolated peer: it forwards an invalid signature.
func (e *env) isolate(t *testing.T, p *Pool, from Peer, m attMsg) {
	t.Helper()
	bad := *m.att
	bad.Signature = e.sign(bad.AttesterIndex, [32]byte{0xbe, 0xef})
	wantResult(t, p.ValidateAttestation(context.Background(), from, &bad, m.subnet), Reject, ErrInvalidSignature)
	if p.batch.isolatedPeers() != 1 {
		t.Fatalf("%s not isolated", from)
	}
}

// holdNext makes gv hold its next call until the returned release is called
// (idempotent; also at the test's end).
func holdNext(t *testing.T, gv *peerRecorder) (release func()) {
	hold := make(chan struct{})
	gv.mu.Lock()
	gv.hold = hold
	gv.mu.Unlock()
	done := false
	release = func() {
		if !done {
			done = true
			close(hold)
		}
	}
	t.Cleanup(release)
	return release
}

func newPeerRecorder(t *testing.T) *peerRecorder {
	return &peerRecorder{v: newTestVerifier(t), peer: map[[96]byte]Peer{}, in: make(chan struct{})}
}

// queuedSets is the number of sets waiting in the batcher's queues: the
// FIFO, the roots' queues and the isolated peers' lanes.
func queuedSets(p *Pool) int {
	b := p.batch
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.fifo.len()
	for _, q := range b.turn {
		n += q.len()
	}
	for _, q := range b.apart.byPeer {
		n += q.len()
	}
	return n
}

// TestCancelledFloodFreesPlaces: an isolated peer's messages queue behind
// its lane, whose verification is held, until their contexts end (as
// behind a gossip validator's timeout); once they are answered, their sets
// are out of the lane and their places free, so the honest messages that
// come next are all queued and accepted. MaxPendingPerPeer is MaxPending
// here: the places come back from the cancellations alone.
func TestCancelledFloodFreesPlaces(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 32, 100)
		e.setSlot(testSlot, 1000)
		gv := newPeerRecorder(t)
		const maxPending = 16
		p := e.pool(Config{SignatureVerifier: gv, VerifyWorkers: 1, MaxPending: maxPending, MaxPendingPerPeer: maxPending})
		msgs := e.attMsgs(testSlot)
		e.isolate(t, p, "attacker", msgs[0])
		release := holdNext(t, gv)
		// The lane's worker takes the first message and is held; the
		// others wait in the lane until their deadlines pass.
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		flood := []<-chan Result{msgs[1].submit(ctx, p, "attacker")}
		<-gv.in
		for _, m := range msgs[2:33] {
			flood = append(flood, m.submit(ctx, p, "attacker"))
		}
		// A peer beyond its reserve takes no place of the peers' reserves
		// (fairShare).
		if want := maxPending - maxPending/reservedShare; p.Stats().Pending != want {
			t.Fatalf("%d sets pending before the deadlines, want the flood to fill MaxPending but the reserves (%d)", p.Stats().Pending, want)
		}
		time.Sleep(200 * time.Millisecond)
		for i, c := range flood {
			select {
			case r := <-c:
				if r.Verdict != Ignore || !faultIsAny(r, ErrCancelled, ErrQueueFull) {
					t.Fatalf("flood message %d: %v", i, r)
				}
			default:
				t.Fatalf("flood message %d unanswered past its deadline", i)
			}
		}
		for i, m := range msgs[33:64] {
			wantResult(t, p.ValidateAttestation(context.Background(), Peer(fmt.Sprint("honest", i%3)), m.att, m.subnet), Accept, nil)
		}
		// The held set is being verified: it keeps its place until its
		// verdict; the others left the lane.
		if got, queued := p.Stats().Pending, queuedSets(p); got != 1 || queued != 0 {
			t.Fatalf("after the deadlines: %d sets pending, %d queued; want 1 (the held one) and none", got, queued)
		}
		release()
	})
}

// TestCancelledMessageLeavesQueue: batching as a client or by default, a message whose
// context ends while its sets are queued gives their places back before its
// Ignore is seen, and its sets leave the queue; resubmitted, it is verified
// anew.
func TestCancelledMessageLeavesQueue(t *testing.T) {
	for name, fixed := range map[string]*clientbatch.Batching{"client": fifo(2, 1, time.Hour), "default": nil} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 2, 16, 100)
				e.setSlot(testSlot, 1000)
				gv := newPeerRecorder(t)
				p := e.pool(Config{SignatureVerifier: gv, fixed: fixed, BatchTime: time.Hour, VerifyWorkers: 1, BatchSize: 2})
				msgs := e.attMsgs(testSlot)
				release := holdNext(t, gv)
				held := msgs[0].submit(context.Background(), p, "a")
				<-gv.in // the only worker is held: what follows waits in the queues
				ctxs := make([]context.CancelFunc, 4)
				var chans []<-chan Result
				for i, m := range msgs[1:5] {
					ctx, cancel := context.WithCancel(context.Background())
					ctxs[i] = cancel
					chans = append(chans, m.submit(ctx, p, Peer(fmt.Sprint("p", i))))
				}
				// An aggregate's three sets leave together.
				sap := e.aggregate(e.data(testSlot), 1, []uint64{0, 1})
				actx, acancel := context.WithCancel(context.Background())
				aggc := p.validateAggregateAsync(actx, "p9", sap)
				synctest.Wait()
				if got, q := p.Stats().Pending, queuedSets(p); got != 8 || q != 7 {
					t.Fatalf("%d sets pending, %d queued; want 8 and 7", got, q)
				}
				for i, cancel := range ctxs[:3] {
					cancel()
					wantResult(t, <-chans[i], Ignore, ErrCancelled)
					if got, want := p.Stats().Pending, 7-i; got != want {
						t.Fatalf("cancelled %d: %d sets pending, want %d", i+1, got, want)
					}
				}
				acancel()
				wantResult(t, <-aggc, Ignore, ErrCancelled)
				if got, q := p.Stats().Pending, queuedSets(p); got != 2 || q != 1 {
					t.Fatalf("%d sets pending, %d queued after the cancellations; want 2 and 1", got, q)
				}
				// Nothing of the cancelled messages stays in flight: sent
				// again, each is verified.
				again := msgs[1].submit(context.Background(), p, "p0")
				release()
				wantResult(t, <-held, Accept, nil)
				wantResult(t, <-chans[3], Accept, nil)
				wantResult(t, <-again, Accept, nil)
				wantResult(t, p.ValidateAggregate(context.Background(), "p9", sap), Accept, nil)
				ctxs[3]()
				synctest.Wait()
				if got := p.Stats().Pending; got != 0 {
					t.Fatalf("%d sets pending at the end", got)
				}
			})
		})
	}
}

// TestLiveCopyKeepsCancelledSets: a copy of a message in flight shares its
// sets; when the first caller's context ends, the copy's caller still waits,
// so the sets stay queued and their verdict answers the copy. Once every
// caller has gone, the sets leave.
func TestLiveCopyKeepsCancelledSets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 16, 100)
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{fixed: fifo(1024, 1024, time.Hour)})
		msgs := e.attMsgs(testSlot)
		first, cancelFirst := context.WithCancel(context.Background())
		firstc := msgs[0].submit(first, p, "a")
		copyc := msgs[0].submit(context.Background(), p, "b")
		cancelFirst()
		wantResult(t, <-firstc, Ignore, ErrCancelled)
		if got, q := p.Stats().Pending, queuedSets(p); got != 1 || q != 1 {
			t.Fatalf("the copy's caller waits: %d sets pending, %d queued; want 1 and 1", got, q)
		}

		// Both callers go: the set leaves.
		c1, cancel1 := context.WithCancel(context.Background())
		c2, cancel2 := context.WithCancel(context.Background())
		ch1 := msgs[1].submit(c1, p, "a")
		ch2 := msgs[1].submit(c2, p, "b")
		cancel2()
		wantResult(t, <-ch2, Ignore, ErrCancelled)
		if got := p.Stats().Pending; got != 2 {
			t.Fatalf("one caller of two gone: %d sets pending, want 2", got)
		}
		cancel1()
		wantResult(t, <-ch1, Ignore, ErrCancelled)
		if got, q := p.Stats().Pending, queuedSets(p); got != 1 || q != 1 {
			t.Fatalf("every caller gone: %d sets pending, %d queued; want 1 and 1", got, q)
		}
		p.Close()
		wantResult(t, <-copyc, Accept, nil)
	})
}

// TestPeerBoundKeepsPlaces: one peer's messages hold at most
// MaxPendingPerPeer places, so its flood refuses no other peer's message;
// NoPeer's messages count as one peer's once a named peer's have come, and
// a pool that is given no peers at all keeps MaxPending for them.
func TestPeerBoundKeepsPlaces(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 32, 100)
		e.setSlot(testSlot, 1000)
		msgs := e.attMsgs(testSlot)
		ctx := context.Background()
		queue := func(p *Pool, from Peer, ms []attMsg) (queued, refused int) {
			t.Helper()
			for _, m := range ms {
				select {
				case r := <-m.submit(ctx, p, from):
					wantResult(t, r, Ignore, ErrQueueFull)
					refused++
				default:
					queued++
				}
			}
			return queued, refused
		}
		cfg := Config{fixed: fifo(1024, 1024, time.Hour), MaxPending: 32} // MaxPendingPerPeer 8
		p := e.pool(cfg)
		if q, r := queue(p, "flood", msgs[:20]); q != 8 || r != 12 {
			t.Fatalf("a peer's flood: %d queued, %d refused; want 8 and 12", q, r)
		}
		// The third honest peer finds the places but the reserves taken,
		// and takes its reserve (fairShare).
		for i, want := range []int{8, 8, 3} {
			if q, _ := queue(p, Peer(fmt.Sprint("honest", i)), msgs[20+8*i:28+8*i]); q != want {
				t.Fatalf("honest peer %d: %d of 8 queued beside the flood, want %d", i, q, want)
			}
		}
		if got := p.Stats().Pending; got != 27 {
			t.Fatalf("%d sets pending, want 27", got)
		}

		// NoPeer is one peer once named peers came.
		p2 := e.pool(cfg)
		if q, _ := queue(p2, "named", msgs[:1]); q != 1 {
			t.Fatal("a named peer's message not queued")
		}
		if q, r := queue(p2, NoPeer, msgs[1:20]); q != 8 || r != 11 {
			t.Fatalf("NoPeer beside named peers: %d queued, %d refused; want 8 and 11", q, r)
		}

		// A pool given no peers: MaxPending for NoPeer.
		p3 := e.pool(cfg)
		if q, r := queue(p3, NoPeer, msgs[:40]); q != 32 || r != 8 {
			t.Fatalf("NoPeer alone: %d queued, %d refused; want 32 and 8", q, r)
		}
	})
}

// TestCancelledSetBeingVerified: a message cancelled while its set is in a
// batch being verified keeps its place until the verdict, which gives it
// back once; a copy that comes after the cancellation is verified anew.
func TestCancelledSetBeingVerified(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 16, 100)
		e.setSlot(testSlot, 1000)
		gv := newPeerRecorder(t)
		p := e.pool(Config{SignatureVerifier: gv, VerifyWorkers: 1})
		msgs := e.attMsgs(testSlot)
		release := holdNext(t, gv)
		ctx, cancel := context.WithCancel(context.Background())
		c := msgs[0].submit(ctx, p, "a")
		<-gv.in
		cancel()
		wantResult(t, <-c, Ignore, ErrCancelled)
		if got := p.Stats().Pending; got != 1 {
			t.Fatalf("%d sets pending while the cancelled set is verified, want 1", got)
		}
		again := msgs[0].submit(context.Background(), p, "b")
		release()
		wantResult(t, <-again, Accept, nil)
		synctest.Wait()
		if got := p.Stats().Pending; got != 0 {
			t.Fatalf("%d sets pending after the verdicts, want 0", got)
		}
	})
}
