package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attpool/attpool/internal/clientbatch"
)

// row is a policy's row with the two figures the targets read: CPU per
// 1,000 messages and the valid attestations' p99 (ms), as medians.
func row(name string, cpu, p99 float64) policyResult {
	return policyResult{Policy: name, CPUPer1000: spread{Median: cpu}, Valid: latencySummary{P99: spread{Median: p99}}}
}

// targetLoads is a graded run's loads in which every target is met, with
// some margin, except where a limit is met exactly: attpool's CPU at 2
// subnets is 0.9x Prysm's, its p99 at 16 subnets Prysm's, its CPU at 64
// subnets 1.5x the burst's, its p99 at 64 subnets 40 and 60 ms. Every
// client runs, with the budget rows of -budgets 0,5,50 (and a 2 ms one,
// which no target reads); the budget rows are half the client's CPU and
// p99 or better.
func targetLoads() []loadResult {
	clientsAndBudgets := func(cpu, p99 float64) []policyResult {
		return []policyResult{
			row("prysm", cpu, p99),
			row("lighthouse", 2*cpu, p99),
			row("lodestar", cpu, 4*p99),
			row("teku", 2*cpu, p99),
			row("attpool/0ms", 1.5*cpu, p99/2),
			row("attpool/2ms", 0.1*cpu, p99/8),
			row("attpool/5ms", cpu/2, p99/2),
			row("attpool/50ms", cpu/2, 2*p99),
		}
	}
	load := func(subnets int, invalid, burst float64, rows ...policyResult) loadResult {
		return loadResult{loadSpec: loadSpec{Subnets: subnets, Invalid: invalid}, Policies: rows, Burst: row("attpool (burst)", burst, 0)}
	}
	return []loadResult{
		load(64, 0, 1, append([]policyResult{row("attpool", 1.5, 40)}, clientsAndBudgets(2, 100)...)...),
		load(64, 0.01, 1, append([]policyResult{row("attpool", 1.8, 60)}, clientsAndBudgets(2, 200)...)...),
		load(64, 0.05, 1, append([]policyResult{row("attpool", 4, 500)}, clientsAndBudgets(2, 100)...)...),
		load(16, 0, 0.25, append([]policyResult{row("attpool", 0.5, 16)}, clientsAndBudgets(1, 16)...)...),
		load(2, 0, 0.5, append([]policyResult{row("attpool", 1.8, 4)}, clientsAndBudgets(2, 8)...)...),
	}
}

// targetKey names a target's check: its target and what it compares.
func targetKey(t target) string { return t.Name + ", " + t.What }

