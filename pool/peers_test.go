package pool

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/verifier"
)

// TestPeerTaintDecays: one invalid signature isolates a peer for one
// half-life; many keep it isolated for longer; the score halves per
// half-life.
func TestPeerTaintDecays(t *testing.T) {
	const h = 12 * time.Second
	tab := newPeerTable(16, h)
	t0 := time.Unix(1000, 0)
	if tab.isolated("a", t0) {
		t.Fatal("a peer without invalid signatures is isolated")
	}
	if !tab.taint("a", t0) {
		t.Fatal("one invalid signature does not isolate")
	}
	if !tab.isolated("a", t0.Add(h-time.Millisecond)) || tab.isolated("a", t0.Add(h)) {
		t.Fatal("one invalid signature must isolate for exactly one half-life")
	}
	for range 8 {
		tab.taint("b", t0)
	}
	if tab.taint("b", t0) {
		t.Fatal("taint of an isolated peer reported as new")
	}
	// 9 at t0: isolated while 9/2^(t/h) > 1/2, i.e. t < log2(18) h ~ 4.17 h.
	if !tab.isolated("b", t0.Add(4*h)) || tab.isolated("b", t0.Add(5*h)) {
		t.Fatal("nine invalid signatures: want isolation for about 4.17 half-lives")
	}
	if got := tab.decayed(tab.peers["b"], t0.Add(2*h)); got != 9.0/4 {
		t.Fatalf("score after two half-lives %v, want 2.25", got)
	}
	if n := tab.countIsolated(t0.Add(2 * h)); n != 1 {
		t.Fatalf("%d isolated after two half-lives, want 1 (b)", n)
	}
	if tab.taint(NoPeer, t0) || tab.isolated(NoPeer, t0) {
		t.Fatal("NoPeer tainted")
	}
}

// TestPeerTableBounded: the table never holds more than its size, keeps the
// worst offender when many peers come, and forgets decayed peers first.
func TestPeerTableBounded(t *testing.T) {
	const size = 64
	tab := newPeerTable(size, time.Second)
	t0 := time.Unix(1000, 0)
	for range 20 {
		tab.taint("attacker", t0)
	}
	for i := range 100 * size {
		tab.taint(Peer(fmt.Sprint("sybil", i)), t0.Add(time.Duration(i)*time.Microsecond))
		if len(tab.peers) > size {
			t.Fatalf("table holds %d peers, bound %d", len(tab.peers), size)
		}
	}
	if !tab.isolated("attacker", t0.Add(time.Second)) {
		t.Fatal("the worst offender was evicted by single-signature peers")
	}
	// Much later every entry has decayed: a new peer clears the forgotten.
	later := t0.Add(time.Hour)
	tab.taint("new", later)
	if len(tab.peers) != 1 || !tab.isolated("new", later) {
		t.Fatalf("after decay: %d entries", len(tab.peers))
	}
}

// TestLaneBatchFollowsInvalidShare: an isolated peer's sets go one at a
// time while its invalid share is high (a batch of them would fail and be
// searched), in batches of about 1/(2q) as its valid sets bring the share q
// down, and up to isolatedBatch once its invalid signature looks like an
// accident; the share does not change as the counts decay.
func TestLaneBatchFollowsInvalidShare(t *testing.T) {
	const h = 12 * time.Second
	tab := newPeerTable(16, h)
	t0 := time.Unix(1000, 0)
	if got := tab.batch("unknown"); got != isolatedBatch {
		t.Fatalf("a peer never tainted: batch %d, want %d", got, isolatedBatch)
	}
	tab.taint("a", t0)
	want := func(n int) {
		t.Helper()
		if got := tab.batch("a"); got != n {
			s := tab.peers["a"]
			t.Fatalf("score %.3f, valid %.3f: batch %d, want %d", s.score, s.valid, got, n)
		}
	}
	want(1) // only its invalid signature is known
	for range 3 {
		tab.vouch("a", t0)
	}
	want(2) // q = 1/4
	for range 4 {
		tab.vouch("a", t0.Add(h)) // the counts halve: q stays 1/4 before these
	}
	// score 1/2, valid 3/2 + 4: q = 0.5 / 6 = 1/12, 1/(2q) = 6.
	want(6)
	for range 20 {
		tab.vouch("a", t0.Add(h))
	}
	want(isolatedBatch)
	tab.taint("b", t0)
	tab.vouch("b", t0)
	want1 := tab.batch("b")
	tab.taint("b", t0)
	if got := tab.batch("b"); want1 != 1 || got != 1 {
		t.Fatalf("half invalid: batches %d then %d, want 1", want1, got)
	}
	tab.vouch(NoPeer, t0) // no entry: nothing recorded
	if _, ok := tab.peers[NoPeer]; ok {
		t.Fatal("vouch made an entry")
	}
}

