package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
)

// latencyFlagSet is the flags of -latency (the shared ones, -validators
// -seed -json, are the main job's; -latency takes no -goroutines).
type latencyFlagSet struct {
	on              bool
	loads           string
	policies        string
	reps            int
	mean, p95       time.Duration
	aggregates      bool
	aggMean, aggP95 time.Duration
	maxDelay        time.Duration
	realTime        bool
	quick           bool
	reportDir       string
	profileDir      string
	budgets         string
	procs           string
	attackers       int
	gloas           bool
	set             map[string]bool // the flags given (of main's too)
}

// Defaults of -latency: mainnet's arrival model and the loads the targets
// are checked on (targets.go), on a mainnet-sized validator set (64
// committees of 512).
const (
	latencyValidators = 1 << 20
	latencyLoads      = "64:0,64:0.01,64:0.05,16:0,2:0"
)

// quickLatency is -quick: 16,384 validators (4 committees of 128 a slot),
// delays of tens of milliseconds (the aggregates 40 ms after the
// attestations, the PTC's votes 80 ms), one repetition.
var quickLatency = struct {
	latencyConfig
	loads string
}{
	latencyConfig: latencyConfig{Validators: 16384, Reps: 1, AggOffset: 40 * time.Millisecond, PTCOffset: 80 * time.Millisecond,
		Att: arrival{Mean: 20 * time.Millisecond, P95: 45 * time.Millisecond, Max: 100 * time.Millisecond}},
	loads: "4:0,4:0.05,2:0",
}

// pick sets *v to quick unless the flag was given.
func pick[T any](given bool, v *T, quick T) {
	if !given {
		*v = quick
	}
}

func latencyFlags(fs *flag.FlagSet) *latencyFlagSet {
	f := &latencyFlagSet{}
	fs.BoolVar(&f.on, "latency", false, "run the latency benchmark instead of the main job: real-time arrivals, verdict latency per policy (default -validators 1048576)")
	fs.StringVar(&f.loads, "loads", latencyLoads, "-latency: the loads, `subnets:invalid_share,...`")
	fs.StringVar(&f.policies, "policies", "", "-latency: policies to compare with attpool, comma-separated (default all: prysm,lighthouse,lodestar,teku)")
	fs.IntVar(&f.reps, "reps", 3, "-latency: interleaved repetitions (medians and ranges are over them)")
	fs.DurationVar(&f.mean, "mean", 831*time.Millisecond, "-latency: mean delay of an attestation after its deadline (4 s into the slot; 3 s with -gloas)")
	fs.DurationVar(&f.p95, "p95", 1962*time.Millisecond, "-latency: 95th percentile of that delay")
	fs.BoolVar(&f.aggregates, "aggregates", true, "send every aggregate of the slot too, mixed in (false: attestations only, as in the full-slot burst benchmark; with -latency they are due 8 s into the slot, 6 s with -gloas)")
	fs.DurationVar(&f.aggMean, "agg-mean", 0, "-latency: mean delay of an aggregate (and with -gloas of a PTC vote) after its deadline (default -mean: no measurement of its own)")
	fs.DurationVar(&f.aggP95, "agg-p95", 0, "-latency: 95th percentile of that delay (default -p95)")
	fs.DurationVar(&f.maxDelay, "max-delay", 4*time.Second, "-latency: longest delay; a longer draw is drawn again")
	fs.BoolVar(&f.realTime, "realtime", false, "-latency: do not skip the stretches in which no message is in flight")
	fs.BoolVar(&f.quick, "quick", false, "-latency: a small quick run for tests (16,384 validators, 4 subnets, delays of tens of ms, 1 repetition), not graded against the targets")
	fs.StringVar(&f.reportDir, "report", "", "-latency: also write `DIR`/latency.csv and DIR/latency.json (go run ./examples/cmd/benchcharts DIR draws the charts)")
	fs.StringVar(&f.profileDir, "profiles", "", "-latency: write a CPU profile of each run to `DIR`/<policy>_<subnets>-<invalid>_<timed|burst>_p<GOMAXPROCS>_<rep>.pprof")
	fs.StringVar(&f.budgets, "budgets", "", "-latency: also run attpool at each of these latency budgets, `LIST` of durations or milliseconds (0: none, the work-conserving rule), as policies attpool/<budget>; benchcharts then draws latency-budget.png from -report")
	fs.StringVar(&f.procs, "procs", "", "-latency: also run every load at each of these GOMAXPROCS values, `LIST` (the pool and verifier rebuilt for each), interleaved with the runs at the process's own")
	fs.IntVar(&f.attackers, "attackers", 0, "-latency: give each message its forwarding peer, the invalid ones from this many attacker peers and the valid ones from 64 honest peers (0: no peers, so no peer isolation)")
	fs.BoolVar(&f.gloas, "gloas", false, "-latency: Gloas-era traffic: the Gloas rules, the attestations due 3 s into the slot, the aggregates 6 s, and the PTC's 512 votes (payload_attestation_message) 9 s, mixed into every load")
	return f
}