// TestCheckTargets: on synthetic loads, every target is checked where its
// load and rows were run and nowhere else, met at its limit (below it for
// "no client dominates"), and missed by each figure pushed past it, the
// others still met.
func TestCheckTargets(t *testing.T) {
	ts := checkTargets(targetLoads())
	var keys []string
	for _, tg := range ts {
		keys = append(keys, targetKey(tg))
		if !tg.Met {
			t.Errorf("missed: %s", tg.line())
		}
	}
	want := []string{
		"cheaper than Prysm, 2 subnets: CPU over prysm's",
		"cheaper than Prysm, 2 subnets: valid p99 over prysm's",
		"cheaper than Prysm, 16 subnets: CPU over prysm's",
		"cheaper than Prysm, 16 subnets: valid p99 over prysm's",
		"cheaper than Prysm, 64 subnets: CPU over prysm's",
		"cheaper than Prysm, 64 subnets: valid p99 over prysm's",
	}
	for _, n := range []string{"2", "16"} {
		for _, c := range []struct{ client, row string }{{"prysm", "attpool/5ms"}, {"lighthouse", "attpool/0ms"}, {"lodestar", "attpool/50ms"}, {"teku", "attpool/0ms"}} {
			want = append(want,
				"no client dominates, "+n+" subnets: "+c.row+" CPU over "+c.client+"'s",
				"no client dominates, "+n+" subnets: "+c.row+" valid p99 over "+c.client+"'s")
		}
	}
	want = append(want,
		"close to the burst, 64 subnets clean: CPU over the burst's",
		"cheap failure path, 64 subnets 1% invalid: CPU over the clean run's",
		"all-subnets latency, 64 subnets clean: valid p99",
		"all-subnets latency, 64 subnets 1% invalid: valid p99",
	)
	if !slices.Equal(keys, want) {
		t.Fatalf("targets checked:\n%s\nwant:\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}

	// Each figure past its limit misses its target's check, and only it.
	policyOf := func(loads []loadResult, subnets int, invalid float64, name string) *policyResult {
		for i := range loads {
			if loads[i].Subnets == subnets && loads[i].Invalid == invalid {
				if name == "burst" {
					return &loads[i].Burst
				}
				return loads[i].policy(name)
			}
		}
		t.Fatalf("no load %d:%g", subnets, invalid)
		return nil
	}
	cases := []struct {
		subnets int
		invalid float64
		policy  string
		cpu     float64 // multiplies the row's CPU (0: unchanged)
		p99     float64 // multiplies its p99
		missed  string
	}{
		{2, 0, "attpool", 1.01, 0, "cheaper than Prysm, 2 subnets: CPU over prysm's"},
		{16, 0, "attpool", 0, 1.01, "cheaper than Prysm, 16 subnets: valid p99 over prysm's"},
		{64, 0, "prysm", 0.4, 0, "cheaper than Prysm, 64 subnets: CPU over prysm's"},
		{2, 0, "attpool/5ms", 2, 0, "no client dominates, 2 subnets: attpool/5ms CPU over prysm's"}, // equal: not below
		{16, 0, "attpool/50ms", 0, 2, "no client dominates, 16 subnets: attpool/50ms valid p99 over lodestar's"},
		{16, 0, "lighthouse", 0, 0.5, "no client dominates, 16 subnets: attpool/0ms valid p99 over lighthouse's"},
		{64, 0, "burst", 0.99, 0, "close to the burst, 64 subnets clean: CPU over the burst's"},
		{64, 0.01, "attpool", 1.1, 0, "cheap failure path, 64 subnets 1% invalid: CPU over the clean run's"},
		{64, 0, "attpool", 0, 1.01, "all-subnets latency, 64 subnets clean: valid p99"},
		{64, 0.01, "attpool", 0, 1.01, "all-subnets latency, 64 subnets 1% invalid: valid p99"},
	}
	for _, c := range cases {
		loads := targetLoads()
		p := policyOf(loads, c.subnets, c.invalid, c.policy)
		if c.cpu != 0 {
			p.CPUPer1000.Median *= c.cpu
		}
		if c.p99 != 0 {
			p.Valid.P99.Median *= c.p99
		}
		var missed []string
		for _, tg := range checkTargets(loads) {
			if !tg.Met {
				missed = append(missed, targetKey(tg))
			}
		}
		if !slices.Equal(missed, []string{c.missed}) {
			t.Errorf("%s at %d:%g, CPU x%g, p99 x%g: missed %q, want %q", c.policy, c.subnets, c.invalid, c.cpu, c.p99, missed, c.missed)
		}
	}
}

// TestCheckTargetsPartial: a target whose load or row was not run is left
// out: without -budgets no "no client dominates", without Prysm no
// "cheaper than Prysm", with only some budget rows the clients they
// answer, without the 1% load neither of its checks, and no load of the
// targets (a -loads of others) none at all.
func TestCheckTargetsPartial(t *testing.T) {
	names := func(ts []target) map[string]int {
		m := map[string]int{}
		for _, tg := range ts {
			m[tg.Name]++
		}
		return m
	}
	drop := func(loads []loadResult, gone func(string) bool) []loadResult {
		for i := range loads {
			loads[i].Policies = slices.DeleteFunc(loads[i].Policies, func(p policyResult) bool { return gone(p.Policy) })
		}
		return loads
	}
	got := names(checkTargets(drop(targetLoads(), func(n string) bool { return strings.HasPrefix(n, "attpool/") })))
	if got[targetNoDominance] != 0 || got[targetCheaper] != 6 || got[targetBurst] != 1 || got[targetFailure] != 1 || got[targetLatency] != 2 {
		t.Errorf("without budget rows: %v", got)
	}
	got = names(checkTargets(drop(targetLoads(), func(n string) bool { return n == "prysm" })))
	if got[targetCheaper] != 0 || got[targetNoDominance] != 12 {
		t.Errorf("without prysm: %v", got)
	}
	var whats []string
	for _, tg := range checkTargets(drop(targetLoads(), func(n string) bool { return n == "attpool/0ms" || n == "attpool/50ms" })) {
		if tg.Name == targetNoDominance {
			whats = append(whats, tg.What)
		}
	}
	if len(whats) != 4 || slices.ContainsFunc(whats, func(w string) bool { return !strings.Contains(w, "attpool/5ms") || !strings.HasSuffix(w, "prysm's") }) {
		t.Errorf("with the 5 ms budget row alone: %q", whats)
	}
	loads := slices.DeleteFunc(targetLoads(), func(l loadResult) bool { return l.Subnets == 64 && l.Invalid == 0.01 })
	got = names(checkTargets(loads))
	if got[targetFailure] != 0 || got[targetLatency] != 1 || got[targetBurst] != 1 {
		t.Errorf("without the 1%% load: %v", got)
	}
	if ts := checkTargets(targetLoads()[2:3]); len(ts) != 0 { // 64 subnets, 5% invalid
		t.Errorf("on a load no target reads: %+v", ts)
	}
}

// TestClientWait: the wait each client's policy takes is the one
// clientWait gives it: none where a batch goes at one set, else its delay.
func TestClientWait(t *testing.T) {
	for _, p := range policies()[1:] {
		c, ok := p.config().SignatureVerifier.(clientbatch.Client)
		if !ok {
			t.Fatalf("%s: its verifier carries no client batching", p.Name)
		}
		var wait time.Duration
		if b := c.ClientBatching(); b.Min != 1 {
			wait = b.Wait
		}
		if got, ok := clientWait[p.Name]; !ok || got != wait {
			t.Errorf("%s: clientWait %v (%v), its policy waits %v", p.Name, got, ok, wait)
		}
	}
	if len(clientWait) != len(policies())-1 {
		t.Errorf("clientWait %v for %d clients", clientWait, len(policies())-1)
	}
}

// TestTargetsTable: a graded report prints its targets under their
// heading, each line naming its target; a -quick one prints none.
func TestTargetsTable(t *testing.T) {
	rep := &latencyReport{Reps: 1, Targets: []target{
		{Name: targetCheaper, What: "16 subnets: CPU over prysm's", Value: 0.84, Limit: 0.9, Unit: "x", Met: true},
		{Name: targetNoDominance, What: "2 subnets: attpool/5ms CPU over prysm's", Value: 1, Limit: 1, Unit: "x", Below: true},
		{Name: targetLatency, What: "64 subnets clean: valid p99", Value: 114.3, Limit: 40, Unit: "ms"},
	}}
	table := tableOf(t, rep)
	for _, line := range []string{
		"\nTargets (defined in docs/bench/RESULTS.md), on the medians:\n",
		"\n  met    cheaper than Prysm, 16 subnets: CPU over prysm's 0.84 x (limit 0.90)\n",
		"\n  MISSED no client dominates, 2 subnets: attpool/5ms CPU over prysm's 1.00 x (below 1.00)\n",
		"\n  MISSED all-subnets latency, 64 subnets clean: valid p99 114.3 ms (limit 40.0)\n",
	} {
		if !strings.Contains(table, line) {
			t.Errorf("table lacks %q", line)
		}
	}
	rep = &latencyReport{Reps: 1, Quick: true}
	if table := tableOf(t, rep); strings.Contains(table, "Targets (") || !strings.Contains(table, "not graded") {
		t.Errorf("a -quick report's table:\n%s", table)
	}
}
