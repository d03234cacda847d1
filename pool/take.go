package pool

import (
	"time"
)

// How the batcher forms a batch. With a client's batching it takes from the
// one queue (takeFixedLocked). Otherwise it takes from attpool's queues by
// signing root, up to the batch cap that the recent cost per set allows
// (takeAdaptiveLocked, takeBudgetLocked).

// takeFixedLocked is take with a client's batching.
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

// takeAdaptiveLocked is the default take: the roots in turn, each root's
// sets together, up to the batch cap. Once a set has waited BatchTime it
// takes up to BatchSize. The workers are then behind and only larger
// batches (less time per set) catch up. Cutting them then would slow every
// verdict.
func (b *batcher) takeAdaptiveLocked(now time.Time) []*job {
	limit := b.cost.cap(b.size, b.delay)
	if age, _ := b.oldestLocked(now); age >= b.delay {
		limit = b.size
	}
	if len(b.suspects) > 0 && len(b.turn) > 0 {
		return b.takeSearchingLocked(limit)
	}
	return b.extractLocked(limit, nil)
}

// takeBudgetLocked is the take with a latency budget: the primary's, and a
// backup's while a search runs. It returns the batch of takeAdaptiveLocked,
// or how long until its budget is spent.
// It waits while the oldest queued set has waited less than the budget
// (budgetLocked: stretched under load) and less than BatchTime (the workers
// are not behind), and waiting pays (waitPays). It also returns the batch
// cap that ends the wait before then (holdCap).
func (b *batcher) takeBudgetLocked(now time.Time) (batch []*job, wait time.Duration, holdCap int) {
	age, ok := b.oldestLocked(now)
	if !ok {
		return nil, -1, 0
	}
	budget := b.budgetLocked(now)
	if !b.closed && age < budget && age < b.delay {
		limit := b.cost.cap(b.size, b.delay)
		if left := budget - age; b.waitPays(b.queued, len(b.turn), left, limit, now) {
			return nil, left, limit
		}
	}
	return b.takeAdaptiveLocked(now), 0, 0
}

// takeSearchingLocked is takeAdaptiveLocked while batches are searched. It
// takes the sets of the peers that forwarded none of theirs, the roots in
// turn, up to limit. When only suspects' sets are queued, it takes those of
// one suspect, the peer of the oldest (no worker idles while sets wait).
// Until a search names the invalid set and isolates its peer, that peer's
// next sets would fail any batch they join. The valid sets in it would wait
// for a second search. In a batch of one peer's sets they delay no other
// peer's.
func (b *batcher) takeSearchingLocked(limit int) []*job {
	if batch := b.extractLocked(limit, func(j *job) bool { return b.suspects[j.from] == 0 }); len(batch) > 0 {
		return batch
	}
	from := b.turn[0].front().from
	return b.extractLocked(limit, func(j *job) bool { return j.from == from })
}

// extractLocked takes up to limit queued sets for which match is true (every
// set if match is nil). It takes the roots in turn, each root's oldest
// first. A root taken from has its turn again after the others.
func (b *batcher) extractLocked(limit int, match func(*job) bool) []*job {
	var batch []*job
	var kept, taken []*rootQueue
	for _, q := range b.turn {
		var got []*job
		switch n := limit - len(batch); {
		case n <= 0:
		case match == nil:
			got = q.take(min(q.len(), n))
		default:
			got = q.extractUpTo(n, match)
		}
		batch = append(batch, got...)
		switch {
		case q.len() == 0:
			delete(b.roots, q.root)
		case len(got) > 0:
			taken = append(taken, q)
		default:
			kept = append(kept, q)
		}
	}
	clear(b.turn)
	b.turn = append(append(b.turn[:0], kept...), taken...)
	b.queued -= len(batch)
	return batch
}

// costEstimate is a moving average of the verification time per set,
// weighted by the sets of each batch (a tenth of the weight goes to the
// newest batch).
type costEstimate struct {
	seconds, sets float64
}

// costDecay is what a batch's weight in the estimate keeps at each newer
// batch. About the last ten batches count. So the cap follows a change of
// load (another process, a slower root) within ten batches. That is about
// half a second at batches of BatchTime's 50 ms.
const costDecay = 0.9

func (c *costEstimate) add(n int, took time.Duration) {
	c.seconds = costDecay*c.seconds + took.Seconds()
	c.sets = costDecay*c.sets + float64(n)
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
