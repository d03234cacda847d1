package main

// The latency benchmark (-latency): a node's gossip arriving in real time,
// at the times of the mainnet arrival model (arrival.go), through the pool as
// attpool configures it and as each client does, with the verdict latency of
// every message. -gloas sends the traffic of the Gloas era: its deadlines,
// its rules and the PTC's votes.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
	"github.com/attpool/attpool/verifier/baseline"
)

// latencyConfig is the settings of -latency.
type latencyConfig struct {
	Validators uint64
	Loads      []loadSpec
	Policies   []string // names of policies(); empty: all
	Reps       int
	Att        arrival
	Agg        arrival       // of the aggregates, after their deadline (and of the PTC's votes)
	Aggregates bool          // mix every aggregate of the slot into each load
	AggOffset  time.Duration // from the attestations' deadline to the aggregates' (4 s; Gloas 3 s)
	// Gloas: the Gloas rules in force from the slot on, its deadlines
	// (gloasDeadlines) and every PTC vote of the slot mixed into each load,
	// PTCOffset after the attestations' deadline, with the aggregates'
	// arrival model.
	Gloas     bool
	PTCOffset time.Duration
	Seed      uint64
	RealTime  bool // do not skip the stretches in which nothing is in flight
	// Attackers, when positive, gives every message a forwarding peer: the
	// invalid ones come from Attackers peers of the attacker's, the valid
	// ones from honestPeers others (0: no peer, pool.NoPeer).
	Attackers int
	Log       io.Writer
	Progress  io.Writer
	// ProfileDir, when not empty, gets a CPU profile of each run (profiled).
	ProfileDir string
	// Budgets adds a policy per latency budget: attpool with
	// Config.LatencyBudget set to it (0: none), named attpool/<budget>.
	Budgets []time.Duration
	// Procs runs the loads again at each of these GOMAXPROCS values
	// (coreResult), interleaved with the runs at the process's own.
	Procs []int
	// Quick: a -quick run, not graded against the targets (checkTargets).
	Quick bool
}

// loadSpec is one load of the benchmark: a node on Subnets subnets with an
// Invalid share of its attestations carrying another attester's signature.
type loadSpec struct {
	Subnets int     `json:"subnets"`
	Invalid float64 `json:"invalid"`
}

func (l loadSpec) String() string {
	return fmt.Sprintf("%d subnets, %g%% invalid", l.Subnets, 100*l.Invalid)
}

// policy is one way to run the pool: attpool's defaults or one client's
// batching with that client's verification method.
type policy struct {
	Name   string `json:"name"`
	What   string `json:"what"`
	config func() pool.Config
}

// policies are the pool configurations the benchmark compares, attpool's
// first. The clients' batching (a batch when enough sets are queued or the
// oldest has waited long enough, at most a batch size) is that of their
// code, and each verifies with its own method (verifier/baseline):
// Prysm flushes its batch every 5 ms or at 1,000 sets
// (beacon-chain/sync/batch_verifier.go); Lighthouse/Grandine take what is
// queued when a worker is free, at most 64 (beacon_processor); Lodestar
// waits 50 ms unless 32 sets of one AttestationData are queued, at most 128
// (network/processor/gossipQueues); Teku takes what is queued when a thread
// is free, at most 250 (AggregatingSignatureVerificationService).
func policies() []policy {
	return []policy{
		{"attpool", "attpool defaults", func() pool.Config { return pool.Config{} }},
		{"prysm", "5 ms or 1,000 sets; unblinded per-root sums, distinct-message batch; each alone on failure",
			clientConfig(baseline.Prysm{})},
		{"lighthouse", "no wait, at most 64; distinct-message batch; each alone on failure",
			clientConfig(baseline.Lighthouse{})},
		{"lodestar", "32 sets or 50 ms, at most 128; same-root check; each alone on failure",
			clientConfig(baseline.Lodestar{})},
		{"teku", "no wait, at most 250; distinct-message batch; bisection down to 25, then each alone",
			clientConfig(baseline.Teku{})},
	}
}

// budgetPolicy is attpool's defaults with a latency budget of b (0: none).
func budgetPolicy(b time.Duration) policy {
	return policy{budgetName(b), fmt.Sprintf("attpool defaults, latency budget %v", b), func() pool.Config {
		if b == 0 {
			return pool.Config{LatencyBudget: -1}
		}
		return pool.Config{LatencyBudget: b}
	}}
}

