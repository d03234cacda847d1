package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// runOpts says what one pass of a load through a pool measures.
type runOpts struct {
	label      string // of the progress bar and of the wrong verdicts
	cfg        pool.Config
	gossip     bool // the gossip load (faults) rather than the clean one
	pack       bool // ask for a block after each slot
	measureMem bool // the heap the pool holds after the load
}

// outcome is what one pass found.
type outcome struct {
	messages    int
	wall        time.Duration // summed over slots: first submission to last verdict
	verdicts    map[string]int
	rules       map[string]int
	ruleVerdict map[string]string
	byKind      [numKinds]struct{ injected, found int }
	wrong       []wrongVerdict
	nWrong      int

	// With runOpts.pack: the blocks for slot+1 after each slot.
	blockAggregates    int // on-chain aggregates of the simulated slots
	attestersIncluded  int
	attestersAccepted  int
	poolAggregates     int    // Stats().Aggregates after the load
	bisections         int64  // Stats().Bisections after the load
	heapBytes, process uint64 // with runOpts.measureMem
}

// wrongVerdict is a message whose verdict is not the expected one.
type wrongVerdict struct {
	Run       string `json:"run"`
	Slot      uint64 `json:"slot"`
	Message   int    `json:"message"`
	Kind      string `json:"kind"`
	Validator int64  `json:"validator"`
	Want      string `json:"want"`
	Got       string `json:"got"`
}

// maxWrongListed bounds the wrong verdicts kept for the report.
const maxWrongListed = 50

// runLoad sends the load of every slot through a new pool, slot after slot
// with the clock 4 s into the slot: first the slot's messages from the
// goroutines, then, once they all have their verdicts, its late copies.
func (e *env) runLoad(o runOpts) (outcome, error) {
	out := outcome{verdicts: map[string]int{"accept": 0, "ignore": 0, "reject": 0}, rules: map[string]int{}, ruleVerdict: map[string]string{}}
	pick := func(l *slotLoad) []message {
		if o.gossip {
			return l.gossip
		}
		return l.clean
	}
	total := 0
	for i := range e.loads {
		total += len(pick(&e.loads[i]))
	}
	var before runtime.MemStats
	if o.measureMem {
		runtime.GC()
		runtime.ReadMemStats(&before)
	}
	p, err := pool.New(o.cfg, e.net.Node())
	if err != nil {
		return out, err
	}
	defer p.Close()

	bar := newProgress(e.cfg.Progress, o.label, total)
	for i := range e.loads {
		l := &e.loads[i]
		msgs := pick(l)
		e.net.SetSlot(l.slot, 4*time.Second)
		var early, late []int
		for j := range msgs {
			if msgs[j].late {
				late = append(late, j)
			} else {
				early = append(early, j)
			}
		}
		results := make([]pool.Result, len(msgs))
		t0 := time.Now()
		last := submit(p, msgs, early, results, e.cfg.Goroutines, bar)
		if len(late) > 0 {
			last = submit(p, msgs, late, results, e.cfg.Goroutines, bar)
		}
		out.wall += last.Sub(t0)
		out.messages += len(msgs)
		e.tally(&out, o.label, l.slot, msgs, results)

		if o.pack {
			for _, a := range p.AttestationsForBlock(l.slot + 1) {
				if a.Data.Slot == l.slot {
					out.blockAggregates++
					out.attestersIncluded += int(a.AggregationBits.Count())
				}
			}
		}
	}
	bar.Done()
	st := p.Stats()
	out.poolAggregates, out.bisections = st.Aggregates, st.Bisections
	if o.measureMem {
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		out.process = after.HeapAlloc
		if after.HeapAlloc > before.HeapAlloc {
			out.heapBytes = after.HeapAlloc - before.HeapAlloc
		}
	}
	return out, nil
}

// submit sends msgs[idx] to p with ValidateAttestationAsync from goroutines
// goroutines (each its share of idx, in order, then waits for its
// verdicts), stores the verdicts in results and returns when the last
// arrived.
func submit(p *pool.Pool, msgs []message, idx []int, results []pool.Result, goroutines int, bar *progress) (last time.Time) {
	goroutines = max(1, goroutines)
	var wg sync.WaitGroup
	var mu sync.Mutex
	last = time.Now()
	for w := range goroutines {
		wg.Go(func() {
			var chans []<-chan pool.Result
			for k := w; k < len(idx); k += goroutines {
				m := &msgs[idx[k]]
				chans = append(chans, p.ValidateAttestationAsync(context.Background(), m.att, m.subnet))
			}
			for k, c := range chans {
				results[idx[w+k*goroutines]] = <-c
				bar.Add(1)
			}
			t := time.Now()
			mu.Lock()
			if t.After(last) {
				last = t
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	return last
}

// tally counts the verdicts of one slot and checks each against its
// message's kind.
func (e *env) tally(out *outcome, run string, slot uint64, msgs []message, results []pool.Result) {
	for i, r := range results {
		m := &msgs[i]
		out.verdicts[r.Verdict.String()]++
		out.rules[r.Rule()]++
		out.ruleVerdict[r.Rule()] = r.Verdict.String()
		if m.kind == valid && r.Verdict == pool.Accept {
			out.attestersAccepted++
		}
		ok := m.kind.matches(r)
		if m.kind != valid {
			out.byKind[m.kind].injected++
			if ok {
				out.byKind[m.kind].found++
			}
		}
		if ok {
			continue
		}
		out.nWrong++
		if len(out.wrong) < maxWrongListed {
			out.wrong = append(out.wrong, wrongVerdict{
				Run: run, Slot: slot, Message: i, Kind: m.kind.String(), Validator: m.validator(),
				Want: describe(m.kind.expected()), Got: describe(r),
			})
		}
	}
}

// describe is a verdict and its rule: "reject (invalid_signature)".
func describe(r pool.Result) string {
	if r.Verdict == pool.Accept && r.Err == nil {
		return "accept"
	}
	if r.Err == nil {
		return r.Verdict.String()
	}
	return fmt.Sprintf("%s (%s)", r.Verdict, r.Rule())
}

// env is one simulation: the network and its signed loads.
type env struct {
	cfg   config
	net   *pooltest.Network
	loads []slotLoad
}
