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
