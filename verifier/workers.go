package verifier

import (
	"sync"
	"sync/atomic"
)

// workers is the Verifier's goroutine pool, started by newWorkers and stopped
// by close. Each forEach is a job of chunks, and its caller runs chunks of its
// own job until none is left. So a call never waits for a busy worker, and
// calls after close run on the caller alone.
//
// The goroutines serve the open jobs in turn, one chunk at a time. Concurrent
// calls share them fairly, and one call's long search cannot keep them from
// another call. A job takes at most as many goroutines as its caller allows
// and as it has chunks to spare. Opening it wakes no more than that: a
// goroutine woken for nothing costs a wake-up and a search for work.
type workers struct {
	n      int
	mu     sync.Mutex
	wake   *sync.Cond
	jobs   []*job // jobs with chunks left to claim
	turn   int    // index in jobs of the next job to serve
	closed bool
	wg     sync.WaitGroup
}

// job is one forEach: chunks of chunk indexes of [0, n).
type job struct {
	n, chunk int
	nchunks  int64
	f        func(i int)
	helpers  int          // the most pool goroutines on the job at once
	active   int          // pool goroutines on it now (under workers.mu)
	next     atomic.Int64 // next chunk to claim
	finished atomic.Int64 // chunks run
	all      chan struct{}
}

func newWorkers(n int) *workers {
	w := &workers{n: n}
	w.wake = sync.NewCond(&w.mu)
	for range n {
		w.wg.Go(w.serve)
	}
	return w
}

// serve is a goroutine of the pool: it runs one chunk of the next open job
// in turn, until close.
func (w *workers) serve() {
	for {
		j := w.pick()
		if j == nil {
			return
		}
		more := j.runOne()
		w.mu.Lock()
		j.active--
		if !more {
			w.dropLocked(j)
		}
		w.mu.Unlock()
	}
}

// pick waits for an open job with room for another goroutine and returns
// the first such in turn, or nil once the pool is closed.
func (w *workers) pick() *job {
	w.mu.Lock()
	defer w.mu.Unlock()
	for !w.closed {
		if j := w.nextLocked(); j != nil {
			j.active++
			return j
		}
		w.wake.Wait()
	}
	return nil
}

// nextLocked is the first open job from the turn on with fewer goroutines
// than its helpers, the turn moved past it; nil if none.
func (w *workers) nextLocked() *job {
	for range len(w.jobs) {
		if w.turn >= len(w.jobs) {
			w.turn = 0
		}
		j := w.jobs[w.turn]
		w.turn++
		if j.active < j.helpers {
			return j
		}
	}
	return nil
}

// open adds j to the jobs the goroutines serve (not after close) and wakes
// as many as it may take.
func (w *workers) open(j *job) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.jobs = append(w.jobs, j)
	for range j.helpers {
		w.wake.Signal()
	}
}

// drop removes j, whose chunks are all claimed, from the open jobs.
func (w *workers) drop(j *job) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dropLocked(j)
}

func (w *workers) dropLocked(j *job) {
	for x, o := range w.jobs {
		if o == j {
			w.jobs = append(w.jobs[:x], w.jobs[x+1:]...)
			if x < w.turn {
				w.turn--
			}
			return
		}
	}
}

// runOne claims and runs one chunk of j; it reports false when none was left.
func (j *job) runOne() bool {
	c := j.next.Add(1) - 1
	if c >= j.nchunks {
		return false
	}
	lo := int(c) * j.chunk
	for i := lo; i < min(lo+j.chunk, j.n); i++ {
		j.f(i)
	}
	if j.finished.Add(1) == j.nchunks {
		close(j.all)
	}
	return true
}

// close stops the goroutines and waits for them. Chunks already taken by a
// goroutine finish first. The open jobs leave the queue at once (their
// callers run what is left). No job is queued after close: the pool holds
// no work once closed.
func (w *workers) close() {
	w.mu.Lock()
	w.closed = true
	w.jobs, w.turn = nil, 0
	w.wake.Broadcast()
	w.mu.Unlock()
	w.wg.Wait()
}

// forEach runs f(i) for every i in [0, n) and returns when all have run. It
// runs them in chunks of chunk indexes, spread over the calling goroutine
// and at most helpers goroutines of the pool.
func (w *workers) forEach(helpers, n, chunk int, f func(i int)) {
	if n <= 0 {
		return
	}
	chunk = max(chunk, 1)
	j := &job{n: n, chunk: chunk, nchunks: int64((n + chunk - 1) / chunk), f: f, all: make(chan struct{})}
	j.helpers = int(min(int64(helpers), int64(w.n), j.nchunks-1))
	if j.helpers > 0 {
		w.open(j)
	}
	for j.runOne() {
	}
	w.drop(j)
	<-j.all
}
