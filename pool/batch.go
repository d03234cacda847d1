package pool

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"

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
}

// jobQueue is a FIFO of jobs.
type jobQueue struct {
	jobs []*job
	head int
}

func (q *jobQueue) len() int          { return len(q.jobs) - q.head }
func (q *jobQueue) push(j *job)       { q.jobs = append(q.jobs, j) }
func (q *jobQueue) front() *job       { return q.jobs[q.head] }
func (q *jobQueue) oldest() time.Time { return q.front().queued }

// take removes the n oldest jobs (n <= len) and returns them in a new slice.
func (q *jobQueue) take(n int) []*job {
	out := make([]*job, n)
	copy(out, q.jobs[q.head:q.head+n])
	clear(q.jobs[q.head : q.head+n])
	q.head += n
	q.compact()
	return out
}

// compact reuses the space of taken jobs once they are the larger part.
func (q *jobQueue) compact() {
	switch {
	case q.head == len(q.jobs):
		q.jobs, q.head = q.jobs[:0], 0
	case q.head > 64 && q.head > len(q.jobs)/2:
		n := copy(q.jobs, q.jobs[q.head:])
		clear(q.jobs[n:])
		q.jobs, q.head = q.jobs[:n], 0
	}
}

// extract removes the jobs for which match is true and returns them, in
// order.
func (q *jobQueue) extract(match func(*job) bool) []*job {
	var out []*job
	kept := q.jobs[:q.head]
	for _, j := range q.jobs[q.head:] {
		if match(j) {
			out = append(out, j)
		} else {
			kept = append(kept, j)
		}
	}
	clear(q.jobs[len(kept):])
	q.jobs = kept
	q.compact()
	return out
}

// rootQueue is the queue of one signing root (BatchAdaptive).
type rootQueue struct {
	root [32]byte
	jobQueue
}

// batcher forms the batches the verify goroutines take, by Config.Policy.
//
// BatchFixed keeps one FIFO of every set: a batch is ready when it holds
// MinBatch sets or its oldest has waited BatchDelay, and takes at most
// BatchSize sets.
//
// BatchAdaptive keeps a queue per signing root and never waits: a free
// worker takes what is queued at once, so a batch holds the sets that
// arrived while the workers were busy. It takes the roots in turn (round
// robin), each root's sets together, up to the batch cap: BatchSize, or
// fewer when the recent time per set says a larger batch would take longer
// than BatchDelay to verify. Sets from isolated peers wait in lanes of their
// own (see isolation).
type batcher struct {
	policy   BatchPolicy
	size     int
	minBatch int
	delay    time.Duration

	mu      sync.Mutex
	fifo    jobQueue                // BatchFixed
	roots   map[[32]byte]*rootQueue // BatchAdaptive: queued sets by root
	turn    []*rootQueue            // BatchAdaptive: roots with sets, in turn order
	cost    costEstimate            // BatchAdaptive: recent verification time per set
	closed  bool
	wake    chan struct{} // a token: there may be work
	closing chan struct{} // closed by close
}

func newBatcher(cfg Config) *batcher {
	return &batcher{
		policy: cfg.Policy, size: cfg.BatchSize, minBatch: cfg.MinBatch, delay: cfg.BatchDelay,
		roots:   make(map[[32]byte]*rootQueue),
		wake:    make(chan struct{}, 1),
		closing: make(chan struct{}),
	}
}

// add queues the jobs, all or none; false if the batcher is closed.
func (b *batcher) add(jobs ...*job) bool {
	now := time.Now()
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return false
	}
	for _, j := range jobs {
		j.queued = now
		b.queueLocked(j)
	}
	b.mu.Unlock()
	b.signal()
	return true
}

func (b *batcher) queueLocked(j *job) {
	if b.policy == BatchFixed {
		b.fifo.push(j)
		return
	}
	q := b.roots[j.set.Root]
	if q == nil {
		q = &rootQueue{root: j.set.Root}
		b.roots[j.set.Root] = q
		b.turn = append(b.turn, q)
	}
	q.push(j)
}

