package main

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/attpool/attpool/attestation"
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
	topics      [numTopics]topicOutcome
	aggFaults   map[string]*struct{ injected, found int }

	// With runOpts.pack: the blocks for slot+1 after each slot.
	blockAggregates    int // on-chain aggregates of the simulated slots
	attestersIncluded  int
	attestersAccepted  int
	ptcBlock           ptcBlock // with -ptc
	poolAggregates     int      // Stats().Aggregates after the load
	bisections         int64    // Stats().Bisections after the load
	heapBytes, process uint64   // with runOpts.measureMem
}

// The topics of the main job.
const (
	topicAttestation = iota
	topicAggregate
	topicPTC
	numTopics
)

var topicNames = [numTopics]string{"attestation", "aggregate", "payload_attestation"}

// topicOutcome is one topic's part of a pass: its messages, its wall time
// (first submission of the slot to the topic's last verdict, summed over
// slots) and its wrong verdicts.
type topicOutcome struct {
	messages int
	wall     time.Duration
	wrong    int
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

// item is one message of a pass: an attestation or an aggregate.
type item struct {
	att *message
	agg *pooltest.AggregateMsg
	ptc *ptcMsg
}

func (it item) topic() int {
	switch {
	case it.agg != nil:
		return topicAggregate
	case it.ptc != nil:
		return topicPTC
	}
	return topicAttestation
}

func (it item) late() bool {
	switch {
	case it.agg != nil:
		return it.agg.Late
	case it.ptc != nil:
		return false
	}
	return it.att.late
}

func (it item) send(p *pool.Pool) <-chan pool.Result {
	return pooltest.Async(func() pool.Result {
		switch {
		case it.agg != nil:
			return p.ValidateAggregate(context.Background(), pool.NoPeer, it.agg.Msg)
		case it.ptc != nil:
			return p.ValidatePayloadAttestation(context.Background(), pool.NoPeer, it.ptc.msg)
		}
		return p.ValidateAttestation(context.Background(), pool.NoPeer, it.att.att, it.att.subnet)
	})
}

// mix lists a slot's messages of every topic in one order, each topic's
// spread evenly over it (message i of n at (i+1)/(n+1)): the topics arrive
// mixed.
func mix(atts []message, aggs []pooltest.AggregateMsg, ptcs []ptcMsg) []item {
	type placed struct {
		at float64
		it item
	}
	var all []placed
	add := func(n int, it func(i int) item) {
		for i := range n {
			all = append(all, placed{float64(i+1) / float64(n+1), it(i)})
		}
	}
	add(len(atts), func(i int) item { return item{att: &atts[i]} })
	add(len(aggs), func(i int) item { return item{agg: &aggs[i]} })
	add(len(ptcs), func(i int) item { return item{ptc: &ptcs[i]} })
	slices.SortStableFunc(all, func(a, b placed) int { return cmp.Compare(a.at, b.at) })
	out := make([]item, len(all))
	for i, p := range all {
		out[i] = p.it
	}
	return out
}

// runLoad sends the load of every slot through a new pool, slot after slot
// with the clock 4 s into the slot: first the slot's messages of both topics
// from the goroutines, then, once they all have their verdicts, its late
// copies.
func (e *env) runLoad(o runOpts) (outcome, error) {
	out := outcome{verdicts: map[string]int{"accept": 0, "ignore": 0, "reject": 0}, rules: map[string]int{}, ruleVerdict: map[string]string{},
		aggFaults: map[string]*struct{ injected, found int }{}}
	pick := func(l *slotLoad) ([]message, []pooltest.AggregateMsg, []ptcMsg) {
		if o.gossip {
			return l.gossip, l.aggGossip, l.ptcGossip
		}
		return l.clean, l.aggClean, l.ptcClean
	}
	total := 0
	for i := range e.loads {
		atts, aggs, ptcs := pick(&e.loads[i])
		total += len(atts) + len(aggs) + len(ptcs)
	}
	var before runtime.MemStats
	if o.measureMem {
		runtime.GC()
		runtime.ReadMemStats(&before)
	}
	p, err := pool.New(o.cfg, e.node())
	if err != nil {
		return out, err
	}
	defer p.Close()

	bar := newProgress(e.cfg.Progress, o.label, total)
	for i := range e.loads {
		l := &e.loads[i]
		atts, aggs, ptcs := pick(l)
		items := mix(atts, aggs, ptcs)
		e.net.SetSlot(l.slot, 4*time.Second)
		var early, late []int
		for j := range items {
			if items[j].late() {
				late = append(late, j)
			} else {
				early = append(early, j)
			}
		}
		results := make([]pool.Result, len(items))
		doneAt := make([]time.Time, len(items))
		t0 := time.Now()
		submit(p, items, early, results, doneAt, e.cfg.Goroutines, bar)
		if len(late) > 0 {
			submit(p, items, late, results, doneAt, e.cfg.Goroutines, bar)
		}
		var last [numTopics]time.Time
		for j, it := range items {
			out.topics[it.topic()].messages++
			last[it.topic()] = latest(last[it.topic()], doneAt[j])
		}
		for tp := range numTopics {
			if !last[tp].IsZero() {
				out.topics[tp].wall += last[tp].Sub(t0)
			}
		}
		out.wall += latest(last[:]...).Sub(t0)
		out.messages += len(atts)
		accepted := e.tallyItems(&out, o.label, l.slot, items, results)

		if o.pack {
			e.packBlock(&out, p, l.slot, accepted)
			if e.cfg.PTC {
				e.packPayload(&out, p, l.slot)
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

// latest is the latest of ts.
func latest(ts ...time.Time) time.Time {
	var l time.Time
	for _, t := range ts {
		if t.After(l) {
			l = t
		}
	}
	return l
}

// packBlock asks for the block of slot+1 and counts the attesters of slot
// it includes among those accepted.
func (e *env) packBlock(out *outcome, p *pool.Pool, slot uint64, accepted map[uint64]bool) {
	included := map[uint64]bool{}
	for _, a := range p.AttestationsForBlock(slot+1, pool.BlockFilter{}).Attestations() {
		if a.Data.Slot != slot {
			continue
		}
		out.blockAggregates++
		for _, v := range e.onChainAttesters(slot, a) {
			if accepted[v] {
				included[v] = true
			}
		}
	}
	out.attestersIncluded += len(included)
	out.attestersAccepted += len(accepted)
}

// onChainAttesters lists the validators an on-chain Electra attestation of
// slot covers: its aggregation bits over the committees of its committee
// bits, in increasing committee order.
func (e *env) onChainAttesters(slot uint64, a *attestation.Attestation) []uint64 {
	var members []uint64
	for _, ci := range a.CommitteeBits.BitIndices() {
		c, ok := e.net.Committees.BeaconCommittee(slot, uint64(ci))
		if !ok {
			return nil
		}
		members = append(members, c...)
	}
	var out []uint64
	for _, i := range a.AggregationBits.BitIndices() {
		if i < len(members) {
			out = append(out, members[i])
		}
	}
	return out
}

// submit sends items[idx] to p from goroutines goroutines (each its share of
// idx, in order, then waits for its verdicts) and stores each verdict and
// when it came in results and doneAt.
func submit(p *pool.Pool, items []item, idx []int, results []pool.Result, doneAt []time.Time, goroutines int, bar *progress) {
	goroutines = max(1, goroutines)
	var wg sync.WaitGroup
	for w := range goroutines {
		wg.Go(func() {
			var chans []<-chan pool.Result
			for k := w; k < len(idx); k += goroutines {
				chans = append(chans, items[idx[k]].send(p))
			}
			for k, c := range chans {
				i := idx[w+k*goroutines]
				results[i] = <-c
				doneAt[i] = time.Now()
				bar.Add(1)
			}
		})
	}
	wg.Wait()
}

// tallyItems tallies a slot's verdicts by topic (the attestations through
// tally) and returns the attesters the pool accepted, from either topic.
func (e *env) tallyItems(out *outcome, run string, slot uint64, items []item, results []pool.Result) map[uint64]bool {
	accepted := map[uint64]bool{}
	var atts []message
	var attResults []pool.Result
	for j, it := range items {
		r := results[j]
		if it.ptc != nil {
			if r.Payload != nil {
				out.ptcBlock.accepted += len(r.Payload.Positions)
			}
			if !it.ptc.ok(r) {
				out.topics[topicPTC].wrong++
				out.nWrong++
				if len(out.wrong) < maxWrongListed {
					want := "accept"
					if !it.ptc.valid {
						want = "reject (invalid_payload_attestation_signature)"
					}
					out.wrong = append(out.wrong, wrongVerdict{Run: run, Slot: slot, Message: j, Kind: "payload_attestation",
						Validator: int64(it.ptc.msg.ValidatorIndex), Want: want, Got: describe(r)})
				}
			}
			continue
		}
		if it.agg == nil {
			atts, attResults = append(atts, *it.att), append(attResults, r)
			if it.att.kind == valid && r.Verdict == pool.Accept {
				accepted[it.att.att.AttesterIndex] = true
			}
			continue
		}
		// The specs' superset rule counts only aggregates seen on the topic
		// ("[IGNORE] A valid aggregate with a superset of aggregation bits
		// has not already been seen"), not the node's own aggregate of the
		// committee's single attestations: pooltest's verdicts hold as they
		// are on a node that gets both topics.
		m := it.agg
		ok := m.Matches(r)
		if m.Fault != pooltest.AggregateValid {
			f := out.aggFaults[m.Fault.String()]
			if f == nil {
				f = &struct{ injected, found int }{}
				out.aggFaults[m.Fault.String()] = f
			}
			f.injected++
			if ok {
				f.found++
			}
		}
		if r.Verdict == pool.Accept && m.Fault == pooltest.AggregateValid {
			for _, v := range e.participants(slot, m) {
				accepted[v] = true
			}
		}
		if ok {
			continue
		}
		out.topics[topicAggregate].wrong++
		out.nWrong++
		if len(out.wrong) < maxWrongListed {
			want := describe(pool.Result{Verdict: m.WantVerdict, Err: m.WantErr})
			out.wrong = append(out.wrong, wrongVerdict{
				Run: run, Slot: slot, Message: j, Kind: "aggregate " + m.Fault.String(),
				Validator: int64(m.Msg.Message.AggregatorIndex), Want: want, Got: describe(r),
			})
		}
	}
	before := out.nWrong
	e.tally(out, run, slot, atts, attResults)
	out.topics[topicAttestation].wrong += out.nWrong - before
	return accepted
}

// tally counts the verdicts of one slot and checks each against its
// message's kind.
func (e *env) tally(out *outcome, run string, slot uint64, msgs []message, results []pool.Result) {
	for i, r := range results {
		m := &msgs[i]
		out.verdicts[r.Verdict.String()]++
		out.rules[r.Rule()]++
		out.ruleVerdict[r.Rule()] = r.Verdict.String()
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
