package pool

// Faults: contexts cancelled while their batch is
// verified, Close during a flood, and a node whose interfaces fail or block
// on chosen calls. Every message must still get exactly one verdict, and no
// goroutine may outlive the test (the synctest bubble of the tests with a
// blocked node, whose time windows pass in fake time; checkLeaks of
// helpers_test.go for those that race real deadlines).

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
)

// faultHook decides the fate of the calls of one node method: every n-th
// call fails, and while a gate is set the calls wait for it.
type faultHook struct {
	calls   atomic.Int64
	failed  atomic.Int64
	every   atomic.Int64
	gate    atomic.Pointer[chan struct{}]
	waiting atomic.Int64
}

func (h *faultHook) enter() (fail bool) {
	n := h.calls.Add(1)
	if g := h.gate.Load(); g != nil {
		h.waiting.Add(1)
		<-*g
		h.waiting.Add(-1)
	}
	if e := h.every.Load(); e > 0 && n%e == 0 {
		h.failed.Add(1)
		return true
	}
	return false
}

// hold makes the calls wait until release is called (idempotent).
func (h *faultHook) hold() (release func()) {
	g := make(chan struct{})
	h.gate.Store(&g)
	var once sync.Once
	return func() {
		once.Do(func() {
			h.gate.Store(nil)
			close(g)
		})
	}
}

// faultNode wraps a node; each method has its hook. A failing call answers
// what a node that cannot tell answers: no key, no committee, an unknown
// block, a finalized checkpoint that is not an ancestor.
type faultNode struct {
	inner                                            Node
	keys, count, committee, block, checkpoint, final faultHook
}

func (f *faultNode) node() Node {
	n := f.inner
	n.Keys, n.Committees, n.Chain = faultKeys{f}, faultCommittees{f}, faultChain{f}
	return n
}

func (f *faultNode) hooks() []*faultHook {
	return []*faultHook{&f.keys, &f.count, &f.committee, &f.block, &f.checkpoint, &f.final}
}

type faultKeys struct{ f *faultNode }

func (k faultKeys) PublicKey(i uint64) *crypto.PublicKey {
	if k.f.keys.enter() {
		return nil
	}
	return k.f.inner.Keys.PublicKey(i)
}

type faultCommittees struct{ f *faultNode }

func (c faultCommittees) CommitteeCountPerSlot(epoch uint64) (uint64, bool) {
	if c.f.count.enter() {
		return 0, false
	}
	return c.f.inner.Committees.CommitteeCountPerSlot(epoch)
}

func (c faultCommittees) BeaconCommittee(slot, index uint64) ([]uint64, bool) {
	if c.f.committee.enter() {
		return nil, false
	}
	return c.f.inner.Committees.BeaconCommittee(slot, index)
}

type faultChain struct{ f *faultNode }

func (c faultChain) Block(root [32]byte) (bool, bool) {
	if c.f.block.enter() {
		return false, false
	}
	return c.f.inner.Chain.Block(root)
}

func (c faultChain) CheckpointBlock(root [32]byte, epoch uint64) ([32]byte, bool) {
	if c.f.checkpoint.enter() {
		return [32]byte{}, false
	}
	return c.f.inner.Chain.CheckpointBlock(root, epoch)
}

func (c faultChain) BlockPayload(root [32]byte) (uint64, PayloadStatus, bool) {
	return c.f.inner.Chain.BlockPayload(root)
}

func (c faultChain) FinalizedCheckpoint() attestation.Checkpoint {
	if c.f.final.enter() {
		return attestation.Checkpoint{Epoch: 0, Root: [32]byte{0xfa}}
	}
	return c.f.inner.Chain.FinalizedCheckpoint()
}

// faultMsg is a message of the fault tests.
type faultMsg struct {
	att    *attestation.SingleAttestation
	subnet uint64
	sap    *attestation.SignedAggregateAndProof
	valid  bool
}

func (m faultMsg) submit(ctx context.Context, p *Pool) <-chan Result {
	if m.sap != nil {
		return p.validateAggregateAsync(ctx, NoPeer, m.sap)
	}
	return p.validateAttestationAsync(ctx, NoPeer, m.att, m.subnet)
}

// faultEnv returns an env of 2 committees of 16 with the clock in slot
// testSlot+1, and its faultMsgs.
func faultEnv(t *testing.T) (*env, []faultMsg) {
	e := newEnv(t, 2, 16, 100)
	e.setSlot(testSlot+1, 1000)
	return e, faultMsgs(e)
}

