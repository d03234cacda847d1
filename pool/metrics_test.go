package pool

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/attpool/attpool/verifier"
)

// scrape gathers reg and returns the value of the sample of name whose
// labels include labels (a counter or gauge's value, a histogram's count),
// or -1 if there is none.
func scrape(t testing.TB, reg prometheus.Gatherer, name string, labels map[string]string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if hasLabels(m, labels) {
				return sampleValue(m)
			}
		}
	}
	return -1
}

func hasLabels(m *dto.Metric, want map[string]string) bool {
	n := 0
	for _, l := range m.GetLabel() {
		if v, ok := want[l.GetName()]; ok {
			if v != l.GetValue() {
				return false
			}
			n++
		}
	}
	return n == len(want)
}

func sampleValue(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Histogram != nil:
		return float64(m.Histogram.GetSampleCount())
	}
	return -1
}

// TestMetricsScrape scrapes a registry after a valid and an invalid
// attestation and a valid aggregate: names, topic labels, values, the
// verifier's counters and gauges read at scrape time, and that no name
// repeats a word.
func TestMetricsScrape(t *testing.T) {
	e := newEnv(t, 1, 16, 100)
	e.setSlot(testSlot+1, 0)
	reg := prometheus.NewRegistry()
	p := e.pool(Config{Registerer: prometheus.WrapRegistererWithPrefix("node_", reg)})
	ctx := context.Background()
	d := e.data(testSlot)
	att, subnet := e.single(d, 0, 0)
	wantResult(t, p.ValidateAttestation(ctx, NoPeer, att, subnet), Accept, nil)
	bad, subnet := e.single(d, 0, 1)
	bad.Signature = e.sign(bad.AttesterIndex, [32]byte{1})
	wantResult(t, p.ValidateAttestation(ctx, NoPeer, bad, subnet), Reject, ErrInvalidSignature)
	wantResult(t, p.ValidateAggregate(ctx, NoPeer, e.aggregate(d, 0, []uint64{2, 3})), Accept, nil)

	st := p.Stats()
	vs, _ := p.verifierStats()
	if st.Aggregates < 1 {
		t.Fatalf("pool stats %+v", st)
	}
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"node_attpool_verdicts_total", map[string]string{"topic": "attestation", "verdict": "accept", "rule": "accept"}, 1},
		{"node_attpool_verdicts_total", map[string]string{"topic": "attestation", "verdict": "reject", "rule": "invalid_signature"}, 1},
		{"node_attpool_verdicts_total", map[string]string{"topic": "aggregate", "verdict": "accept", "rule": "accept"}, 1},
		{"node_attpool_verdict_seconds", map[string]string{"topic": "attestation"}, 2},
		{"node_attpool_verdict_seconds", map[string]string{"topic": "aggregate"}, 1},
		{"node_attpool_batch_sets", nil, -2}, // at least one batch
		{"node_attpool_queue_wait_seconds", nil, 5},
		{"node_attpool_pending_sets", nil, 0},
		{"node_attpool_aggregates", nil, float64(st.Aggregates)},
		{"node_attpool_attestation_data", nil, 1},
		{"node_attpool_seen_attesters", nil, 1},
		{"node_attpool_verifier_sets_total", nil, 5},
		{"node_attpool_verifier_calls_total", nil, -2},
		{"node_attpool_verifier_checks_total", nil, float64(vs.Checks)},
		{"node_attpool_verifier_individual_sets_total", nil, float64(vs.Individual)},
	} {
		got := scrape(t, reg, c.name, c.labels)
		if c.want == -2 {
			if got < 1 {
				t.Errorf("%s%v = %v, want >= 1", c.name, c.labels, got)
			}
		} else if got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}

	// The gauges follow the pool without a prune.
	att, subnet = e.single(d, 0, 4)
	wantResult(t, p.ValidateAttestation(ctx, NoPeer, att, subnet), Accept, nil)
	if got := scrape(t, reg, "node_attpool_seen_attesters", nil); got != 2 {
		t.Errorf("seen attesters after a second attestation: %v", got)
	}

	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		seen := map[string]bool{}
		for _, w := range strings.Split(strings.TrimSuffix(mf.GetName(), "_total"), "_") {
			if seen[w] {
				t.Errorf("%s repeats %q", mf.GetName(), w)
			}
			seen[w] = true
		}
		if mf.GetType() == dto.MetricType_COUNTER && !strings.HasSuffix(mf.GetName(), "_total") {
			t.Errorf("counter %s does not end in _total", mf.GetName())
		}
	}
}

// TestMetricsDocumented: the integration guide lists every metric the pool
// registers (with a verifier that has Stats), and no other.
func TestMetricsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/INTEGRATION.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, name := range regexp.MustCompile(`attpool_\w+`).FindAllString(string(doc), -1) {
		documented[name] = true
	}
	e := newEnv(t, 1, 8, 100)
	p := e.pool(Config{})
	descs := make(chan *prometheus.Desc, 64)
	for _, c := range p.metrics.collectors {
		c.Describe(descs)
	}
	close(descs)
	fqName := regexp.MustCompile(`fqName: "([^"]+)"`)
	registered := map[string]bool{}
	for d := range descs {
		m := fqName.FindStringSubmatch(d.String())
		if m == nil {
			t.Fatalf("no name in %v", d)
		}
		registered[m[1]] = true
		if !documented[m[1]] {
			t.Errorf("%s is registered but not in docs/INTEGRATION.md", m[1])
		}
	}
	for name := range documented {
		if !registered[name] {
			t.Errorf("docs/INTEGRATION.md lists %s, which the pool does not register", name)
		}
	}
}

// TestMetricsWithoutVerifierStats: an injected verifier without Stats
// exports no verifier counters.
func TestMetricsWithoutVerifierStats(t *testing.T) {
	e := newEnv(t, 1, 8, 100)
	reg := prometheus.NewRegistry()
	e.pool(Config{Registerer: reg, SignatureVerifier: rejectAll{}})
	if got := scrape(t, reg, "attpool_verifier_sets_total", nil); got != -1 {
		t.Fatalf("verifier counter without Stats: %v", got)
	}
	if got := scrape(t, reg, "attpool_aggregates", nil); got != 0 {
		t.Fatalf("aggregates gauge %v", got)
	}
}

// rejectAll is a SignatureVerifier without Stats that rejects every set.
type rejectAll struct{}

func (rejectAll) Verify(sets []verifier.Set) []bool { return make([]bool, len(sets)) }
