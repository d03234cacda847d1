package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// quickConfig is -latency -quick on two loads, with two client policies and
// two repetitions of each (with -short, Teku's policy alone, one repetition
// and the invalid signatures on 2 subnets instead of 4).
func quickConfig(t *testing.T) latencyConfig {
	t.Helper()
	att, err := newArrival(quickLatency.Att.Mean, quickLatency.Att.P95, quickLatency.Att.Max)
	if err != nil {
		t.Fatal(err)
	}
	reps, clients, loads := 2, []string{"lodestar", "teku"}, []loadSpec{{Subnets: 2, Invalid: 0}, {Subnets: 4, Invalid: 0.05}}
	if testing.Short() {
		reps, clients, loads[1].Subnets = 1, clients[1:], 2
	}
	return latencyConfig{
		Validators: quickLatency.Validators, Reps: reps, Seed: 5, Att: att, Agg: att, Aggregates: true, AggOffset: quickLatency.AggOffset,
		Loads: loads, Policies: clients, Quick: true,
	}
}

// TestLatencyQuick runs the benchmark small and checks the report: every
// verdict right, every load and policy present with its figures, latencies
// ordered, the invalid messages counted apart, and no target graded (a
// -quick run is not), neither in the table nor in the JSON.
func TestLatencyQuick(t *testing.T) {
	cfg := quickConfig(t)
	rep, err := runLatency(cfg)
	if err != nil {
		t.Fatal(err)
	}
	table := tableOf(t, rep)
	if rep.WrongVerdicts != 0 {
		t.Fatalf("%d wrong verdicts", rep.WrongVerdicts)
	}
	if len(rep.Loads) != 2 || len(rep.Policies) != 1+len(cfg.Policies) || rep.Policies[0].Name != "attpool" {
		t.Fatalf("%d loads, policies %+v", len(rep.Loads), rep.Policies)
	}
	for li, l := range rep.Loads {
		want := 128 * l.Subnets // committees of 128, one a subnet
		if l.Messages-l.Aggregates != want || l.Aggregates < 4*8 {
			t.Errorf("load %d: %d messages, %d aggregates, want %d attestations and the aggregates of 4 committees", li, l.Messages, l.Aggregates, want)
		}
		bad := int(l.Invalid*float64(want) + 0.5)
		for _, p := range l.Policies {
			v := p.Valid
			if v.Messages != want-bad || !(0 < v.P50.Median && v.P50.Median <= v.P90.Median && v.P90.Median <= v.P99.Median && v.P99.Median <= v.Max.Median) {
				t.Errorf("load %d, %s: valid %+v", li, p.Policy, v)
			}
			if v.P99.Min > v.P99.Median || v.P99.Median > v.P99.Max {
				t.Errorf("load %d, %s: p99 spread %+v", li, p.Policy, v.P99)
			}
			if (bad > 0) != (p.Invalid != nil) || (p.Invalid != nil && p.Invalid.Messages != bad) {
				t.Errorf("load %d, %s: invalid %+v, want %d", li, p.Policy, p.Invalid, bad)
			}
			if p.Aggregate == nil || p.Aggregate.Messages == 0 || (bad > 0) != (p.AggregateInvalid != nil) {
				t.Errorf("load %d, %s: aggregates %+v, invalid %+v", li, p.Policy, p.Aggregate, p.AggregateInvalid)
			}
			if p.CPUPer1000.Median <= 0 || p.WallSeconds.Median <= 0 {
				t.Errorf("load %d, %s: CPU %+v wall %+v", li, p.Policy, p.CPUPer1000, p.WallSeconds)
			}
		}
		if l.Burst.CPUSeconds.Median <= 0 || l.Burst.WrongVerdicts != 0 {
			t.Errorf("load %d: burst %+v", li, l.Burst)
		}
	}
	checkBreakdown(t, rep, table)
	if !rep.Quick || len(rep.Targets) != 0 || strings.Contains(table, "Targets (") {
		t.Errorf("a -quick run graded: quick %v, targets %+v", rep.Quick, rep.Targets)
	}
	m := jsonFields(t, rep)
	for _, k := range []string{"loads", "quick", "wrong_verdicts", "arrival_attestation", "policies", "reps"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON report has no %q", k)
		}
	}
	if _, ok := m["targets"]; ok {
		t.Errorf("JSON report of a -quick run has targets: %v", m["targets"])
	}
	dir := t.TempDir()
	if err := writeLatencyReport(dir, rep); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{latencyCSV, latencyJSON} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	drawCharts(t, dir, false)
}

