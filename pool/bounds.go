package pool

import (
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"
)

// The pool's bounds hit, counted per bound in attpool_bound_hits_total and
// logged once a slot: a flood hits a bound thousands of times a second, and
// a line per message would make the log the attack's amplifier. Each slot
// the clock enters, the pool logs one warning with the hits of each bound
// since the last one, if any.

// bound is one bound of the pool, a label of attpool_bound_hits_total.
type bound int

const (
	boundPending        bound = iota // MaxPending (and the copies waiting on a message, bounded by it)
	boundPeer                        // MaxPendingPerPeer, or a peer beyond its reserve (fairShare)
	boundLane                        // an isolated peer's lane, or all of them (laneBound)
	boundStore                       // MaxData, MaxAggregates: a message not stored (ErrPoolFull)
	boundEvicted                     // MaxData, MaxAggregates: data evicted for a message (storebound.go)
	boundSeenAggregates              // the seen-aggregates cache (2 x TargetAggregatorsPerCommittee x MaxData): an aggregate kept but not remembered
	boundValidators                  // MaxValidators
	numBounds
)

var boundNames = [numBounds]string{
	boundPending:        "max_pending",
	boundPeer:           "max_pending_per_peer",
	boundLane:           "isolated_lane",
	boundStore:          "store",
	boundEvicted:        "store_evicted",
	boundSeenAggregates: "max_seen_aggregates",
	boundValidators:     "max_validators",
}

// boundHits counts the hits of each bound since the last summary.
type boundHits struct {
	n       [numBounds]atomic.Int64
	counter [numBounds]prometheus.Counter
	mu      sync.Mutex // guards slot
	slot    uint64     // the slot of the last summary, or of New
}

// newBoundCounters makes attpool_bound_hits_total and its counters.
func newBoundCounters(h *boundHits) *prometheus.CounterVec {
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace, Name: "bound_hits_total",
		Help: "Times a bound of the pool was hit, by bound (each hit a message refused, not kept, or data evicted).",
	}, []string{"bound"})
	for b, name := range boundNames {
		h.counter[b] = vec.WithLabelValues(name)
	}
	return vec
}

// hit counts a hit of bound b.
func (p *Pool) hit(b bound) {
	p.hits.n[b].Add(1)
	if c := p.hits.counter[b]; c != nil {
		c.Inc()
	}
}

// logBounds logs, once the clock is in a slot after the last summary's,
// the hits of each bound since it, in one line, if any.
func (p *Pool) logBounds() {
	slot := p.clockSlot()
	h := &p.hits
	h.mu.Lock()
	if slot <= h.slot {
		h.mu.Unlock()
		return
	}
	h.slot = slot
	h.mu.Unlock()
	fields := logrus.Fields{}
	for b := range numBounds {
		if n := h.n[b].Swap(0); n > 0 {
			fields[boundNames[b]] = n
		}
	}
	if len(fields) == 0 {
		return
	}
	fields["slot"] = slot
	p.log.WithFields(fields).Warn("bounds hit since the last slot")
}

// clockSlot is the slot of the clock, 0 before genesis.
func (p *Pool) clockSlot() uint64 {
	return uint64(max(p.nowMs(), 0) / p.slotMs)
}