// faultMsgs returns, for an env of 2 committees of 16 with the clock in
// slot testSlot+1: the 64 attestations of slots testSlot and testSlot+1
// (those at odd positions of testSlot+1 with another attester's signature),
// then 4 aggregates of slot testSlot+1, the last two with a bad aggregator
// signature.
func faultMsgs(e *env) []faultMsg {
	var out []faultMsg
	for _, slot := range []uint64{testSlot, testSlot + 1} {
		d := e.data(slot)
		for ci := range uint64(2) {
			for pos := range uint64(16) {
				att, subnet := e.single(d, ci, pos)
				valid := slot == testSlot || pos%2 == 0
				if !valid {
					other, _ := e.single(d, ci, (pos+1)%16)
					att.Signature = other.Signature
				}
				out = append(out, faultMsg{att: att, subnet: subnet, valid: valid})
			}
		}
	}
	d := e.data(testSlot + 1)
	for i, pos := range [][]uint64{{1, 3}, {5, 7, 9}, {11}, {13, 15}} {
		sap := e.aggregate(d, uint64(i%2), pos)
		valid := i < 2
		if !valid {
			sap.Signature = e.sign(sap.Message.AggregatorIndex, [32]byte{0xba, 0xd})
		}
		out = append(out, faultMsg{sap: sap, valid: valid})
	}
	return out
}

// faultPool starts a pool over node, closed (and its invariants checked)
// when the test ends.
func faultPool(t *testing.T, cfg Config, node Node) *Pool {
	t.Helper()
	if cfg.BatchTime == 0 {
		cfg.BatchTime = time.Millisecond
	}
	if cfg.pruneEvery == 0 {
		cfg.pruneEvery = time.Hour
	}
	p, err := New(cfg, node)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Close()
		checkInvariants(t, p)
	})
	return p
}

// faultWait returns the verdict on ch, failing t if none comes within d.
func faultWait(t *testing.T, ch <-chan Result, d time.Duration, what string) Result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(d):
		t.Fatalf("%s: no verdict within %v", what, d)
		return Result{}
	}
}

// faultOnce checks that no channel holds a second verdict.
func faultOnce(t *testing.T, chans []<-chan Result) {
	t.Helper()
	for i, c := range chans {
		select {
		case r := <-c:
			t.Fatalf("message %d: a second verdict %v", i, r)
		default:
		}
	}
}

// faultNodeIgnores are the rules a node that cannot answer leads to: Ignore,
// never a penalty for the peer.
var faultNodeIgnores = []error{ErrShufflingUnavailable, ErrUnknownValidator, ErrBlockUnknown, ErrFinalizedNotAncestor}

func faultIsAny(r Result, errs ...error) bool {
	for _, e := range errs {
		if errors.Is(r, e) {
			return true
		}
	}
	return false
}

// TestFaultNodeErrors: a node whose every method fails now and then. Valid
// messages are accepted or ignored (never rejected), invalid ones never
// accepted; nothing a failing call leads to is remembered: once the node
// heals, the ignored valid messages are accepted.
func TestFaultNodeErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, msgs := faultEnv(t)
		fn := &faultNode{inner: e.node}
		for i, h := range fn.hooks() {
			h.every.Store(int64(3 + 2*i)) // 3, 5, 7, 9, 11, 13
		}
		p := faultPool(t, Config{BatchSize: 8}, fn.node())

		first := make([]Result, len(msgs))
		chans := make([]<-chan Result, len(msgs))
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := w; i < len(msgs); i += 8 {
					chans[i] = msgs[i].submit(context.Background(), p)
					first[i] = faultWait(t, chans[i], 10*time.Second, "faulty node")
				}
			})
		}
		wg.Wait()
		failed := int64(0)
		for _, h := range fn.hooks() {
			failed += h.failed.Load()
		}
		if failed == 0 {
			t.Fatal("no call failed")
		}
		ignored := 0
		for i, m := range msgs {
			r := first[i]
			switch {
			case m.valid && r.Verdict == Reject:
				t.Errorf("valid message %d rejected on a node fault: %v", i, r)
			case !m.valid && r.Verdict == Accept:
				t.Errorf("invalid message %d accepted", i)
			case r.Verdict == Ignore && !faultIsAny(r, append(faultNodeIgnores, ErrAggregateSeen, ErrAggregatorSeen)...):
				t.Errorf("message %d: %v", i, r)
			case r.Verdict == Ignore:
				ignored++
			}
		}
		checkInvariants(t, p)

		// The node heals: resubmitted, the messages ignored for a fault are
		// accepted, the accepted ones are duplicates.
		for _, h := range fn.hooks() {
			h.every.Store(0)
		}
		for i, m := range msgs {
			c := m.submit(context.Background(), p)
			r := faultWait(t, c, 10*time.Second, "healed node")
			faultOnce(t, []<-chan Result{c})
			switch {
			case !m.valid:
				if r.Verdict == Accept {
					t.Errorf("invalid message %d accepted", i)
				}
			case first[i].Verdict == Accept:
				if r.Verdict != Ignore {
					t.Errorf("message %d accepted before: %v", i, r)
				}
			case r.Verdict != Accept && !errors.Is(r, ErrAggregateSeen):
				t.Errorf("message %d ignored on a fault (%v), then %v", i, first[i], r)
			}
		}
		p.Close()
		faultOnce(t, chans)
		if n := floodVerdictCount(t, p); int(n) != 2*len(msgs) {
			t.Errorf("%v verdicts counted for %d messages", n, 2*len(msgs))
		}
		t.Logf("%d node calls failed; %d of %d messages ignored for it", failed, ignored, len(msgs))
	})
}