// TestBatcherIsolatesQueued: when a peer becomes isolated, its sets already
// queued move to its lane; batches of honest roots no longer hold them, and
// a lane batch holds one peer's sets only.
func TestBatcherIsolatesQueued(t *testing.T) {
	b := newTestBatcher(t, Config{BatchSize: 1024, LatencyBudget: -1})
	b.add(testJobs(1, 5, "bad")...)
	b.add(testJobs(1, 5, "good")...)
	b.add(testJobs(2, 3, "bad")...)
	b.add(testJobs(3, 20, "other-bad")...)
	b.taint("bad")
	b.taint("other-bad")
	b.add(testJobs(1, 2, "bad")...) // isolated at intake now
	batch, apart, _, _ := b.take(primary)
	if apart || len(batch) != 5 {
		t.Fatalf("honest batch: %d sets (apart %v), want good's 5", len(batch), apart)
	}
	for _, j := range batch {
		if j.from != "good" {
			t.Fatalf("honest batch holds a set of %q", j.from)
		}
	}
	lanes := map[Peer]int{}
	for {
		batch, apart, _, _ := b.take(isolated)
		if batch == nil {
			break
		}
		if !apart || len(batch) > isolatedBatch {
			t.Fatalf("lane batch of %d (apart %v)", len(batch), apart)
		}
		for _, j := range batch {
			if j.from != batch[0].from {
				t.Fatalf("lane batch mixes %q and %q", batch[0].from, j.from)
			}
			lanes[j.from]++
		}
	}
	if lanes["bad"] != 10 || lanes["other-bad"] != 20 {
		t.Fatalf("lanes %v, want bad 10, other-bad 20", lanes)
	}
}

// TestBatcherPromotesHonestCopy: a copy from a peer that is not isolated
// moves its message's sets out of the isolated peer's lane, with the copy's
// peer now answering for them; a copy from an isolated peer, or NoPeer's
// when nothing is in the lanes, moves nothing.
func TestBatcherPromotesHonestCopy(t *testing.T) {
	b := newTestBatcher(t, Config{BatchSize: 1024, LatencyBudget: -1})
	b.taint("bad")
	b.taint("other-bad")
	jobs := testJobs(1, 3, "bad")
	b.add(jobs...)
	b.promote(jobs[1].g, "other-bad") // isolated too: stays
	b.promote(&group{}, "honest")     // a group with nothing queued
	if b.queuedLocked() != 0 || b.apart.len() != 1 {
		t.Fatalf("queued %d, lanes %d: nothing should have moved", b.queuedLocked(), b.apart.len())
	}
	b.promote(jobs[1].g, "honest")
	batch, apart, _, _ := b.take(primary)
	if apart || len(batch) != 1 || batch[0] != jobs[1] || batch[0].from != "honest" {
		t.Fatalf("honest take: %d sets (apart %v), want jobs[1] from honest", len(batch), apart)
	}
	var lane []*job // one at a time: all bad's known sets were invalid
	for {
		batch, _, _, _ := b.take(isolated)
		if batch == nil {
			break
		}
		lane = append(lane, batch...)
	}
	if len(lane) != 2 || lane[0] != jobs[0] || lane[1] != jobs[2] {
		t.Fatalf("lane: %d sets, want jobs 0 and 2", len(lane))
	}
}