// budgetName names the policy of latency budget b in milliseconds:
// attpool/5ms, attpool/0ms.
func budgetName(b time.Duration) string {
	return "attpool/" + strconv.FormatFloat(float64(b)/float64(time.Millisecond), 'g', -1, 64) + "ms"
}

// clientConfig is a client's batching and verification method: the
// baseline verifier carries the client's queue, which the pool then uses.
func clientConfig(v pool.SignatureVerifier) func() pool.Config {
	return func() pool.Config { return pool.Config{SignatureVerifier: v} }
}

// timed is one message of a load and when it arrives, after the
// attestation deadline (4 s into the slot).
type timed struct {
	at    time.Duration
	att   *attestation.SingleAttestation
	sub   uint64
	agg   *pooltest.AggregateMsg // an aggregate instead of att
	ptc   *ptcMsg                // a payload attestation instead of att
	valid bool                   // of an attestation
	from  pool.Peer              // the forwarding peer (latencyConfig.Attackers)
}

// submit sends the message and waits for its verdict.
func (m *timed) submit(p *pool.Pool) pool.Result {
	switch {
	case m.agg != nil:
		return p.ValidateAggregate(context.Background(), m.from, m.agg.Msg)
	case m.ptc != nil:
		return p.ValidatePayloadAttestation(context.Background(), m.from, m.ptc.msg)
	}
	return p.ValidateAttestation(context.Background(), m.from, m.att, m.sub)
}

// honestPeers is the number of honest peers the messages come from when
// latencyConfig.Attackers is set: about the peers a beacon node keeps.
const honestPeers = 64

// assignPeers gives each message of l its forwarding peer: an invalid one
// (attestation or aggregate) one of attackers' peers, a valid one one of
// honestPeers others. Honest peers validate before they forward, so only
// the attacker's peers deliver invalid signatures; this attacker forwards
// nothing else. rng is the peers' own, so the arrival times do not change.
func assignPeers(l *latencyLoad, attackers int, rng *rand.Rand) {
	for i := range l.msgs {
		m := &l.msgs[i]
		if c := m.class(); c == classInvalid || c == classAggregateInvalid || c == classPayloadInvalid {
			m.from = pool.Peer(fmt.Sprint("attacker-", rng.IntN(attackers)))
		} else {
			m.from = pool.Peer(fmt.Sprint("peer-", rng.IntN(honestPeers)))
		}
	}
}

// ok reports whether r is the verdict the message must get.
func (m *timed) ok(r pool.Result) bool {
	switch {
	case m.agg != nil:
		return m.agg.Matches(r)
	case m.ptc != nil:
		return m.ptc.ok(r)
	}
	return verdictOK(m.valid, r)
}

// class is the message's row of the report: its topic and whether it is
// valid.
func (m *timed) class() int {
	switch {
	case m.agg != nil && m.agg.Fault == pooltest.AggregateValid:
		return classAggregate
	case m.agg != nil:
		return classAggregateInvalid
	case m.ptc != nil && m.ptc.valid:
		return classPayload
	case m.ptc != nil:
		return classPayloadInvalid
	case m.valid:
		return classValid
	}
	return classInvalid
}

// The classes of messages the report gives latencies of.
const (
	classValid = iota
	classInvalid
	classAggregate
	classAggregateInvalid
	classPayload
	classPayloadInvalid
	numClasses
)

// latencyLoad is a load's messages, sorted by arrival, and where the
// pool's clock stands in the slot: the attestations' deadline.
type latencyLoad struct {
	spec     loadSpec
	msgs     []timed
	deadline time.Duration
}

// attestationsOnly is l without its aggregates and payload attestations.
func (l *latencyLoad) attestationsOnly() *latencyLoad {
	out := &latencyLoad{spec: l.spec, deadline: l.deadline}
	for _, m := range l.msgs {
		if m.agg == nil && m.ptc == nil {
			out.msgs = append(out.msgs, m)
		}
	}
	return out
}