// TestFaultNodeBlocks: the fork choice's checkpoint lookup (a chain rule
// after the signatures; the block rule is also taken at intake,
// checkBlockSeen) blocks, so the goroutines that answer verdicts hang in it. Messages whose context ends are answered at once, new ones
// are answered Ignore when the queue is full, Close answers the ones that
// come after it and returns once the node does; every queued message is
// then answered, once.
func TestFaultNodeBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, msgs := faultEnv(t)
		fn := &faultNode{inner: e.node}
		release := fn.checkpoint.hold()
		defer release()
		p, err := New(Config{BatchSize: 4, BatchTime: time.Millisecond, MaxPending: 40, VerifyWorkers: 2, pruneEvery: time.Hour}, fn.node())
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()

		// Slot testSlot (valid) with a deadline: answered when it ends.
		var chans []<-chan Result
		start := time.Now()
		var deadlined []<-chan Result
		for _, m := range msgs[:32] {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			c := m.submit(ctx, p)
			deadlined = append(deadlined, c)
		}
		for i, c := range deadlined {
			r := faultWait(t, c, 2*time.Second, "deadline with a blocked node")
			if r.Verdict == Accept {
				t.Errorf("message %d accepted while the fork choice is blocked", i)
			}
			if r.Verdict == Ignore && !errors.Is(r, ErrCancelled) && !errors.Is(r, ErrQueueFull) {
				t.Errorf("message %d: %v", i, r)
			}
		}
		if took := time.Since(start); took != 100*time.Millisecond { // fake time: at their deadline
			t.Errorf("32 messages with a 100 ms deadline answered in %v with the node blocked", took)
		}
		chans = append(chans, deadlined...)
		for fn.checkpoint.waiting.Load() == 0 {
			time.Sleep(time.Millisecond)
		}

		// Without deadline: queued until the queue is full, then Ignore at once.
		var queued []<-chan Result
		var queuedMsgs []faultMsg
		full := 0
		for _, m := range msgs[32:] {
			c := m.submit(context.Background(), p)
			select {
			case r := <-c:
				if !errors.Is(r, ErrQueueFull) && r.Verdict != Reject {
					t.Errorf("answered at once with a blocked node: %v", r)
				}
				if errors.Is(r, ErrQueueFull) {
					full++
				}
				chans = append(chans, c)
			case <-time.After(20 * time.Millisecond):
				queued, queuedMsgs = append(queued, c), append(queuedMsgs, m)
			}
		}
		if full == 0 {
			t.Errorf("the queue never filled (%d queued)", len(queued))
		}

		// Close waits for the blocked goroutines; what comes meanwhile is
		// answered Ignore (closed) at once.
		closed := make(chan struct{})
		go func() {
			p.Close()
			close(closed)
		}()
		for !p.closed.Load() {
			time.Sleep(time.Millisecond)
		}
		c := msgs[0].submit(context.Background(), p)
		if r := faultWait(t, c, 100*time.Millisecond, "submission during Close"); !errors.Is(r, ErrClosed) {
			t.Errorf("during Close: %v", r)
		}
		chans = append(chans, c)
		select {
		case <-closed:
			t.Fatal("Close returned with a verify goroutine blocked in the node")
		case <-time.After(50 * time.Millisecond):
		}
		release()
		select {
		case <-closed:
		case <-time.After(10 * time.Second):
			t.Fatal("Close did not return after the node unblocked")
		}
		for i, c := range queued {
			r := faultWait(t, c, time.Second, "queued at Close")
			if m := queuedMsgs[i]; (m.valid && r.Verdict == Reject) || (!m.valid && r.Verdict == Accept) {
				t.Errorf("queued message (valid %v): %v", m.valid, r)
			}
		}
		chans = append(chans, queued...)
		t.Logf("node blocked: %d messages answered queue-full at once, %d queued and answered after Close", full, len(queued))
		faultOnce(t, chans)
		checkInvariants(t, p)
		if n := floodVerdictCount(t, p); int(n) != len(chans) {
			t.Errorf("%v verdicts counted for %d messages", n, len(chans))
		}
	})
}

