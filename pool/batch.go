package pool

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/verifier"
)

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
// BatchAdaptive keeps a queue per signing root. A free worker takes what is
// queued at once, so a batch holds the sets that arrived while the workers
// were busy, unless the primary waits for more within the latency budget
// (budget.go) because a larger call costs less per set. It takes the roots
// in turn (round robin), each root's sets together, up to the batch cap:
// BatchSize, or fewer when the recent time per set says a larger batch would
// take longer than BatchDelay to verify. The sets of isolated peers wait in
// lanes of their own (peers.go), taken by the isolated peers' worker alone.
type batcher struct {
	fixed    bool // a client's queue (Config.fixed)
	size     int
	minBatch int
	delay    time.Duration
	budget   time.Duration // BatchAdaptive: Config.LatencyBudget; 0: none
	workers  int           // Config.VerifyWorkers

	mu    sync.Mutex
	fifo  jobQueue                // BatchFixed
	roots map[[32]byte]*rootQueue // BatchAdaptive: queued sets by root
	turn  []*rootQueue            // BatchAdaptive: roots with sets, in turn order
	cost  costEstimate            // BatchAdaptive: recent verification time per set
	// queued is the number of sets in roots (BatchAdaptive).
	queued int
	// rates and callCost are the latency budget's figures (budget > 0).
	rates    arrivals
	callCost callCost
	// waiting is true while the primary waits for work (BatchAdaptive):
	// add wakes it only then, as a busy primary takes again when its call
	// ends. holdCap, when positive, is the batch cap it waits for
	// companions up to (the budget): add wakes it before its deadline only
	// once that many sets are queued.
	waiting bool
	holdCap int
	// inflight is the batches the primary and the backups are verifying
	// (BatchAdaptive); sideBySide is whether a backup may take one beside
	// them at once (sideBySideLocked).
	inflight   int
	sideBySide bool
	peers      *peerTable // BatchAdaptive: nil if peers are not isolated
	apart      lanes      // the isolated peers' sets
	laneBound  laneBound  // the most sets the lanes hold (laneRoomLocked)
	// searching is the number of batches of other than isolated peers'
	// sets whose check failed and that are being searched for their
	// invalid sets: while one is, a backup takes work at once.
	searching int
	// suspects counts, per peer, the batches being searched that hold a
	// set it forwarded (when peers are isolated): one of them sent the
	// invalid signature, not yet found, so their queued sets are taken
	// after the other peers' (takeSearchingLocked).
	suspects map[Peer]int
	closed   bool

	wake       chan struct{} // a token: there may be work
	wakeBackup chan struct{} // a token for the backups: there may be work
	wakeApart  chan struct{} // a token: there may be isolated peers' work
	closing    chan struct{} // closed by close
}

func newBatcher(cfg Config) *batcher {
	b := &batcher{
		size: cfg.BatchSize, delay: cfg.BatchTime, workers: cfg.VerifyWorkers,
		budget: max(cfg.LatencyBudget, 0),
		// Calls side by side need room for two of sideBySideWidth workers.
		sideBySide: cfg.VerifyWorkers >= 2*sideBySideWidth,
		roots:      make(map[[32]byte]*rootQueue),
		suspects:   make(map[Peer]int),
		wake:       make(chan struct{}, 1),
		wakeBackup: make(chan struct{}, 1),
		wakeApart:  make(chan struct{}, 1),
		closing:    make(chan struct{}),
	}
	if f := cfg.fixed; f != nil {
		b.fixed, b.size, b.minBatch, b.delay, b.budget = true, f.Size, f.Min, f.Wait, 0
	}
	if cfg.isolatesPeers() {
		b.peers = newPeerTable(cfg.MaxPeers, cfg.PeerHalfLife)
		b.laneBound = newLaneBound(cfg)
	}
	return b
}

// add queues the jobs, all or none; false if the batcher is closed or
// refuses them (admit).
func (b *batcher) add(jobs ...*job) bool { return b.admit(jobs...) == admitted }

// admit queues the jobs, those of one message, all or none: not when the
// batcher is closed, nor when they are an isolated peer's and its lane has
// no room for them (laneRoomLocked).
func (b *batcher) admit(jobs ...*job) admission {
	now := time.Now()
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return admitClosed
	}
	if !b.laneRoomLocked(jobs, now) {
		b.mu.Unlock()
		return admitLaneFull
	}
	apart, wasEmpty := false, b.queuedLocked() == 0
	for _, j := range jobs {
		j.queued = now
		if b.peers != nil && b.peers.isolated(j.from, now) {
			b.apart.push(j)
			apart = true
			continue
		}
		b.queueLocked(j)
		if b.budget > 0 {
			b.rates.seen(j.set.Root, now)
		}
	}
	b.wakeLocked(wasEmpty)
	b.mu.Unlock()
	if apart {
		signal(b.wakeApart)
	}
	return admitted
}

