package pool

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/attpool/attpool/verifier"
)

// topic is the gossip topic of a request, the topic label of the verdict
// metrics.
type topic string

// The topics of the intake.
const (
	topicAttestation topic = "attestation" // beacon_attestation_{subnet_id}
	topicAggregate   topic = "aggregate"   // beacon_aggregate_and_proof
	// payload_attestation_message (Gloas)
	topicPayloadAttestation topic = "payload_attestation"
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
	collectors  []prometheus.Collector
	unregisters []prometheus.Collector
}

// gauges are the pool's sizes read at scrape time.
type gauges struct {
	pending, aggregates, data, seen, isolatedPeers func() float64
}

const namespace = "attpool"

func newMetrics(reg prometheus.Registerer, g gauges, stats func() (verifier.Stats, bool)) (*metrics, error) {
	m := &metrics{
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "verdicts_total",
			Help: "Verdicts by topic, verdict and deciding rule.",
		}, []string{"topic", "verdict", "rule"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "verdict_seconds",
			Help:    "Time from a message's submission to its verdict, by topic.",
			Buckets: prometheus.ExponentialBuckets(0.00025, 2, 16),
		}, []string{"topic"}),
		queueWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace, Name: "queue_wait_seconds",
			Help:    "Time a signature set waits in the queue before its batch is verified.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 16),
		}),
		batchSize: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace, Name: "batch_sets",
			Help:    "Signature sets per verification batch.",
			Buckets: prometheus.ExponentialBuckets(1, 2, 13),
		}),
		verifyTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace, Name: "batch_seconds",
			Help:    "Time to verify one batch.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
		}),
		isolated: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "isolated_sets_total",
			Help: "Signature sets verified apart because their peer recently sent an invalid signature.",
		}),
		dropped: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "dropped_total",
			Help: "Accepted messages that could not be kept (a bound of the pool was hit).",
		}),
	}
	m.collectors = []prometheus.Collector{
		m.verdicts, m.latency, m.queueWait, m.batchSize, m.verifyTime, m.isolated, m.dropped,
		gaugeFunc("pending_sets", "Signature sets queued, being verified or awaiting their verdict (against MaxPending).", g.pending),
		gaugeFunc("aggregates", "Aggregates kept for block packing.", g.aggregates),
		gaugeFunc("attestation_data", "Distinct AttestationData the kept aggregates are of.", g.data),
		gaugeFunc("seen_attesters", "Entries of the first-seen cache of attesters.", g.seen),
		gaugeFunc("isolated_peers", "Peers whose signature sets are verified apart.", g.isolatedPeers),
	}
	if _, ok := stats(); ok {
		m.collectors = append(m.collectors, verifierCounters(stats)...)
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range m.collectors {
		if err := reg.Register(c); err != nil {
			m.unregister(reg)
			return nil, err
		}
		m.unregisters = append(m.unregisters, c)
	}
	return m, nil
}

func gaugeFunc(name, help string, f func() float64) prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: namespace, Name: name, Help: help}, f)
}

// verifierCounters exports the verifier's Stats as counters read at scrape
// time.
func verifierCounters(stats func() (verifier.Stats, bool)) []prometheus.Collector {
	counter := func(name, help string, field func(verifier.Stats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{
			Namespace: namespace, Subsystem: "verifier", Name: name + "_total", Help: help,
		}, func() float64 {
			s, _ := stats()
			return float64(field(s))
		})
	}
	return []prometheus.Collector{
		counter("calls", "Verify calls.", func(s verifier.Stats) int64 { return s.Calls }),
		counter("sets", "Signature sets submitted.", func(s verifier.Stats) int64 { return s.Sets }),
		counter("checks", "Blinded batch pairing checks.", func(s verifier.Stats) int64 { return s.Checks }),
		counter("bisections", "Failing ranges split in two.", func(s verifier.Stats) int64 { return s.Bisections }),
		counter("individual_sets", "Signature sets checked alone.", func(s verifier.Stats) int64 { return s.Individual }),
		counter("subgroup_fallbacks", "Calls whose fused subgroup rounds failed.", func(s verifier.Stats) int64 { return s.SubgroupFallbacks }),
		counter("exp_method", "Failing ranges resolved by the exponentiation method.", func(s verifier.Stats) int64 { return s.ExpMethod }),
		counter("located", "Invalid sets named by the locate step of a failing call.", func(s verifier.Stats) int64 { return s.Located }),
		counter("hash_cache_hits", "Signing roots found in the hash-to-G2 cache.", func(s verifier.Stats) int64 { return s.HashCacheHits }),
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
