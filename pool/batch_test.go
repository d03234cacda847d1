package pool

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attpool/attpool/internal/clientbatch"
	"github.com/attpool/attpool/verifier"
)

// testJobs returns n jobs of signing root r (each its own group).
func testJobs(r byte, n int, from Peer) []*job {
	out := make([]*job, n)
	for i := range out {
		out[i] = &job{set: verifier.Set{Root: [32]byte{r}}, g: &group{}, from: from}
	}
	return out
}

func roots(batch []*job) []byte {
	out := make([]byte, len(batch))
	for i, j := range batch {
		out[i] = j.set.Root[0]
	}
	return out
}

func newTestBatcher(t *testing.T, cfg Config) *batcher {
	t.Helper()
	cfg, err := cfg.sanitize()
	if err != nil {
		t.Fatal(err)
	}
	return newBatcher(cfg)
}

// TestClientMinBatch: with a client's batching a batch forms at Min sets,
// FIFO across roots, at most BatchSize sets.
func TestClientMinBatch(t *testing.T) {
	b := newTestBatcher(t, Config{fixed: fifo(4, 3, time.Hour)})
	b.add(testJobs(1, 1, NoPeer)...)
	b.add(testJobs(2, 1, NoPeer)...)
	if batch, _, wait, _ := b.take(primary); batch != nil || wait <= 0 || wait > time.Hour {
		t.Fatalf("two of Min 3: batch %v, wait %v", roots(batch), wait)
	}
	b.add(testJobs(1, 1, NoPeer)...)
	b.add(testJobs(3, 3, NoPeer)...)
	if batch, _, _, _ := b.take(primary); string(roots(batch)) != "\x01\x02\x01\x03" {
		t.Fatalf("first batch %v, want FIFO 1 2 1 3", roots(batch))
	}
	// Two left, fewer than Min: they wait.
	if batch, _, _, _ := b.take(primary); batch != nil {
		t.Fatalf("under Min: %v", roots(batch))
	}
	b.close()
	if batch, _, _, done := b.take(primary); len(batch) != 2 || done {
		t.Fatalf("on close: %v %v", roots(batch), done)
	}
	if _, _, _, done := b.take(primary); !done {
		t.Fatal("closed and empty, not done")
	}
}

// TestClientNoWait: Min 1 takes what is queued at once.
func TestClientNoWait(t *testing.T) {
	b := newTestBatcher(t, Config{fixed: fifo(64, 1, time.Hour)})
	b.add(testJobs(1, 70, NoPeer)...)
	for _, want := range []int{64, 6} {
		if batch, _, _, _ := b.take(primary); len(batch) != want {
			t.Fatalf("batch of %d, want %d", len(batch), want)
		}
	}
}

// TestClientWait: a queue under Min is taken once its oldest set
// has waited Wait (fake time).
func TestClientWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newTestBatcher(t, Config{fixed: fifo(128, 32, 50*time.Millisecond)})
		b.add(testJobs(1, 5, NoPeer)...)
		time.Sleep(20 * time.Millisecond)
		b.add(testJobs(2, 5, NoPeer)...)
		batch, _, wait, _ := b.take(primary)
		if batch != nil || wait != 30*time.Millisecond {
			t.Fatalf("batch %v, wait %v, want 30ms", roots(batch), wait)
		}
		time.Sleep(wait)
		if batch, _, _, _ := b.take(primary); len(batch) != 10 {
			t.Fatalf("after the delay: %d sets", len(batch))
		}
	})
}

// TestRoundRobin: a set is taken at once,
// a root's sets go together, and a root with one set is not held up by a
// root with many.
func TestRoundRobin(t *testing.T) {
	b := newTestBatcher(t, Config{BatchSize: 4, BatchTime: time.Hour, LatencyBudget: -1})
	b.add(testJobs(1, 1, NoPeer)...)
	if batch, _, _, _ := b.take(primary); len(batch) != 1 {
		t.Fatalf("a lone set: batch %v", roots(batch))
	}
	b.add(testJobs(1, 10, NoPeer)...)
	b.add(testJobs(2, 1, NoPeer)...)
	b.add(testJobs(1, 1, NoPeer)...)
	b.add(testJobs(3, 2, NoPeer)...)
	var got []string
	for {
		batch, _, _, _ := b.take(primary)
		if batch == nil {
			break
		}
		got = append(got, string(roots(batch)))
	}
	want := []string{"\x01\x01\x01\x01", "\x02\x03\x03\x01", "\x01\x01\x01\x01", "\x01\x01"}
	if len(got) != len(want) {
		t.Fatalf("batches %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("batches %q, want %q", got, want)
		}
	}
}

// TestBatchCap: the batch cap follows the measured time per set and
// the latency bound.
func TestBatchCap(t *testing.T) {
	var c costEstimate
	if n := c.cap(1024, 5*time.Millisecond); n != 1024 {
		t.Fatalf("unmeasured cap %d", n)
	}
	c.add(1000, 100*time.Millisecond) // 100 µs per set
	if n := c.cap(1024, 5*time.Millisecond); n != 50 {
		t.Fatalf("cap %d, want 50", n)
	}
	if n := c.cap(1024, time.Second); n != 1024 {
		t.Fatalf("cap %d, want the batch size", n)
	}
	if n := c.cap(1024, time.Nanosecond); n != 1 {
		t.Fatalf("cap %d, want 1", n)
	}
}

