package verifier

import (
	"sync"
	"sync/atomic"
)

// workers is the Verifier's goroutine pool. The goroutines are started by
// newWorkers and stopped by close. Each forEach is a job of chunks; its
// caller runs chunks of its own job until none is left, so a call never
// waits for a worker that is busy elsewhere, and calls made after close run
// on the caller alone. The goroutines serve the open jobs in turn, one chunk
// at a time: concurrent calls share them fairly, and one call's long search
// (a run of forEach calls) cannot keep them from another call's work.
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
		if !j.runOne() {
			w.drop(j)
		}
	}
}

// pick waits for an open job and returns the one whose turn it is, or nil
// once the pool is closed.
func (w *workers) pick() *job {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.jobs) == 0 && !w.closed {
		w.wake.Wait()
	}
	if w.closed {
		return nil
	}
	if w.turn >= len(w.jobs) {
		w.turn = 0
	}
	j := w.jobs[w.turn]
	w.turn++
	return j
}

// open adds j to the jobs the goroutines serve (not after close).
func (w *workers) open(j *job) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.jobs = append(w.jobs, j)
	w.wake.Broadcast()
}

// drop removes j, whose chunks are all claimed, from the open jobs.
func (w *workers) drop(j *job) {
	w.mu.Lock()
	defer w.mu.Unlock()
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
// goroutine finish first; the open jobs leave the queue at once (their
// callers run what is left), and no job is queued after close: the pool
// holds no work once closed.
func (w *workers) close() {
	w.mu.Lock()
	w.closed = true
	w.jobs, w.turn = nil, 0
	w.wake.Broadcast()
	w.mu.Unlock()
	w.wg.Wait()
}

// forEach runs f(i) for every i in [0, n), in chunks of chunk indexes spread
// over the pool and the calling goroutine, and returns when all have run.
func (w *workers) forEach(n, chunk int, f func(i int)) {
	if n <= 0 {
		return
	}
	chunk = max(chunk, 1)
	j := &job{n: n, chunk: chunk, nchunks: int64((n + chunk - 1) / chunk), f: f, all: make(chan struct{})}
	if j.nchunks > 1 && w.n > 0 {
		w.open(j)
	}
	for j.runOne() {
	}
	w.drop(j)
	<-j.all
}
