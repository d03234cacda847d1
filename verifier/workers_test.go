package verifier

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestWorkersFair: while one job keeps the pool's goroutine busy (a long
// failure search is a run of such jobs), a job opened by another call gets
// the goroutine's next chunk, not the end of the first job's queue. Job B
// can only finish when a pool goroutine runs one of its chunks beside its
// caller (a barrier of two), and the pool's one goroutine is inside job A,
// which has a billion chunks and no caller of its own. A scheduler that
// served A to the end would run 100 more of A's chunks before B's: the
// test fails then, whatever the machine's speed.
func TestWorkersFair(t *testing.T) {
	w := newWorkers(1)
	defer w.close()
	var count, arrived atomic.Int64
	reached, abort, bDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	openJobs := func() int {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.jobs)
	}
	jA := &job{n: 1 << 30, chunk: 1, nchunks: 1 << 30, helpers: 1, all: make(chan struct{})}
	jA.f = func(int) {
		switch count.Add(1) {
		case 10: // hold the goroutine here until B is open
			close(reached)
			for openJobs() < 2 {
				time.Sleep(time.Millisecond)
			}
		case 110: // the pool's goroutine should have run B's chunk long ago
			if arrived.Load() < 2 {
				close(abort)
			}
		}
	}
	w.open(jA)
	<-reached
	barrier := make(chan struct{})
	go func() {
		w.forEach(1, 2, 1, func(int) {
			if arrived.Add(1) == 2 {
				close(barrier)
			}
			select {
			case <-barrier:
			case <-abort:
			}
		})
		close(bDone)
	}()
	<-bDone
	jA.next.Store(jA.nchunks) // end A
	select {
	case <-abort:
		t.Fatal("the pool's goroutine ran 100 chunks of a busy job while another job waited for it")
	default:
	}
}

// TestWorkersQueueNothingAfterClose: once close has returned, the pool
// holds no work. A job open at close (its chunks still running on the
// pool's goroutine) leaves the queue at close, and its caller finishes it;
// a job begun after close is never queued and runs on its caller alone.
func TestWorkersQueueNothingAfterClose(t *testing.T) {
	w := newWorkers(1)
	queued := func() int {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.jobs)
	}
	// Job A: the pool's goroutine holds its first chunk until close has
	// begun, and A has no caller yet to drop it.
	inside, release := make(chan struct{}), make(chan struct{})
	var ran atomic.Int64
	jA := &job{n: 1000, chunk: 1, nchunks: 1000, helpers: 1, all: make(chan struct{})}
	jA.f = func(i int) {
		if ran.Add(1) == 1 {
			close(inside)
			<-release
		}
	}
	w.open(jA)
	<-inside
	closed := make(chan struct{})
	go func() { w.close(); close(closed) }()
	for {
		w.mu.Lock()
		c := w.closed
		w.mu.Unlock()
		if c {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	<-closed
	if n := queued(); n != 0 {
		t.Fatalf("%d jobs queued in a closed pool", n)
	}
	// A's caller finishes it: every index runs once.
	for jA.runOne() {
	}
	<-jA.all
	if n := ran.Load(); n != 1000 {
		t.Fatalf("job A ran %d of 1000 indexes", n)
	}
	// After close: nothing is queued while a job runs, and every index runs.
	var after atomic.Int64
	w.forEach(w.n, 64, 1, func(int) {
		if n := queued(); n != 0 {
			t.Errorf("%d jobs queued during a forEach after close", n)
		}
		after.Add(1)
	})
	if n := after.Load(); n != 64 {
		t.Fatalf("forEach after close ran %d of 64 indexes", n)
	}
}

// TestWorkersHelpers: a forEach runs on its caller and at most helpers of
// the pool's goroutines at once, however many the pool has idle (the most
// running at once is counted over chunks that overlap long enough for all
// four to join).
func TestWorkersHelpers(t *testing.T) {
	w := newWorkers(4)
	defer w.close()
	for _, helpers := range []int{0, 1, 2, 4} {
		var running, most atomic.Int64
		w.forEach(helpers, 64, 1, func(int) {
			r := running.Add(1)
			for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
			}
			time.Sleep(200 * time.Microsecond)
			running.Add(-1)
		})
		if m := most.Load(); m > int64(helpers)+1 {
			t.Errorf("%d helpers: %d chunks ran at once", helpers, m)
		}
	}
	opened := 0
	w.mu.Lock()
	opened = len(w.jobs)
	w.mu.Unlock()
	if opened != 0 {
		t.Fatalf("%d jobs left open", opened)
	}
}

// TestCallHelpers: a call is given workers by its work: none for a few
// sets on one root (about 1.4 ms by the cost model), one or more for a few
// dozen, every worker for a thousand.
func TestCallHelpers(t *testing.T) {
	v, err := New(Config{Workers: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, c := range []struct {
		sets, roots int
		least, most int
	}{{1, 1, 0, 0}, {4, 1, 0, 0}, {40, 2, 1, 3}, {1024, 2, 8, 8}} {
		call := &call{v: v, cand: make([]int, c.sets), groups: make([]group, c.roots)}
		fused, conventional := call.pathCosts(firstRoundsN(64, firstChecksBits))
		if h := v.helpersFor(call.checkWork(min(fused, conventional))); h < c.least || h > c.most {
			t.Errorf("%d sets on %d roots: %d helpers, want %d to %d", c.sets, c.roots, h, c.least, c.most)
		}
	}
}