// runOutcome is what one run of a load through one policy measured.
type runOutcome struct {
	messages  int
	latency   [numClasses][]time.Duration // verdict latencies by class (not of bursts)
	wall, cpu time.Duration
	wrong     int
	lag       time.Duration           // the latest a message was submitted after its arrival time
	calls     int                     // verification calls (batches) the pool made
	sets      int                     // signature sets in them
	scheds    float64                 // goroutines made to run (schedulings), estimated
	costs     [numCosts]time.Duration // cpu by category (breakdownOf)
	sampled   time.Duration           // the CPU profile's samples, all of them
}

// buildLatencyLoads signs the attestations of the slot's committees on the
// largest subnet count asked for and makes each load from them: the
// attestations of its subnets, an invalid share of them with another
// attester's signature, and an arrival time for each from the model; with
// the aggregates and (Gloas) the PTC's votes of the slot, of the same
// invalid share, mixed in.
func buildLatencyLoads(cfg latencyConfig, net *pooltest.Network) ([]latencyLoad, error) {
	slot := uint64(firstSlot)
	most := 0
	for _, l := range cfg.Loads {
		most = max(most, l.Subnets)
	}
	sg := signer{net: net}
	e := &env{net: net}
	if cfg.Gloas {
		net.Gloas = e.gloasNode() // before the aggregates are signed: over the Gloas root
	}
	if err := deriveLatencyKeys(cfg, e, slot, most); err != nil {
		return nil, err
	}
	bar := newProgress(cfg.Progress, "signing", int(net.Validators/net.SlotsPerEpoch))
	all, err := sg.signSlotSubnets(slot, uint64(most), bar)
	bar.Done()
	if err != nil {
		return nil, err
	}
	var gen aggregateGen
	if cfg.Aggregates {
		if gen, err = newAggregateGen(net, cfg.Seed, slot); err != nil {
			return nil, err
		}
	}
	deadline := electraDeadlines.attestation
	if cfg.Gloas {
		deadline = gloasDeadlines.attestation
	}
	var loads []latencyLoad
	for li, spec := range cfg.Loads {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(li)))
		l := latencyLoad{spec: spec, deadline: deadline}
		if err := l.addAttestations(cfg, all, rng); err != nil {
			return nil, err
		}
		if cfg.Aggregates {
			aggs, err := gen.Slot(slot, pooltest.SignatureFaults(int(spec.Invalid*float64(gen.count)+0.5)))
			if err != nil {
				return nil, err
			}
			for i := range aggs {
				l.msgs = append(l.msgs, timed{at: cfg.AggOffset + cfg.Agg.draw(rng), agg: &aggs[i]})
			}
		}
		if cfg.Gloas {
			_, votes, err := sg.signPTC(slot, e.ptcMembers(slot), spec.Invalid, cfg.Seed+uint64(li))
			if err != nil {
				return nil, err
			}
			for i := range votes {
				l.msgs = append(l.msgs, timed{at: cfg.PTCOffset + cfg.Agg.draw(rng), ptc: &votes[i]})
			}
		}
		slices.SortStableFunc(l.msgs, func(a, b timed) int { return int(a.at - b.at) })
		if cfg.Attackers > 0 {
			assignPeers(&l, cfg.Attackers, rand.New(rand.NewPCG(cfg.Seed, uint64(len(cfg.Loads)+li))))
		}
		loads = append(loads, l)
	}
	return loads, nil
}

// deriveLatencyKeys derives the keys of the slot's attesters on the first
// subnets and (Gloas) of its PTC.
func deriveLatencyKeys(cfg latencyConfig, e *env, slot uint64, subnets int) error {
	net := e.net
	sg := signer{net: net}
	cps, _ := net.Committees.CommitteeCountPerSlot(slot / net.SlotsPerEpoch)
	var signers []uint64
	for ci := range cps {
		if sg.subnet(slot, ci) < uint64(subnets) {
			members, _ := net.Committees.BeaconCommittee(slot, ci)
			signers = append(signers, members...)
		}
	}
	if cfg.Gloas {
		ptc := e.ptcMembers(slot)
		if len(ptc) == 0 {
			return fmt.Errorf("-gloas: slot %d has no PTC", slot)
		}
		signers = append(signers, ptc...)
	}
	bar := newProgress(cfg.Progress, "keys", len(signers))
	for lo := 0; lo < len(signers); lo += 1024 {
		part := signers[lo:min(lo+1024, len(signers))]
		net.DeriveKeys(part)
		bar.Add(len(part))
	}
	bar.Done()
	return nil
}

