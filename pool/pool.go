package pool

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/attpool/attpool/verifier"
)

// Pool validates gossip attestations and aggregates, batching their
// signatures, and keeps the accepted ones aggregated for block packing. Its
// goroutines are started by New and stopped by Close. All methods are safe
// for concurrent use.
type Pool struct {
	cfg     Config
	node    Node
	log     logrus.FieldLogger
	metrics *metrics
	v       SignatureVerifier
	stream  StreamVerifier     // v, if it is one; nil otherwise
	own     *verifier.Verifier // the verifier New built, closed by Close; nil if injected
	slotMs  int64

	domains *domainCache
	roots   *rootCache
	keySums keySums // committee key sums, with a lock of its own
	batch   *batcher
	done    *completer
	pending atomic.Int64 // signature sets queued, being verified or awaiting their verdict
	// decoding counts the submitters decoding a signature now, at most
	// intakeDecodes (see attesterKey).
	decoding      atomic.Int64
	intakeDecodes int64

	// The gossip topics (newTopics); their groups in flight are guarded by
	// mu.
	attestations, aggregates, payloadAttestations *topic

	mu        sync.Mutex // guards what follows
	attSeen   *epochSeen // (target epoch, attester) of valid attestations
	aggrSeen  *epochSeen // (target epoch, aggregator) of valid aggregates
	aggSeen   *seenAggregates
	ptcSeen   *epochSeen // (slot, PTC member) of valid payload attestations
	payloads  *payloadStore
	store     *aggStore
	included  includedBits // attesters blocks included, per committee
	followers int          // copies waiting on a message in flight (bounded by MaxPending)
	// peerPending is the places (pending sets) each peer's messages hold,
	// bounded by MaxPendingPerPeer; peersNamed is set once a message of a
	// peer other than NoPeer came (pending.go).
	peerPending map[Peer]int
	peersNamed  bool
	peerReserve int // peerReserveOf(cfg)
	hits        boundHits
	prunedSlot  uint64

	closed    atomic.Bool
	closeOnce sync.Once
	quit      chan struct{}
	verifiers sync.WaitGroup // the verify goroutines
	wg        sync.WaitGroup // the others
}

type epochKey struct{ epoch, index uint64 }

// New starts a pool over node. The zero Config means DefaultConfig().
func New(cfg Config, node Node) (*Pool, error) {
	cfg, err := cfg.sanitize()
	if err != nil {
		return nil, err
	}
	if node, err = node.check(); err != nil {
		return nil, err
	}
	v, own, err := cfg.signatureVerifier()
	if err != nil {
		return nil, err
	}
	p := newPool(cfg, node, v, own)
	if p.metrics, err = newMetrics(cfg.Registerer, p.gauges(), p.verifierStats, &p.hits); err != nil {
		if own != nil {
			own.Close()
		}
		return nil, fmt.Errorf("%w: registering metrics: %w", ErrConfig, err)
	}
	p.startWorkers()
	p.log.WithFields(logrus.Fields{
		"batch_size": cfg.BatchSize, "batch_time": cfg.BatchTime, "latency_budget": cfg.LatencyBudget,
		"verify_workers": cfg.VerifyWorkers, "client_batching": cfg.fixed != nil,
	}).Debug("attestation pool started")
	return p, nil
}

// signatureVerifier is Config.SignatureVerifier, or else a verifier of the
// pool's own (own, for the pool to close).
func (c Config) signatureVerifier() (v SignatureVerifier, own *verifier.Verifier, err error) {
	if c.SignatureVerifier != nil {
		return c.SignatureVerifier, nil, nil
	}
	if own, err = verifier.New(verifier.Config{}); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return own, own, nil
}

