package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// latencyReport is the result of -latency, printed as a table or (-json)
// as JSON. Every figure is the median of Reps runs with their range
// (spread); latencies are in milliseconds from submission to verdict; CPU
// is the process's user and system time from the first submission to the
// last verdict.
type latencyReport struct {
	Date       time.Time `json:"date"`
	GOMAXPROCS int       `json:"gomaxprocs"`
	Validators uint64    `json:"validators"`
	Reps       int       `json:"reps"`
	Arrival    arrival   `json:"arrival_attestation"`
	AggArrival *arrival  `json:"arrival_aggregate,omitempty"` // nil: no aggregates
	SkipIdle   bool      `json:"skip_idle"`
	Attackers  int       `json:"attackers,omitempty"` // 0: messages without a forwarding peer
	// Gloas: Gloas-era traffic (-gloas), its deadlines and the PTC's votes.
	Gloas    bool         `json:"gloas,omitempty"`
	Policies []policy     `json:"policies"`
	Loads    []loadResult `json:"loads"`
	// CoreSweep is the same loads at other GOMAXPROCS values (-procs),
	// interleaved with the runs of Loads.
	CoreSweep []coreResult `json:"core_sweep,omitempty"`
	// Quick: a -quick run, small loads for a smoke test, not graded: it
	// has no Targets.
	Quick bool `json:"quick,omitempty"`
	// Targets is the checks of the named targets (targets.go) on the
	// medians, in a graded run.
	Targets []target `json:"targets,omitempty"`
	// Units are the costs of the floor's operations, measured in the run
	// (medians of a calibration at the start of each repetition).
	Units         unitCosts `json:"unit_costs"`
	WrongVerdicts int       `json:"wrong_verdicts"`
	TotalSeconds  float64   `json:"total_seconds"`
}

// coreResult is the loads at one GOMAXPROCS of the core sweep.
type coreResult struct {
	GOMAXPROCS int `json:"gomaxprocs"`
	// Oversubscribed: more than the machine's CPUs, so the runs share them.
	Oversubscribed bool         `json:"oversubscribed"`
	Loads          []loadResult `json:"loads"`
}

// spread is a figure's median over the runs and its range.
type spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

