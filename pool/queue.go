package pool

import (
	"slices"
	"time"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
)

// job is one signature set waiting for verification, for set idx of group g,
// from the message forwarded by peer from, queued at queued.
type job struct {
	set    verifier.Set
	g      *group
	idx    int
	from   Peer
	queued time.Time
	// undecoded: set.Decoded (the group's point) is still to be decoded
	// from set.Signature, by the verify goroutine that takes the job. The
	// attestation topic leaves its decompression (most of a set's cost)
	// there when other submitters are decoding already (attesterKey).
	undecoded bool
	// key, when not nil, gives set.PublicKey, still to be computed by the
	// isolated peers' goroutine (an isolated peer's aggregate: the key sum
	// of its participants; Pool.resolveKeys).
	key func() (*crypto.PublicKey, Result)
	// q is the queue that holds the job (nil once taken for verification or
	// dropped), prev and next its neighbours there. Guarded by the
	// batcher's lock.
	q          *jobQueue
	prev, next *job
}

// jobQueue is a FIFO of jobs, linked through them, so that a job leaves it
// from anywhere at once. The sets of a message whose every caller has gone
// (batcher.drop) leave their queue without a walk over it.
type jobQueue struct {
	head, tail *job
	n          int
}

func (q *jobQueue) len() int          { return q.n }
func (q *jobQueue) front() *job       { return q.head }
func (q *jobQueue) oldest() time.Time { return q.head.queued }

func (q *jobQueue) push(j *job) {
	j.q, j.prev, j.next = q, q.tail, nil
	if q.tail == nil {
		q.head = j
	} else {
		q.tail.next = j
	}
	q.tail = j
	q.n++
}

// remove unlinks j, which q holds.
func (q *jobQueue) remove(j *job) {
	if j.prev == nil {
		q.head = j.next
	} else {
		j.prev.next = j.next
	}
	if j.next == nil {
		q.tail = j.prev
	} else {
		j.next.prev = j.prev
	}
	j.q, j.prev, j.next = nil, nil, nil
	q.n--
}

// take removes the n oldest jobs (n <= len) and returns them in a new slice.
func (q *jobQueue) take(n int) []*job {
	out := make([]*job, 0, n)
	for range n {
		j := q.head
		q.remove(j)
		out = append(out, j)
	}
	return out
}

// extract removes the jobs for which match is true and returns them, in
// order.
func (q *jobQueue) extract(match func(*job) bool) []*job {
	return q.extractUpTo(q.n, match)
}

// extractUpTo removes the n oldest jobs for which match is true (fewer if
// fewer match) and returns them, in order.
func (q *jobQueue) extractUpTo(n int, match func(*job) bool) []*job {
	var out []*job
	for j := q.head; j != nil && len(out) < n; {
		next := j.next
		if match(j) {
			q.remove(j)
			out = append(out, j)
		}
		j = next
	}
	return out
}

// drop removes jobs, those of one message, from the queues that still hold
// them (a root's queue, the FIFO, an isolated peer's lane). It returns how
// many it removed. A job already taken for verification is left to its
// batch.
func (b *batcher) drop(jobs []*job) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, j := range jobs {
		q := j.q
		if q == nil {
			continue
		}
		q.remove(j)
		n++
		lane := b.apart.byPeer[j.from] == q
		switch {
		case lane:
			b.apart.sets--
		case q != &b.fifo:
			b.queued-- // a root's queue
		}
		switch {
		case q.len() > 0 || q == &b.fifo:
		case lane:
			b.apart.forget(j.from)
		default:
			b.forgetRootLocked(j.set.Root)
		}
	}
	return n
}

// forgetRootLocked drops the queue of root, emptied.
func (b *batcher) forgetRootLocked(root [32]byte) {
	q := b.roots[root]
	delete(b.roots, root)
	if i := slices.Index(b.turn, q); i >= 0 {
		b.turn = slices.Delete(b.turn, i, i+1)
	}
}
