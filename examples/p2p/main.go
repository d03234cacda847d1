// Command p2p runs attpool pools behind real go-libp2p-pubsub routers, in
// one process, on loopback only (127.0.0.1, no mDNS, DHT, NAT, relay or
// bootstrap; the hosts are connected directly):
//
//	go run ./examples/p2p
//
// A line of validating hosts (host i connected to host i+1), each with its
// own pool over one shared simulated chain (interop keys), forms the
// gossipsub meshes of the aggregate topic and of the slot's attestation
// subnets. Three source peers publish a slot of traffic without validating
// it: honest ones at both ends (valid attestations and aggregates, and the
// aggregates the specs IGNORE) and a faulty one in the middle (attestations
// with invalid signatures, on the wrong subnet or undecodable; aggregates
// breaking each REJECT rule). The program reports the delivery latency per
// hop, the verdicts per host, that no message the pools did not accept went
// past its entry host, and the sources' peer scores at their entry hosts
// after the slot.
//
// Router and validator settings, as a beacon node sets them (package
// gossipsub's RouterOptions, Config and PeerScore):
//
//   - validation queue 4096 (pubsub.WithValidateQueueSize; pubsub's 32 drops
//     a subnet's burst), global throttle 8192 (WithValidateThrottle),
//     front-end workers = GOMAXPROCS (WithValidateWorkers: they only start
//     validators), per-topic concurrency 1024 (WithValidatorConcurrency: the
//     validators block for the pool's batched verdict, so a topic needs as
//     many in flight as a batch holds), validator timeout 4 s
//     (WithValidatorTimeout: a third of a slot);
//   - outbound queue 1024 per peer, StrictNoSign and no author, the specs'
//     message-id, gossipsub D 8 / 6 / 12, heartbeat 0.7 s, seen TTL two
//     epochs;
//   - peer scoring with the thresholds of Prysm and Lighthouse (gossip -4000,
//     publish -8000, graylist -16000): below -16000 every RPC of a peer is
//     dropped before validation (counted as "dropped for the source's
//     score"), which the faulty source reaches with more faults than the
//     default (-aggregate-faults 2); -permissive sets thresholds no score
//     reaches, so that every message is validated.
//
// Every wait is bounded (setup, each phase until its verdicts are in or
// nothing happened for -idle, and -timeout overall); the program exits by
// itself, with status 1 if a verdict was wrong or a message not accepted
// was forwarded.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/attpool/attpool/examples/internal/cli"
	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/gossipsub/p2psim"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

type options struct {
	hosts, undecodable, wrongSubnet, aggFaults int
	validators                                 uint64
	invalid                                    float64
	seed                                       uint64
	timeout, idle                              time.Duration
	permissive                                 bool
	spread                                     time.Duration
}

// The flags' bounds. Every host runs its own pool, verifier and router in
// this process, so a longer line than maxHosts takes the machine rather
// than showing more. The chain needs two committees a slot for the
// wrong-subnet messages and the aggregate faults; the counts of faulty
// messages stay within what a slot of it holds.
const (
	maxHosts           = 32
	minValidators      = 8192
	maxInvalid         = 0.5
	maxUndecodable     = 1024
	maxWrongSubnet     = 256
	maxAggregateFaults = 4
	minTimeout         = time.Second
	maxTimeout         = time.Hour
	minIdle            = 10 * time.Millisecond
)

// parseFlags parses the program's flags from args into fs and checks them.
func parseFlags(fs *flag.FlagSet, args []string) (options, error) {
	var o options
	f := o.flags(fs)
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the traffic")
	fs.BoolVar(&o.permissive, "permissive", false, "thresholds no score reaches: every message is validated")
	return o, f.Parse(args)
}

// flags declares the flags that have bounds on fs (nil: none, to check o).
func (o *options) flags(fs *flag.FlagSet) *cli.Flags {
	f := cli.NewFlags(fs)
	cli.Bounded(f, &o.hosts, "hosts", 4, 2, maxHosts, "validating hosts, joined in a line (2 to 32)")
	cli.Bounded(f, &o.validators, "validators", 16384, minValidators, pool.DefaultConfig().MaxValidators, "validators of the simulated chain, 8,192 or more (a slot's attesters are 1/32 of them)")
	cli.Bounded(f, &o.invalid, "invalid", 0.02, 0, maxInvalid, "share of attestations with an invalid signature (0 to 0.5)")
	cli.Bounded(f, &o.undecodable, "undecodable", 8, 0, maxUndecodable, "attestation payloads that are not ssz_snappy (0 to 1024)")
	cli.Bounded(f, &o.wrongSubnet, "wrong-subnet", 4, 0, maxWrongSubnet, "valid attestations also published on another subnet (0 to 256)")
	cli.Bounded(f, &o.aggFaults, "aggregate-faults", 1, 0, maxAggregateFaults, "aggregates of each fault kind (0 to 4; the slot's aggregates must hold them)")
	cli.Bounded(f, &o.timeout, "timeout", 2*time.Minute, minTimeout, maxTimeout, "bound on the whole run (1s to 1h)")
	cli.Bounded(f, &o.idle, "idle", 5*time.Second, minIdle, maxTimeout, "end a phase when nothing happened for this long (10ms to -timeout)")
	cli.Bounded(f, &o.spread, "spread", time.Second, 0, maxTimeout, "each source spaces a phase's messages over this time (0: at once; at most -timeout)")
	f.Check(func() error { // -idle and -spread fit in the run
		if cli.Range("timeout", o.timeout, minTimeout, maxTimeout) != nil {
			return nil // the bounds of the three have their errors
		}
		return cli.Check(withinRun("idle", o.idle, o.timeout), withinRun("spread", o.spread, o.timeout))
	})
	return f
}

