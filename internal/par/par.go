// Package par is the library's one parallel-for: a loop whose iterations
// run on the machine's cores, on goroutines started for the loop and joined
// before it returns. (A Verifier's calls run on its own worker pool instead:
// goroutines it owns for its lifetime and shares fairly between calls.)
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls f(i) once for every i in [0, n) on at most GOMAXPROCS
// goroutines and returns when every call has returned. See [ForOn].
func For(n, chunk int, f func(i int)) { ForOn(runtime.GOMAXPROCS(0), n, chunk, f) }

// ForOn calls f(i) once for every i in [0, n) on at most workers goroutines
// (the caller's among them, so at least one) and returns when every call
// has returned. The goroutines claim chunk consecutive indexes at a time
// (chunk below 1 counts as 1): a chunk large enough makes the claiming
// negligible beside f, small enough that the goroutines end together. No
// goroutine is started when one chunk covers the loop.
func ForOn(workers, n, chunk int, f func(i int)) {
	chunk = max(chunk, 1)
	chunks := (n + chunk - 1) / chunk
	var next atomic.Int64
	run := func() {
		for {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			for i := c * chunk; i < min((c+1)*chunk, n); i++ {
				f(i)
			}
		}
	}
	var wg sync.WaitGroup
	for range min(workers, chunks) - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
}
