// Command gossip simulates the attestation gossip a beacon node receives
// and checks the verdicts of an attpool pool on it.
//
//	go run ./examples/gossip
//	go run ./examples/gossip -validators 1048576 -slots 1 -json
//
// It builds an interop validator set (keys derived only for the validators
// that attest in the simulated slots) and, for each slot (from slot 64, in
// epoch 2), signs the SingleAttestation of every member of every committee
// (64 committees of 128 with the default 262,144 validators; of 512 with
// 1,048,576). It injects a small share of faults, each with the verdict and
// the rule of the gossip specs the pool must give it (sim.go): invalid
// signatures (-invalid); malformed or misaddressed messages (-malformed: no
// message, no data, signature bytes that do not decode, a signature off G2,
// the wrong subnet, a committee index out of range, an attester outside the
// committee); votes outside the window (-window: the next slot's, 8 s
// early; one from two epochs back); and late copies of accepted messages
// (-duplicates). -seed picks which messages are faulty. -validators is
// 8,192 at least (two committees of 128 a slot): fewer cannot hold a
// slot's aggregate faults, one of each kind. Every flag is checked, and
// positional arguments refused, before any work.
//
// The node is on -subnets subnets (0 to n-1; default all 64): it gets the
// single attestations of those subnets' committees and every
// SignedAggregateAndProof of the slot (pooltest's mainnet-shaped traffic:
// about 16 aggregators a committee, each seeing 85-100% of it), with
// aggregate faults of the same shares (aggregates.go), the two topics
// arriving mixed. -subnets 0 sends aggregates only. -ptc adds the Gloas
// payload_attestation_message topic (ptc.go): every member of the slot's
// PTC votes on the slot's block (two thirds payload present), the -invalid
// share with another member's signature; the Gloas rules then apply from
// the simulated epoch on; after each slot the program asks for the payload
// attestations of the next block (PayloadAttestationsForBlock), checks each
// as process_payload_attestation does and reports them (count, verified,
// PTC positions covered). The report gives the figures of each topic
// (topics).
//
// The messages are submitted to the pool's gossip intake (each topic's
// Validate method, each call on a goroutine of its own) from -goroutines
// goroutines, the late copies
// once the others have their verdicts; after each slot the program asks for
// the next slot's block (AttestationsForBlock). The same slots without
// faults (the clean load) are run too, and the clean load again through a
// pool that verifies every signature alone (the per-signature baseline;
// -baseline=both runs the gossip load through it too, -baseline=false
// neither). Long steps draw a progress bar on stderr when it is a terminal.
//
// At the end it prints a table (or, with -json, the report as JSON on
// stdout; see report): the verdicts by rule, every fault kind expected and
// found, wall times, messages per second and the speedup over the baseline,
// and the block's coverage of the accepted attesters. It exits with status
// 1 if any message of any run got a verdict other than the expected one,
// and lists them.
//
// With -latency it runs the latency benchmark instead (latency.go): the
// attestations of a node on -loads' subnets (by default all 64 subnets
// clean, with 1% and 5% invalid signatures, 16 and 2 subnets clean, on
// 1,048,576 validators) arrive in real time at the times of the mainnet
// model (each message's delay after the attestation deadline lognormal
// with -mean 831ms and -p95 1962ms, cut at -max-delay; arrival.go derives
// the model), each submitted from its own goroutine at its time; the same
// load runs through the pool as attpool configures it and as each client
// does (-policies), -reps times interleaved, and as one burst. It prints
// verdict latency p50/p90/p99/max of valid and invalid messages, CPU
// seconds per 1,000 messages, sets per verification call, goroutine
// wake-ups per message and wrong verdicts per load and policy, with the
// range of the runs, and, except with -quick, checks the named targets of
// docs/bench/RESULTS.md on the medians (targets.go): "cheaper than Prysm",
// "no client dominates" (which needs the budget rows of -budgets 0,5,50),
// "close to the burst", "cheap failure path" and "all-subnets latency".
// -report DIR writes DIR/latency.csv and DIR/latency.json, from which
// go run ./examples/cmd/benchcharts DIR draws the charts.
// -budgets adds attpool at each latency budget of a list (rows
// attpool/<budget>; benchcharts then draws DIR/latency-budget.png, CPU
// against p99 per load), -procs runs every load again at each GOMAXPROCS of a
// list, and -profiles DIR writes a CPU profile of each run. -gloas sends
// Gloas-era traffic: the Gloas rules, the deadlines of the Gloas
// configuration (attestations 3 s into the slot, aggregates 6 s) and the
// slot's PTC votes (9 s) in every load.
//
//	go run ./examples/gossip -latency -report docs/bench
//	go run ./examples/gossip -latency -loads 64:0,16:0,2:0 -budgets 0,1,2,5,10,20,50 -procs 1 -report docs/bench
//	go run ./examples/gossip -latency -quick
//	go run ./examples/gossip -latency -gloas -loads 2:0,16:0,64:0,64:0.01
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/attpool/attpool/examples/internal/cli"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
	"github.com/attpool/attpool/verifier/baseline"
)

