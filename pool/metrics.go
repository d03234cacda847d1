package pool

import (
	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the pool's Prometheus metrics, registered on Config.Registerer.
type metrics struct {
	queueDepth prometheus.Gauge
	batchSize  prometheus.Histogram
	verifyTime prometheus.Histogram
	verdicts   *prometheus.CounterVec
	aggregates prometheus.Gauge
	data       prometheus.Gauge
	seen       prometheus.Gauge
	dropped    prometheus.Counter
	bisections prometheus.CounterFunc
}

func newMetrics(reg prometheus.Registerer, bisections func() float64) (*metrics, error) {
	m := &metrics{
		queueDepth: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "attpool", Subsystem: "pool", Name: "queue_depth",
			Help: "Signature sets queued or being verified.",
		}),
		batchSize: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "attpool", Subsystem: "pool", Name: "batch_size",
			Help:    "Signature sets per verification batch.",
			Buckets: prometheus.ExponentialBuckets(1, 2, 13),
		}),
		verifyTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "attpool", Subsystem: "pool", Name: "verify_seconds",
			Help:    "Time to verify one batch.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
		}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "attpool", Subsystem: "pool", Name: "verdicts_total",
			Help: "Verdicts by verdict and deciding rule.",
		}, []string{"verdict", "rule"}),
		aggregates: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "attpool", Subsystem: "pool", Name: "aggregates",
			Help: "Aggregates kept for block packing (pool size).",
		}),
		data: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "attpool", Subsystem: "pool", Name: "attestation_data",
			Help: "Distinct AttestationData kept.",
		}),
		seen: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "attpool", Subsystem: "pool", Name: "seen_attesters",
			Help: "Entries of the first-seen cache of attesters.",
		}),
		dropped: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "attpool", Subsystem: "pool", Name: "dropped_total",
			Help: "Accepted messages that could not be kept (a bound of the pool was hit).",
		}),
		bisections: prometheus.NewCounterFunc(prometheus.CounterOpts{
			Namespace: "attpool", Subsystem: "pool", Name: "bisections_total",
			Help: "Failing batches split in two by the verifier.",
		}, bisections),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.queueDepth, m.batchSize, m.verifyTime, m.verdicts, m.aggregates, m.data, m.seen, m.dropped, m.bisections} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *metrics) unregister(reg prometheus.Registerer) {
	if reg == nil {
		return
	}
	for _, c := range []prometheus.Collector{m.queueDepth, m.batchSize, m.verifyTime, m.verdicts, m.aggregates, m.data, m.seen, m.dropped, m.bisections} {
		reg.Unregister(c)
	}
}