func spreadOf(xs []float64) spread {
	if len(xs) == 0 {
		return spread{}
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return spread{Median: xs[len(xs)/2], Min: xs[0], Max: xs[len(xs)-1]}
}

// latencySummary is one class of messages (valid or invalid) of one policy.
type latencySummary struct {
	Messages int    `json:"messages"`
	P50      spread `json:"p50_ms"`
	P90      spread `json:"p90_ms"`
	P99      spread `json:"p99_ms"`
	Max      spread `json:"max_ms"`
}

// policyResult is one policy on one load.
type policyResult struct {
	Policy           string          `json:"policy"`
	Valid            latencySummary  `json:"valid"`                       // attestations with a valid signature
	Invalid          *latencySummary `json:"invalid,omitempty"`           // attestations with an invalid one
	Aggregate        *latencySummary `json:"aggregate,omitempty"`         // valid aggregates
	AggregateInvalid *latencySummary `json:"aggregate_invalid,omitempty"` // aggregates with an invalid signature
	Payload          *latencySummary `json:"payload,omitempty"`           // valid PTC votes (-gloas)
	PayloadInvalid   *latencySummary `json:"payload_invalid,omitempty"`   // PTC votes with an invalid signature
	CPUPer1000       spread          `json:"cpu_seconds_per_1000"`
	CPUSeconds       spread          `json:"cpu_seconds"`
	WallSeconds      spread          `json:"wall_seconds"`
	// DispatchLagMs is how late, at most, a message was submitted after its
	// arrival time: the benchmark's own delay (a loaded machine shows here).
	DispatchLagMs spread `json:"dispatch_lag_max_ms"`
	// SetsPerCall is the signature sets per verification call (batch).
	SetsPerCall spread `json:"sets_per_call"`
	// SchedPerMessage is the times a goroutine was made to run per message
	// (the benchmark's, the pool's and the verifier's), estimated from
	// runtime/metrics' sampled /sched/latencies count: the scheduler's work.
	SchedPerMessage spread `json:"schedulings_per_message"`
	WrongVerdicts   int    `json:"wrong_verdicts"`
	// Breakdown is CPUPer1000 by category of work (floor.go), of the run
	// whose CPU is the median.
	Breakdown [numCosts]float64 `json:"cpu_seconds_per_1000_by_category"`
	// Sampled is the CPU profile's samples over the process CPU measured.
	Sampled spread `json:"profile_sampled_share"`
}

// loadResult is one load: every policy, and attpool's burst of the same
// messages.
type loadResult struct {
	loadSpec
	Messages   int `json:"messages"`
	Aggregates int `json:"aggregates"`
	// PayloadAttestations is the PTC votes among the messages (-gloas).
	PayloadAttestations int            `json:"payload_attestations,omitempty"`
	Policies            []policyResult `json:"policies"`
	Burst               policyResult   `json:"burst_attpool"`
	// Fluid is the wait the arrivals alone cost a node as fast as the
	// burst of the load's attestations alone (fluid.go).
	Fluid fluidBound `json:"fluid_bound"`
	// Floor is the CPU of the load's cryptographic work alone (floor.go).
	Floor floorResult `json:"floor"`
}

// percentile is the nearest-rank q-quantile of sorted, in milliseconds.
func percentile(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return ms64(sorted[min(max(i, 0), len(sorted)-1)])
}

// summarize folds the runs of one policy on one load.
func summarize(name string, runs []runOutcome) policyResult {
	r := policyResult{Policy: name}
	var cpu, per, wall, lag, spc, spm []float64
	var sampled []float64
	for _, o := range runs {
		sampled = append(sampled, o.sampled.Seconds()/max(o.cpu.Seconds(), 1e-9))
		spm = append(spm, o.scheds/float64(max(o.messages, 1)))
		lag = append(lag, ms64(o.lag))
		spc = append(spc, float64(o.sets)/float64(max(o.calls, 1)))
		cpu = append(cpu, o.cpu.Seconds())
		per = append(per, o.cpu.Seconds()*1000/float64(max(o.messages, 1)))
		wall = append(wall, o.wall.Seconds())
		r.WrongVerdicts += o.wrong
	}
	r.CPUSeconds, r.CPUPer1000, r.WallSeconds, r.DispatchLagMs = spreadOf(cpu), spreadOf(per), spreadOf(wall), spreadOf(lag)
	r.SetsPerCall, r.SchedPerMessage = spreadOf(spc), spreadOf(spm)
	r.Sampled = spreadOf(sampled)
	if i := slices.Index(per, r.CPUPer1000.Median); i >= 0 {
		for k, c := range runs[i].costs {
			r.Breakdown[k] = c.Seconds() * 1000 / float64(max(runs[i].messages, 1))
		}
	}
	r.Valid = summarizeClass(runs, classValid)
	for c, dst := range r.optionalClasses() {
		if s := summarizeClass(runs, c); s.Messages > 0 {
			*dst = &s
		}
	}
	return r
}

// optionalClasses is where r keeps each class of messages a load may
// lack, by class.
func (r *policyResult) optionalClasses() map[int]**latencySummary {
	return map[int]**latencySummary{
		classInvalid: &r.Invalid, classAggregate: &r.Aggregate, classAggregateInvalid: &r.AggregateInvalid,
		classPayload: &r.Payload, classPayloadInvalid: &r.PayloadInvalid,
	}
}

// classNames are the classes' names in the CSV report, in class order.
var classNames = [numClasses]string{"valid", "invalid", "aggregate", "aggregate_invalid", "payload", "payload_invalid"}

// classSummaries is r's summary of each class, nil for a class the load
// lacks, in class order.
func (r *policyResult) classSummaries() [numClasses]*latencySummary {
	out := [numClasses]*latencySummary{classValid: &r.Valid}
	for c, s := range r.optionalClasses() {
		out[c] = *s
	}
	return out
}

func summarizeClass(runs []runOutcome, class int) latencySummary {
	var s latencySummary
	var p50, p90, p99, mx []float64
	for _, o := range runs {
		lat := slices.Clone(o.latency[class])
		if len(lat) == 0 {
			continue
		}
		slices.Sort(lat)
		s.Messages = len(lat)
		p50 = append(p50, percentile(lat, 0.50))
		p90 = append(p90, percentile(lat, 0.90))
		p99 = append(p99, percentile(lat, 0.99))
		mx = append(mx, ms64(lat[len(lat)-1]))
	}
	s.P50, s.P90, s.P99, s.Max = spreadOf(p50), spreadOf(p90), spreadOf(p99), spreadOf(mx)
	return s
}

// runLatency is -latency without its flags and output: it builds the
// loads, runs every load through every policy Reps times, interleaved
// (each repetition runs every load through every policy, the first policy
// rotating), and attpool's burst of each load, and returns the report.
func runLatency(cfg latencyConfig) (*latencyReport, error) {
	start := time.Now()
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	if cfg.Reps < 1 || len(cfg.Loads) == 0 {
		return nil, fmt.Errorf("-latency: %d repetitions of %d loads: want at least one of each", cfg.Reps, len(cfg.Loads))
	}
	pols, err := choosePolicies(cfg.Policies)
	if err != nil {
		return nil, err
	}
	for _, b := range cfg.Budgets {
		pols = append(pols, budgetPolicy(b))
	}
	net := pooltest.NewNetwork(cfg.Validators, firstSlot+1)
	t0 := time.Now()
	loads, err := buildLatencyLoads(cfg, net)
	if err != nil {
		return nil, err
	}
	logf("built %d loads in %.1fs", len(loads), time.Since(t0).Seconds())

	main := newRunTable(len(loads), len(pols))
	sweep := make([]*runTable, len(cfg.Procs))
	for i := range sweep {
		sweep[i] = newRunTable(len(loads), len(pols))
	}
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	var units []unitCosts
	for rep := range cfg.Reps {
		runtime.GOMAXPROCS(procs)
		units = append(units, calibrate())
		if err := main.runRep(cfg, net, loads, pols, rep, logf); err != nil {
			return nil, err
		}
		for i, n := range cfg.Procs {
			runtime.GOMAXPROCS(n)
			if err := sweep[i].runRep(cfg, net, loads, pols, rep, logf); err != nil {
				return nil, err
			}
		}
	}
	runtime.GOMAXPROCS(procs)

	rep := &latencyReport{
		Date: start.UTC(), GOMAXPROCS: procs, Validators: cfg.Validators, Reps: cfg.Reps,
		Arrival: cfg.Att, SkipIdle: !cfg.RealTime, Attackers: cfg.Attackers, Policies: pols, Quick: cfg.Quick,
		Gloas: cfg.Gloas,
	}
	if cfg.Aggregates {
		rep.AggArrival = &cfg.Agg
	}
	rep.Units = medianUnits(units)
	var wrong int
	rep.Loads, wrong = main.results(cfg, loads, pols, rep.Units)
	rep.WrongVerdicts += wrong
	for i, n := range cfg.Procs {
		c := coreResult{GOMAXPROCS: n, Oversubscribed: n > runtime.NumCPU()}
		c.Loads, wrong = sweep[i].results(cfg, loads, pols, rep.Units)
		rep.WrongVerdicts += wrong
		rep.CoreSweep = append(rep.CoreSweep, c)
	}
	if !cfg.Quick {
		rep.Targets = checkTargets(rep.Loads)
	}
	rep.TotalSeconds = time.Since(start).Seconds()
	return rep, nil
}

// runTable is the runs of every load through every policy at one
// GOMAXPROCS, as the repetitions add them.
type runTable struct {
	runs      [][][]runOutcome // [load][policy][rep]
	bursts    [][]runOutcome   // [load][rep]
	attBursts [][]float64      // [load][rep]: wall seconds of the attestations alone
}

func newRunTable(loads, pols int) *runTable {
	t := &runTable{runs: make([][][]runOutcome, loads), bursts: make([][]runOutcome, loads), attBursts: make([][]float64, loads)}
	for li := range t.runs {
		t.runs[li] = make([][]runOutcome, pols)
	}
	return t
}

// runRep runs repetition rep at the current GOMAXPROCS: every load through
// every policy (the first policy rotating with rep and load), then attpool's
// bursts of the load. Each run builds its own pool, and so its verifier, for
// the GOMAXPROCS it runs at.
func (t *runTable) runRep(cfg latencyConfig, net *pooltest.Network, loads []latencyLoad, pols []policy, rep int, logf func(string, ...any)) error {
	procs := runtime.GOMAXPROCS(0)
	for li := range loads {
		l := &loads[li]
		for k := range pols {
			pi := (rep + li + k) % len(pols)
			var o runOutcome
			costs, err := cfg.profiled(pols[pi].Name, l.spec, "timed", rep, func() (err error) {
				o, err = runTimed(pols[pi].config(), net, l, cfg.RealTime)
				return err
			})
			if err != nil {
				return err
			}
			o.costs, o.sampled = breakdownOf(costs, o.cpu), sum(costs[:])
			t.runs[li][pi] = append(t.runs[li][pi], o)
			logf("rep %d, GOMAXPROCS %d, %v, %s: wall %.2fs, CPU %.2fs, %.1f sets a call, %d wrong", rep+1, procs, l.spec, pols[pi].Name, o.wall.Seconds(), o.cpu.Seconds(), float64(o.sets)/float64(max(o.calls, 1)), o.wrong)
		}
		var b runOutcome
		costs, err := cfg.profiled(pols[0].Name, l.spec, "burst", rep, func() (err error) {
			b, err = runBurst(pols[0].config(), net, l)
			return err
		})
		if err != nil {
			return err
		}
		b.costs, b.sampled = breakdownOf(costs, b.cpu), sum(costs[:])
		t.bursts[li] = append(t.bursts[li], b)
		if b, err = runBurst(pols[0].config(), net, l.attestationsOnly()); err != nil {
			return err
		}
		t.attBursts[li] = append(t.attBursts[li], b.wall.Seconds())
	}
	return nil
}

// results folds the runs of each load, and counts their wrong verdicts.
func (t *runTable) results(cfg latencyConfig, loads []latencyLoad, pols []policy, u unitCosts) ([]loadResult, int) {
	var out []loadResult
	wrong := 0
	for li, l := range loads {
		lr := loadResult{loadSpec: l.spec, Messages: len(l.msgs)}
		for _, m := range l.msgs {
			switch {
			case m.agg != nil:
				lr.Aggregates++
			case m.ptc != nil:
				lr.PayloadAttestations++
			}
		}
		for pi, p := range pols {
			pr := summarize(p.Name, t.runs[li][pi])
			lr.Policies = append(lr.Policies, pr)
			wrong += pr.WrongVerdicts
		}
		lr.Burst = summarize(pols[0].Name+" (burst)", t.bursts[li])
		atts := lr.Messages - lr.Aggregates - lr.PayloadAttestations
		lr.Fluid = fluidQueue(cfg.Att, atts, float64(atts)/spreadOf(t.attBursts[li]).Median)
		wrong += lr.Burst.WrongVerdicts
		lr.Floor = floorOf(&loads[li], pool.DefaultConfig().LatencyBudget, u, lr.Policies[0].CPUPer1000.Median, lr.Burst.CPUPer1000.Median)
		out = append(out, lr)
	}
	return out, wrong
}

// profiled runs f, the run of policy on load (kind timed or burst) in
// repetition rep, under a CPU profile, and returns the profile's CPU by
// category (profileCosts). When cfg.ProfileDir is set the profile is kept in
// ProfileDir/<policy>_<subnets>-<invalid>_<kind>_p<GOMAXPROCS>_<rep>.pprof
// (a policy's "/" written "-"). A profile of one run holds what the process
// did during it, the scheduler's and the benchmark's own goroutines
// included.
func (cfg latencyConfig) profiled(policy string, load loadSpec, kind string, rep int, f func() error) ([numCosts]time.Duration, error) {
	var save func([]byte) error
	if cfg.ProfileDir != "" {
		name := fmt.Sprintf("%s_%d-%g_%s_p%d_%d.pprof", strings.ReplaceAll(policy, "/", "-"), load.Subnets, load.Invalid, kind, runtime.GOMAXPROCS(0), rep+1)
		save = func(b []byte) error { return os.WriteFile(filepath.Join(cfg.ProfileDir, name), b, 0o644) }
	}
	return profiledCosts(f, save)
}

// choosePolicies returns the named policies in policies()'s order, attpool
// first whether named or not (the targets compare with it).
func choosePolicies(names []string) ([]policy, error) {
	all := policies()
	if len(names) == 0 {
		return all, nil
	}
	for _, n := range names {
		if !slices.ContainsFunc(all, func(p policy) bool { return p.Name == n }) {
			return nil, fmt.Errorf("-policies: no policy %q", n)
		}
	}
	var out []policy
	for i, p := range all {
		if i == 0 || slices.Contains(names, p.Name) {
			out = append(out, p)
		}
	}
	return out, nil
}

// cell formats a latency spread, with one decimal below 10 ms:
// "12 [11-14]", "3.1 [2.9-3.6]".
func (s spread) cell() string {
	if s.Max < 10 {
		return s.cellPrec(1)
	}
	return s.cellPrec(0)
}

// cellOf is the cell of one figure of s, "-" when there is no s.
func (s *latencySummary) cellOf(fig func(*latencySummary) spread) string {
	if s == nil {
		return "-"
	}
	return fig(s).cell()
}

// cellPrec formats a spread with prec decimals.
func (s spread) cellPrec(prec int) string {
	f := func(v float64) string { return fmt.Sprintf("%.*f", prec, v) }
	return f(s.Median) + " [" + f(s.Min) + "-" + f(s.Max) + "]"
}

// printTable writes the report for a reader.
func (r *latencyReport) printTable(w io.Writer) {
	a := r.Arrival
	fmt.Fprintf(w, "attpool latency benchmark: %s validators, GOMAXPROCS %d, medians of %d interleaved runs [min-max]\n",
		group(int(r.Validators)), r.GOMAXPROCS, r.Reps)
	d := electraDeadlines
	if r.Gloas {
		d = gloasDeadlines
		fmt.Fprintf(w, "Gloas-era traffic, the Gloas rules in force: attestations due %v into the slot, aggregates %v, the PTC's votes %v\n", d.attestation, d.aggregate, d.payload)
	}
	fmt.Fprintf(w, "arrival after the attestation deadline (%v): lognormal, mean %v, p95 %v (mu %.3f, sigma %.3f), cut at %v",
		d.attestation, a.Mean, a.P95, a.Mu, a.Sigma, a.Max)
	if r.SkipIdle {
		fmt.Fprint(w, "; idle stretches skipped")
	}
	fmt.Fprintln(w)
	if g := r.AggArrival; g != nil {
		fmt.Fprintf(w, "aggregates: every aggregate of the slot mixed in, arriving after their deadline (%v) as lognormal, mean %v, p95 %v\n", d.aggregate, g.Mean, g.P95)
	}
	if r.Gloas {
		fmt.Fprintf(w, "payload attestations: every PTC vote of the slot mixed in, arriving after their deadline (%v) as the aggregates do\n", d.payload)
	}
	if r.Attackers > 0 {
		fmt.Fprintf(w, "forwarding peers: the invalid messages from %d attacker peers, the valid ones from %d honest peers\n", r.Attackers, honestPeers)
	}
	fmt.Fprintf(w, "unit costs measured in this run, CPU µs (floor.go): %s\n", r.Units.line())
	fmt.Fprintln(w, "latency: submission to verdict, ms (valid/invalid: attestations; agg: aggregates; ptc: PTC votes); CPU: process user+system seconds per 1,000 messages")
	for _, l := range r.Loads {
		fmt.Fprintf(w, "\n%v: %s attestations, %s aggregates", l.loadSpec, group(l.Messages-l.Aggregates-l.PayloadAttestations), group(l.Aggregates))
		if r.Gloas {
			fmt.Fprintf(w, ", %s PTC votes", group(l.PayloadAttestations))
		}
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		ptcHead, ptcDash := "", ""
		if r.Gloas {
			ptcHead, ptcDash = "ptc p99\tbad ptc p99\t", "-\t-\t"
		}
		fmt.Fprintln(tw, "policy\tvalid p50\tp90\tp99\tmax\tinvalid p50\tp99\tagg p50\tp99\tbad agg p99\t"+ptcHead+"CPU s/1000\tsets/call\tscheds/msg\twall s\twrong\t")
		p99 := func(s *latencySummary) spread { return s.P99 }
		for _, p := range l.Policies {
			ptc := ""
			if r.Gloas {
				ptc = p.Payload.cellOf(p99) + "\t" + p.PayloadInvalid.cellOf(p99) + "\t"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s%s\t%.1f\t%.1f\t%s\t%d\t\n", p.Policy,
				p.Valid.P50.cell(), p.Valid.P90.cell(), p.Valid.P99.cell(), p.Valid.Max.cell(),
				p.Invalid.cellOf(func(s *latencySummary) spread { return s.P50 }), p.Invalid.cellOf(p99),
				p.Aggregate.cellOf(func(s *latencySummary) spread { return s.P50 }), p.Aggregate.cellOf(p99),
				p.AggregateInvalid.cellOf(p99), ptc,
				p.CPUPer1000.cellPrec(3), p.SetsPerCall.Median, p.SchedPerMessage.Median, p.WallSeconds.cellPrec(2), p.WrongVerdicts)
		}
		b := l.Burst
		fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t%s%s\t%.1f\t%.1f\t%s\t%d\t\n", b.Policy, ptcDash, b.CPUPer1000.cellPrec(3), b.SetsPerCall.Median, b.SchedPerMessage.Median, b.WallSeconds.cellPrec(2), b.WrongVerdicts)
		tw.Flush()
		var lags []string
		for _, p := range l.Policies {
			lags = append(lags, fmt.Sprintf("%s %.1f", p.Policy, p.DispatchLagMs.Median))
		}
		fmt.Fprintf(w, "latest submission after its arrival time (ms; the benchmark's own lag): %s\n", strings.Join(lags, ", "))
		f := l.Fluid
		printFloor(w, &l)
		fmt.Fprintf(w, "fluid bound: the attestations alone in a burst go at %s/s; arriving at up to %s/s (%.0f ms after the deadline), a queue served that fast waits at most %.1f ms\n",
			group(int(f.Rate)), group(int(f.Peak)), f.PeakAtMs, f.WaitMs)
	}
	fmt.Fprintln(w, "\n(burst: attpool on the same messages, all submitted at once, up to 2,048 in the pool at a time)")
	r.printCoreSweep(w)
	switch {
	case r.Quick:
		fmt.Fprintln(w, "\n(-quick: a smoke run, not graded against the targets)")
	case len(r.Targets) == 0:
		fmt.Fprintln(w, "\nTargets (defined in docs/bench/RESULTS.md): none applies to the loads and policies run")
	default:
		fmt.Fprintln(w, "\nTargets (defined in docs/bench/RESULTS.md), on the medians:")
		for _, t := range r.Targets {
			fmt.Fprintf(w, "  %s\n", t.line())
		}
	}
	fmt.Fprintf(w, "\ntotal %.1fs\n", r.TotalSeconds)
	if r.WrongVerdicts == 0 {
		fmt.Fprintln(w, "every verdict as expected")
	} else {
		fmt.Fprintf(w, "%s verdict(s) differ from the expected ones\n", group(r.WrongVerdicts))
	}
}