// TestPolicyWait: in fake time, a lone attestation is verified without any
// wait by default (even with an hour's latency bound), and after
// Wait with a client's batching.
func TestPolicyWait(t *testing.T) {
	e := newEnv(t, 1, 8, 100)
	e.setSlot(testSlot, 1000)
	for _, c := range []struct {
		cfg  Config
		want time.Duration
	}{
		{Config{BatchTime: time.Hour}, 0},
		{Config{fixed: fifo(1024, 1024, 5*time.Millisecond)}, 5 * time.Millisecond},
		{Config{fixed: fifo(64, 1, time.Hour)}, 0},
	} {
		synctest.Test(t, func(t *testing.T) {
			p, err := New(c.cfg, e.node)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			att, subnet := e.single(e.data(testSlot), 0, 3)
			start := time.Now()
			wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), Accept, nil)
			if got := time.Since(start); got != c.want {
				t.Errorf("%+v %v: verdict after %v, want %v", c.cfg.fixed, c.cfg.BatchTime, got, c.want)
			}
		})
	}
}

func TestConfigBatching(t *testing.T) {
	for _, c := range []Config{
		{fixed: fifo(0, 1, 0)},
		{fixed: fifo(4, 0, 0)},
		{fixed: fifo(4, 5, 0)},
		{fixed: fifo(4, 1, -time.Second)},
		{BatchTime: -time.Second},
	} {
		if _, err := c.sanitize(); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v accepted: %v", c, err)
		}
	}
	c, err := Config{SignatureVerifier: clientVerifier{fifo(250, 250, 5*time.Millisecond)}}.sanitize()
	if err != nil || c.fixed == nil || *c.fixed != *fifo(250, 250, 5*time.Millisecond) || c.isolatesPeers() {
		t.Fatalf("a client's verifier: %v %+v", err, c)
	}
}

// clientVerifier is a verifier that models a client's batching.
type clientVerifier struct{ b *clientbatch.Batching }

func (clientVerifier) Verify(sets []verifier.Set) []bool      { return make([]bool, len(sets)) }
func (v clientVerifier) ClientBatching() clientbatch.Batching { return *v.b }

// TestBatchSideBySide: with room for two calls of sideBySideWidth workers,
// a backup takes sideBySideMin queued sets at once beside the calls being
// verified, as long as the calls in flight leave room for one more; on a
// machine without the room it waits for BatchTime as before.
func TestBatchSideBySide(t *testing.T) {
	b := newTestBatcher(t, Config{VerifyWorkers: 2 * sideBySideWidth, BatchTime: time.Hour, LatencyBudget: -1})
	b.add(testJobs(1, 10, NoPeer)...)
	if batch, _, _, _ := b.take(primary); len(batch) != 10 {
		t.Fatalf("primary took %d", len(batch))
	}
	b.add(testJobs(2, sideBySideMin-1, NoPeer)...)
	if batch, _, wait, _ := b.take(backup); batch != nil || wait <= 0 {
		t.Fatalf("below sideBySideMin: backup took %d, wait %v", len(batch), wait)
	}
	b.add(testJobs(2, 1, NoPeer)...)
	if batch, _, _, _ := b.take(backup); len(batch) != sideBySideMin {
		t.Fatalf("at sideBySideMin: backup took %d", len(batch))
	}
	// Two calls in flight fill the machine: a third waits.
	b.add(testJobs(3, 2*sideBySideMin, NoPeer)...)
	if batch, _, wait, _ := b.take(backup); batch != nil || wait <= 0 {
		t.Fatalf("two calls in flight: backup took %d, wait %v", len(batch), wait)
	}
	b.verified(10, 1, time.Millisecond, time.Millisecond, true)
	if batch, _, _, _ := b.take(backup); len(batch) != 2*sideBySideMin {
		t.Fatalf("one call in flight: backup took %d", len(batch))
	}

	small := newTestBatcher(t, Config{VerifyWorkers: 2*sideBySideWidth - 1, BatchTime: time.Hour, LatencyBudget: -1})
	small.add(testJobs(1, 1, NoPeer)...)
	small.take(primary)
	small.add(testJobs(2, 4*sideBySideMin, NoPeer)...)
	if batch, _, wait, _ := small.take(backup); batch != nil || wait <= 0 {
		t.Fatalf("no room for two calls: backup took %d, wait %v", len(batch), wait)
	}
}

// TestBatcherQueuedCount: the count of the roots' queued sets, which the
// latency budget and the side-by-side rule read, follows every way a set
// enters or leaves the roots' queues: queueing, a take, an isolated peer's
// sets moving to its lane, a copy promoted back, a cancelled message's
// sets dropped.
func TestBatcherQueuedCount(t *testing.T) {
	b := newTestBatcher(t, Config{BatchSize: 4, BatchTime: time.Hour, LatencyBudget: -1})
	check := func(step string) {
		t.Helper()
		n := 0
		for _, q := range b.turn {
			n += q.len()
		}
		if b.queued != n {
			t.Fatalf("%s: count %d, queues hold %d", step, b.queued, n)
		}
	}
	bad, good := testJobs(1, 3, "bad"), testJobs(2, 5, "good")
	b.add(bad...)
	b.add(good...)
	check("queued")
	b.drop(good[3:])
	check("dropped")
	b.taint("bad")
	check("isolated")
	b.promote(bad[0].g, "good")
	check("promoted")
	if batch, _, _, _ := b.take(primary); len(batch) == 0 {
		t.Fatal("nothing taken")
	}
	check("taken")
	b.drop(bad)
	check("dropped again")
}
