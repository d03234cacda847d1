package pool

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// Close racing peer isolation: a verdict during Close's drain may move
// queued sets between the lanes (a peer found out, a copy promoted out of a
// lane). Every message must still get exactly one verdict by the time Close
// returns.

// closeAsync starts Close and returns a channel closed when it returns.
func closeAsync(p *Pool) <-chan struct{} {
	closed := make(chan struct{})
	go func() {
		p.Close()
		close(closed)
	}()
	return closed
}

// wantOneVerdict fails t unless every channel holds exactly one verdict.
func wantOneVerdict(t *testing.T, chans map[string]<-chan Result) {
	t.Helper()
	for name, c := range chans {
		select {
		case <-c:
		default:
			t.Errorf("%s: no verdict once Close returned", name)
			continue
		}
		select {
		case r := <-c:
			t.Errorf("%s: a second verdict %v", name, r)
		default:
		}
	}
}

// TestCloseAnswersPeerFoundOut: while Close drains the queues, a batch
// held in verification turns out to hold a peer's invalid signature, which
// isolates the peer and moves its queued sets to its lane, after the
// isolated peers' goroutine has found its lane empty. They are answered.
func TestCloseAnswersPeerFoundOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 16, 100)
		e.setSlot(testSlot, 1000)
		gv := newPeerRecorder(t)
		p, err := New(Config{SignatureVerifier: gv, VerifyWorkers: 1, BatchTime: time.Millisecond, pruneEvery: time.Hour}, e.node)
		if err != nil {
			t.Fatal(err)
		}
		msgs := e.attMsgs(testSlot)
		ctx := context.Background()
		release := holdNext(t, gv)
		bad := *msgs[0].att
		bad.Signature = e.sign(bad.AttesterIndex, [32]byte{0xbe, 0xef})
		chans := map[string]<-chan Result{"invalid": p.validateAttestationAsync(ctx, "x", &bad, msgs[0].subnet)}
		<-gv.in // the primary verifies the invalid signature, held
		for i, m := range msgs[1:10] {
			from := Peer("x")
			if i >= 5 {
				from = "honest"
			}
			chans[fmt.Sprint(from, i)] = m.submit(ctx, p, from)
		}
		synctest.Wait()
		closed := closeAsync(p)
		synctest.Wait() // Close waits on the held primary; the other goroutines are done or idle
		release()       // the verdict isolates x
		<-closed
		wantOneVerdict(t, chans)
		checkInvariants(t, p)
	})
}

// TestCloseAnswersPromotedCopy: while Close drains the queues, a copy of a
// message waiting in an isolated peer's lane comes from an honest peer and
// promotes the message to the other queues, after the goroutines of those
// queues have found them empty. Both copies are answered.
func TestCloseAnswersPromotedCopy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 16, 100)
		e.setSlot(testSlot, 1000)
		fn := &faultNode{inner: e.node}
		gv := newPeerRecorder(t)
		p, err := New(Config{SignatureVerifier: gv, VerifyWorkers: 1, BatchTime: time.Millisecond, pruneEvery: time.Hour}, fn.node())
		if err != nil {
			t.Fatal(err)
		}
		msgs := e.attMsgs(testSlot)
		ctx := context.Background()
		e.isolate(t, p, "x", msgs[0])
		release := holdNext(t, gv)
		chans := map[string]<-chan Result{"held": msgs[1].submit(ctx, p, "x")}
		<-gv.in // the lane's goroutine verifies it, held
		chans["laned"] = msgs[2].submit(ctx, p, "x")
		synctest.Wait() // waiting in x's lane
		releaseIntake := fn.committee.hold()
		defer releaseIntake()
		copyc := make(chan (<-chan Result), 1)
		go func() { copyc <- msgs[2].submit(ctx, p, "honest") }() // its intake waits in the node
		synctest.Wait()
		closed := closeAsync(p)
		synctest.Wait() // the primary has found its queues empty
		releaseIntake() // the copy joins the message in the lane and promotes it
		chans["copy"] = <-copyc
		release()
		<-closed
		wantOneVerdict(t, chans)
		checkInvariants(t, p)
	})
}

// TestCloseRacesIsolation closes pools at random moments while peers
// submit valid and invalid messages and honest copies of the suspects'
// messages, so that peers are found out and copies promoted out of lanes
// during the drain. Real time on purpose: the moments fall anywhere.
func TestCloseRacesIsolation(t *testing.T) {
	checkLeaks(t)
	e, msgs := faultEnv(t)
	rounds := 12
	if raceEnabled || testing.Short() {
		rounds = 6
	}
	for round := range rounds {
		p := faultPool(t, Config{BatchSize: 8, BatchTime: time.Millisecond, MaxPending: 256}, e.node)
		type sub struct {
			m faultMsg
			c <-chan Result
		}
		var mu sync.Mutex
		var subs []sub
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for k := range msgs {
					m := msgs[(k*5+w*17)%len(msgs)]
					from := Peer(fmt.Sprint("peer", (k+w)%3))
					if w == 3 {
						from = "honest" // copies, which promote
					}
					var c <-chan Result
					if m.sap != nil {
						c = p.validateAggregateAsync(context.Background(), from, m.sap)
					} else {
						c = p.validateAttestationAsync(context.Background(), from, m.att, m.subnet)
					}
					mu.Lock()
					subs = append(subs, sub{m, c})
					mu.Unlock()
				}
			})
		}
		time.Sleep(time.Duration(round%4) * time.Millisecond)
		p.Close()
		wg.Wait()
		// Close has returned and every submission with it: each verdict is
		// there now.
		chans := make([]<-chan Result, len(subs))
		for i, s := range subs {
			chans[i] = s.c
			var r Result
			select {
			case r = <-s.c:
			default:
				t.Fatalf("round %d message %d: no verdict once Close returned", round, i)
			}
			switch {
			case s.m.valid && r.Verdict == Reject, !s.m.valid && r.Verdict == Accept:
				t.Errorf("round %d message %d (valid %v): %v", round, i, s.m.valid, r)
			case r.Verdict == Ignore && !faultIsAny(r, ErrClosed, ErrQueueFull, ErrAlreadySeen, ErrAggregateSeen, ErrAggregatorSeen):
				t.Errorf("round %d message %d: %v", round, i, r)
			}
		}
		faultOnce(t, chans)
		checkInvariants(t, p)
	}
}
