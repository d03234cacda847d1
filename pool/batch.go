package pool

import (
	"sync"
	"time"
)

// rootQueue is the queue of one signing root.
type rootQueue struct {
	root [32]byte
	jobQueue
}

// batcher forms the batches the verify goroutines take.
//
// By default it keeps a queue per signing root. A free worker takes what is
// queued at once, so a batch holds the sets that arrived while the workers
// were busy. The exception is when the primary waits for more within the
// latency budget (budget.go), because a larger call costs less per set. It
// takes the roots in turn (round robin), each root's sets together, up to
// the batch cap. The cap is BatchSize, or fewer when the recent time per set
// says a larger batch would take longer than BatchTime to verify. The sets
// of isolated peers wait in lanes of their own (peers.go). Only the isolated
// peers' worker takes them.
//
// With a client's batching (Config.fixed) it keeps one FIFO of every set. A
// batch is ready when it holds Min sets or its oldest has waited Wait. It
// takes at most Size sets.
type batcher struct {
	fixed    bool // a client's queue (Config.fixed)
	size     int
	minBatch int
	delay    time.Duration
	budget   time.Duration // Config.LatencyBudget; 0: none
	workers  int           // Config.VerifyWorkers

	mu    sync.Mutex
	fifo  jobQueue                // a client's batching
	roots map[[32]byte]*rootQueue // queued sets by root
	turn  []*rootQueue            // roots with sets, in turn order
	cost  costEstimate            // recent verification time per set
	// queued is the number of sets in roots.
	queued int
	// rates, callCost and tail are the latency budget's figures (budget > 0).
	rates    arrivals
	callCost callCost
	tail     tailLatency
	// waiting is true while the primary waits for work. add wakes it only
	// then, as a busy primary takes again when its call ends. holdCap, when
	// positive, is the batch cap it waits for companions up to (the
	// budget). add wakes it before its deadline only once that many sets
	// are queued.
	waiting bool
	holdCap int
	// inflight is the batches the primary and the backups are verifying
	// by default; sideBySide is whether a backup may take one beside
	// them at once (sideBySideLocked).
	inflight   int
	sideBySide bool
	peers      *peerTable // nil if peers are not isolated
	apart      lanes      // the isolated peers' sets
	laneBound  laneBound  // the most sets the lanes hold (laneRoomLocked)
	// searching is the number of batches of other than isolated peers'
	// sets whose check failed and that are being searched for their
	// invalid sets. While one is, a backup takes work at once.
	searching int
	// suspects counts, per peer, the batches being searched that hold a
	// set it forwarded (when peers are isolated). One of them sent the
	// invalid signature, not yet found. So their queued sets are taken
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
		tail:   tailLatency{window: cfg.SlotDuration / 2},
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
		b.peers = newPeerTable(cfg.MaxPeers, cfg.peerHalfLife)
		b.laneBound = newLaneBound(cfg)
	}
	return b
}

// add queues the jobs, all or none; false if the batcher is closed or
// refuses them (admit).
func (b *batcher) add(jobs ...*job) bool { return b.admit(jobs...) == admitted }

// admit queues the jobs, those of one message, all or none. It queues none
// when the batcher is closed. Nor does it when they are an isolated peer's
// and its lane has no room for them (laneRoomLocked).
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

// wakeLocked wakes the workers that may take sets just queued. With a
// client's batching, one worker (another is woken if it leaves sets). By
// default, the primary if it is waiting. Before the deadline of a wait for
// companions, the primary is woken only once its cap is queued. The backups
// are woken when the queue was empty (a backup's wait runs from the oldest
// set: it learns of a new one) and the primary is busy or its budget is not
// below BatchTime. They are also woken while a search runs (they then take
// at once). A busy primary takes again when its call ends. A waiting one
// takes the queue within the budget. So waking them for every set would
// only make work for the scheduler.
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
// to good effect. The verifier sizes a call's parallelism to its work
// (about a worker per 2 ms of it). A call of a few hundred sets spread
// over more cores spends their time waiting on its serial steps.
const sideBySideWidth = 4

// sideBySideMin is the fewest queued sets a backup takes beside the calls
// being verified. From a few hundred sets a call's cost per set is near its
// least. So a second call of them costs about what the sets would cost in
// the first.
const sideBySideMin = 256

// sideBySideLocked reports whether a backup takes the queued sets at once,
// beside the calls being verified. It does on a machine with room for
// another call of sideBySideWidth workers, once sideBySideMin sets are
// queued.
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

// role is what a verify goroutine takes.
type role int

const (
	// primary takes every batch as soon as it is free, or (with a latency
	// budget) when waiting for more sets no longer pays.
	primary role = iota
	// backup is every verify goroutine but the first, unless the pool
	// batches as a client. A backup takes a batch only in three cases:
	// while another verify goroutine searches a failing batch for its
	// invalid sets (as the primary, within the latency budget); once a
	// queued set has waited BatchTime (the workers are behind); or side by
	// side with the batches being verified when there is room for another
	// (sideBySideLocked). Otherwise the primary alone gathers what arrives
	// while it verifies. So batches stay large enough to be cheap, and the
	// verifier spreads each over the cores its work needs.
	backup
	// isolated takes the isolated peers' sets, and no other goroutine does:
	// another peer's batch never waits behind them.
	isolated
)

// take returns a batch to verify for a goroutine of role r, or how long to
// wait for one (negative: nothing for it queued). apart is true for the
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
	case b.budget > 0 && !b.closed:
		// The primary, or a backup while a search runs: it waits for
		// companions within the budget as the primary does.
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

// drainLocked is take once the batcher is closed and r's own lane is empty.
// It takes the other lane's sets (apart true for the isolated peers'). A
// verdict during the drain may move sets between the lanes (an isolated
// peer found out, a copy promoted). So no verify goroutine returns while
// either lane holds a set. The last verdicts then find every set answered.
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

// signalMoreLocked wakes another worker for what is left after a take. With
// a client's batching it wakes another worker. By default it wakes the
// backups (their wait runs from the oldest set left) and the primary if it
// waits (a backup took).
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

// verified records that a batch of n sets over roots signing roots, taken
// by the primary or a backup, took took to verify; latency is its oldest
// set's, from submission to the batch's end. passed is true when
// every set was valid. The cost models are those of passing batches. A
// search's time says how many invalid sets there were, not what a batch
// costs.
func (b *batcher) verified(n, roots int, took, latency time.Duration, passed bool) {
	if b.fixed {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.inflight--
	if !passed {
		// Invalid sets make a larger call costlier to search: the stretch ends
		// and, for a window, takes a smaller share of the tail.
		b.tail.failing(time.Now())
		return
	}
	b.cost.add(n, took)
	if b.budget > 0 {
		b.callCost.add(roots, n, took)
		b.tail.add(latency, time.Now())
	}
}

func (b *batcher) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	close(b.closing)
}