// newPool is the pool of a sanitized configuration, its goroutines not
// started and its metrics not made.
func newPool(cfg Config, node Node, v SignatureVerifier, own *verifier.Verifier) *Pool {
	p := &Pool{
		cfg:         cfg,
		node:        node,
		log:         cfg.Logger.WithField("component", "attpool"),
		v:           v,
		stream:      streamOf(v),
		own:         own,
		slotMs:      cfg.SlotDuration.Milliseconds(),
		domains:     newDomainCache(node.Forks),
		batch:       newBatcher(cfg),
		done:        newCompleter(),
		attSeen:     newEpochSeen(cfg.MaxValidators),
		aggrSeen:    newEpochSeen(cfg.MaxValidators),
		aggSeen:     newSeenAggregates(cfg.seenAggregates),
		ptcSeen:     newEpochSeen(cfg.MaxValidators),
		payloads:    newPayloadStore(),
		peerPending: make(map[Peer]int),
		store:       newAggStore(cfg.MaxAggregates, cfg.MaxData, cfg.VerifyWorkers),
		quit:        make(chan struct{}),
		// Half the cores: the intake's decoding runs beside the verify
		// goroutines' work, and never takes their cores from them.
		intakeDecodes: int64(max(1, runtime.GOMAXPROCS(0)/2)),
	}
	p.peerReserve = peerReserveOf(cfg)
	p.store.onEvict = func() { p.hit(boundEvicted) }
	p.hits.slot = p.clockSlot()
	p.roots = newRootCache(cfg.rootCache, p.domains)
	p.newTopics()
	return p
}

// startWorkers starts the pool's goroutines. There are VerifyWorkers verify
// goroutines (the first primary, the others backups, unless the pool
// batches as a client). There is one more for the isolated peers' sets if
// peers are isolated. Then come the completer and the pruning loop.
func (p *Pool) startWorkers() {
	for i := range p.cfg.VerifyWorkers {
		r := primary
		if i > 0 && p.cfg.fixed == nil {
			r = backup
		}
		p.verifiers.Go(func() { p.verifyLoop(r) })
	}
	if p.cfg.isolatesPeers() {
		p.verifiers.Go(func() { p.verifyLoop(isolated) })
	}
	p.wg.Go(p.completeLoop)
	p.wg.Go(p.loop)
}

// Close stops the pool. New messages are answered Ignore (ErrClosed). The
// signatures already queued are verified and their messages answered.
// Every goroutine of the pool has returned when Close does. Its metrics are
// unregistered from Config.Registerer (so a new pool can use the registry):
// scrape before Close for final values. Close is idempotent.
func (p *Pool) Close() {
	p.closeOnce.Do(func() {
		p.closed.Store(true)
		p.batch.close()
		p.verifiers.Wait()
		close(p.done.quit)
		close(p.quit)
		p.wg.Wait()
		if p.own != nil {
			p.own.Close()
		}
		p.metrics.unregister(p.cfg.Registerer)
		p.log.Debug("attestation pool closed")
	})
}

// loop prunes the pool when the clock enters a new slot.
func (p *Pool) loop() {
	t := time.NewTicker(p.cfg.pruneEvery)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			return
		case <-t.C:
			p.prune()
			p.logBounds()
		}
	}
}

// prune drops what neither gossip nor a block may still use (the clock
// disparity allowance included). That is the payload attestations of slots
// before the previous one, and everything else of epochs before the
// previous one.
func (p *Pool) prune() {
	now := p.nowMs() - MaximumGossipClockDisparity.Milliseconds()
	if now < 0 {
		return
	}
	slot := uint64(now / p.slotMs)
	p.mu.Lock()
	p.prunePayloadsLocked(max(slot, 1) - 1)
	p.mu.Unlock()
	epoch := slot / p.cfg.SlotsPerEpoch
	if epoch == 0 {
		return
	}
	minEpoch := epoch - 1
	minSlot := minEpoch * p.cfg.SlotsPerEpoch
	p.mu.Lock()
	if minSlot <= p.prunedSlot {
		p.mu.Unlock()
		return
	}
	p.prunedSlot = minSlot
	p.attSeen.prune(minEpoch)
	p.aggrSeen.prune(minEpoch)
	p.aggSeen.prune(minSlot)
	p.store.prune(minSlot)
	p.keySums.prune(minSlot)
	p.included.prune(minSlot)
	aggs, data := p.store.n, len(p.store.byRoot)
	p.mu.Unlock()
	p.roots.prune(minSlot)
	p.log.WithFields(logrus.Fields{"min_slot": minSlot, "aggregates": aggs, "data": data}).Debug("pruned pool")
}

