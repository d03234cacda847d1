// Command beaconnode shows how a beacon node embeds attpool's attestation
// pool: it wires the pool to the node's own state, to its gossip topic
// validators, to its logger and to its metrics endpoint, then runs a few
// seconds of simulated traffic through it.
//
//	go run ./examples/beaconnode [-validators 1024] [-slots 4] [-duration 4s] [-metrics 127.0.0.1:0] [-log-level debug]
//
// The wiring, in the order run does it:
//
//   - The node's state (node.go) implements the interfaces of pool.Node:
//     keyCache (pool.PublicKeys) holds the validators' keys decompressed
//     and validated once; committeeCache (pool.Committees) the shuffling of
//     the epochs around the clock; slotClock (pool.Clock) the time;
//     forkSchedule (pool.ForkSchedule) the fork versions and the genesis
//     validators root the signature domains are made of; forkChoice
//     (pool.ForkChoice) the block tree and checkpoints the chain rules of
//     the gossip topics look at. The pool calls them concurrently on its
//     hot path, so they answer from memory.
//   - pool.New gets a pool.Config with the node's slot timing, its
//     logrus.Logger (as a logrus.FieldLogger) and the Prometheus registry
//     the node serves on /metrics (promhttp).
//   - The gossip topics get attpool's go-libp2p-pubsub adapter
//     (github.com/attpool/attpool/gossipsub): gossipsub.NewValidators over
//     the pool, with the node's fork digest, validation timeout and logger,
//     gives a pubsub.ValidatorEx per topic, Attestation(subnet) for each
//     beacon_attestation_{subnet} and Aggregate() for
//     beacon_aggregate_and_proof, registered under the topic names of
//     gossipsub.AttestationTopic and gossipsub.AggregateTopic. Each
//     decompresses (snappy) and decodes (SSZ) the payload, rejecting one
//     that does not decode without the pool, hands it to the pool with the
//     forwarding peer, blocks until its signature has been verified in a
//     batch, and maps the pool's verdict to pubsub.ValidationAccept,
//     pubsub.ValidationIgnore or pubsub.ValidationReject
//     (gossipsub.ValidationOf). Its Observe hook feeds the node's own
//     validations metric.
//   - A block proposer asks the pool for the block's attestations
//     (AttestationsForBlock with a BlockFilter), letting only data whose source is its
//     justified checkpoint be packed.
//   - On shutdown the node closes the pool (which answers what it still
//     holds) and stops its HTTP server.
//
// The rest of the network is simulated (traffic.go): validators with the
// interop keys sign a vote per slot, and peers publish them, with copies and
// a few invalid messages, from many goroutines at once. The router is
// simulated too, in process (gossip.go): it calls the adapter's validators
// with real *pubsub.Message values, as go-libp2p-pubsub's validation
// pipeline does, but has no hosts, meshes, forwarding or peer scores; the
// multi-host run over real go-libp2p on loopback is examples/p2p. Slots are
// short (-duration divided by -slots) so that a few seconds cover several. At the
// end the program prints what the validators answered, the block's
// attestations and a few lines of its own /metrics, fetched over loopback.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/sirupsen/logrus"
	"golang.org/x/sync/errgroup"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/examples/internal/cli"
	"github.com/attpool/attpool/examples/internal/interop"
	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/ssz"
)

// config is the program's settings (its flags).
type config struct {
	Validators  uint64
	Slots       int
	Duration    time.Duration // of the simulated traffic: Slots slots
	MetricsAddr string        // where /metrics listens
	LogLevel    string
	LogOutput   io.Writer // nil: os.Stderr
}

// parseFlags parses the program's flags from args into fs and checks them.
func parseFlags(fs *flag.FlagSet, args []string) (config, error) {
	var cfg config
	fs.Uint64Var(&cfg.Validators, "validators", 1024, "number of validators (at least 128)")
	fs.IntVar(&cfg.Slots, "slots", 4, "number of slots of traffic")
	fs.DurationVar(&cfg.Duration, "duration", 4*time.Second, "wall time of the traffic (the slots are -duration/-slots long, 10ms or more)")
	fs.StringVar(&cfg.MetricsAddr, "metrics", "127.0.0.1:0", "listen address of the /metrics endpoint")
	fs.StringVar(&cfg.LogLevel, "log-level", "info", "log level (debug logs every message not accepted)")
	if err := cli.Parse(fs, args); err != nil {
		return cfg, err
	}
	return cfg, cfg.check()
}