// config is the program's settings (its flags).
type config struct {
	Validators uint64
	Slots      int
	Subnets    int  // the node's subnets: 0 to Subnets-1 (0: aggregates only)
	PTC        bool // also the payload_attestation_message topic, under the Gloas rules
	NoAggs     bool // leave the aggregate topic out (attestations only)
	Shares     shares
	Seed       uint64
	Goroutines int
	Baseline   baselineMode // the loads run through the per-signature baseline too
	Batch      int          // pool.Config.BatchSize (0: default)
	CPUProfile string
	Progress   io.Writer // progress bars; nil: none
	Log        io.Writer // a line per step; nil: none
}

// firstSlot is the first simulated slot (epoch 2: there is an epoch two
// epochs back for the stale votes).
const firstSlot = 64

// minValidators is the fewest validators the simulation runs on: two
// committees of 128 a slot. A slot's aggregate faults take an aggregate of
// each of their kinds (19 at the default shares, 18 with -ptc), and a
// committee has about 16 aggregators; some kinds need a committee of 32 or
// more. With 4,096 validators (one committee) the aggregates cannot hold
// them.
const minValidators = 8192

// referenceSpeedup is the main job's speedup in docs/bench/RESULTS.md ("The
// main job and the full slot"), which the program names as what to expect;
// a test checks that RESULTS.md still says it.
const referenceSpeedup = "12.0x (docs/bench/RESULTS.md: the clean load in 0.51 s against 6.07 s per signature, 2 vCPUs)"

// parseFlags parses the program's flags from args into fs: the main job's
// config, the -latency flags and -json.
func parseFlags(fs *flag.FlagSet, args []string) (cfg config, lf *latencyFlagSet, asJSON bool, err error) {
	fs.Uint64Var(&cfg.Validators, "validators", 1<<18, "number of validators, 8,192 or more but with -latency (262,144: 64 committees of 128 per slot; 1,048,576: of 512)")
	fs.IntVar(&cfg.Slots, "slots", 1, "number of slots to simulate")
	fs.BoolVar(&cfg.PTC, "ptc", false, "also send the payload_attestation_message topic (the PTC's votes on the slot's block), with the Gloas rules from the simulated epoch on")
	fs.IntVar(&cfg.Subnets, "subnets", pool.AttestationSubnetCount, "the node's attestation subnets (0 to n-1; 0: aggregates only); every aggregate of the slot is sent")
	fs.Float64Var(&cfg.Shares.Invalid, "invalid", 0.01, "share of attestations with an invalid signature")
	fs.Float64Var(&cfg.Shares.Invalid, "faults", 0.01, "alias of -invalid")
	fs.Float64Var(&cfg.Shares.Malformed, "malformed", 0.005, "share of attestations made malformed or misaddressed (split over 7 kinds)")
	fs.Float64Var(&cfg.Shares.Window, "window", 0.002, "share of extra votes outside the slot window (split: future slot, stale epoch)")
	fs.Float64Var(&cfg.Shares.Duplicates, "duplicates", 0.005, "share of attestations copied again after their verdict")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the choice of faulty messages")
	fs.IntVar(&cfg.Goroutines, "goroutines", 64, "submitting goroutines")
	fs.Var(&cfg.Baseline, "baseline", "the loads also run through the per-signature baseline: clean (the default: the clean load, the speedup's), both (and the gossip load), or none; -baseline alone means both, -baseline=false none")
	fs.IntVar(&cfg.Batch, "batch", 0, "pool batch size (0: default)")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON on stdout (no table, no step lines)")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the batched runs to this file")
	lf = latencyFlags(fs)
	if err := cli.Parse(fs, args); err != nil {
		return cfg, lf, asJSON, err
	}
	lf.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { lf.set[fl.Name] = true })
	cfg.NoAggs = !lf.aggregates
	return cfg, lf, asJSON, nil
}