// check refuses options out of their bounds, naming the flags.
func (o options) check() error { return o.flags(nil).Run() }

// withinRun refuses a duration flag longer than a valid -timeout (and
// within its own bounds, which refuse it otherwise).
func withinRun(name string, d, timeout time.Duration) error {
	if d <= timeout || d > maxTimeout {
		return nil
	}
	return fmt.Errorf("-%s %v: want at most -timeout %v", name, d, timeout)
}

func main() {
	o, err := parseFlags(flag.CommandLine, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "p2p:", err)
		os.Exit(2)
	}
	ok, err := run(os.Stdout, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "p2p:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

func run(w io.Writer, o options) (bool, error) {
	if err := o.check(); err != nil {
		return false, err
	}
	const slot = 70
	net := pooltest.NewNetwork(o.validators, slot+1)
	digest, err := gossipsub.ComputeForkDigest(net.Forks.ForkVersion(slot/32), net.Forks.Root)
	if err != nil {
		return false, err
	}
	const honestA, honestB, faulty = 0, 1, 2
	t0 := time.Now()
	phases, subnets, err := p2psim.Traffic(net, digest, p2psim.TrafficConfig{
		Slot: slot, InvalidSignatures: o.invalid, Undecodable: o.undecodable, WrongSubnet: o.wrongSubnet,
		AggregateFaults: o.aggFaults, Spread: o.spread, Honest: []int{honestA, honestB}, Faulty: faulty, Seed: o.seed,
	})
	if err != nil {
		return false, fmt.Errorf("the traffic of -validators %d, -aggregate-faults %d: %w", o.validators, o.aggFaults, err)
	}
	fmt.Fprintf(w, "attpool p2p: %d validating hosts in a line on 127.0.0.1, GOMAXPROCS=%d, %d validators, slot %d, subnets %v, fork digest %x\n",
		o.hosts, runtime.GOMAXPROCS(0), o.validators, slot, subnets, digest[:])
	fmt.Fprintf(w, "traffic planned in %v: %s\n", time.Since(t0).Round(time.Millisecond), describe(phases))

	score := p2psim.ClientScore(digest, subnets)
	if o.permissive {
		score = p2psim.PermissiveScore(digest, subnets)
	}
	entries := []int{honestA: 0, honestB: o.hosts - 1, faulty: o.hosts / 2}
	t0 = time.Now()
	sim, err := p2psim.Start(p2psim.Config{
		Hosts: o.hosts, Sources: entries, Network: net, Subnets: subnets, Digest: digest,
		Score: score, Setup: 30 * time.Second,
	})
	if err != nil {
		return false, err
	}
	defer sim.Close()
	fmt.Fprintf(w, "hosts connected and meshes formed in %v; sources: honest at hosts %d and %d, faulty at host %d\n",
		time.Since(t0).Round(time.Millisecond), entries[honestA], entries[honestB], entries[faulty])

	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	t0 = time.Now()
	res, err := sim.Run(ctx, phases, o.idle)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "run: %v for the three phases (each ends when its verdicts are in or after %v idle)\n\n", time.Since(t0).Round(time.Millisecond), o.idle)
	report(w, res, entries)
	return len(res.Wrong) == 0 && len(res.Forwarded) == 0, nil
}

// describe counts the planned messages by phase and expected verdict.
func describe(phases []p2psim.Phase) string {
	var parts []string
	for _, p := range phases {
		count := map[string]int{}
		for _, m := range p.Msgs {
			switch {
			case m.Want.Dedup:
				count["duplicate"]++
			default:
				count[m.Want.Verdict.String()]++
			}
		}
		parts = append(parts, fmt.Sprintf("%s %d (%s)", p.Name, len(p.Msgs), kv(count)))
	}
	return strings.Join(parts, ", ")
}

func kv(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

func report(w io.Writer, res *p2psim.Result, entries []int) {
	fmt.Fprintln(w, "delivery latency per hop (publication to delivery, the pool's verdict included):")
	fmt.Fprintln(w, "  hop  deliveries       p50       p90       max")
	for _, h := range res.Hops {
		fmt.Fprintf(w, "  %3d  %10d  %8s  %8s  %8s\n", h.Hop, h.Count, ms(h.P50), ms(h.P90), ms(h.Max))
	}
	fmt.Fprintln(w, "time in the validators per host (decoding and the pool's verdict):")
	for _, h := range res.Validation {
		fmt.Fprintf(w, "  host %d: %d validations, p50 %s, p90 %s, max %s\n", h.Hop, h.Count, ms(h.P50), ms(h.P90), ms(h.Max))
	}
	fmt.Fprintln(w, "\nverdicts per host (rule: count):")
	for h, v := range res.Verdicts {
		fmt.Fprintf(w, "  host %d: %s\n", h, kv(v))
	}
	fmt.Fprintf(w, "\nmessages not accepted that went past their entry host: %d\n", len(res.Forwarded))
	for _, f := range res.Forwarded {
		fmt.Fprintln(w, "  ", f)
	}
	fmt.Fprintf(w, "wrong or missing verdicts: %d\n", len(res.Wrong))
	for _, s := range res.Wrong {
		fmt.Fprintln(w, "  ", s)
	}
	fmt.Fprintf(w, "copies dropped by message-id: %d; dropped by a router before validation: %v; dropped for the source's score: %d\n",
		res.Deduplicated, res.RouterDropped, res.ScoreDropped)
	names := []string{"honest", "honest", "faulty"}
	fmt.Fprintln(w, "peer score of each source at its entry host after the slot:")
	for s, score := range res.SourceScores {
		fmt.Fprintf(w, "  source %d (%s, entry host %d): %.1f\n", s, names[s], entries[s], score)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond)) }