// wakeLocked wakes the workers that may take sets just queued. Under
// BatchFixed, one worker (another is woken if it leaves sets). Under
// BatchAdaptive, the primary if it is waiting, and before the deadline of
// a wait for companions only once its cap is queued; the backups when the
// queue was empty (a backup's wait runs from the oldest set: it learns of a
// new one) and the primary is busy or its budget is not below BatchDelay, and
// while a search runs (they then take at once). A busy primary takes again
// when its call ends, and a waiting one takes the queue within the budget,
// so waking them for every set would only make work for the scheduler.
func (b *batcher) wakeLocked(wasEmpty bool) {
	if b.queuedLocked() == 0 {
		return
	}
	if b.fixed {
		signal(b.wake)
		return
	}
	if b.waiting && (b.holdCap == 0 || b.queued >= b.holdCap) {
		signal(b.wake)
	}
	if b.searching > 0 || (wasEmpty && (!b.waiting || b.budget >= b.delay)) || b.sideBySideLocked() {
		signal(b.wakeBackup)
	}
}

// sideBySideWidth is the workers a call of sideBySideMin sets keeps busy
// to good effect: the verifier sizes a call's parallelism to its work
// (about a worker per 2 ms of it), and a call of a few hundred sets spread
// over more cores spends their time waiting on its serial steps (verifybench
// on a 16-core Xeon: 512 sets 4.8 times faster on 16 cores than on one,
// 4,096 sets 9 times).
const sideBySideWidth = 4

// sideBySideMin is the fewest queued sets a backup takes beside the calls
// being verified: from a few hundred sets a call's cost per set is near its
// least (verifybench, µs a set on one root: 31.7 at 256, 21.2 at 1,024), so a
// second call of them costs about what the sets would cost in the first.
const sideBySideMin = 256

// sideBySideLocked reports whether a backup takes the queued sets at once,
// beside the calls being verified: on a machine with room for another call
// of sideBySideWidth workers, once sideBySideMin sets are queued.
func (b *batcher) sideBySideLocked() bool {
	return b.sideBySide && b.queued >= sideBySideMin && (b.inflight+1)*sideBySideWidth <= b.workers
}