// Stats is a snapshot of the pool's sizes.
type Stats struct {
	Pending       int // signature sets queued or being verified
	Aggregates    int
	Data          int
	SeenAttesters int
	Bisections    int64 // failing batches the verifier split in two
	// PayloadAggregates is the number of payload attestation aggregates
	// kept for blocks: one per PayloadAttestationData voted on (and per
	// PTC, should the node's PTC of a slot change).
	PayloadAggregates int
}

// Stats returns the pool's current sizes.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Stats{
		Pending:           int(p.pending.Load()),
		Aggregates:        p.store.n,
		Data:              len(p.store.byRoot),
		SeenAttesters:     p.attSeen.count(),
		Bisections:        p.bisections(),
		PayloadAggregates: len(p.payloads.byKey),
	}
}

// gauges reads the pool's sizes for the metrics, at scrape time.
func (p *Pool) gauges() gauges {
	read := func(f func() int) func() float64 {
		return func() float64 {
			p.mu.Lock()
			defer p.mu.Unlock()
			return float64(f())
		}
	}
	return gauges{
		pending:    func() float64 { return float64(p.pending.Load()) },
		aggregates: read(func() int { return p.store.n }),
		data:       read(func() int { return len(p.store.byRoot) }),
		seen:       read(p.attSeen.count),
		isolatedPeers: func() float64 {
			return float64(p.batch.isolatedPeers())
		},
	}
}

// Time, as the specs' gossip helpers measure it: milliseconds since genesis.

func (p *Pool) nowMs() int64 { return p.node.Clock.Now().Sub(p.node.GenesisTime).Milliseconds() }

const farFutureMs = int64(1) << 62

// slotStartMs is compute_time_at_slot_ms (relative to genesis), saturated.
func (p *Pool) slotStartMs(slot uint64) int64 {
	if slot >= uint64(farFutureMs/p.slotMs) {
		return farFutureMs
	}
	return int64(slot) * p.slotMs
}

// isFutureSlot is the specs' is_future_slot.
func (p *Pool) isFutureSlot(slot uint64, now int64) bool {
	return now+MaximumGossipClockDisparity.Milliseconds() < p.slotStartMs(slot)
}

// isWithinSlotRange is the specs' is_within_slot_range.
func (p *Pool) isWithinSlotRange(slot, slotRange uint64, now int64) bool {
	d := MaximumGossipClockDisparity.Milliseconds()
	if now+d < p.slotStartMs(slot) {
		return false
	}
	end := farFutureMs
	if slot < ^uint64(0)-slotRange-1 {
		end = p.slotStartMs(slot + slotRange + 1)
	}
	return end+d >= now
}

// isCurrentOrPreviousEpoch is the specs' is_current_or_previous_epoch.
func (p *Pool) isCurrentOrPreviousEpoch(epoch uint64, now int64) bool {
	within := func(e uint64) bool {
		if e > ^uint64(0)/p.cfg.SlotsPerEpoch {
			return false
		}
		return p.isWithinSlotRange(e*p.cfg.SlotsPerEpoch, p.cfg.SlotsPerEpoch-1, now)
	}
	return within(epoch) || (epoch < ^uint64(0) && within(epoch+1))
}

func (p *Pool) epochOf(slot uint64) uint64 { return slot / p.cfg.SlotsPerEpoch }

