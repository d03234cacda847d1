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
	jA := &job{n: 1 << 30, chunk: 1, nchunks: 1 << 30, all: make(chan struct{})}
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
		w.forEach(2, 1, func(int) {
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
	jA := &job{n: 1000, chunk: 1, nchunks: 1000, all: make(chan struct{})}
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
	w.forEach(64, 1, func(int) {
		if n := queued(); n != 0 {
			t.Errorf("%d jobs queued during a forEach after close", n)
		}
		after.Add(1)
	})
	if n := after.Load(); n != 64 {
		t.Fatalf("forEach after close ran %d of 64 indexes", n)
	}
}