// TestHonestCopyLeavesLane: an isolated peer's valid message waits in its
// lane behind its other sets; the same message forwarded by an honest peer
// joins it and takes it out, so both copies are answered (the first Accept,
// the copy Ignore) while the lane's worker is still held.
func TestHonestCopyLeavesLane(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 16, 100)
		e.setSlot(testSlot, 1000)
		gv := &peerRecorder{v: newTestVerifier(t), peer: map[[96]byte]Peer{}, in: make(chan struct{})}
		p := e.pool(Config{SignatureVerifier: gv, pruneEvery: time.Hour})
		d := e.data(testSlot)
		ctx := context.Background()
		bad, subnet := e.single(d, 0, 0)
		bad.Signature = e.sign(bad.AttesterIndex, [32]byte{3})
		wantResult(t, p.ValidateAttestation(ctx, "attacker", bad, subnet), Reject, ErrInvalidSignature)
		held, _ := e.single(d, 0, 1)
		later, _ := e.single(d, 0, 2)
		hold := make(chan struct{})
		release := sync.OnceFunc(func() { close(hold) })
		defer release() // a failure must not leave the lane's worker held
		gv.mu.Lock()
		gv.hold = hold
		gv.mu.Unlock()
		heldc := p.validateAttestationAsync(ctx, "attacker", held, subnet)
		<-gv.in // the lane's worker verifies held, and waits
		laterc := p.validateAttestationAsync(ctx, "attacker", later, subnet)
		synctest.Wait() // later is queued in the lane
		if p.batch.apart.len() != 1 {
			t.Fatal("later is not waiting in the attacker's lane")
		}
		copyc := p.validateAttestationAsync(ctx, "honest", later, subnet)
		for _, c := range []struct {
			res  <-chan Result
			want Verdict
			err  error
		}{{laterc, Accept, nil}, {copyc, Ignore, ErrAlreadySeen}} { // a copy of an accepted message is ignored
			select {
			case r := <-c.res:
				wantResult(t, r, c.want, c.err)
			case <-time.After(time.Second): // fake time: once everything else is blocked
				t.Fatal("later is still waiting behind the held lane")
			}
		}
		select {
		case r := <-heldc:
			t.Fatalf("held answered %v before its call was let go", r)
		default:
		}
		release()
		wantResult(t, <-heldc, Accept, nil)
		if n := p.batch.isolatedPeers(); n != 1 {
			t.Fatalf("%d isolated peers, want the attacker only", n)
		}
	})
}

// peerRecorder verifies with a real verifier, records the peers of every
// call's sets (by signature) and holds a call while its gate is closed.
type peerRecorder struct {
	v     *verifier.Verifier
	mu    sync.Mutex
	peer  map[[96]byte]Peer
	calls [][]Peer
	hold  chan struct{} // when not nil, the next call waits for it
	in    chan struct{} // signalled when a held call has started
}

func (g *peerRecorder) Verify(sets []verifier.Set) []bool {
	g.mu.Lock()
	hold := g.hold
	g.hold = nil
	var peers []Peer
	for _, s := range sets {
		peers = append(peers, g.peer[s.Signature])
	}
	g.calls = append(g.calls, peers)
	g.mu.Unlock()
	if hold != nil {
		g.in <- struct{}{}
		<-hold
	}
	return g.v.Verify(sets)
}

