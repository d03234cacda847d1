package main

// The latency benchmark (-latency): a node's gossip arriving in real time,
// at the times of the mainnet arrival model (arrival.go), through the pool as
// attpool configures it and as each client does, with the verdict latency of
// every message.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

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
	Goroutines int // of the burst runs
	Att        arrival
	Seed       uint64
	RealTime   bool // do not skip the stretches in which nothing is in flight
	Log        io.Writer
	Progress   io.Writer
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
// first. The clients' batch sizes and waits are those of their code (see
// verifier/baseline for their methods): Prysm flushes its batch every 5 ms
// or at 1,000 sets; Lighthouse/Grandine and Teku take what is queued when a
// worker is free, at most 64 and 250; Lodestar waits 50 ms unless 32 sets of
// one AttestationData are queued, at most 128.
func policies() []policy {
	return []policy{
		{"attpool", "attpool defaults", func() pool.Config { return pool.Config{} }},
		{"prysm", "5 ms or 1,000 sets; unblinded per-root sums, distinct-message batch; each alone on failure",
			clientConfig(1000, 5*time.Millisecond, baseline.Prysm{})},
		{"lighthouse", "no wait, at most 64; distinct-message batch; each alone on failure",
			clientConfig(64, noWait, baseline.Lighthouse{})},
		{"lodestar", "32 sets or 50 ms, at most 128; same-root check; each alone on failure",
			clientConfig(128, 50*time.Millisecond, baseline.Lodestar{})},
		{"teku", "no wait, at most 250; distinct-message batch; bisection down to 25, then each alone",
			clientConfig(250, noWait, baseline.Teku{})},
	}
}

// clientConfig is a client's batching (at most size sets, a wait of delay)
// with its verification method.
func clientConfig(size int, delay time.Duration, v pool.SignatureVerifier) func() pool.Config {
	return func() pool.Config { return pool.Config{BatchSize: size, BatchDelay: delay, SignatureVerifier: v} }
}

// noWait is the least BatchDelay the pool takes (zero means its default):
// a set is verified as soon as a worker takes it.
const noWait = time.Nanosecond

// timed is one message of a load and when it arrives, after the
// attestation deadline (4 s into the slot).
type timed struct {
	at    time.Duration
	att   *attestation.SingleAttestation
	sub   uint64
	valid bool
}

// latencyLoad is a load's messages, sorted by arrival.
type latencyLoad struct {
	spec loadSpec
	msgs []timed
}

// runOutcome is what one run of a load through one policy measured.
type runOutcome struct {
	messages       int
	valid, invalid []time.Duration // verdict latencies (not of bursts)
	wall, cpu      time.Duration
	wrong          int
}