// check refuses a config the program cannot run, naming the flags.
func (cfg config) check() error {
	if err := cli.Range("validators", cfg.Validators, 4*slotsPerEpoch, pool.DefaultConfig().MaxValidators); err != nil {
		return err
	}
	if cfg.Slots < 1 || cfg.Duration/time.Duration(cfg.Slots) < 10*time.Millisecond {
		return fmt.Errorf("-slots %d -duration %v: want at least one slot of 10ms or more", cfg.Slots, cfg.Duration)
	}
	if _, err := logrus.ParseLevel(cfg.LogLevel); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	return nil
}

func main() {
	cfg, err := parseFlags(flag.CommandLine, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "beaconnode:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	_, err = run(ctx, cfg, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "beaconnode:", err)
		os.Exit(1)
	}
}

const (
	firstSlot         = 2 * slotsPerEpoch // the traffic starts at epoch 2
	validationTimeout = 5 * time.Second   // the router's deadline per message
	// nodeID is the node's own peer ID (gossipsub.Config.Self): what it
	// publishes itself reaches the pool without a peer.
	nodeID = peer.ID("beaconnode")
)

// Fork versions of the toy chain's schedule.
var (
	denebVersion   = ssz.Version{0x04, 0, 0, 0}
	electraVersion = ssz.Version{0x05, 0, 0, 0}
)

