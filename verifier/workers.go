package verifier

import (
	"sync"
	"sync/atomic"
)

// workers is the Verifier's goroutine pool. The goroutines are started by
// newWorkers and stopped by close; callers of forEach take part in their own
// work, so a call never waits for a worker that is busy elsewhere, and calls
// made after close run on the caller alone.
type workers struct {
	n     int
	tasks chan func()
	done  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
}

func newWorkers(n int) *workers {
	w := &workers{n: n, tasks: make(chan func(), 4*n), done: make(chan struct{})}
	for range n {
		w.wg.Go(func() {
			for {
				select {
				case <-w.done:
					return
				case t := <-w.tasks:
					t()
				}
			}
		})
	}
	return w
}

// close stops the goroutines and waits for them. Work already taken by a
// goroutine finishes first.
func (w *workers) close() {
	w.once.Do(func() { close(w.done) })
	w.wg.Wait()
}

// forEach runs f(i) for every i in [0, n), in chunks of chunk indexes spread
// over the pool and the calling goroutine, and returns when all have run.
func (w *workers) forEach(n, chunk int, f func(i int)) {
	if n <= 0 {
		return
	}
	chunk = max(chunk, 1)
	nchunks := int64((n + chunk - 1) / chunk)
	if nchunks == 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next, finished atomic.Int64
	all := make(chan struct{})
	work := func() {
		for {
			c := next.Add(1) - 1
			if c >= nchunks {
				return
			}
			lo := int(c) * chunk
			for i := lo; i < min(lo+chunk, n); i++ {
				f(i)
			}
			if finished.Add(1) == nchunks {
				close(all)
			}
		}
	}
	helpers := min(int64(w.n-1), nchunks-1)
offer:
	for range helpers {
		select {
		case <-w.done:
			break offer
		case w.tasks <- work:
		default:
			break offer
		}
	}
	work()
	<-all
}
