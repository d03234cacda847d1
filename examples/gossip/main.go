// Command gossip simulates a beacon node's attestation gossip: every
// validator of a slot attests (64 committees of 512 with 1,048,576
// validators), the SingleAttestations are submitted to an attpool pool from
// 64 goroutines, and the verdicts are checked. The same load is then verified
// by a pool set to verify each signature alone (the baseline).
//
//	go run ./examples/gossip -validators 1048576 -slots 1 -json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// report is the JSON output. verify_wall_seconds is the clean load (every
// signature valid) through the batching pool and baseline_wall_seconds the
// same load through a pool verifying every signature alone; both from the
// first submission to the last verdict, summed over the slots. The faults
// run is the load with -faults of the signatures invalid: messages,
// verdicts and faults_* are its counts (the clean run's are clean_verdicts).
type report struct {
	Validators          uint64         `json:"validators"`
	Slots               int            `json:"slots"`
	GOMAXPROCS          int            `json:"gomaxprocs"`
	Messages            int            `json:"messages"`
	Verdicts            map[string]int `json:"verdicts"`
	FaultsInjected      int            `json:"faults_injected"`
	FaultsFound         int            `json:"faults_found"`
	WrongVerdicts       int            `json:"wrong_verdicts"`
	VerifyWallSeconds   float64        `json:"verify_wall_seconds"`
	FaultsWallSeconds   float64        `json:"faults_wall_seconds,omitempty"`
	BaselineWallSeconds float64        `json:"baseline_wall_seconds,omitempty"`
	Speedup             float64        `json:"speedup,omitempty"`
	CleanVerdicts       map[string]int `json:"clean_verdicts"`
	HeapBytes           uint64         `json:"heap_bytes"`
	ProcessHeapBytes    uint64         `json:"process_heap_bytes"`
	Aggregates          int            `json:"aggregates"`
}

func main() {
	validators := flag.Uint64("validators", 1<<20, "number of validators")
	slots := flag.Int("slots", 1, "number of slots to simulate")
	faults := flag.Float64("faults", 0.01, "fraction of attestations with an invalid signature")
	goroutines := flag.Int("goroutines", 64, "submitting goroutines")
	baseline := flag.Bool("baseline", true, "also run the per-signature baseline")
	batch := flag.Int("batch", 0, "pool batch size (0: default)")
	asJSON := flag.Bool("json", false, "print the report as JSON")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the batched runs to this file")
	flag.Parse()

	logf := func(format string, args ...any) {
		if !*asJSON {
			log.Printf(format, args...)
		}
	}
	const first = 64 // first simulated slot (epoch 2)
	net := pooltest.NewNetwork(*validators, first+uint64(*slots))
	rep := report{Validators: *validators, Slots: *slots, GOMAXPROCS: runtime.GOMAXPROCS(0)}

	// Keys only for who attests in the simulated slots.
	t0 := time.Now()
	var attesters []uint64
	for s := range uint64(*slots) {
		attesters = append(attesters, net.Attesters(first+s)...)
	}
	net.DeriveKeys(attesters)
	logf("derived %d keys in %v", len(attesters), time.Since(t0))

	type slotLoad struct {
		faulty, clean []pooltest.Message
	}
	loads := make([]slotLoad, *slots)
	t0 = time.Now()
	for s := range *slots {
		slot := first + uint64(s)
		loads[s].clean = net.SlotMessages(slot, 0, 1)
		if *faults > 0 {
			loads[s].faulty = net.SlotMessages(slot, *faults, 1)
		}
	}
	logf("signed %d slots in %v", *slots, time.Since(t0))

	cfg := pool.Config{BatchSize: *batch}
	run := func(cfg pool.Config, pick func(slotLoad) []pooltest.Message, measure bool) (wall time.Duration, tally pooltest.Tally) {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		p, err := pool.New(cfg, net.Node())
		if err != nil {
			log.Fatal(err)
		}
		defer p.Close()
		for s := range *slots {
			net.SetSlot(first+uint64(s), 4*time.Second)
			msgs := pick(loads[s])
			results, w := pooltest.Submit(p, msgs, *goroutines)
			wall += w
			t := pooltest.Check(msgs, results)
			tally.Accept += t.Accept
			tally.Ignore += t.Ignore
			tally.Reject += t.Reject
			tally.FaultsInjected += t.FaultsInjected
			tally.FaultsFound += t.FaultsFound
			tally.Wrong = append(tally.Wrong, t.Wrong...)
		}
		if measure {
			runtime.GC()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			rep.ProcessHeapBytes = after.HeapAlloc
			if after.HeapAlloc > before.HeapAlloc {
				rep.HeapBytes = after.HeapAlloc - before.HeapAlloc
			}
			rep.Aggregates = p.Stats().Aggregates
		}
		return wall, tally
	}

	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	verdicts := func(t pooltest.Tally) map[string]int {
		return map[string]int{"accept": t.Accept, "ignore": t.Ignore, "reject": t.Reject}
	}
	// The clean load (the heap is measured after it, pool still open).
	wall, tally := run(cfg, func(l slotLoad) []pooltest.Message { return l.clean }, true)
	rep.VerifyWallSeconds = wall.Seconds()
	rep.Messages = tally.Accept + tally.Ignore + tally.Reject
	rep.CleanVerdicts, rep.Verdicts = verdicts(tally), verdicts(tally)
	rep.WrongVerdicts = len(tally.Wrong)
	logf("batched: %v for %d messages (%d wrong)", wall, rep.Messages, len(tally.Wrong))

	if *faults > 0 {
		w, t := run(cfg, func(l slotLoad) []pooltest.Message { return l.faulty }, false)
		rep.FaultsWallSeconds = w.Seconds()
		rep.Messages = t.Accept + t.Ignore + t.Reject
		rep.Verdicts = verdicts(t)
		rep.FaultsInjected, rep.FaultsFound = t.FaultsInjected, t.FaultsFound
		rep.WrongVerdicts += len(t.Wrong)
		logf("batched, %.1f%% faults: %v (%d faults, %d found, %d wrong)", 100**faults, w, t.FaultsInjected, t.FaultsFound, len(t.Wrong))
	}
	if *cpuprofile != "" {
		pprof.StopCPUProfile()
	}
	if *baseline {
		bcfg := cfg
		bcfg.PerSignature = true
		w, t := run(bcfg, func(l slotLoad) []pooltest.Message { return l.clean }, false)
		rep.BaselineWallSeconds = w.Seconds()
		rep.Speedup = w.Seconds() / wall.Seconds()
		logf("per-signature baseline: %v (%d wrong)", w, len(t.Wrong))
		rep.WrongVerdicts += len(t.Wrong)
	}

	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			log.Fatal(err)
		}
	} else {
		fmt.Printf("%+v\n", rep)
	}
	if rep.WrongVerdicts > 0 {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}