// ComputeSubnetForAttestation is the specs' compute_subnet_for_attestation.
// It returns the subnet (the subnet_id of beacon_attestation_{subnet_id}) of
// the attestations of committee committeeIndex at slot. The chain has
// slotsPerEpoch slots an epoch (SLOTS_PER_EPOCH; 0 means the mainnet
// preset's 32, as in Config). It has committeesPerSlot committees a slot in
// the slot's epoch (get_committee_count_per_slot). The pool rejects an
// attestation received on another subnet (ErrWrongSubnet). A node publishes
// its validators' attestations on this one.
func ComputeSubnetForAttestation(slotsPerEpoch, committeesPerSlot, slot, committeeIndex uint64) uint64 {
	if slotsPerEpoch == 0 {
		slotsPerEpoch = mainnetSlotsPerEpoch
	}
	committeesSinceEpochStart := committeesPerSlot * (slot % slotsPerEpoch)
	return (committeesSinceEpochStart + committeeIndex) % AttestationSubnetCount
}

// request is one submitted message awaiting its verdict. Exactly one Result
// is sent on done: whoever wins claim sends it.
type request struct {
	state atomic.Uint32 // 0 pending, 1 claimed
	done  chan Result
	stop  func() bool // stops the context watch; set before r is shared
	p     *Pool
	topic *topic
	start time.Time
	// g is the group r waits on once its message is queued or joined a
	// copy in flight; guarded by the pool's mutex.
	g *group
}

func (p *Pool) newRequest(ctx context.Context, t *topic) *request {
	r := &request{done: make(chan Result, 1), p: p, topic: t, start: time.Now()}
	if ctx.Done() != nil {
		r.stop = context.AfterFunc(ctx, func() {
			if r.claim() {
				p.cancelled(r) // first: a caller that sees the verdict finds the places given back
				r.send(ignore(fmt.Errorf("%w: %w", ErrCancelled, context.Cause(ctx))))
			}
		})
	}
	return r
}

func (r *request) claim() bool { return r.state.CompareAndSwap(0, 1) }

// resolve sends res if nobody has answered r yet.
func (r *request) resolve(res Result) {
	if r.claim() {
		r.deliver(res)
	}
}

// deliver sends the verdict of a request the caller claimed.
func (r *request) deliver(res Result) {
	if r.stop != nil {
		r.stop()
	}
	r.send(res)
}

func (r *request) send(res Result) {
	m := r.p.metrics
	m.verdicts.WithLabelValues(r.topic.name, res.Verdict.String(), res.Rule()).Inc()
	m.latency.WithLabelValues(r.topic.name).Observe(time.Since(r.start).Seconds())
	r.done <- res
}

// verifierStats returns the counters of the pool's verifier; ok is false if
// it keeps none.
func (p *Pool) verifierStats() (s verifier.Stats, ok bool) {
	if p.stream == nil {
		return s, false
	}
	return p.stream.Stats(), true
}

// streamOf is v as a StreamVerifier, nil if it is not one.
func streamOf(v SignatureVerifier) StreamVerifier {
	s, _ := v.(StreamVerifier)
	return s
}

// bisections is the verifier's count of bisections, 0 if it keeps none.
func (p *Pool) bisections() int64 {
	s, _ := p.verifierStats()
	return s.Bisections
}

// reservePending adds n to the pending count if that keeps it within
// MaxPending (reserve).
func (p *Pool) reservePending(n int64) bool {
	return reserve(&p.pending, n, int64(p.cfg.MaxPending))
}

// reserve adds n to count if that keeps it within limit, and reports
// whether it did. The count never passes the limit, not even for a moment:
// a reader (Stats, a gauge) never sees more than limit, and a refused
// reservation never makes another one fail.
func reserve(count *atomic.Int64, n, limit int64) bool {
	for {
		cur := count.Load()
		if cur+n > limit {
			return false
		}
		if count.CompareAndSwap(cur, cur+n) {
			return true
		}
	}
}