// addAttestations adds the attestations of all on the load's subnets, an
// invalid share of them (drawn with rng) with the next one's signature,
// each at a time drawn from the model.
func (l *latencyLoad) addAttestations(cfg latencyConfig, all []message, rng *rand.Rand) error {
	var base []message
	for _, m := range all {
		if m.subnet < uint64(l.spec.Subnets) {
			base = append(base, m)
		}
	}
	if len(base) == 0 {
		return fmt.Errorf("load %v: no committee on those subnets", l.spec)
	}
	bad := make(map[int]bool)
	for _, i := range rng.Perm(len(base))[:int(l.spec.Invalid*float64(len(base))+0.5)] {
		bad[i] = true
	}
	for i, m := range base {
		t := timed{at: cfg.Att.draw(rng), att: m.att, sub: m.subnet, valid: !bad[i]}
		if bad[i] {
			att := *m.att
			att.Signature = base[(i+1)%len(base)].att.Signature
			t.att = &att
		}
		l.msgs = append(l.msgs, t)
	}
	return nil
}

// deadlines is where in the slot each topic's messages are due: the
// *_DUE_BPS of the consensus specs' configuration, as
// get_slot_component_duration_ms computes them (basis points of the slot,
// rounded down to the millisecond).
type deadlines struct{ attestation, aggregate, payload time.Duration }

// dueBPS is get_slot_component_duration_ms(bps) of a 12 s slot.
func dueBPS(bps int64) time.Duration {
	return time.Duration(bps*12000/10000) * time.Millisecond
}

var (
	// electraDeadlines: ATTESTATION_DUE_BPS 3333 and AGGREGATE_DUE_BPS 6667
	// (3.999 s and 8.000 s).
	electraDeadlines = deadlines{attestation: dueBPS(3333), aggregate: dueBPS(6667)}
	// gloasDeadlines: ATTESTATION_DUE_BPS_GLOAS 2500,
	// AGGREGATE_DUE_BPS_GLOAS 5000 and PAYLOAD_ATTESTATION_DUE_BPS 7500
	// (3 s, 6 s and 9 s).
	gloasDeadlines = deadlines{attestation: dueBPS(2500), aggregate: dueBPS(5000), payload: dueBPS(7500)}
)

// aggregateGen is pooltest's aggregate traffic and the number of
// aggregates of the slot (for the invalid share).
type aggregateGen struct {
	*pooltest.AggregateTraffic
	count int
}

func newAggregateGen(net *pooltest.Network, seed uint64, slot uint64) (aggregateGen, error) {
	g := aggregateGen{AggregateTraffic: pooltest.NewAggregateTraffic(net, pooltest.AggregateConfig{Seed: seed})}
	clean, err := g.Slot(slot, nil)
	g.count = len(clean)
	return g, err
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs send on a new pool of pc with the clock at l's deadline
// and tallies the verdicts send stores in res (and the latencies in lat,
// unless nil). Wall and CPU (the process's) run from just before send to
// its return, once every verdict is in.
func measure(pc pool.Config, net *pooltest.Network, l *latencyLoad, send func(p *pool.Pool, res []pool.Result, lat []time.Duration) time.Duration) (runOutcome, error) {
	reg := prometheus.NewRegistry()
	pc.Registerer = reg
	p, err := pool.New(pc, net.Node())
	if err != nil {
		return runOutcome{}, err
	}
	defer p.Close()
	net.SetSlot(firstSlot, l.deadline)
	n := len(l.msgs)
	res, lat := make([]pool.Result, n), make([]time.Duration, n)
	runtime.GC()
	cpu0, sched0, start := cpuTime(), schedulings(), time.Now()
	lag := send(p, res, lat)
	out := runOutcome{messages: n, wall: time.Since(start), cpu: cpuTime() - cpu0, lag: lag, scheds: schedulings() - sched0}
	out.calls, out.sets = batches(reg)
	for i := range l.msgs {
		m := &l.msgs[i]
		if !m.ok(res[i]) {
			out.wrong++
		}
		c := m.class()
		out.latency[c] = append(out.latency[c], lat[i])
	}
	return out, nil
}

// schedSample is the sampling of runtime/metrics' /sched/latencies: the
// runtime times one goroutine transition in every 8 (gTrackingPeriod).
const schedSample = 8

// schedulings estimates the times the process's goroutines have been made
// to run so far (wake-ups and new goroutines): the count of
// /sched/latencies times its sampling.
func schedulings() float64 {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return 0
	}
	var n uint64
	for _, c := range s[0].Value.Float64Histogram().Counts {
		n += c
	}
	return float64(n) * schedSample
}