// TestFaultBlockingIntake: the committees block on the caller's goroutine
// (the rules before the signature run there). The verdict is the context's
// Ignore, exactly once; but the call returns only when the node does. The
// node's methods are documented to be cheap, so this is the contract, not a
// bug; the test checks how long the caller was held.
func TestFaultBlockingIntake(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 16, 100)
		e.setSlot(testSlot, 1000)
		fn := &faultNode{inner: e.node}
		p := faultPool(t, Config{}, fn.node())
		att, subnet := e.single(e.data(testSlot), 0, 3)
		release := fn.count.hold()
		defer release()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		start := time.Now()
		var held time.Duration
		var res Result
		var ch <-chan Result
		done := make(chan struct{})
		go func() {
			ch = p.validateAttestationAsync(ctx, NoPeer, att, subnet)
			held = time.Since(start)
			res = <-ch
			close(done)
		}()
		time.Sleep(200 * time.Millisecond)
		release()
		<-done
		if res.Verdict != Ignore || !errors.Is(res, ErrCancelled) {
			t.Errorf("got %v, want Ignore (cancelled)", res)
		}
		faultOnce(t, []<-chan Result{ch})
		// In fake time the call returns exactly when the node does (in real
		// time a starved goroutine could find its context ended before the
		// call and never reach the node).
		if held != 200*time.Millisecond {
			t.Errorf("context of 20 ms; the caller was held %v by a node blocked 200 ms", held)
		}
		// The same message afterwards: accepted (the cancelled one left
		// nothing behind).
		r := p.ValidateAttestation(context.Background(), NoPeer, att, subnet)
		wantResult(t, r, Accept, nil)
	})
}

// TestFaultCancelMidBatch: contexts end at random while their batch waits
// or is verified. Each message is answered once, Accept or Ignore
// (cancelled); a cancelled message leaves nothing behind (resubmitted, it
// is accepted), and a copy that is not cancelled is answered from the
// cancelled one's verification. Real time on purpose (no synctest bubble):
// in a bubble no deadline could pass while a batch is verified, and no
// assertion depends on when one does.
func TestFaultCancelMidBatch(t *testing.T) {
	checkLeaks(t)
	e, all := faultEnv(t)
	var msgs []faultMsg
	for _, m := range all {
		if m.valid && m.sap == nil {
			msgs = append(msgs, m)
		}
	}
	rounds := 4
	limit := patience(t)
	if raceEnabled || testing.Short() {
		rounds = 2
	}
	for round := range rounds {
		p := faultPool(t, Config{BatchSize: 8, BatchTime: 3 * time.Millisecond}, e.node)
		type sub struct {
			msg   int
			copy  bool
			c     <-chan Result
			res   Result
			after time.Duration
		}
		subs := make([]*sub, 0, 2*len(msgs))
		var wg sync.WaitGroup
		var mu sync.Mutex
		for i, m := range msgs {
			// Deadlines of 0 to 7 ms, spread over the batches.
			d := time.Duration((i*7+round*3)%8) * time.Millisecond
			s := &sub{msg: i, after: d}
			mu.Lock()
			subs = append(subs, s)
			mu.Unlock()
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), d)
				defer cancel()
				s.c = m.submit(ctx, p)
				s.res = faultWait(t, s.c, limit, "mid-batch cancel")
			})
			if i%4 == 0 { // a copy without deadline
				cp := &sub{msg: i, copy: true}
				mu.Lock()
				subs = append(subs, cp)
				mu.Unlock()
				wg.Go(func() {
					cp.c = m.submit(context.Background(), p)
					cp.res = faultWait(t, cp.c, limit, "copy")
				})
			}
		}
		wg.Wait()
		accepted := make([]int, len(msgs))
		hasCopy := make([]bool, len(msgs))
		cancelled := 0
		for _, s := range subs {
			switch {
			case s.res.Verdict == Accept:
				accepted[s.msg]++
			case s.res.Verdict == Ignore && errors.Is(s.res, ErrCancelled) && !s.copy:
				cancelled++
			case s.res.Verdict == Ignore && errors.Is(s.res, ErrAlreadySeen):
			default:
				t.Errorf("message %d (copy %v, deadline %v): %v", s.msg, s.copy, s.after, s.res)
			}
			hasCopy[s.msg] = hasCopy[s.msg] || s.copy
		}
		for i, n := range accepted {
			if n > 1 || (hasCopy[i] && n != 1) {
				t.Errorf("message %d (with a copy: %v) accepted %d times", i, hasCopy[i], n)
			}
		}
		// Resubmitted: accepted if and only if it was not before.
		for i, m := range msgs {
			r := p.ValidateAttestation(context.Background(), NoPeer, m.att, m.subnet)
			if (r.Verdict == Accept) == (accepted[i] == 1) {
				t.Errorf("message %d (accepted %d times before): resubmitted, %v", i, accepted[i], r)
			}
		}
		p.Close()
		var chans []<-chan Result
		for _, s := range subs {
			chans = append(chans, s.c)
		}
		faultOnce(t, chans)
		checkInvariants(t, p)
		if n := floodVerdictCount(t, p); int(n) != len(subs)+len(msgs) {
			t.Errorf("%v verdicts counted for %d messages", n, len(subs)+len(msgs))
		}
		t.Logf("round %d: %d submissions, %d cancelled", round, len(subs), cancelled)
	}
}