// run is the program: it sets up the node, runs the traffic, prints the
// summary to stdout and shuts down. It returns an error if a message got an
// answer the simulation did not expect.
func run(ctx context.Context, cfg config, stdout io.Writer) (*report, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	slotDuration := cfg.Duration / time.Duration(cfg.Slots)

	// Logging: one logrus.Logger for the node; the pool gets it as a
	// FieldLogger and adds component=attpool to its entries.
	log := logrus.New()
	log.SetOutput(os.Stderr)
	if cfg.LogOutput != nil {
		log.SetOutput(cfg.LogOutput)
	}
	log.SetFormatter(&logrus.TextFormatter{FullTimestamp: true, TimestampFormat: "15:04:05.000"})
	level, err := logrus.ParseLevel(cfg.LogLevel)
	if err != nil {
		return nil, err
	}
	log.SetLevel(level)

	// The genesis state: the interop validators. Their secret keys belong
	// to the simulated network; the node sees only the compressed public
	// keys of the registry.
	t0 := time.Now()
	secrets, err := interop.SecretKeys(int(cfg.Validators))
	if err != nil {
		panic(err) // cannot happen: every index has a key
	}
	registry := make([][crypto.PublicKeySize]byte, cfg.Validators)
	for i, sk := range secrets {
		registry[i] = sk.PublicKey().Bytes()
	}

	// --- The node's state, implementing pool.Node ------------------------
	keys := &keyCache{}
	if err := keys.sync(registry); err != nil {
		return nil, err
	}
	forks := &forkSchedule{
		forks: []fork{
			{name: "deneb", epoch: 0, version: denebVersion},
			{name: "electra", epoch: 1, version: electraVersion},
		},
		genesisValidatorsRoot: genesisValidatorsRootOf(registry),
	}
	clock := &slotClock{slotDuration: slotDuration}
	clock.genesis = time.Now().Add(-firstSlot * slotDuration) // slot 64 starts now
	committees := newCommitteeCache(clock, cfg.Validators)
	chain := newForkChoice()
	for s := range uint64(firstSlot) { // the chain so far: a block every slot
		chain.importBlock(blockRoot(s), parentRoot(s), s, true)
	}
	justified := attestation.Checkpoint{Epoch: 1, Root: blockRoot(slotsPerEpoch)}
	chain.setCheckpoints(justified, attestation.Checkpoint{Epoch: 0, Root: blockRoot(0)})
	log.WithFields(logrus.Fields{
		"validators": cfg.Validators, "elapsed": time.Since(t0).Round(time.Millisecond),
	}).Info("key cache ready")

	// --- The pool ---------------------------------------------------------
	registerer := prometheus.NewRegistry()
	p, err := pool.New(pool.Config{
		SlotsPerEpoch: slotsPerEpoch,
		SlotDuration:  slotDuration,
		Logger:        log,
		Registerer:    registerer,
	}, pool.Node{
		GenesisTime: clock.genesis,
		Clock:       clock,
		Keys:        keys,
		Committees:  committees,
		Forks:       forks,
		Chain:       chain,
	})
	if err != nil {
		return nil, err
	}
	defer p.Close() // on error paths; Close is idempotent

	// --- Metrics: the pool's and the node's, on one registry -------------
	validations := prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: "beaconnode", Subsystem: "gossip", Name: "validations_total",
		Help: "Gossip messages validated, by topic and result.",
	}, []string{"topic", "result"})
	registerer.MustRegister(validations)
	ln, err := net.Listen("tcp", cfg.MetricsAddr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(registerer, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer srv.Close() // on error paths
	metricsURL := "http://" + ln.Addr().String() + "/metrics"

	// --- Gossip: the adapter's validator per topic ------------------------
	digest, err := gossipsub.ComputeForkDigest(forks.ForkVersion(firstSlot/slotsPerEpoch), forks.GenesisValidatorsRoot())
	if err != nil {
		return nil, err
	}
	validators, err := gossipsub.NewValidators(p, gossipsub.Config{
		Digest:  digest,
		Self:    nodeID,
		Timeout: validationTimeout,
		Logger:  log,
		Observe: countValidations(validations),
	})
	if err != nil {
		return nil, err
	}
	router := newRouter(validationTimeout)
	for subnet := range uint64(pool.AttestationSubnetCount) {
		if err := router.registerTopicValidator(gossipsub.AttestationTopic(digest, subnet), validators.Attestation(subnet)); err != nil {
			return nil, err
		}
	}
	if err := router.registerTopicValidator(gossipsub.AggregateTopic(digest), validators.Aggregate()); err != nil {
		return nil, err
	}

	// --- The traffic --------------------------------------------------------
	fmt.Fprintf(stdout, "beacon node: %d validators, slots %d-%d of %v, fork %s (digest %x)\n",
		cfg.Validators, firstSlot, firstSlot+cfg.Slots-1, slotDuration, forks.at(firstSlot/slotsPerEpoch).name, digest)
	fmt.Fprintf(stdout, "metrics: %s\n", metricsURL)
	nw := &network{secrets: secrets, committees: committees, forks: forks, chain: chain}
	rep := newReport(metricsURL)
	last := uint64(firstSlot + cfg.Slots - 1)
	for slot := uint64(firstSlot); slot <= last; slot++ {
		if err := sleepUntil(ctx, clock.slotStart(slot)); err != nil {
			return rep, err
		}
		// The slot's block arrives and is imported: attestations vote for it.
		chain.importBlock(blockRoot(slot), parentRoot(slot), slot, true)
		traffic, err := nw.traffic(slot, digest)
		if err != nil {
			return rep, err
		}
		if err := sleepUntil(ctx, clock.slotStart(slot).Add(slotDuration/3)); err != nil {
			return rep, err
		}
		before := rep.accepted()
		publish(ctx, router, traffic.attestations, rep)
		publish(ctx, router, traffic.copies, rep)
		if err := sleepUntil(ctx, clock.slotStart(slot).Add(2*slotDuration/3)); err != nil {
			return rep, err
		}
		publish(ctx, router, traffic.aggregates, rep)
		publish(ctx, router, traffic.subsets, rep)
		st := p.Stats()
		log.WithFields(logrus.Fields{
			"slot": slot, "messages": len(traffic.attestations) + len(traffic.copies) + len(traffic.aggregates) + len(traffic.subsets),
			"accepted": rep.accepted() - before, "pool_aggregates": st.Aggregates, "pool_data": st.Data,
		}).Info("slot done")
	}

	// --- A block proposal at the next slot ----------------------------------
	if err := sleepUntil(ctx, clock.slotStart(last+1)); err != nil {
		return rep, err
	}
	// The proposer's state decides what is includable: here, data whose
	// source is the justified checkpoint, filtered before the pool's
	// choice.
	rep.block = p.AttestationsForBlock(last+1, pool.BlockFilter{Includable: func(d *attestation.AttestationData) bool {
		return d.Source.Equal(&justified)
	}}).Attestations()

	// --- Summary, and /metrics read back over loopback ----------------------
	// (before Close: Close unregisters the pool's metrics from the registry)
	rep.metrics, err = fetch(ctx, metricsURL)
	if err != nil {
		return rep, fmt.Errorf("fetching /metrics: %w", err)
	}
	rep.print(stdout, last+1)

	// --- Shutdown: the pool first (it answers what it holds), then HTTP -----
	p.Close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return rep, err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return rep, err
	}
	log.Info("shut down")
	if len(rep.unexpected) > 0 {
		return rep, fmt.Errorf("%d unexpected validation results", len(rep.unexpected))
	}
	return rep, nil
}

// parentRoot is the parent of the toy chain's block at slot.
func parentRoot(slot uint64) [32]byte {
	if slot == 0 {
		return [32]byte{}
	}
	return blockRoot(slot - 1)
}