// TestIsolatedPeerNeverMixed: after a peer sent an invalid signature, no
// verifier call holds both its sets and another peer's, however they are
// queued, and every verdict is still right.
func TestIsolatedPeerNeverMixed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 32, 100)
		e.setSlot(testSlot, 1000)
		gv := &peerRecorder{v: newTestVerifier(t), peer: map[[96]byte]Peer{}, in: make(chan struct{})}
		p := e.pool(Config{SignatureVerifier: gv, VerifyWorkers: 1, BatchTime: time.Second})
		d := e.data(testSlot)
		ctx := context.Background()
		type msg struct {
			att    *attestation.SingleAttestation
			subnet uint64
			from   Peer
			valid  bool
		}
		var msgs []msg
		for ci := range uint64(2) {
			for pos := range uint64(32) {
				att, subnet := e.single(d, ci, pos)
				m := msg{att, subnet, Peer(fmt.Sprint("honest", pos%4)), true}
				if pos%2 == 0 {
					m.from = "bad"
					if pos%4 == 0 {
						m.valid = false
						att.Signature = e.sign(att.AttesterIndex, [32]byte{byte(pos)})
					}
				}
				gv.mu.Lock()
				gv.peer[att.Signature] = m.from
				gv.mu.Unlock()
				msgs = append(msgs, m)
			}
		}
		// The first invalid signature of "bad" isolates it.
		first := msgs[0]
		wantResult(t, p.ValidateAttestation(ctx, first.from, first.att, first.subnet), Reject, ErrInvalidSignature)
		gv.mu.Lock()
		before := len(gv.calls)
		hold := make(chan struct{})
		gv.hold = hold
		gv.mu.Unlock()
		// A plug holds the only honest worker while everything else queues.
		plug := msgs[1]
		plugc := p.validateAttestationAsync(ctx, plug.from, plug.att, plug.subnet)
		<-gv.in
		var chans []<-chan Result
		for _, m := range msgs[2:] {
			chans = append(chans, p.validateAttestationAsync(ctx, m.from, m.att, m.subnet))
		}
		close(hold)
		wantResult(t, <-plugc, Accept, nil)
		for i, c := range chans {
			if m := msgs[i+2]; m.valid {
				wantResult(t, <-c, Accept, nil)
			} else {
				wantResult(t, <-c, Reject, ErrInvalidSignature)
			}
		}
		gv.mu.Lock()
		defer gv.mu.Unlock()
		mixed, apart := 0, 0
		for _, call := range gv.calls[before+1:] {
			bad := 0
			for _, from := range call {
				if from == "bad" {
					bad++
				}
			}
			if bad > 0 && bad < len(call) {
				mixed++
			}
			if bad > 0 {
				apart++
			}
		}
		if mixed > 0 {
			t.Fatalf("%d verifier calls mix the isolated peer's sets with others (calls %v)", mixed, gv.calls[before+1:])
		}
		if apart == 0 {
			t.Fatal("the isolated peer's sets were never verified")
		}
	})
}

// TestIsolationDecaysInPool: in fake time, an isolated peer's sets are
// verified with the others again once its taint has decayed.
func TestIsolationDecaysInPool(t *testing.T) {
	e := newEnv(t, 1, 16, 100)
	e.setSlot(testSlot, 1000)
	d := e.data(testSlot)
	synctest.Test(t, func(t *testing.T) {
		p, err := New(Config{peerHalfLife: time.Second, pruneEvery: time.Hour}, e.node)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		att, subnet := e.single(d, 0, 0)
		att.Signature = e.sign(att.AttesterIndex, [32]byte{9})
		wantResult(t, p.ValidateAttestation(context.Background(), "peer", att, subnet), Reject, ErrInvalidSignature)
		if n := p.batch.isolatedPeers(); n != 1 {
			t.Fatalf("%d isolated peers after an invalid signature", n)
		}
		time.Sleep(time.Second)
		if n := p.batch.isolatedPeers(); n != 0 {
			t.Fatalf("%d isolated peers one half-life later", n)
		}
		att, subnet = e.single(d, 0, 1)
		wantResult(t, p.ValidateAttestation(context.Background(), "peer", att, subnet), Accept, nil)
		if got := metricValue(p.metrics.isolated); got != 0 {
			t.Fatalf("%v sets verified apart after the taint decayed", got)
		}
	})
}

