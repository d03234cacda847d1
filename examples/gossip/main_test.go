package main

import (
	"encoding/json"
	"flag"
	"io"
	"maps"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/attpool/attpool/examples/internal/cli/clitest"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// small is a run on 8,192 validators: 2 committees of 128 per slot (the
// fewest validators that give two committees), two slots.
func small() config {
	return config{
		Validators: 8192, Slots: 2, Subnets: pool.AttestationSubnetCount, Seed: 3, Goroutines: 16, Baseline: baselineBoth,
		Shares: shares{Invalid: 0.02, Malformed: 0.01, Window: 0.01, Duplicates: 0.02},
	}
}

// TestRun runs the whole simulation small and checks that every fault kind
// was injected and found with its expected verdict, the counts add up, the
// block packs every accepted attester and the JSON report has its fields.
func TestRun(t *testing.T) {
	cfg := small()
	if testing.Short() {
		cfg.Slots = 1
	}
	var log strings.Builder
	cfg.Log = &log
	rep, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	table := tableOf(t, rep)
	checkPhaseLines(t, log.String(), table, cfg.Baseline != baselineNone)

	if rep.WrongVerdicts != 0 || len(rep.Wrong) != 0 {
		t.Fatalf("%d wrong verdicts: %+v", rep.WrongVerdicts, rep.Wrong)
	}
	if rep.CommitteesPerSlot != 2 || rep.CommitteeSize != 128 {
		t.Fatalf("%d committees of %d, want 2 of 128", rep.CommitteesPerSlot, rep.CommitteeSize)
	}
	const perSlot = 256
	// The counts familyCount gives for 256 attestations a slot: 2% of
	// them with invalid signatures, 1% malformed over 7 kinds (at least one
	// each), 1% out of the window over 2 kinds, 2% duplicates.
	want := map[kind]int{invalidSignature: 5, futureSlot: 1, staleEpoch: 1, duplicate: 5}
	for _, k := range kindsOf(famMalformed) {
		want[k] = 1
	}
	injected, extra, replaced := 0, 0, 0
	for k := kind(1); k < numKinds; k++ {
		f, ok := rep.Faults[k.String()]
		if !ok {
			t.Errorf("%s: not in the report", k)
			continue
		}
		if f.Injected != cfg.Slots*want[k] || f.Found != f.Injected {
			t.Errorf("%s: injected %d, found %d; want %d found", k, f.Injected, f.Found, cfg.Slots*want[k])
		}
		if f.Verdict != kinds[k].verdict.String() || f.Rule != k.expected().Rule() {
			t.Errorf("%s: expected %s (%s) in the report", k, f.Verdict, f.Rule)
		}
		injected += f.Injected
		switch k {
		case futureSlot, staleEpoch, duplicate:
			extra += f.Injected
		default:
			replaced += f.Injected
		}
	}
	if rep.FaultsInjected != injected || rep.FaultsFound != injected {
		t.Errorf("faults injected %d, found %d; want %d", rep.FaultsInjected, rep.FaultsFound, injected)
	}
	if wantMsgs := cfg.Slots*perSlot + extra; rep.Messages != wantMsgs {
		t.Errorf("%d messages, want %d", rep.Messages, wantMsgs)
	}
	sum := 0
	for _, n := range rep.Verdicts {
		sum += n
	}
	if sum != rep.Messages || rep.Verdicts["accept"] != cfg.Slots*perSlot-replaced {
		t.Errorf("verdicts %v for %d messages, %d replaced by faults", rep.Verdicts, rep.Messages, replaced)
	}
	if rep.Rules["invalid_signature"] != cfg.Slots*(want[invalidSignature]+want[badSignatureEncoding]+want[signatureNotInG2]) {
		t.Errorf("rules %v", rep.Rules)
	}
	if rep.CleanMessages != cfg.Slots*perSlot || rep.CleanVerdicts["accept"] != rep.CleanMessages {
		t.Errorf("clean load: %d messages, verdicts %v", rep.CleanMessages, rep.CleanVerdicts)
	}
	// The block packs every accepted attester, of either topic: at least
	// the single attestations accepted, at most every member. Aggregates
	// that hold members whose own attestation was faulty overlap the
	// pool's, so a slot may need more than one on-chain aggregate.
	b := rep.Block
	if b.OnChainAggregates < cfg.Slots || b.OnChainAggregates > cfg.Slots*pool.MaxAttestationsElectra ||
		b.AttestersAccepted < rep.Verdicts["accept"] || b.AttestersAccepted > cfg.Slots*perSlot ||
		b.AttestersIncluded != b.AttestersAccepted || b.Coverage != 1 {
		t.Errorf("block: %+v", b)
	}
	checkTopics(t, rep, cfg)
	if rep.VerifyWallSeconds <= 0 || rep.FaultsWallSeconds <= 0 || rep.BaselineWallSeconds <= 0 || rep.Speedup <= 0 ||
		rep.BaselineFaultsWallSeconds <= 0 || rep.FaultsSpeedup <= 0 {
		t.Errorf("wall times: %+v", rep)
	}
	if !strings.Contains(table, "every verdict as expected") {
		t.Error("the table does not say every verdict was as expected")
	}

	// The JSON report's fields.
	m := jsonFields(t, rep)
	for _, key := range []string{
		"validators", "slots", "messages", "verdicts", "faults_injected", "faults_found",
		"verify_wall_seconds", "baseline_wall_seconds", "heap_bytes", "speedup",
		"rules", "faults", "wrong_verdicts", "faults_wall_seconds", "messages_per_second",
		"baseline_faults_wall_seconds", "block", "seed", "clean_verdicts", "topics", "aggregate_faults", "subnets",
	} {
		if _, ok := m[key]; !ok {
			t.Errorf("JSON report has no %q", key)
		}
	}
	if v, _ := m["verdicts"].(map[string]any); len(v) != 3 || v["accept"] == nil || v["ignore"] == nil || v["reject"] == nil {
		t.Errorf("JSON verdicts %v", m["verdicts"])
	}
}

// checkTopics checks the per-topic figures of a run with both topics: each
// has its messages, its wall times and no wrong verdict, and every
// aggregate fault was injected and found.
func checkTopics(t *testing.T, rep *report, cfg config) {
	t.Helper()
	for i, name := range topicNames {
		if i == topicPTC && !cfg.PTC {
			if rep.Topics[name] != nil {
				t.Errorf("topic %s without -ptc", name)
			}
			continue
		}
		tp := rep.Topics[name]
		if tp == nil || tp.Messages == 0 || tp.CleanMessages == 0 || tp.WrongVerdicts != 0 ||
			tp.WallSeconds <= 0 || tp.FaultsWallSeconds <= 0 || (cfg.Baseline != baselineNone && tp.BaselineWallSeconds <= 0) {
			t.Errorf("topic %s: %+v", name, tp)
		}
	}
	if a := rep.Topics["attestation"]; a != nil && (a.Messages != rep.Messages || a.CleanMessages != rep.CleanMessages) {
		t.Errorf("attestation topic %+v, report %d/%d messages", a, rep.Messages, rep.CleanMessages)
	}
	if len(rep.AggregateFaults) == 0 {
		t.Error("no aggregate fault injected")
	}
	for name, f := range rep.AggregateFaults {
		if f.Injected == 0 || f.Found != f.Injected {
			t.Errorf("aggregate fault %s: injected %d, found %d", name, f.Injected, f.Found)
		}
	}
}

// TestAggregatesOnly runs a node on no subnet: aggregates only.
func TestAggregatesOnly(t *testing.T) {
	cfg := small()
	cfg.Slots, cfg.Subnets, cfg.Baseline = 1, 0, baselineNone
	rep, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tableOf(t, rep)
	if rep.WrongVerdicts != 0 || rep.Messages != 0 || rep.Topics["attestation"].Messages != 0 {
		t.Fatalf("%d wrong verdicts, %d attestations: %+v", rep.WrongVerdicts, rep.Messages, rep.Topics["attestation"])
	}
	if a := rep.Topics["aggregate"]; a.Messages == 0 || a.WrongVerdicts != 0 || a.WallSeconds <= 0 {
		t.Fatalf("aggregate topic %+v", a)
	}
}

// TestPTC runs the main job with the payload_attestation_message topic: the
// PTC's votes next to both other topics, under the Gloas rules.
func TestPTC(t *testing.T) {
	cfg := small()
	cfg.Slots, cfg.PTC = 1, true
	if testing.Short() {
		cfg.Baseline = baselineNone // TestRun runs the baselines
	}
	rep, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	table := tableOf(t, rep)
	if rep.WrongVerdicts != 0 {
		t.Fatalf("%d wrong verdicts: %+v", rep.WrongVerdicts, rep.Wrong)
	}
	// 2 committees of 128: the PTC of 512 names each member twice.
	p := rep.Topics["payload_attestation"]
	if p == nil || p.Messages != 256 || p.CleanMessages != 256 || p.WrongVerdicts != 0 || p.FaultsWallSeconds <= 0 {
		t.Fatalf("payload_attestation topic %+v", p)
	}
	// The next block carries the two data voted on (payload present or
	// not), each verified, covering both positions of every member whose
	// vote the pool accepted (the -invalid share rejected).
	if b := rep.Block; b.PayloadAttestations != 2 || b.PayloadAttestationsVerified != 2 ||
		b.PTCPositionsIncluded != b.PTCPositionsAccepted || b.PTCPositionsAccepted == 0 || b.PTCPositionsAccepted%2 != 0 || b.PTCPositionsAccepted >= 512 {
		t.Fatalf("block: %+v", b)
	}
	if !strings.Contains(table, "payload attestations 2, 2 verified") {
		t.Fatal("the table does not give the payload attestations")
	}
	checkTopics(t, rep, cfg)
}

// tableOf returns r's table, logged.
func tableOf(t *testing.T, r interface{ printTable(io.Writer) }) string {
	t.Helper()
	var table strings.Builder
	r.printTable(&table)
	t.Logf("table:\n%s", table.String())
	return table.String()
}

// jsonFields is v as JSON, decoded into a map.
func jsonFields(t *testing.T, v any) map[string]any {
	t.Helper()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestWrongVerdictsReported checks that the checker fails a run: with the
// duplicates expected to be accepted, each of them is a wrong verdict.
func TestWrongVerdictsReported(t *testing.T) {
	saved := kinds[duplicate]
	defer func() { kinds[duplicate] = saved }()
	kinds[duplicate].verdict, kinds[duplicate].rule = pool.Accept, nil

	cfg := small()
	cfg.Slots, cfg.Baseline = 1, baselineNone
	rep, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dups := rep.Faults["duplicate"].Injected
	// The gossip run only: the clean load has no duplicates.
	if dups == 0 || rep.WrongVerdicts != dups || len(rep.Wrong) != dups || rep.Faults["duplicate"].Found != 0 {
		t.Fatalf("%d duplicates, %d wrong verdicts: %+v", dups, rep.WrongVerdicts, rep.Wrong)
	}
	for _, w := range rep.Wrong {
		if w.Kind != "duplicate" || w.Want != "accept" || w.Got != "ignore (already_seen)" {
			t.Errorf("wrong verdict %+v", w)
		}
	}
	var table strings.Builder
	rep.printTable(&table)
	if !strings.Contains(table.String(), "verdict(s) differ from the expected ones") {
		t.Errorf("the table does not list the wrong verdicts:\n%s", table.String())
	}
}

// TestPlanSeed checks that the seed, and only the seed, decides the faults.
func TestPlanSeed(t *testing.T) {
	net := pooltest.NewNetwork(8192, firstSlot+1)
	sh := small().Shares
	a, err := planSlot(net, firstSlot, sh, 1, pool.AttestationSubnetCount)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := planSlot(net, firstSlot, sh, 1, pool.AttestationSubnetCount)
	c, _ := planSlot(net, firstSlot, sh, 2, pool.AttestationSubnetCount)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave two plans")
	}
	if maps.Equal(a.inPlace, c.inPlace) {
		t.Error("seeds 1 and 2 gave the same faults")
	}
}

// TestBaselineFlag checks -baseline's values, the boolean forms it had
// before among them, and that anything else is refused.
func TestBaselineFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want baselineMode
	}{
		{nil, baselineClean},
		{[]string{"-baseline"}, baselineBoth},
		{[]string{"-baseline=true"}, baselineBoth},
		{[]string{"-baseline=both"}, baselineBoth},
		{[]string{"-baseline=false"}, baselineNone},
		{[]string{"-baseline=none"}, baselineNone},
		{[]string{"-baseline=clean"}, baselineClean},
	} {
		fs := flag.NewFlagSet("gossip", flag.ContinueOnError)
		b := baselineClean
		fs.Var(&b, "baseline", "")
		if err := fs.Parse(tc.args); err != nil || b != tc.want {
			t.Errorf("%v: %v (%v), want %v", tc.args, b.String(), err, tc.want.String())
		}
	}
	fs := flag.NewFlagSet("gossip", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var b baselineMode
	fs.Var(&b, "baseline", "")
	if err := fs.Parse([]string{"-baseline=gossip"}); err == nil {
		t.Error("-baseline=gossip accepted")
	}
}