// publish hands msgs to the router as the peers send them: every message is
// validated on its own goroutine (at most 256 at once), as pubsub's
// validation pipeline does up to its throttle. It returns when every message
// has its result.
func publish(ctx context.Context, r *router, msgs []outgoing, rep *report) {
	var g errgroup.Group
	g.SetLimit(256)
	for _, o := range msgs {
		g.Go(func() error { rep.record(o, r.handle(ctx, &o.msg)); return nil })
	}
	_ = g.Wait() // the handlers return no error
}

func sleepUntil(ctx context.Context, t time.Time) error {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// fetch GETs url and returns the body.
func fetch(ctx context.Context, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", url, resp.Status)
	}
	return string(body), nil
}

// report collects the validation results of the run.
type report struct {
	metricsURL string

	mu         sync.Mutex
	results    map[string]map[pubsub.ValidationResult]int // topic kind -> result -> count
	rejectedBy map[peer.ID]int
	unexpected []string

	block   []*attestation.Attestation // the proposal's attestations
	metrics string                     // the /metrics body
}

func newReport(metricsURL string) *report {
	return &report{
		metricsURL: metricsURL,
		results:    make(map[string]map[pubsub.ValidationResult]int),
		rejectedBy: make(map[peer.ID]int),
	}
}

func (r *report) record(o outgoing, got pubsub.ValidationResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.results[o.kind] == nil {
		r.results[o.kind] = make(map[pubsub.ValidationResult]int)
	}
	r.results[o.kind][got]++
	from := o.msg.ReceivedFrom
	if got == pubsub.ValidationReject {
		r.rejectedBy[from]++
	}
	if got != o.want {
		r.unexpected = append(r.unexpected, fmt.Sprintf("%s from %s: %s, want %s", o.what, string(from), resultName(got), resultName(o.want)))
	}
}

// count returns the number of messages of kind ("" for all) with result.
func (r *report) count(kind string, result pubsub.ValidationResult) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for k, m := range r.results {
		if kind == "" || k == kind {
			n += m[result]
		}
	}
	return n
}

func (r *report) accepted() int { return r.count("", pubsub.ValidationAccept) }

// total returns the number of messages validated.
func (r *report) total() int {
	return r.count("", pubsub.ValidationAccept) + r.count("", pubsub.ValidationIgnore) + r.count("", pubsub.ValidationReject)
}

// metricPrefixes are the /metrics lines the summary shows.
var metricPrefixes = []string{
	"attpool_verdicts_total",
	"attpool_batch_sets_count",
	"attpool_batch_sets_sum",
	"attpool_aggregates ",
	"beaconnode_gossip_validations_total",
}

func (r *report) print(w io.Writer, blockSlot uint64) {
	fmt.Fprintln(w, "\nvalidation results:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "topic\taccept\tignore\treject\t")
	for _, kind := range []string{attestationKind, aggregateKind} {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", kind,
			r.count(kind, pubsub.ValidationAccept), r.count(kind, pubsub.ValidationIgnore), r.count(kind, pubsub.ValidationReject))
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t\n",
		r.count("", pubsub.ValidationAccept), r.count("", pubsub.ValidationIgnore), r.count("", pubsub.ValidationReject))
	tw.Flush()
	peers := make([]string, 0, len(r.rejectedBy))
	for p, n := range r.rejectedBy {
		peers = append(peers, fmt.Sprintf("%s (%s) %d", string(p), p, n))
	}
	slices.Sort(peers)
	fmt.Fprintf(w, "rejected by peer (to penalise): %s\n", strings.Join(peers, ", "))
	fmt.Fprintf(w, "unexpected results: %d\n", len(r.unexpected))
	for _, u := range r.unexpected {
		fmt.Fprintf(w, "  %s\n", u)
	}

	fmt.Fprintf(w, "\nblock at slot %d: %d attestations\n", blockSlot, len(r.block))
	for _, a := range r.block {
		fmt.Fprintf(w, "  slot %d, committees %v, %d attesters\n",
			a.Data.Slot, a.CommitteeBits.BitIndices(), a.AggregationBits.Count())
	}

	fmt.Fprintf(w, "\nfrom %s:\n", r.metricsURL)
	for line := range strings.Lines(r.metrics) {
		for _, prefix := range metricPrefixes {
			if strings.HasPrefix(line, prefix) {
				fmt.Fprintf(w, "  %s", line)
				break
			}
		}
	}
}
