package pool

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/attpool/attpool/verifier"
)

// metrics are the pool's Prometheus metrics, registered on Config.Registerer
// (names in the package doc).
type metrics struct {
	verdicts    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	queueWait   prometheus.Histogram
	batchSize   prometheus.Histogram
	verifyTime  prometheus.Histogram
	isolated    prometheus.Counter
	dropped     prometheus.Counter
	bounds      *prometheus.CounterVec // bound_hits_total (bounds.go)
	collectors  []prometheus.Collector
	unregisters []prometheus.Collector
}

// gauges are the pool's sizes read at scrape time.
type gauges struct {
	pending, aggregates, data, seen, isolatedPeers func() float64
}

const namespace = "attpool"

// buckets is a histogram's exponential buckets: count bounds doubling from
// smallest.
type buckets struct {
	smallest float64
	count    int
}

// The buckets of the histograms, each spanning what the pool can show.
var (
	// verdictBuckets: 250 µs (a verdict decided before any signature work)
	// to 8 s (two thirds of a slot).
	verdictBuckets = buckets{0.00025, 16}
	// queueWaitBuckets: 100 µs (a free worker takes the set at once) to
	// 3.3 s.
	queueWaitBuckets = buckets{0.0001, 16}
	// batchSetBuckets: 1 to 4096 sets, past the default BatchSize.
	batchSetBuckets = buckets{1, 13}
	// batchTimeBuckets: 500 µs (one set) to 4 s (a large failing batch).
	batchTimeBuckets = buckets{0.0005, 14}
)

// histogramOpts are the options of histogram name of the pool.
func histogramOpts(name, help string, b buckets) prometheus.HistogramOpts {
	return prometheus.HistogramOpts{
		Namespace: namespace, Name: name, Help: help,
		Buckets: prometheus.ExponentialBuckets(b.smallest, 2, b.count),
	}
}

func newMetrics(reg prometheus.Registerer, g gauges, stats func() (verifier.Stats, bool), hits *boundHits) (*metrics, error) {
	m := &metrics{
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "verdicts_total",
			Help: "Verdicts by topic, verdict and deciding rule.",
		}, []string{"topic", "verdict", "rule"}),
		latency: prometheus.NewHistogramVec(histogramOpts("verdict_seconds",
			"Time from a message's submission to its verdict, by topic.", verdictBuckets), []string{"topic"}),
		queueWait: prometheus.NewHistogram(histogramOpts("queue_wait_seconds",
			"Time a signature set waits in the queue before its batch is verified.", queueWaitBuckets)),
		batchSize: prometheus.NewHistogram(histogramOpts("batch_sets",
			"Signature sets per verification batch.", batchSetBuckets)),
		verifyTime: prometheus.NewHistogram(histogramOpts("batch_seconds",
			"Time to verify one batch.", batchTimeBuckets)),
		isolated: counter("isolated_sets_total",
			"Signature sets verified apart because their peer recently sent an invalid signature."),
		dropped: counter("dropped_total", "Accepted messages that could not be kept (a bound of the pool was hit)."),
		bounds:  newBoundCounters(hits),
	}
	m.collectors = []prometheus.Collector{
		m.verdicts, m.latency, m.queueWait, m.batchSize, m.verifyTime, m.isolated, m.dropped, m.bounds,
		gaugeFunc("pending_sets", "Signature sets queued, being verified or awaiting their verdict (against MaxPending).", g.pending),
		gaugeFunc("aggregates", "Aggregates kept for block packing.", g.aggregates),
		gaugeFunc("attestation_data", "Distinct AttestationData the kept aggregates are of.", g.data),
		gaugeFunc("seen_attesters", "Entries of the first-seen cache of attesters.", g.seen),
		gaugeFunc("isolated_peers", "Peers whose signature sets are verified apart.", g.isolatedPeers),
	}
	if _, ok := stats(); ok {
		m.collectors = append(m.collectors, verifierCounters(stats)...)
	}
	if err := m.register(reg); err != nil {
		return nil, err
	}
	return m, nil
}

// register registers the collectors on reg (none if reg is nil), all or
// none.
func (m *metrics) register(reg prometheus.Registerer) error {
	if reg == nil {
		return nil
	}
	for _, c := range m.collectors {
		if err := reg.Register(c); err != nil {
			m.unregister(reg)
			return err
		}
		m.unregisters = append(m.unregisters, c)
	}
	return nil
}

// counter is the pool's counter name.
func counter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: name, Help: help})
}

func gaugeFunc(name, help string, f func() float64) prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: namespace, Name: name, Help: help}, f)
}

// verifierCounters exports the verifier's Stats as counters read at scrape
// time.
func verifierCounters(stats func() (verifier.Stats, bool)) []prometheus.Collector {
	statCounter := func(name, help string, field func(verifier.Stats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{
			Namespace: namespace, Subsystem: "verifier", Name: name + "_total", Help: help,
		}, func() float64 {
			s, _ := stats()
			return float64(field(s))
		})
	}
	return []prometheus.Collector{
		statCounter("calls", "Verify calls.", func(s verifier.Stats) int64 { return s.Calls }),
		statCounter("sets", "Signature sets submitted.", func(s verifier.Stats) int64 { return s.Sets }),
		statCounter("checks", "Blinded batch pairing checks.", func(s verifier.Stats) int64 { return s.Checks }),
		statCounter("bisections", "Failing ranges split in two.", func(s verifier.Stats) int64 { return s.Bisections }),
		statCounter("individual_sets", "Signature sets checked alone.", func(s verifier.Stats) int64 { return s.Individual }),
		statCounter("subgroup_fallbacks", "Calls whose fused subgroup rounds failed.", func(s verifier.Stats) int64 { return s.SubgroupFallbacks }),
		statCounter("margin_rounds", "Fused calls that drew the margin rounds (their rounds failed, or they went on to bisection).", func(s verifier.Stats) int64 { return s.MarginRounds }),
		statCounter("exp_method", "Failing ranges resolved by the exponentiation method.", func(s verifier.Stats) int64 { return s.ExpMethod }),
		statCounter("located", "Invalid sets named by the locate step of a failing call.", func(s verifier.Stats) int64 { return s.Located }),
		statCounter("hash_cache_hits", "Signing roots found in the hash-to-G2 cache.", func(s verifier.Stats) int64 { return s.HashCacheHits }),
	}
}

func (m *metrics) unregister(reg prometheus.Registerer) {
	if reg == nil {
		return
	}
	for _, c := range m.unregisters {
		reg.Unregister(c)
	}
	m.unregisters = nil
}