// TestLatencyQuickGloas runs -quick -gloas: the Gloas deadlines, the PTC's
// votes of the slot in every load (the invalid share among them too), every
// verdict right (the aggregates are signed over the Gloas root and the PTC
// votes are accepted only under the Gloas rules), and the report gives the
// PTC rows.
func TestLatencyQuickGloas(t *testing.T) {
	cfg := quickConfig(t)
	cfg.Gloas, cfg.PTCOffset = true, quickLatency.PTCOffset
	cfg.Policies, cfg.Reps = cfg.Policies[len(cfg.Policies)-1:], 1
	net := pooltest.NewNetwork(cfg.Validators, firstSlot+1)
	loads, err := buildLatencyLoads(cfg, net)
	if err != nil {
		t.Fatal(err)
	}
	members := len((&env{net: net}).ptcMembers(firstSlot))
	for li, l := range loads {
		if l.deadline != 3*time.Second {
			t.Errorf("load %d: the clock at %v into the slot, want the Gloas attestation deadline, 3s", li, l.deadline)
		}
		var votes, bad int
		for _, m := range l.msgs {
			if m.ptc == nil {
				continue
			}
			votes++
			if m.class() == classPayloadInvalid {
				bad++
			}
			if m.at < cfg.PTCOffset {
				t.Fatalf("load %d: a PTC vote at %v, before its deadline (%v after the attestations')", li, m.at, cfg.PTCOffset)
			}
		}
		if votes != members || votes < 2 || (l.spec.Invalid > 0) != (bad > 0) {
			t.Errorf("load %d (%v): %d PTC votes (%d invalid), want the %d members'", li, l.spec, votes, bad, members)
		}
	}
	rep, err := runLatency(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.WrongVerdicts != 0 || !rep.Gloas {
		t.Fatalf("%d wrong verdicts, gloas %v", rep.WrongVerdicts, rep.Gloas)
	}
	for li, l := range rep.Loads {
		for _, p := range l.Policies {
			if l.PayloadAttestations != members || p.Payload == nil || p.Payload.Messages == 0 || (l.Invalid > 0) != (p.PayloadInvalid != nil) {
				t.Errorf("load %d, %s: %d PTC votes, valid %+v, invalid %+v", li, p.Policy, l.PayloadAttestations, p.Payload, p.PayloadInvalid)
			}
		}
	}
	table := tableOf(t, rep)
	for _, want := range []string{"Gloas-era traffic", "ptc p99", "PTC votes"} {
		if !strings.Contains(table, want) {
			t.Errorf("table without %q:\n%s", want, table)
		}
	}
}

// A message expected invalid whose signature is valid is a wrong verdict.
func TestLatencyWrongVerdict(t *testing.T) {
	cfg := quickConfig(t)
	cfg.Loads = cfg.Loads[:1]
	net := pooltest.NewNetwork(cfg.Validators, firstSlot+1)
	loads, err := buildLatencyLoads(cfg, net)
	if err != nil {
		t.Fatal(err)
	}
	l := &loads[0]
	i := slices.IndexFunc(l.msgs, func(m timed) bool { return m.agg == nil })
	l.msgs[i].valid = false
	o, err := runTimed(policies()[0].config(), net, l, true)
	if err != nil {
		t.Fatal(err)
	}
	if o.wrong != 1 || len(o.latency[classInvalid]) != 1 || o.messages != len(l.msgs) {
		t.Fatalf("wrong %d, invalid %d, messages %d", o.wrong, len(o.latency[classInvalid]), o.messages)
	}
	if o.wall < l.msgs[len(l.msgs)-1].at-l.msgs[0].at-time.Millisecond {
		t.Errorf("run of %v for arrivals spread over %v", o.wall, l.msgs[len(l.msgs)-1].at-l.msgs[0].at)
	}
}

// TestLatencyAttackerPeers: with -attackers every invalid message comes
// from one of the attacker's peers and every valid one from an honest peer,
// the arrival times are those of the run without peers, and the pool,
// isolating the attacker's peers, still gives every verdict right.
func TestLatencyAttackerPeers(t *testing.T) {
	cfg := quickConfig(t)
	cfg.Loads = cfg.Loads[1:] // 5% invalid
	net := pooltest.NewNetwork(cfg.Validators, firstSlot+1)
	plain, err := buildLatencyLoads(cfg, net)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Attackers = 3
	loads, err := buildLatencyLoads(cfg, net)
	if err != nil {
		t.Fatal(err)
	}
	l := &loads[0]
	attackers, bad := map[pool.Peer]bool{}, 0
	for i, m := range l.msgs {
		if m.at != plain[0].msgs[i].at || plain[0].msgs[i].from != pool.NoPeer {
			t.Fatalf("message %d: at %v from %q, without peers at %v from %q", i, m.at, m.from, plain[0].msgs[i].at, plain[0].msgs[i].from)
		}
		invalid := m.class() == classInvalid || m.class() == classAggregateInvalid
		if invalid != strings.HasPrefix(string(m.from), "attacker-") || (!invalid && !strings.HasPrefix(string(m.from), "peer-")) {
			t.Fatalf("message %d (class %d) from %q", i, m.class(), m.from)
		}
		if invalid {
			attackers[m.from] = true
			bad++
		}
	}
	if bad == 0 || len(attackers) > cfg.Attackers {
		t.Fatalf("%d invalid messages from %d attacker peers (want some, from at most %d)", bad, len(attackers), cfg.Attackers)
	}
	o, err := runTimed(policies()[0].config(), net, l, true)
	if err != nil {
		t.Fatal(err)
	}
	if o.wrong != 0 || o.messages != len(l.msgs) {
		t.Fatalf("%d wrong verdicts of %d messages", o.wrong, o.messages)
	}
}

func TestParseLoads(t *testing.T) {
	got, err := parseLoads("64:0, 2:0.05")
	if err != nil || len(got) != 2 || got[0] != (loadSpec{64, 0}) || got[1] != (loadSpec{2, 0.05}) {
		t.Fatalf("parseLoads = %v, %v", got, err)
	}
	for _, bad := range []string{"", "64", "65:0", "0:0", "4:0.6", "x:0"} {
		if _, err := parseLoads(bad); err == nil {
			t.Errorf("parseLoads(%q): no error", bad)
		}
	}
}

// TestLatencySweeps: -budgets adds a row per budget after the clients
// (attpool keeps its row), -procs adds the loads at each GOMAXPROCS with the same rows, the CSV
// gives the sweep's rows their GOMAXPROCS, and -report draws the budget
// chart. Every run's batches are counted.
func TestLatencySweeps(t *testing.T) {
	cfg := quickConfig(t)
	cfg.Loads, cfg.Reps, cfg.Policies = cfg.Loads[:1], 1, []string{"prysm"}
	cfg.Budgets = []time.Duration{0, 2 * time.Millisecond}
	other := 1
	if runtime.GOMAXPROCS(0) == 1 {
		other = 2
	}
	cfg.Procs = []int{other}
	procs := runtime.GOMAXPROCS(0)
	rep, err := runLatency(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOMAXPROCS(0) != procs {
		t.Fatalf("GOMAXPROCS %d after the sweep, was %d", runtime.GOMAXPROCS(0), procs)
	}
	if rep.WrongVerdicts != 0 {
		t.Fatalf("%d wrong verdicts", rep.WrongVerdicts)
	}
	names := func(ps []policyResult) (out []string) {
		for _, p := range ps {
			out = append(out, p.Policy)
		}
		return out
	}
	want := []string{"attpool", "prysm", "attpool/0ms", "attpool/2ms"}
	if got := names(rep.Loads[0].Policies); !slices.Equal(got, want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	if len(rep.CoreSweep) != 1 || rep.CoreSweep[0].GOMAXPROCS != other || !slices.Equal(names(rep.CoreSweep[0].Loads[0].Policies), want) {
		t.Fatalf("core sweep %+v", rep.CoreSweep)
	}
	for _, l := range []loadResult{rep.Loads[0], rep.CoreSweep[0].Loads[0]} {
		for _, p := range append(l.Policies, l.Burst) {
			if p.SetsPerCall.Median < 1 || p.SchedPerMessage.Median <= 0 {
				t.Errorf("%s: %v sets per call, %v schedulings per message", p.Policy, p.SetsPerCall.Median, p.SchedPerMessage.Median)
			}
		}
	}
	tableOf(t, rep)
	dir := t.TempDir()
	if err := writeLatencyReport(dir, rep); err != nil {
		t.Fatal(err)
	}
	drawCharts(t, dir, true)
	csvText, err := os.ReadFile(filepath.Join(dir, latencyCSV))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(csvText), ",attpool/2ms,all,cpu_s_per_1000,") || !strings.Contains(string(csvText), fmt.Sprintf(",%d,%s,", other, runtime.GOOS)) {
		t.Errorf("CSV lacks the sweeps' rows:\n%s", csvText)
	}
}

func TestParseSweeps(t *testing.T) {
	got, err := parseBudgets("0, 1,2.5ms,50")
	if err != nil || !slices.Equal(got, []time.Duration{0, time.Millisecond, 2500 * time.Microsecond, 50 * time.Millisecond}) {
		t.Fatalf("parseBudgets = %v, %v", got, err)
	}
	for _, bad := range []string{"x", "-1", "2s", "1,1ms"} {
		if _, err := parseBudgets(bad); err == nil {
			t.Errorf("parseBudgets(%q): no error", bad)
		}
	}
	if got, err := parseBudgets(""); err != nil || got != nil {
		t.Errorf("parseBudgets(\"\") = %v, %v", got, err)
	}
	n := runtime.GOMAXPROCS(0)
	if got, err := parseProcs(fmt.Sprint(n + 1)); err != nil || !slices.Equal(got, []int{n + 1}) {
		t.Fatalf("parseProcs = %v, %v", got, err)
	}
	for _, bad := range []string{"0", "x", fmt.Sprint(n), "3,3"} {
		if _, err := parseProcs(bad); err == nil {
			t.Errorf("parseProcs(%q): no error", bad)
		}
	}
	if budgetName(0) != "attpool/0ms" || budgetName(2500*time.Microsecond) != "attpool/2.5ms" {
		t.Errorf("names %q %q", budgetName(0), budgetName(2500*time.Microsecond))
	}
}
