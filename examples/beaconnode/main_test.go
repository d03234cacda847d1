package main

import (
	"bufio"
	"context"
	"flag"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"

	"github.com/attpool/attpool/examples/internal/cli/clitest"
)

// TestRun runs the whole program on two short slots and checks its counts
// against the traffic it simulates and against its own /metrics.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	const slots = 2
	cfg := config{
		Validators:  1024, // one committee of 32 per slot
		Slots:       slots,
		Duration:    slots * 500 * time.Millisecond,
		MetricsAddr: "127.0.0.1:0",
		LogLevel:    "debug",
		LogOutput:   t.Output(),
	}
	var out strings.Builder
	rep, err := run(ctx, cfg, &out)
	t.Logf("output:\n%s", out.String())
	if err != nil {
		t.Fatal(err)
	}

	// Per slot, for a committee of 32 (traffic.go): 24 attestations
	// accepted, 2 copies, 1 vote for an unknown block (ignored), a bad
	// signature, a wrong subnet and an undecodable payload (rejected); 5
	// aggregates: 1 accepted, 1 subset (ignored), 3 rejected.
	want := map[pubsub.ValidationResult]int{pubsub.ValidationAccept: 25 * slots, pubsub.ValidationIgnore: 4 * slots, pubsub.ValidationReject: 6 * slots}
	total := 0
	for r, n := range want {
		if got := rep.count("", r); got != n {
			t.Errorf("%s: %d messages, want %d", resultName(r), got, n)
		}
		total += n
	}
	if got := rep.total(); got != total {
		t.Errorf("%d messages validated, want %d", got, total)
	}
	if len(rep.unexpected) > 0 {
		t.Errorf("unexpected results: %q", rep.unexpected)
	}
	if rep.rejectedBy[badPeer] != 6*slots || len(rep.rejectedBy) != 1 {
		t.Errorf("rejections by peer: %v, want only %s's %d", rep.rejectedBy, badPeer, 6*slots)
	}

	// The block packs one on-chain aggregate per slot, the accepted
	// aggregate of 31 of the 32 members.
	if len(rep.block) != slots {
		t.Errorf("block has %d attestations, want %d", len(rep.block), slots)
	}
	for _, a := range rep.block {
		if n := a.AggregationBits.Count(); n != 31 {
			t.Errorf("slot %d: %d attesters, want 31", a.Data.Slot, n)
		}
	}

	// /metrics served the pool's metrics and the node's, and they agree
	// with the validators' results.
	m := parseMetrics(rep.metrics)
	got := m[`attpool_verdicts_total{rule="accept",topic="attestation",verdict="accept"}`] +
		m[`attpool_verdicts_total{rule="accept",topic="aggregate",verdict="accept"}`]
	if got != float64(want[pubsub.ValidationAccept]) {
		t.Errorf("pool accept metric %v, want %d", got, want[pubsub.ValidationAccept])
	}
	var validated float64
	for k, v := range m {
		if strings.HasPrefix(k, "beaconnode_gossip_validations_total{") {
			validated += v
		}
	}
	if validated != float64(total) {
		t.Errorf("beaconnode_gossip_validations_total sums to %v, want %d", validated, total)
	}
	if m["attpool_batch_sets_count"] < 1 {
		t.Errorf("no batch in the metrics:\n%s", rep.metrics)
	}

	for _, s := range []string{"metrics: http://127.0.0.1:", "validation results:", "block at slot 66: 2 attestations", "attpool_verdicts_total"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q", s)
		}
	}

	// The server is shut down.
	if resp, err := http.Get(rep.metricsURL); err == nil {
		resp.Body.Close()
		t.Errorf("%s still served after run returned", rep.metricsURL)
	}
}

// parseMetrics reads the samples of a Prometheus text exposition.
func parseMetrics(body string) map[string]float64 {
	m := make(map[string]float64)
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			m[line[:i]] = v
		}
	}
	return m
}

func TestRunRejectsBadConfig(t *testing.T) {
	for _, cfg := range []config{
		{Validators: 64, Slots: 1, Duration: time.Second, MetricsAddr: "127.0.0.1:0"},
		{Validators: 1024, Slots: 0, Duration: time.Second, MetricsAddr: "127.0.0.1:0"},
		{Validators: 1024, Slots: 100, Duration: time.Second, MetricsAddr: "127.0.0.1:0"},
	} {
		if _, err := run(context.Background(), cfg, &strings.Builder{}); err == nil {
			t.Errorf("run(%+v) succeeded", cfg)
		}
	}
}

// TestFlags: flags out of their bounds and stray positional arguments are
// refused before the node starts, each error naming its flag; the
// defaults parse.
func TestFlags(t *testing.T) {
	var got config
	parse := func(fs *flag.FlagSet, args []string) (err error) {
		got, err = parseFlags(fs, args)
		return err
	}
	clitest.Refuses(t, "beaconnode", parse, []clitest.Case{
		{Args: []string{"-validators", "64"}, Want: "-validators 64: want 128 to"},
		{Args: []string{"-slots", "0"}, Want: "-slots 0"},
		{Args: []string{"-slots", "1000", "-duration", "1s"}, Want: "-slots 1000 -duration 1s"},
		{Args: []string{"-log-level", "loud"}, Want: "-log-level"},
		{Args: []string{"-slots", "2", "debug"}, Want: `unexpected argument "debug"`},
	})
	if err := clitest.Parse("beaconnode", nil, parse); err != nil || got.Validators != 1024 || got.Slots != 4 {
		t.Errorf("defaults: %+v, %v", got, err)
	}
}
