package pool

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/attpool/attpool/verifier"
)

// job is one signature set waiting for verification, for set idx of group g,
// from the message forwarded by peer from.
type job struct {
	set  verifier.Set
	g    *group
	idx  int
	from Peer
}

// batcher queues jobs per signing root. A root's queue becomes a batch when
// it holds size jobs; queues older than delay are flushed together; on close
// everything is flushed. Batches are taken by the pool's verify goroutines.
type batcher struct {
	size  int
	delay time.Duration

	mu      sync.Mutex
	queues  map[[32]byte]*rootQueue
	ready   [][]*job
	closed  bool
	wake    chan struct{} // a token: there may be work
	closing chan struct{} // closed by close
}

type rootQueue struct {
	jobs  []*job
	since time.Time
}

func newBatcher(size int, delay time.Duration) *batcher {
	return &batcher{
		size: size, delay: delay,
		queues:  make(map[[32]byte]*rootQueue),
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
		q := b.queues[j.set.Root]
		if q == nil {
			q = &rootQueue{since: now, jobs: make([]*job, 0, min(b.size, 64))}
			b.queues[j.set.Root] = q
		}
		q.jobs = append(q.jobs, j)
		if len(q.jobs) >= b.size {
			b.ready = append(b.ready, q.jobs)
			delete(b.queues, j.set.Root)
		}
	}
	b.mu.Unlock()
	b.signal()
	return true
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
	if len(b.ready) > 0 {
		batch = b.ready[0]
		b.ready[0] = nil
		b.ready = b.ready[1:]
		if len(b.ready) > 0 {
			b.signal()
		}
		return batch, 0, false
	}
	wait = -1
	for root, q := range b.queues {
		left := b.delay - now.Sub(q.since)
		if !b.closed && left > 0 {
			if wait < 0 || left < wait {
				wait = left
			}
			continue
		}
		if len(batch) > 0 && len(batch)+len(q.jobs) > b.size {
			wait = 0 // more is due: come back at once
			continue
		}
		batch = append(batch, q.jobs...)
		delete(b.queues, root)
	}
	if len(batch) > 0 {
		if wait == 0 {
			b.signal()
		}
		return batch, 0, false
	}
	return nil, wait, b.closed
}

func (b *batcher) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	close(b.closing)
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
	sets := make([]verifier.Set, len(batch))
	for i, j := range batch {
		sets[i] = j.set
	}
	start := time.Now()
	ok := p.v.Verify(sets)
	took := time.Since(start)
	p.metrics.verifyTime.Observe(took.Seconds())
	p.log.WithFields(logrus.Fields{"sets": len(sets), "invalid": countFalse(ok), "took": took}).Debug("verified batch")
	p.metrics.batchSize.Observe(float64(len(sets)))
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