func main() {
	cfg, lf, asJSON, err := parseFlags(flag.CommandLine, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "gossip:", err)
		os.Exit(2)
	}
	if terminal(os.Stderr) {
		cfg.Progress = os.Stderr
	}
	if !asJSON {
		cfg.Log = os.Stderr
	}
	if lf.on {
		os.Exit(latencyMain(lf, cfg, asJSON))
	}
	rep, err := run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gossip:", err)
		os.Exit(2)
	}
	if asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(os.Stderr, "gossip:", err)
			os.Exit(2)
		}
	} else {
		rep.printTable(os.Stdout)
	}
	if rep.WrongVerdicts > 0 {
		if asJSON { // the table lists them; say it on stderr too
			fmt.Fprintf(os.Stderr, "gossip: %d verdict(s) differ from the expected ones (see \"wrong\")\n", rep.WrongVerdicts)
		}
		os.Exit(1)
	}
}

// check refuses a config the simulation cannot run, naming the flags.
func (cfg config) check() error {
	sh := cfg.Shares
	return cli.Check(
		cli.AtLeast("slots", cfg.Slots, 1),
		cli.Range("validators", cfg.Validators, minValidators, pool.DefaultConfig().MaxValidators),
		cli.Range("subnets", cfg.Subnets, 0, pool.AttestationSubnetCount),
		cli.Range("invalid", sh.Invalid, 0, 0.5),
		cli.Range("malformed", sh.Malformed, 0, 0.5),
		cli.Range("window", sh.Window, 0, 0.5),
		cli.Range("duplicates", sh.Duplicates, 0, 0.5),
		cli.AtLeast("goroutines", cfg.Goroutines, 1),
		cli.AtLeast("batch", cfg.Batch, 0),
	)
}