// buildLatencyLoads signs the attestations of the slot's committees on the
// largest subnet count asked for and makes each load from them: the
// attestations of its subnets, an invalid share of them with another
// attester's signature, and an arrival time for each from the model.
func buildLatencyLoads(cfg latencyConfig, net *pooltest.Network) ([]latencyLoad, error) {
	slot := uint64(firstSlot)
	most := 0
	for _, l := range cfg.Loads {
		most = max(most, l.Subnets)
	}
	sg := signer{net: net}
	cps, _ := net.Committees.CommitteeCountPerSlot(slot / net.SlotsPerEpoch)
	var signers []uint64
	for ci := range cps {
		if sg.subnet(slot, ci) < uint64(most) {
			members, _ := net.Committees.BeaconCommittee(slot, ci)
			signers = append(signers, members...)
		}
	}
	bar := newProgress(cfg.Progress, "keys", len(signers))
	for lo := 0; lo < len(signers); lo += 1024 {
		part := signers[lo:min(lo+1024, len(signers))]
		net.DeriveKeys(part)
		bar.Add(len(part))
	}
	bar.Done()
	bar = newProgress(cfg.Progress, "signing", int(net.Validators/net.SlotsPerEpoch))
	all, err := sg.signSlotSubnets(slot, uint64(most), bar)
	bar.Done()
	if err != nil {
		return nil, err
	}
	var loads []latencyLoad
	for li, spec := range cfg.Loads {
		var base []message
		for _, m := range all {
			if m.subnet < uint64(spec.Subnets) {
				base = append(base, m)
			}
		}
		if len(base) == 0 {
			return nil, fmt.Errorf("load %v: no committee on those subnets (%d committees a slot)", spec, cps)
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(li)))
		bad := make(map[int]bool)
		for _, i := range rng.Perm(len(base))[:int(spec.Invalid*float64(len(base))+0.5)] {
			bad[i] = true
		}
		l := latencyLoad{spec: spec}
		for i, m := range base {
			t := timed{at: cfg.Att.draw(rng), att: m.att, sub: m.subnet, valid: !bad[i]}
			if bad[i] {
				att := *m.att
				att.Signature = base[(i+1)%len(base)].att.Signature
				t.att = &att
			}
			l.msgs = append(l.msgs, t)
		}
		slices.SortStableFunc(l.msgs, func(a, b timed) int { return int(a.at - b.at) })
		loads = append(loads, l)
	}
	return loads, nil
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs send on a new pool of pc with the clock 4 s into the slot
// and tallies the verdicts send stores in res (and the latencies in lat,
// unless nil). Wall and CPU (the process's) run from just before send to
// its return, once every verdict is in.
func measure(pc pool.Config, net *pooltest.Network, l *latencyLoad, send func(p *pool.Pool, res []pool.Result, lat []time.Duration)) (runOutcome, error) {
	p, err := pool.New(pc, net.Node())
	if err != nil {
		return runOutcome{}, err
	}
	defer p.Close()
	net.SetSlot(firstSlot, 4*time.Second)
	n := len(l.msgs)
	res, lat := make([]pool.Result, n), make([]time.Duration, n)
	runtime.GC()
	cpu0, start := cpuTime(), time.Now()
	send(p, res, lat)
	out := runOutcome{messages: n, wall: time.Since(start), cpu: cpuTime() - cpu0}
	for i, m := range l.msgs {
		if !verdictOK(m.valid, res[i]) {
			out.wrong++
		}
		if m.valid {
			out.valid = append(out.valid, lat[i])
		} else {
			out.invalid = append(out.invalid, lat[i])
		}
	}
	return out, nil
}

// runTimed sends the load in real time: a dispatcher starts one goroutine
// per message at the message's arrival time, which submits it (the pool's
// cheap rules run on it) and waits for its verdict. Unless realTime, a
// stretch in which no message is in flight is skipped (the pool has nothing
// to do in it; the clock of the arrivals moves on).
func runTimed(pc pool.Config, net *pooltest.Network, l *latencyLoad, realTime bool) (runOutcome, error) {
	return measure(pc, net, l, func(p *pool.Pool, res []pool.Result, lat []time.Duration) {
		var inflight atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		var skipped time.Duration
		for i := range l.msgs {
			m := &l.msgs[i]
			wait := time.Until(start.Add(m.at - skipped))
			if wait > idleSkipMin && !realTime && inflight.Load() == 0 {
				skipped += wait
				wait = 0
			}
			if wait > 0 {
				time.Sleep(wait)
			}
			inflight.Add(1)
			wg.Go(func() {
				t0 := time.Now()
				res[i] = p.ValidateAttestation(context.Background(), m.att, m.sub)
				lat[i] = time.Since(t0)
				inflight.Add(-1)
			})
		}
		wg.Wait()
	})
}

// idleSkipMin is the shortest idle stretch runTimed skips: shorter ones
// are not worth the dispatcher's bookkeeping.
const idleSkipMin = 2 * time.Millisecond

// verdictOK reports whether r is the verdict a message must get: Accept for
// a valid one, Reject for its signature for an invalid one.
func verdictOK(valid bool, r pool.Result) bool {
	if valid {
		return r.Verdict == pool.Accept && r.Err == nil
	}
	return r.Verdict == pool.Reject && errors.Is(r, pool.ErrInvalidSignature)
}

// runBurst sends the load's messages at once, from goroutines goroutines:
// the burst the CPU target compares with. Its latencies are not kept.
func runBurst(pc pool.Config, net *pooltest.Network, l *latencyLoad, goroutines int) (runOutcome, error) {
	goroutines = max(1, goroutines)
	o, err := measure(pc, net, l, func(p *pool.Pool, res []pool.Result, _ []time.Duration) {
		var wg sync.WaitGroup
		for w := range goroutines {
			wg.Go(func() {
				var chans []<-chan pool.Result
				for i := w; i < len(l.msgs); i += goroutines {
					chans = append(chans, p.ValidateAttestationAsync(context.Background(), l.msgs[i].att, l.msgs[i].sub))
				}
				for k, c := range chans {
					res[w+k*goroutines] = <-c
				}
			})
		}
		wg.Wait()
	})
	o.valid, o.invalid = nil, nil
	return o, err
}