// latencyConfigOf turns the flags into a latencyConfig; main's cfg gives
// the shared flags.
func latencyConfigOf(f *latencyFlagSet, main config) (latencyConfig, error) {
	set := f.set
	cfg := latencyConfig{
		Validators: latencyValidators, Reps: f.reps, Seed: main.Seed, Quick: f.quick,
		RealTime: f.realTime, Log: main.Log, Progress: main.Progress, Attackers: f.attackers,
		ProfileDir: f.profileDir, Gloas: f.gloas,
	}
	d := electraDeadlines
	if f.gloas {
		d = gloasDeadlines
		cfg.PTCOffset = d.payload - d.attestation
	}
	cfg.AggOffset = d.aggregate - d.attestation
	loads, mean, p95, maxDelay := f.loads, f.mean, f.p95, f.maxDelay
	if f.quick { // the quick defaults, for the flags not given
		q := quickLatency
		cfg.Validators = q.Validators
		pick(set["reps"], &cfg.Reps, q.Reps)
		pick(set["loads"], &loads, q.loads)
		pick(set["mean"], &mean, q.Att.Mean)
		pick(set["p95"], &p95, q.Att.P95)
		pick(set["max-delay"], &maxDelay, q.Att.Max)
		cfg.AggOffset, cfg.PTCOffset = q.AggOffset, q.PTCOffset
	}
	if set["validators"] {
		cfg.Validators = main.Validators
	}
	if f.attackers < 0 {
		return cfg, fmt.Errorf("-attackers %d: want 0 or more", f.attackers)
	}
	var err error
	if cfg.Loads, err = parseLoads(loads); err != nil {
		return cfg, err
	}
	if f.policies != "" {
		cfg.Policies = strings.Split(f.policies, ",")
	}
	if cfg.Budgets, err = parseBudgets(f.budgets); err != nil {
		return cfg, err
	}
	if cfg.Procs, err = parseProcs(f.procs); err != nil {
		return cfg, err
	}
	if cfg.Att, err = newArrival(mean, p95, maxDelay); err != nil {
		return cfg, err
	}
	cfg.Aggregates = f.aggregates
	aggMean, aggP95 := mean, p95
	if set["agg-mean"] {
		aggMean = f.aggMean
	}
	if set["agg-p95"] {
		aggP95 = f.aggP95
	}
	cfg.Agg, err = newArrival(aggMean, aggP95, maxDelay)
	return cfg, err
}

// parseLoads reads "64:0,64:0.01": subnets and invalid share per load.
func parseLoads(s string) ([]loadSpec, error) {
	var out []loadSpec
	for _, f := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(f), ":")
		n, err1 := strconv.Atoi(a)
		x, err2 := strconv.ParseFloat(b, 64)
		if !ok || err1 != nil || err2 != nil || n < 1 || n > 64 || x < 0 || x > 0.5 {
			return nil, fmt.Errorf("-loads: %q: want subnets (1-64):invalid share (0-0.5)", f)
		}
		out = append(out, loadSpec{Subnets: n, Invalid: x})
	}
	return out, nil
}

// latencyMain runs -latency and returns the exit status.
func latencyMain(f *latencyFlagSet, main config, asJSON bool) int {
	if asJSON {
		main.Log = nil
	}
	cfg, err := latencyConfigOf(f, main)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gossip:", err)
		return 2
	}
	for _, dir := range []string{f.reportDir, f.profileDir} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "gossip:", err)
			return 2
		}
	}
	rep, err := runLatency(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gossip:", err)
		return 2
	}
	if asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(os.Stderr, "gossip:", err)
			return 2
		}
	} else {
		rep.printTable(os.Stdout)
	}
	if f.reportDir != "" {
		if err := writeLatencyReport(f.reportDir, rep); err != nil {
			fmt.Fprintln(os.Stderr, "gossip: report:", err)
			return 2
		}
		fmt.Fprintf(os.Stderr, "gossip: wrote %s and %s (charts: go run -trimpath ./examples/cmd/benchcharts %s)\n",
			filepath.Join(f.reportDir, latencyCSV), filepath.Join(f.reportDir, latencyJSON), f.reportDir)
	}
	if rep.WrongVerdicts > 0 {
		fmt.Fprintf(os.Stderr, "gossip: %d verdict(s) differ from the expected ones\n", rep.WrongVerdicts)
		return 1
	}
	return 0
}

// startProfile starts a CPU profile into the file path; stop ends it and
// closes the file.
func startProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