// TestFlags: every flag is checked before any work, each error naming its
// flag: the validator counts too few for a slot's aggregates to hold the
// faults (1,000 and 4,096 got as far as pooltest), shares past 0.5, no
// submitting goroutine, and stray positional arguments. -latency keeps
// its own validator count (smaller ones run there).
func TestFlags(t *testing.T) {
	var cfg config
	var lf *latencyFlagSet
	parse := func(fs *flag.FlagSet, args []string) (err error) {
		if cfg, lf, _, err = parseFlags(fs, args); err == nil && !lf.on {
			err = cfg.check()
		}
		return err
	}
	clitest.Refuses(t, "gossip", parse, []clitest.Case{
		{Args: []string{"-validators", "1000"}, Want: "-validators 1000: want 8192 to"},
		{Args: []string{"-validators", "4096"}, Want: "-validators 4096"},
		{Args: []string{"-slots", "0"}, Want: "-slots 0"},
		{Args: []string{"-subnets", "65"}, Want: "-subnets 65"},
		{Args: []string{"-invalid", "0.6"}, Want: "-invalid 0.6"},
		{Args: []string{"-duplicates", "-1"}, Want: "-duplicates -1"},
		{Args: []string{"-goroutines", "0"}, Want: "-goroutines 0"},
		{Args: []string{"-batch", "-1"}, Want: "-batch -1"},
		{Args: []string{"-slots", "2", "4096"}, Want: `unexpected argument "4096"`},
	})
	if err := clitest.Parse("gossip", nil, parse); err != nil || cfg.Validators != 1<<18 || lf.on || cfg.NoAggs {
		t.Errorf("defaults: %+v, %v", cfg, err)
	}
	err := clitest.Parse("gossip", []string{"-latency", "-quick", "-validators", "1000"}, parse)
	if err != nil || !lf.set["validators"] || !lf.set["quick"] || lf.set["reps"] {
		t.Errorf("-latency -quick -validators 1000: flags given %v, %v", lf.set, err)
	}
	// -quick runs are not graded; the others are.
	if lc, err := latencyConfigOf(lf, cfg); err != nil || !lc.Quick {
		t.Errorf("-latency -quick: Quick %v, %v", lc.Quick, err)
	}
	if err := clitest.Parse("gossip", []string{"-latency"}, parse); err != nil {
		t.Fatal(err)
	}
	if lc, err := latencyConfigOf(lf, cfg); err != nil || lc.Quick || lc.Gloas || lc.AggOffset != 4001*time.Millisecond {
		t.Errorf("-latency: Quick %v, Gloas %v, aggregates %v after the attestations, %v", lc.Quick, lc.Gloas, lc.AggOffset, err)
	}
	// -gloas: the due times of the Gloas configuration, 3 s, 6 s and 9 s.
	if err := clitest.Parse("gossip", []string{"-latency", "-gloas"}, parse); err != nil {
		t.Fatal(err)
	}
	if lc, err := latencyConfigOf(lf, cfg); err != nil || !lc.Gloas || lc.AggOffset != 3*time.Second || lc.PTCOffset != 6*time.Second {
		t.Errorf("-latency -gloas: Gloas %v, aggregates %v and PTC votes %v after the attestations, %v", lc.Gloas, lc.AggOffset, lc.PTCOffset, err)
	}
	// run refuses before it derives a key.
	cfg = small()
	cfg.Validators = 4096
	if _, err := run(cfg); err == nil || !strings.Contains(err.Error(), "-validators 4096") {
		t.Errorf("run with 4,096 validators: %v", err)
	}
}