// TestIsolatedPeerVouched: the valid sets an isolated peer sends, verified
// apart, bring its lane's batches back up: one at a time after its invalid
// signature, isolatedBatch once 15 valid ones have followed.
func TestIsolatedPeerVouched(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 32, 100)
		d := e.data(testSlot)
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{})
		ctx := context.Background()
		batch := func() int {
			p.batch.mu.Lock()
			defer p.batch.mu.Unlock()
			return p.batch.peers.batch("peer")
		}
		att, subnet := e.single(d, 0, 0)
		att.Signature = e.sign(att.AttesterIndex, [32]byte{9})
		wantResult(t, p.ValidateAttestation(ctx, "peer", att, subnet), Reject, ErrInvalidSignature)
		if got := batch(); got != 1 {
			t.Fatalf("lane batch %d after an invalid signature, want 1", got)
		}
		for pos := uint64(1); pos <= 15; pos++ {
			att, subnet := e.single(d, 0, pos)
			wantResult(t, p.ValidateAttestation(ctx, "peer", att, subnet), Accept, nil)
		}
		if got := metricValue(p.metrics.isolated); got != 15 {
			t.Fatalf("%v sets verified apart, want 15", got)
		}
		if got := batch(); got != isolatedBatch {
			t.Fatalf("lane batch %d after 15 valid sets, want %d", got, isolatedBatch)
		}
	})
}

// TestBatcherSuspectsLast: while a batch is searched for its invalid set,
// the queued sets of the peers that forwarded its sets are taken after the
// other peers' (the roots still in turn), and when nothing else is queued,
// one suspect's sets at a time; a peer stays a suspect until the last
// search of a batch it is in ends, and without peer isolation nothing
// changes.
func TestBatcherSuspectsLast(t *testing.T) {
	from := func(batch []*job) map[Peer]int {
		out := map[Peer]int{}
		for _, j := range batch {
			out[j.from]++
		}
		return out
	}
	b := newTestBatcher(t, Config{BatchSize: 1024, LatencyBudget: -1})
	b.add(testJobs(1, 3, "a")...)
	b.add(testJobs(1, 2, "b")...)
	b.add(testJobs(2, 2, "a")...)
	b.add(testJobs(2, 1, NoPeer)...)
	b.searchStarted([]Peer{"a", "x"})
	b.searchStarted([]Peer{"a"})
	for _, step := range []struct {
		r    role
		want map[Peer]int
	}{
		{backup, map[Peer]int{"b": 2, NoPeer: 1}}, // a backup takes work at once during a search
		{primary, map[Peer]int{"a": 5}},           // only suspects' sets queued: taken
	} {
		batch, _, _, _ := b.take(step.r)
		if got := from(batch); !maps.Equal(got, step.want) {
			t.Fatalf("batch from %v, want %v", got, step.want)
		}
	}
	b.add(testJobs(1, 1, "a")...)
	b.add(testJobs(3, 1, "c")...)
	b.searchEnded([]Peer{"a"}) // a is still in the other search
	for _, want := range []map[Peer]int{{"c": 1}, {"a": 1}} {
		batch, _, _, _ := b.take(primary)
		if got := from(batch); !maps.Equal(got, want) {
			t.Fatalf("batch from %v, want %v", got, want)
		}
	}
	// Only suspects' sets queued: one suspect's at a time, the oldest's
	// first, so that the invalid one fails no other peer's batch.
	b.add(testJobs(1, 1, "a")...)
	b.add(testJobs(2, 2, "x")...)
	b.add(testJobs(1, 1, "a")...)
	for _, want := range []map[Peer]int{{"a": 2}, {"x": 2}} {
		batch, _, _, _ := b.take(backup)
		if got := from(batch); !maps.Equal(got, want) {
			t.Fatalf("batch from %v, want %v", got, want)
		}
	}
	b.searchEnded([]Peer{"a", "x"})
	if len(b.suspects) != 0 {
		t.Fatalf("suspects %v after every search ended", b.suspects)
	}
	b.add(testJobs(1, 1, "a")...)
	b.add(testJobs(1, 1, "b")...)
	if batch, _, _, _ := b.take(primary); len(batch) != 2 {
		t.Fatalf("batch of %d after the searches, want both sets", len(batch))
	}

	off := newTestBatcher(t, Config{BatchSize: 1024, MaxPeers: -1, LatencyBudget: -1})
	off.add(testJobs(1, 1, "a")...)
	off.add(testJobs(1, 1, "b")...)
	off.searchStarted([]Peer{"a"})
	if batch, _, _, _ := off.take(backup); len(batch) != 2 || len(off.suspects) != 0 {
		t.Fatalf("without isolation: batch of %d, suspects %v; want 2 sets, none", len(batch), off.suspects)
	}
}

