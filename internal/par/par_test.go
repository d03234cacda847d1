package par

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestForEachIndexOnce: every index of [0, n) is visited exactly once, for
// loops shorter and longer than a chunk and than the goroutines.
func TestForEachIndexOnce(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 2, 7, 64, 1000} {
		for _, chunk := range []int{0, 1, 3, 16, 2000} {
			for _, workers := range []int{-1, 0, 1, 2, 8} {
				seen := make([]atomic.Int32, max(n, 0))
				ForOn(workers, n, chunk, func(i int) { seen[i].Add(1) })
				for i := range seen {
					if c := seen[i].Load(); c != 1 {
						t.Fatalf("n %d chunk %d workers %d: index %d visited %d times", n, chunk, workers, i, c)
					}
				}
			}
		}
	}
}

// TestForOnBound: no more than workers calls of f run at once (the most
// calls running at once is counted; a loop that started a goroutine per
// chunk would let 300 overlap).
func TestForOnBound(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		var running, most atomic.Int32
		ForOn(workers, 300, 1, func(int) {
			r := running.Add(1)
			for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
			}
			running.Add(-1)
		})
		if m := most.Load(); m > int32(workers) {
			t.Fatalf("workers %d: %d calls ran at once", workers, m)
		}
	}
}

// TestForOnOneWorkerInOrder: with one worker the loop runs on the caller, in
// order (no goroutine is started, so the calls cannot interleave).
func TestForOnOneWorkerInOrder(t *testing.T) {
	var got []int
	ForOn(1, 50, 7, func(i int) { got = append(got, i) })
	if fmt.Sprint(got) != fmt.Sprint(seq(50)) {
		t.Fatalf("order %v", got)
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