func (b *batcher) signal() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// take returns a batch to verify, or how long to wait for one (negative:
// nothing queued). done is true when the batcher is closed and empty.
func (b *batcher) take() (batch []*job, wait time.Duration, done bool) {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.policy == BatchFixed {
		batch, wait = b.takeFixedLocked(now)
	} else {
		batch, wait = b.takeAdaptiveLocked(), -1
	}
	if batch != nil {
		if b.queuedLocked() > 0 {
			b.signal() // more for another worker
		}
		return batch, 0, false
	}
	return nil, wait, b.closed
}

// takeFixedLocked is take under BatchFixed.
func (b *batcher) takeFixedLocked(now time.Time) ([]*job, time.Duration) {
	n := b.fifo.len()
	if n == 0 {
		return nil, -1
	}
	left := b.delay - now.Sub(b.fifo.oldest())
	if n < b.minBatch && left > 0 && !b.closed {
		return nil, left
	}
	return b.fifo.take(min(n, b.size)), 0
}

// takeAdaptiveLocked is take under BatchAdaptive: the roots in turn, each
// root's sets together, up to the batch cap.
func (b *batcher) takeAdaptiveLocked() []*job {
	limit := b.cost.cap(b.size, b.delay)
	var batch []*job
	for len(batch) < limit && len(b.turn) > 0 {
		q := b.turn[0]
		n := min(q.len(), limit-len(batch))
		batch = append(batch, q.take(n)...)
		b.turn = b.turn[1:]
		if q.len() == 0 {
			delete(b.roots, q.root)
		} else {
			b.turn = append(b.turn, q) // its turn again after the others
		}
	}
	return batch
}

func (b *batcher) queuedLocked() int {
	if b.policy == BatchFixed {
		return b.fifo.len()
	}
	return len(b.turn)
}

// verified records that a batch of n sets took took to verify.
func (b *batcher) verified(n int, took time.Duration) {
	if b.policy != BatchAdaptive {
		return
	}
	b.mu.Lock()
	b.cost.add(n, took)
	b.mu.Unlock()
}

func (b *batcher) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	close(b.closing)
}

// costEstimate is a moving average of the verification time per set,
// weighted by the sets of each batch (a tenth of the weight goes to the
// newest batch).
type costEstimate struct {
	seconds, sets float64
}

func (c *costEstimate) add(n int, took time.Duration) {
	c.seconds = 0.9*c.seconds + took.Seconds()
	c.sets = 0.9*c.sets + float64(n)
}

// cap is the number of sets the recent cost per set verifies in bound, at
// least 1 and at most size (size while nothing has been measured).
func (c *costEstimate) cap(size int, bound time.Duration) int {
	if c.seconds <= 0 || c.sets <= 0 {
		return size
	}
	n := bound.Seconds() * c.sets / c.seconds
	if n >= float64(size) {
		return size
	}
	return max(1, int(n))
}

// verifyLoop is a verify goroutine: it takes batches, verifies them and
// hands the verdicts to complete, until the batcher is closed and drained.
func (p *Pool) verifyLoop() {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		batch, wait, done := p.batch.take()
		if batch != nil {
			p.verify(batch)
			continue
		}
		if done {
			return
		}
		if wait < 0 {
			wait = time.Hour
		}
		timer.Reset(wait)
		select {
		case <-p.batch.wake:
		case <-timer.C:
		case <-p.batch.closing:
		}
	}
}

// verify verifies a batch and completes its groups.
func (p *Pool) verify(batch []*job) {
	start := time.Now()
	sets := make([]verifier.Set, len(batch))
	for i, j := range batch {
		sets[i] = j.set
		p.metrics.queueWait.Observe(start.Sub(j.queued).Seconds())
	}
	ok := p.v.Verify(sets)
	took := time.Since(start)
	p.batch.verified(len(batch), took)
	p.metrics.verifyTime.Observe(took.Seconds())
	p.metrics.batchSize.Observe(float64(len(sets)))
	p.log.WithFields(logrus.Fields{"sets": len(sets), "invalid": countFalse(ok), "took": took}).Debug("verified batch")
	p.complete(batch, ok)
	p.metrics.queueDepth.Set(float64(p.pending.Add(-int64(len(batch)))))
}

func countFalse(v []bool) int {
	n := 0
	for _, b := range v {
		if !b {
			n++
		}
	}
	return n
}