// checkPhaseLines checks that the log announces each long phase before it
// runs (each announcement comes before the line that reports the phase
// done) and says what to expect, and that the table ends its verification
// figures with the speedup and its reference.
func checkPhaseLines(t *testing.T, log, table string, baseline bool) {
	t.Helper()
	steps := [][2]string{
		{"deriving the keys of ", "derived "},
		{"signing the slots' messages…", "signed "},
		{"generating the slots' aggregates…", "generated the aggregates"},
		{"verifying the clean load through the pool…", "batched, clean load:"},
		{"verifying the gossip load (with the faults) through the pool…", "batched, gossip load:"},
	}
	if baseline {
		steps = append(steps, [2]string{"verifying each signature alone (the baseline), clean load…", "per signature, clean load:"})
		if want := "expect about " + referenceSpeedup; !strings.Contains(log, want) {
			t.Errorf("the log does not say what to expect (%q):\n%s", want, log)
		}
		if want := "speedup of the pool over each signature alone, clean load: "; !strings.Contains(table, want) || !strings.Contains(table, "(reference: "+referenceSpeedup+")") {
			t.Errorf("the table lacks %q with its reference", want)
		}
	}
	for _, st := range steps {
		before, after := strings.Index(log, st[0]), strings.Index(log, st[1])
		if before < 0 || after < before {
			t.Errorf("the log does not announce %q before %q:\n%s", st[0], st[1], log)
		}
	}
}

// TestReferenceSpeedup: the speedup the program names as what to expect is
// the one docs/bench/RESULTS.md gives for the main job.
func TestReferenceSpeedup(t *testing.T) {
	results, err := os.ReadFile("../../docs/bench/RESULTS.md")
	if err != nil {
		t.Fatal(err)
	}
	speedup, rest, _ := strings.Cut(referenceSpeedup, " (docs/bench/RESULTS.md: ")
	rest = strings.TrimSuffix(rest, ", 2 vCPUs)")
	rest = strings.TrimPrefix(rest, "the clean load ")
	for _, want := range []string{"## The main job and the full slot", rest + " (" + speedup + ")"} {
		if !strings.Contains(string(results), want) {
			t.Errorf("docs/bench/RESULTS.md does not say %q", want)
		}
	}
}