func (b *batcher) queueLocked(j *job) {
	if b.fixed {
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
	b.queued++
}

func signal(wake chan struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}

// taint records that from forwarded an invalid signature; if that isolates
// it, its queued sets move to its lane, as many as the lane has room for
// (laneRoomLocked): the others are returned, taken out of the queues, for
// the caller to answer at once (Pool.taint).
func (b *batcher) taint(from Peer) (refused []*job) {
	if b.peers == nil || from == NoPeer {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if !b.peers.taint(from, now) {
		return nil
	}
	kept := b.turn[:0]
	for _, q := range b.turn {
		for _, j := range q.extract(func(j *job) bool { return j.from == from }) {
			b.queued--
			if b.laneRoomLocked([]*job{j}, now) {
				b.apart.push(j)
			} else {
				refused = append(refused, j)
			}
		}
		if q.len() == 0 {
			delete(b.roots, q.root)
		} else {
			kept = append(kept, q)
		}
	}
	clear(b.turn[len(kept):])
	b.turn = kept
	if b.apart.len() > 0 {
		signal(b.wakeApart)
	}
	return refused
}

// promote moves g's sets still queued in an isolated peer's lane to the
// other sets' queues when from, the peer of a copy that joined g, is not
// isolated; the copy's peer then answers for them (tainted if they are
// invalid).
func (b *batcher) promote(g *group, from Peer) {
	if b.peers == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.apart.len() == 0 || b.peers.isolated(from, time.Now()) {
		return
	}
	wasEmpty := b.queuedLocked() == 0
	moved := b.apart.extract(func(j *job) bool { return j.g == g })
	for _, j := range moved {
		j.from = from
		b.queueLocked(j)
	}
	b.wakeLocked(wasEmpty)
}

// isolatedPeers is the number of peers isolated now.
func (b *batcher) isolatedPeers() int {
	if b.peers == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peers.countIsolated(time.Now())
}

// role is what a verify goroutine takes.
type role int

const (
	// primary takes every batch as soon as it is free, or (with a latency
	// budget) when waiting for more sets no longer pays.
	primary role = iota
	// backup (BatchAdaptive, every verify goroutine but the first) takes a
	// batch only while another verify goroutine searches a failing batch
	// for its invalid sets, once a queued set has waited BatchDelay (the
	// workers are behind), or side by side with the batches being verified
	// when there is room for another (sideBySideLocked). Otherwise the
	// primary alone gathers what arrives while it verifies, so batches stay
	// large enough to be cheap, and the verifier spreads each over the cores
	// its work needs.
	backup
	// isolated takes the isolated peers' sets, and no other goroutine does:
	// another peer's batch never waits behind them.
	isolated
)

// take returns a batch to verify for a goroutine of role r, or how long to
// wait for one (negative: nothing for it queued); apart is true for the
// isolated peers' sets. done is true when the batcher is closed and no set
// is queued in either lane.
func (b *batcher) take(r role) (batch []*job, apart bool, wait time.Duration, done bool) {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	wait = -1
	holdCap := 0
	switch {
	case r == isolated:
		batch = b.apart.take(b.peers.batch)
	case b.fixed:
		batch, wait = b.takeFixedLocked(now)
	case r == backup && !b.closed && b.searching == 0:
		if age, ok := b.oldestLocked(now); ok && age < b.delay && !b.sideBySideLocked() {
			wait = b.delay - age
			break
		}
		batch = b.takeAdaptiveLocked(now)
	case r == primary && b.budget > 0:
		batch, wait, holdCap = b.takeBudgetLocked(now)
	default:
		batch = b.takeAdaptiveLocked(now)
	}
	if r == primary && !b.fixed {
		b.waiting, b.holdCap = batch == nil, holdCap
	}
	apart = r == isolated
	if batch == nil && b.closed {
		batch, apart = b.drainLocked(r, now)
	}
	if batch != nil && !apart && !b.fixed {
		b.inflight++
	}
	if batch != nil {
		b.signalMoreLocked()
		return batch, apart, 0, false
	}
	return nil, false, wait, b.closed && b.queuedLocked() == 0 && b.apart.len() == 0
}

// drainLocked is take once the batcher is closed and r's own lane is empty:
// the other lane's sets (apart true for the isolated peers'). A verdict
// during the drain may move sets between the lanes (an isolated peer found
// out, a copy promoted), so no verify goroutine returns while either lane
// holds a set: the last verdicts then find every set answered.
func (b *batcher) drainLocked(r role, now time.Time) (batch []*job, apart bool) {
	if r != isolated {
		if b.apart.len() == 0 {
			return nil, false
		}
		return b.apart.take(b.peers.batch), true
	}
	if b.queuedLocked() == 0 {
		return nil, false
	}
	return b.takeAdaptiveLocked(now), false
}

// vouch records that a set of isolated peer from was valid.
func (b *batcher) vouch(from Peer) {
	if b.peers == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.peers.vouch(from, time.Now())
}

// signalMoreLocked wakes another worker for what is left after a take: under
// BatchFixed another worker; under BatchAdaptive the backups (their wait
// runs from the oldest set left) and the primary if it waits (a backup
// took).
func (b *batcher) signalMoreLocked() {
	if b.queuedLocked() > 0 {
		if b.fixed || b.waiting {
			signal(b.wake)
		}
		signal(b.wakeBackup)
	}
	if b.apart.len() > 0 {
		signal(b.wakeApart)
	}
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
// root's sets together, up to the batch cap; up to BatchSize once a set has
// waited BatchDelay, as the workers are then behind and only larger batches
// (less time per set) catch up: cutting them then would slow every verdict.
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

// takeBudgetLocked is the primary's take under BatchAdaptive with a latency
// budget: the batch of takeAdaptiveLocked, or, while the oldest queued set
// has waited less than the budget (and less than BatchDelay: the workers are
// not behind) and waiting pays (waitPays), how long until its budget is
// spent, with the batch cap that ends the wait before then (holdCap).
func (b *batcher) takeBudgetLocked(now time.Time) (batch []*job, wait time.Duration, holdCap int) {
	age, ok := b.oldestLocked(now)
	if !ok {
		return nil, -1, 0
	}
	if !b.closed && age < b.budget && age < b.delay {
		limit := b.cost.cap(b.size, b.delay)
		if left := b.budget - age; b.waitPays(b.queued, len(b.turn), left, limit, now) {
			return nil, left, limit
		}
	}
	return b.takeAdaptiveLocked(now), 0, 0
}

// takeSearchingLocked is takeAdaptiveLocked while batches are searched:
// the sets of the peers that forwarded none of theirs, the roots in turn,
// up to limit; when only suspects' sets are queued, those of one suspect,
// the peer of the oldest (no worker idles while sets wait). Until a search
// names the invalid set and isolates its peer, that peer's next sets would
// fail any batch they join, and the valid sets in it would wait for a
// second search; in a batch of one peer's sets they delay no other peer's.
func (b *batcher) takeSearchingLocked(limit int) []*job {
	if batch := b.extractLocked(limit, func(j *job) bool { return b.suspects[j.from] == 0 }); len(batch) > 0 {
		return batch
	}
	from := b.turn[0].front().from
	return b.extractLocked(limit, func(j *job) bool { return j.from == from })
}

// extractLocked takes up to limit queued sets for which match is true (every
// set if match is nil), the roots in turn, each root's oldest first: a root
// taken from has its turn again after the others.
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

// oldestLocked is how long the oldest queued set (not an isolated peer's)
// has waited; ok is false if none is queued.
func (b *batcher) oldestLocked(now time.Time) (age time.Duration, ok bool) {
	for _, q := range b.turn {
		age, ok = max(age, now.Sub(q.oldest())), true
	}
	return age, ok
}

// queuedLocked is nonzero when sets other than the isolated peers' wait.
func (b *batcher) queuedLocked() int {
	if b.fixed {
		return b.fifo.len()
	}
	return len(b.turn)
}

// searchStarted records that a batch of other than isolated peers' sets,
// forwarded by peers, failed its check and is being searched, and wakes a
// backup: the sets queued behind it need not wait for the search. While it
// lasts, the peers are suspects (when peers are isolated).
func (b *batcher) searchStarted(peers []Peer) {
	b.mu.Lock()
	b.searching++
	if b.peers != nil {
		for _, p := range peers {
			b.suspects[p]++
		}
	}
	b.mu.Unlock()
	signal(b.wakeBackup)
}

// searchEnded records that a search searchStarted recorded, of a batch
// forwarded by peers, is over.
func (b *batcher) searchEnded(peers []Peer) {
	b.mu.Lock()
	b.searching--
	if b.peers != nil {
		for _, p := range peers {
			if b.suspects[p]--; b.suspects[p] <= 0 {
				delete(b.suspects, p)
			}
		}
	}
	b.mu.Unlock()
}

// verified records that a batch of n sets over roots signing roots, taken
// by the primary or a backup, took took to verify; passed is true when
// every set was valid. The cost models are those of passing batches: a
// search's time says how many invalid sets there were, not what a batch
// costs.
func (b *batcher) verified(n, roots int, took time.Duration, passed bool) {
	if b.fixed {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.inflight--
	if !passed {
		return
	}
	b.cost.add(n, took)
	if b.budget > 0 {
		b.callCost.add(roots, n, took)
	}
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

// costDecay is what a batch's weight in the estimate keeps at each newer
// batch: about the last ten batches count, so the cap follows a change of
// load (another process, a slower root) within ten batches, about half a
// second at batches of BatchDelay's 50 ms.
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

// verifyLoop is a verify goroutine of role r: it takes batches, verifies
// them and reports the verdicts to the completer, until the batcher is
// closed and both lanes drained.
func (p *Pool) verifyLoop(r role) {
	wake := p.batch.wake
	switch r {
	case backup:
		wake = p.batch.wakeBackup
	case isolated:
		wake = p.batch.wakeApart
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		batch, apart, wait, done := p.batch.take(r)
		if batch != nil {
			start := time.Now()
			p.verify(batch, apart)
			if r == isolated {
				p.rest(timer, time.Since(start))
			}
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
		case <-wake:
		case <-timer.C:
		case <-p.batch.closing:
		}
	}
}

// isolatedShare is the most of a core the isolated peers' goroutine spends
// verifying (see rest): an isolated attacker's flood takes no more from the
// other batches, and what its lane cannot verify in time times out and
// leaves the queues. BenchmarkLoopbackAttack (gossipsub, two vCPUs): with
// other work on the machine the honest verdicts' p99 rises 1.9x under the
// attack with the rest, 3.8x without; on a quiet machine 2.9x and 3.1x,
// within the noise. The cost: an honest peer isolated by one invalid
// signature is verified at a quarter of a core, several hundred sets a
// second, for about one PeerHalfLife.
const isolatedShare = 0.25

// rest waits, after a call of the isolated peers' goroutine that took took,
// as long as keeps its verification within isolatedShare of a core, or
// until the pool closes (its drain does not wait).
func (p *Pool) rest(timer *time.Timer, took time.Duration) {
	timer.Reset(time.Duration(float64(took) * (1/isolatedShare - 1)))
	select {
	case <-timer.C:
	case <-p.batch.closing:
	}
}

// verify verifies a batch, reporting each set's verdict to the completer as
// soon as the verifier decides it, and taints the peers of invalid sets.
func (p *Pool) verify(batch []*job, apart bool) {
	start := time.Now()
	if batch = p.resolveKeys(batch); len(batch) == 0 {
		return
	}
	batch = p.decodeSignatures(batch)
	sets := make([]verifier.Set, len(batch))
	for i, j := range batch {
		sets[i] = j.set
		p.metrics.queueWait.Observe(start.Sub(j.queued).Seconds())
	}
	// Counted before any verdict goes out, so a caller that sees its
	// verdict finds its batch in the metrics.
	p.metrics.batchSize.Observe(float64(len(sets)))
	if apart {
		p.metrics.isolated.Add(float64(len(batch)))
	}
	invalid := 0
	var searching func()
	var suspects []Peer // nil: no search began
	if !apart {
		searching = func() { suspects = peersOf(batch); p.batch.searchStarted(suspects) }
	}
	p.check(sets, apart, func(i int, valid bool) {
		j := batch[i]
		// The peer's state is updated before the verdict goes out, so the
		// next set its caller submits is batched by it.
		switch {
		case !valid:
			invalid++
			j.g.failed.Store(true)
			p.taint(j.from)
		case apart:
			p.batch.vouch(j.from)
		}
		p.done.report(verdict{j: j, ok: valid})
	}, searching)
	if suspects != nil {
		p.batch.searchEnded(suspects)
	}
	took := time.Since(start)
	if !apart {
		p.batch.verified(len(batch), rootsOf(sets), took, invalid == 0)
	}
	p.metrics.verifyTime.Observe(took.Seconds())
	p.log.WithFields(logrus.Fields{"sets": len(sets), "invalid": invalid, "apart": apart, "took": took}).Debug("verified batch")
}

// rootsOf is the number of signing roots of sets, whose sets of one root
// are consecutive (as the batcher takes them).
func rootsOf(sets []verifier.Set) int {
	n := 0
	for i := range sets {
		if i == 0 || sets[i].Root != sets[i-1].Root {
			n++
		}
	}
	return n
}

// peersOf returns the distinct peers that forwarded the batch's sets,
// NoPeer left out, as a non-nil slice.
func peersOf(batch []*job) []Peer {
	seen := make(map[Peer]bool)
	out := []Peer{}
	for _, j := range batch {
		if j.from != NoPeer && !seen[j.from] {
			seen[j.from] = true
			out = append(out, j.from)
		}
	}
	return out
}

// decodeSignatures decodes the batch's undecoded signatures, in parallel,
// answers the jobs whose signature does not decode (an invalid signature:
// its peer is tainted as for any other) and returns the others.
func (p *Pool) decodeSignatures(batch []*job) []*job {
	var todo []int
	for i, j := range batch {
		if j.undecoded {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return batch
	}
	bad := make([]bool, len(batch))
	par.For(len(todo), decodeChunk, func(k int) {
		i := todo[k]
		j := batch[i]
		// [REJECT] The attestation signature is valid (it does not decode).
		_, err := j.set.Decoded.SetBytesNoSubgroupCheck(j.set.Signature[:])
		bad[i], j.undecoded = err != nil, false
	})
	kept := batch[:0:0]
	for i, j := range batch {
		if !bad[i] {
			kept = append(kept, j)
			continue
		}
		j.g.failed.Store(true)
		p.taint(j.from)
		p.done.report(verdict{j: j})
	}
	return kept
}

// decodeChunk is the signatures a goroutine of decodeSignatures claims at a
// time: at about 35 µs each, 16 make the claim negligible and still end
// the goroutines of a batch of a few hundred together.
const decodeChunk = 16

// check runs the verifier on sets, streaming if it can, and tells
// searching (when not nil) that a failing call's search began. The
// isolated peers' sets (apart) go to VerifySuspect: they are mostly
// invalid, and must not steer the search of the pool's other calls, or of
// another user of a shared verifier.
func (p *Pool) check(sets []verifier.Set, apart bool, report func(i int, valid bool), searching func()) {
	switch {
	case p.stream == nil:
		for i, ok := range p.v.Verify(sets) {
			report(i, ok)
		}
	case apart:
		p.stream.VerifySuspect(sets, report)
	default:
		p.stream.VerifyStreamSearch(sets, report, searching)
	}
}