// TestFaultCloseDuringFlood closes the pool while goroutines flood it with
// valid and invalid attestations and aggregates, and keep submitting after.
// Real time on purpose: in a synctest bubble the sleep before Close would
// only end once the flood is over; no assertion depends on its length.
func TestFaultCloseDuringFlood(t *testing.T) {
	checkLeaks(t)
	e, msgs := faultEnv(t)
	per := 200
	limit := patience(t)
	if raceEnabled || testing.Short() {
		per = 60
	}
	for round, closeAfter := range []time.Duration{0, 2 * time.Millisecond, 10 * time.Millisecond, 40 * time.Millisecond} {
		p := faultPool(t, Config{BatchSize: 16, BatchTime: 2 * time.Millisecond, MaxPending: 64}, e.node)
		const goroutines = 8
		type sub struct {
			msg int
			c   <-chan Result
			res Result
		}
		subs := make([][]sub, goroutines)
		begin := make(chan struct{})
		var wg sync.WaitGroup
		for w := range goroutines {
			wg.Go(func() {
				<-begin
				for k := range per {
					i := (w*per + k*7) % len(msgs)
					subs[w] = append(subs[w], sub{msg: i, c: msgs[i].submit(context.Background(), p)})
				}
				for k := range subs[w] {
					subs[w][k].res = faultWait(t, subs[w][k].c, limit, "close during flood")
				}
			})
		}
		close(begin)
		time.Sleep(closeAfter)
		closeStart := time.Now()
		p.Close()
		closeTook := time.Since(closeStart)
		wg.Wait()
		// After Close: answered at once.
		c := msgs[0].submit(context.Background(), p)
		select {
		case r := <-c:
			wantResult(t, r, Ignore, ErrClosed)
		default:
			t.Fatal("no verdict at once after Close")
		}
		counts := map[string]int{}
		accepts := map[int]int{}
		var chans []<-chan Result
		total := 1
		for _, ss := range subs {
			for _, s := range ss {
				total++
				chans = append(chans, s.c)
				m, r := msgs[s.msg], s.res
				counts[r.Rule()]++
				switch {
				case m.valid && r.Verdict == Reject:
					t.Errorf("valid message %d rejected: %v", s.msg, r)
				case !m.valid && r.Verdict == Accept:
					t.Errorf("invalid message %d accepted", s.msg)
				case r.Verdict == Accept:
					accepts[s.msg]++
				case r.Verdict == Ignore && !faultIsAny(r, ErrClosed, ErrQueueFull, ErrAlreadySeen, ErrAggregateSeen, ErrAggregatorSeen):
					t.Errorf("message %d: %v", s.msg, r)
				}
			}
		}
		for i, n := range accepts {
			if n > 1 {
				t.Errorf("message %d accepted %d times", i, n)
			}
		}
		faultOnce(t, append(chans, c))
		checkInvariants(t, p)
		if n := floodVerdictCount(t, p); int(n) != total {
			t.Errorf("%v verdicts counted for %d messages", n, total)
		}
		t.Logf("round %d: Close after %v took %v; %d messages: %v", round, closeAfter, closeTook.Round(time.Microsecond), total, counts)
	}
}