// run is the program without its flags and output: it builds the loads,
// runs them and returns the report.
func run(cfg config) (*report, error) {
	start := time.Now()
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	logf("gossip: %s validators, %d slot(s), a node on %d subnets; every verdict is checked against the one expected.", group(int(cfg.Validators)), cfg.Slots, cfg.Subnets)
	if cfg.Baseline != baselineNone {
		logf("gossip: it measures the speedup of the pool over verifying each signature alone, on the clean load; expect about %s with the defaults.", referenceSpeedup)
	}

	e := &env{cfg: cfg, net: pooltest.NewNetwork(cfg.Validators, firstSlot+uint64(cfg.Slots))}
	if cfg.PTC {
		// The chain reaches Gloas: the aggregates are signed over the Gloas
		// AggregateAndProof's root, and the pool takes payload attestations.
		e.net.Gloas = e.gloasNode()
	}
	cps, _ := e.net.Committees.CommitteeCountPerSlot(firstSlot / e.net.SlotsPerEpoch)
	first, _ := e.net.Committees.BeaconCommittee(firstSlot, 0)
	rep := &report{
		Validators: cfg.Validators, Slots: cfg.Slots, Subnets: cfg.Subnets, CommitteesPerSlot: cps, CommitteeSize: len(first),
		Topics: map[string]*topicSummary{}, AggregateFaults: map[string]faultSummary{}, ptc: cfg.PTC,
		GOMAXPROCS: runtime.GOMAXPROCS(0), Goroutines: cfg.Goroutines, Seed: cfg.Seed, Shares: cfg.Shares,
	}

	// Which messages become faults, then the keys of everyone who signs.
	plans := make([]plan, cfg.Slots)
	var signers []uint64
	for s := range plans {
		slot := firstSlot + uint64(s)
		pl, err := planSlot(e.net, slot, cfg.Shares, cfg.Seed, uint64(cfg.Subnets))
		if err != nil {
			return nil, err
		}
		plans[s] = pl
		signers = append(signers, attestersOn(e.net, slot, uint64(cfg.Subnets))...)
		for _, x := range pl.extra {
			signers = append(signers, x.validator)
		}
		if cfg.PTC {
			signers = append(signers, e.ptcMembers(slot)...)
		}
	}
	logf("deriving the keys of %s validators…", group(len(signers)))
	t0 := time.Now()
	bar := newProgress(cfg.Progress, "keys", len(signers))
	for lo := 0; lo < len(signers); lo += 1024 {
		part := signers[lo:min(lo+1024, len(signers))]
		e.net.DeriveKeys(part)
		bar.Add(len(part))
	}
	bar.Done()
	rep.KeysDerived = len(signers)
	rep.DeriveSeconds = time.Since(t0).Seconds()
	logf("derived %d keys in %.2fs", len(signers), rep.DeriveSeconds)

	// Sign every slot, then inject the faults.
	logf("signing the slots' messages…")
	t0 = time.Now()
	sg := signer{net: e.net}
	bar = newProgress(cfg.Progress, "signing", len(signers))
	for _, pl := range plans {
		clean, err := sg.signSlotSubnets(pl.slot, uint64(cfg.Subnets), bar)
		if err != nil {
			return nil, err
		}
		extra := make([]message, len(pl.extra))
		for i, x := range pl.extra {
			if extra[i], err = sg.signVote(x); err != nil {
				return nil, err
			}
			bar.Add(1)
		}
		l := sg.inject(clean, pl, extra, cfg.Seed)
		if cfg.PTC {
			if l.ptcClean, l.ptcGossip, err = sg.signPTC(pl.slot, e.ptcMembers(pl.slot), cfg.Shares.Invalid, cfg.Seed); err != nil {
				return nil, err
			}
		}
		e.loads = append(e.loads, l)
	}
	bar.Done()
	rep.SignSeconds = time.Since(t0).Seconds()
	logf("signed %d attestations in %.2fs", len(signers), rep.SignSeconds)

	// Every aggregate of every slot, valid and with the faults.
	if !cfg.NoAggs {
		logf("generating the slots' aggregates…")
	}
	t0 = time.Now()
	gen := pooltest.NewAggregateTraffic(e.net, pooltest.AggregateConfig{Seed: cfg.Seed})
	for i := range e.loads {
		if cfg.NoAggs {
			break
		}
		l := &e.loads[i]
		var err error
		if l.aggClean, err = gen.Slot(l.slot, nil); err != nil {
			return nil, err
		}
		faults := aggregateFaults(cfg.Shares, len(l.aggClean), cps, cfg.PTC)
		if n := countFaults(faults); n > len(l.aggClean) {
			return nil, fmt.Errorf("slot %d: its %d aggregates cannot hold the %d aggregate faults asked for (one of each kind at least): %s",
				l.slot, len(l.aggClean), n, lowerShares)
		}
		if l.aggGossip, err = gen.Slot(l.slot, faults); err != nil {
			return nil, err
		}
	}
	rep.AggregateSeconds = time.Since(t0).Seconds()
	logf("generated the aggregates of %d slot(s) in %.2fs", len(e.loads), rep.AggregateSeconds)

	stopProfile := func() {}
	if cfg.CPUProfile != "" {
		stop, err := startProfile(cfg.CPUProfile)
		if err != nil {
			return nil, err
		}
		stopProfile = sync.OnceFunc(stop)
		defer stopProfile()
	}
	batched := pool.Config{BatchSize: cfg.Batch}
	// The baseline: the same pool, its verifier checking every signature
	// alone.
	perSig := batched
	perSig.SignatureVerifier = baseline.EachAlone{}
	var wrong []wrongVerdict
	nWrong := 0
	// load runs one load, keeps its wrong verdicts and adds its per-topic
	// figures to the report with topic.
	load := func(o runOpts, topic func(*topicSummary, topicOutcome)) (outcome, error) {
		out, err := e.runLoad(o)
		if err != nil {
			return out, err
		}
		nWrong += out.nWrong
		wrong = append(wrong, out.wrong[:min(len(out.wrong), maxWrongListed-len(wrong))]...)
		rep.addTopics(out, topic)
		return out, nil
	}

	// The clean load, batched: the heap is measured after it, pool open.
	logf("verifying the clean load through the pool…")
	clean, err := load(runOpts{label: "clean", cfg: batched, measureMem: true}, func(t *topicSummary, o topicOutcome) { t.CleanMessages, t.WallSeconds = o.messages, o.wall.Seconds() })
	if err != nil {
		return nil, err
	}
	rep.CleanMessages, rep.CleanVerdicts = clean.messages, clean.verdicts
	rep.VerifyWallSeconds = clean.wall.Seconds()
	rep.MessagesPerSecond = perSecond(clean.messages, rep.VerifyWallSeconds)
	rep.HeapBytes, rep.ProcessHeapBytes, rep.Aggregates = clean.heapBytes, clean.process, clean.poolAggregates
	logf("batched, clean load: %d messages in %.2fs (%d wrong)", clean.messages, rep.VerifyWallSeconds, clean.nWrong)

	// The gossip load, batched, with a block after each slot.
	logf("verifying the gossip load (with the faults) through the pool…")
	g, err := load(runOpts{label: "gossip", cfg: batched, gossip: true, pack: true}, func(t *topicSummary, o topicOutcome) { t.Messages, t.FaultsWallSeconds = o.messages, o.wall.Seconds() })
	if err != nil {
		return nil, err
	}
	rep.addAggregateFaults(g)
	rep.Messages, rep.Verdicts, rep.Rules, rep.ruleVerdict = g.messages, g.verdicts, g.rules, g.ruleVerdict
	rep.FaultsWallSeconds = g.wall.Seconds()
	rep.FaultsMessagesPerSecond = perSecond(g.messages, rep.FaultsWallSeconds)
	rep.Bisections = g.bisections
	rep.Faults = map[string]faultSummary{}
	for k := kind(1); k < numKinds; k++ {
		want := k.expected()
		rep.Faults[k.String()] = faultSummary{
			Description: kinds[k].what, Verdict: want.Verdict.String(), Rule: want.Rule(),
			Injected: g.byKind[k].injected, Found: g.byKind[k].found,
		}
		rep.FaultsInjected += g.byKind[k].injected
		rep.FaultsFound += g.byKind[k].found
	}
	rep.Block = blockSummary{
		OnChainAggregates: g.blockAggregates,
		AttestersIncluded: g.attestersIncluded, AttestersAccepted: g.attestersAccepted,
		PayloadAttestations: g.ptcBlock.attestations, PayloadAttestationsVerified: g.ptcBlock.verified,
		PTCPositionsIncluded: g.ptcBlock.positions, PTCPositionsAccepted: g.ptcBlock.accepted,
	}
	if g.attestersAccepted > 0 {
		rep.Block.Coverage = float64(g.attestersIncluded) / float64(g.attestersAccepted)
	}
	logf("batched, gossip load: %d messages in %.2fs, %d faults, %d found (%d wrong)", g.messages, rep.FaultsWallSeconds, rep.FaultsInjected, rep.FaultsFound, g.nWrong)
	stopProfile()

	// The baseline: the loads through per-signature verification. Its
	// verdicts are checked too.
	if cfg.Baseline != baselineNone {
		logf("verifying each signature alone (the baseline), clean load…")
		b, err := load(runOpts{label: "baseline", cfg: perSig}, func(t *topicSummary, o topicOutcome) { t.BaselineWallSeconds = o.wall.Seconds() })
		if err != nil {
			return nil, err
		}
		rep.BaselineWallSeconds = b.wall.Seconds()
		rep.Speedup = rep.BaselineWallSeconds / rep.VerifyWallSeconds
		logf("per signature, clean load: %.2fs (%d wrong)", rep.BaselineWallSeconds, b.nWrong)
	}
	if cfg.Baseline == baselineBoth {
		logf("verifying each signature alone (the baseline), gossip load…")
		bf, err := load(runOpts{label: "baseline+f", cfg: perSig, gossip: true}, func(t *topicSummary, o topicOutcome) { t.BaselineFaultsWallSeconds = o.wall.Seconds() })
		if err != nil {
			return nil, err
		}
		rep.BaselineFaultsWallSeconds = bf.wall.Seconds()
		rep.FaultsSpeedup = rep.BaselineFaultsWallSeconds / rep.FaultsWallSeconds
		logf("per signature, gossip load: %.2fs (%d wrong)", rep.BaselineFaultsWallSeconds, bf.nWrong)
	}
	rep.WrongVerdicts, rep.Wrong = nWrong, wrong
	rep.TotalSeconds = time.Since(start).Seconds()
	return rep, nil
}