// TestIsolatedCallsSteerNoSearch: the isolated peers' calls, one invalid
// set each, do not feed the recent invalid share of a shared verifier, so
// another user's failing call (a block's 256 signatures, one invalid) is
// still searched in a few checks rather than set by set.
func TestIsolatedCallsSteerNoSearch(t *testing.T) {
	const n, invalid = 256, 200
	e := newEnv(t, 2, n/2, 100)
	e.setSlot(testSlot, 1000)
	v := newTestVerifier(t)
	p := e.pool(Config{SignatureVerifier: v})
	d := e.data(testSlot)
	ctx := context.Background()
	root := e.dataSigningRoot(d)
	sets := make([]verifier.Set, n)
	for i := range sets {
		att, _ := e.single(d, uint64(i%2), uint64(i/2))
		sets[i] = verifier.Set{Root: root, PublicKey: e.keys.PublicKey(att.AttesterIndex), Signature: att.Signature}
	}
	// The verifier's traffic so far: valid.
	for i, ok := range v.Verify(sets) {
		if !ok {
			t.Fatalf("set %d: invalid", i)
		}
	}
	for i := range invalid {
		att, subnet := e.single(d, uint64(i%2), uint64(i/2))
		att.Signature = e.sign(att.AttesterIndex, [32]byte{byte(i), 0xba, 0xd})
		wantResult(t, p.ValidateAttestation(ctx, "attacker", att, subnet), Reject, ErrInvalidSignature)
	}
	if got := metricValue(p.metrics.isolated); got != invalid-1 {
		t.Fatalf("%v sets verified apart, want %d", got, invalid-1)
	}
	sets[77].Signature = sets[78].Signature
	before := v.Stats()
	for i, ok := range v.Verify(sets) {
		if ok != (i != 77) {
			t.Fatalf("set %d: %v", i, ok)
		}
	}
	after := v.Stats()
	checks, alone := after.Checks-before.Checks, after.Individual-before.Individual
	t.Logf("after %d isolated invalid calls, a %d-set call with one invalid set: %d checks, %d sets alone", invalid-1, n, checks, alone)
	if checks+alone > 8 {
		t.Fatalf("after %d isolated invalid calls, a %d-set call with one invalid set took %d checks and %d sets alone", invalid-1, n, checks, alone)
	}
}

// sleepyVerifier takes d (of the synctest bubble's time) per call, then
// verifies with v; calls counts its calls.
type sleepyVerifier struct {
	v     *verifier.Verifier
	d     time.Duration
	calls atomic.Int64
}

func (s *sleepyVerifier) Verify(sets []verifier.Set) []bool {
	s.calls.Add(1)
	time.Sleep(s.d)
	return s.v.Verify(sets)
}

// TestLaneRests: the isolated peers' goroutine spends at most isolatedShare
// of its time verifying: its messages, verified in calls of 10 ms, are
// answered over four times the calls' time (fake time: the calls' length
// is the verifier's sleep).
func TestLaneRests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 16, 100)
		e.setSlot(testSlot, 1000)
		sv := &sleepyVerifier{v: newTestVerifier(t), d: 10 * time.Millisecond}
		p := e.pool(Config{SignatureVerifier: sv})
		msgs := e.attMsgs(testSlot)
		e.isolate(t, p, "x", msgs[0])
		time.Sleep(time.Second) // past the isolating call's rest
		before := sv.calls.Load()
		start := time.Now()
		var chans []<-chan Result
		for _, m := range msgs[1:9] {
			chans = append(chans, m.submit(context.Background(), p, "x"))
		}
		for _, c := range chans {
			wantResult(t, <-c, Accept, nil)
		}
		took, calls := time.Since(start), sv.calls.Load()-before
		busy := time.Duration(calls) * sv.d
		t.Logf("%d lane calls (%v verifying) answered in %v", calls, busy, took)
		if rest := time.Duration(float64(busy-sv.d) * (1/isolatedShare - 1)); took < busy+rest {
			t.Fatalf("%d lane calls of %v answered in %v: the lane verified more than %.0f%% of the time", calls, sv.d, took, 100*isolatedShare)
		}
	})
}