// batches is the count and the sum of the pool's batch_sets histogram in
// reg: its verification calls and the sets in them.
func batches(reg *prometheus.Registry) (calls, sets int) {
	mfs, err := reg.Gather()
	if err != nil {
		return 0, 0
	}
	for _, mf := range mfs {
		if mf.GetName() != "attpool_batch_sets" {
			continue
		}
		for _, m := range mf.GetMetric() {
			h := m.GetHistogram()
			calls += int(h.GetSampleCount())
			sets += int(h.GetSampleSum())
		}
	}
	return calls, sets
}

// runTimed sends the load in real time: a dispatcher releases the messages
// whose arrival time has come, in steps of at least releaseStep, and starts
// a goroutine for each, which submits it (the pool's cheap rules run on it)
// and waits for its verdict. Unless realTime, a stretch in which no message
// is in flight is skipped (the pool has nothing to do in it; the clock of
// the arrivals moves on).
func runTimed(pc pool.Config, net *pooltest.Network, l *latencyLoad, realTime bool) (runOutcome, error) {
	return measure(pc, net, l, func(p *pool.Pool, res []pool.Result, lat []time.Duration) (lag time.Duration) {
		var inflight atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		var skipped time.Duration
		for i := 0; i < len(l.msgs); {
			now := time.Since(start) + skipped
			if wait := l.msgs[i].at - now; wait > 0 {
				if wait > idleSkipMin && !realTime && inflight.Load() == 0 {
					skipped += wait
				} else {
					time.Sleep(max(wait, releaseStep))
				}
				continue
			}
			for ; i < len(l.msgs) && l.msgs[i].at <= now; i++ {
				m, i := &l.msgs[i], i
				lag = max(lag, now-m.at)
				inflight.Add(1)
				wg.Go(func() {
					t0 := time.Now()
					res[i] = m.submit(p)
					lat[i] = time.Since(t0)
					inflight.Add(-1)
				})
			}
		}
		wg.Wait()
		return lag
	})
}

// idleSkipMin is the shortest idle stretch runTimed skips: shorter ones
// are not worth the dispatcher's bookkeeping.
const idleSkipMin = 2 * time.Millisecond

// releaseStep is the dispatcher's shortest sleep. Sleeping until each
// message (27 µs apart at the arrival peak of all 64 subnets) put the
// dispatcher itself up to 70-90 ms behind the arrival times on 2 cores
// (12-38 ms with the step); a node reads its peers' messages in batches
// too. Latencies run from each message's submission, so the step does not
// enter them.
const releaseStep = time.Millisecond

// verdictOK reports whether r is the verdict a message must get: Accept for
// a valid one, Reject for its signature for an invalid one.
func verdictOK(valid bool, r pool.Result) bool {
	if valid {
		return r.Verdict == pool.Accept && r.Err == nil
	}
	return r.Verdict == pool.Reject && errors.Is(r, pool.ErrInvalidSignature)
}

// burstCallers is how many messages the burst keeps in the pool at once:
// enough for full batches (2,048 reproduces the CPU of submitting every
// message without a goroutine each), far under gossipsub's throttle of
// concurrent validations.
const burstCallers = 2048

// runBurst sends the load's messages at once: burstCallers goroutines each
// call the blocking entry point for one message after another, as a gossip
// layer's validators run, so that up to burstCallers messages are in the
// pool at once. It is the burst the target "close to the burst" compares
// with; its latencies are not kept.
func runBurst(pc pool.Config, net *pooltest.Network, l *latencyLoad) (runOutcome, error) {
	o, err := measure(pc, net, l, func(p *pool.Pool, res []pool.Result, _ []time.Duration) time.Duration {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range min(burstCallers, len(l.msgs)) {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(l.msgs); i = int(next.Add(1) - 1) {
					res[i] = l.msgs[i].submit(p)
				}
			})
		}
		wg.Wait()
		return 0
	})
	o.latency = [numClasses][]time.Duration{}
	return o, err
}
