// Package p2psim runs attpool pools behind real go-libp2p-pubsub routers on
// loopback, for the adapter's test and examples/p2p: a line of validating
// hosts (host i connected to host i+1), each with its own pool over one
// shared simulated chain (pool/pooltest), and source peers that publish
// traffic without validating it (the rest of the network, honest or not),
// each attached to one validating host, its entry host. Only 127.0.0.1 is
// used: no mDNS, DHT, NAT, relay or bootstrap; peers are connected directly.
//
// Every message's router events are recorded per host (received in an RPC,
// validated and with what outcome, delivered), so a run can tell delivery
// latency per hop, verdicts per host, the honest verdicts' latency, the
// heap's peak, and that messages not accepted went no further than their
// entry host. Traffic plans a slot of honest gossip with chosen faults;
// Attack adds an attacker's messages to it (invalid signatures, oversized
// payloads, a flood it lets time out), whose fates are tallied apart.
package p2psim

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"

	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// ErrConfig reports an invalid Config.
var ErrConfig = errors.New("attpool/gossipsub/p2psim: invalid config")

// Config configures a Net.
type Config struct {
	// Hosts is the number of validating hosts, joined in a line.
	Hosts int
	// Sources gives, for each source peer, the index of its entry host.
	Sources []int
	// Network is the simulated chain every pool validates against.
	Network *pooltest.Network
	// Subnets are the attestation subnets every validating host subscribes
	// to (with the aggregate topic).
	Subnets []uint64
	// Digest is the fork digest of the topics.
	Digest gossipsub.ForkDigest
	// Pool configures each host's pool (Logger, Registerer are per pool:
	// leave Registerer nil or give each pool its own through NewPool).
	Pool pool.Config
	// Validators configures each host's validators (Digest, Self and
	// Observe are set by the Net).
	Validators gossipsub.Config
	// Router configures each router (Score, Tracers are set by the Net).
	Router gossipsub.RouterConfig
	// Score, when not nil, gives the peer-scoring setup of each validating
	// host (its Inspect is set by the Net).
	Score func() *gossipsub.Score
	// Setup bounds the wait for connections, subscriptions and meshes.
	Setup time.Duration
}

// Host is one libp2p host of the Net.
type Host struct {
	Index  int // index among the validating hosts, or among the sources
	Source bool
	Host   host.Host
	PS     *pubsub.PubSub
	Pool   *pool.Pool // nil for a source
	topics map[string]*pubsub.Topic
}

// Net is a running simulation. Its goroutines (the hosts', the routers', the
// subscription readers) are stopped by Close.
type Net struct {
	cfg     Config
	Hosts   []*Host
	Sources []*Host
	topics  []string
	rec     *recorder

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (c *Config) check() error {
	switch {
	case c.Hosts < 1:
		return fmt.Errorf("%w: %d hosts", ErrConfig, c.Hosts)
	case c.Network == nil:
		return fmt.Errorf("%w: no Network", ErrConfig)
	}
	for _, e := range c.Sources {
		if e < 0 || e >= c.Hosts {
			return fmt.Errorf("%w: entry host %d of %d", ErrConfig, e, c.Hosts)
		}
	}
	if c.Setup <= 0 {
		c.Setup = 30 * time.Second
	}
	return nil
}

// Start starts the hosts, connects them, subscribes the validating hosts,
// and returns once every mesh holds each host's neighbours and every source
// knows its entry host's subscriptions (or fails after Config.Setup).
func Start(cfg Config) (*Net, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := &Net{cfg: cfg, ctx: ctx, cancel: cancel}
	n.topics = append(n.topics, gossipsub.AggregateTopic(cfg.Digest))
	for _, s := range cfg.Subnets {
		n.topics = append(n.topics, gossipsub.AttestationTopic(cfg.Digest, s))
	}
	n.rec = newRecorder(cfg.Hosts)
	if err := n.start(); err != nil {
		n.Close()
		return nil, err
	}
	return n, nil
}

func (n *Net) start() error {
	for i := range n.cfg.Hosts {
		h, err := n.newHost(i, false)
		if err != nil {
			return err
		}
		n.Hosts = append(n.Hosts, h)
	}
	for i := range n.cfg.Sources {
		h, err := n.newHost(i, true)
		if err != nil {
			return err
		}
		n.Sources = append(n.Sources, h)
	}
	setup, cancel := context.WithTimeout(n.ctx, n.cfg.Setup)
	defer cancel()
	for i := 1; i < len(n.Hosts); i++ {
		if err := connect(setup, n.Hosts[i-1], n.Hosts[i]); err != nil {
			return err
		}
	}
	for i, e := range n.cfg.Sources {
		if err := connect(setup, n.Sources[i], n.Hosts[e]); err != nil {
			return err
		}
	}
	return n.waitReady(setup)
}

// listen is the only address a host listens on: loopback, a free port.
const listen = "/ip4/127.0.0.1/tcp/0"

func newLibp2pHost() (host.Host, error) {
	return libp2p.New(
		libp2p.ListenAddrStrings(listen),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Security(noise.ID, noise.New),
		libp2p.Muxer(yamux.ID, yamux.DefaultTransport),
		libp2p.DisableRelay(),
		libp2p.DisableMetrics(),
		libp2p.DisableIdentifyAddressDiscovery(),
		libp2p.ResourceManager(&network.NullResourceManager{}),
	)
}

// newHost starts host i: a libp2p host, its router, and for a validating
// host its pool, validators and subscriptions; a source only joins the
// topics it publishes on.
func (n *Net) newHost(i int, source bool) (*Host, error) {
	lh, err := newLibp2pHost()
	if err != nil {
		return nil, fmt.Errorf("attpool/gossipsub/p2psim: libp2p host: %w", err)
	}
	h := &Host{Index: i, Source: source, Host: lh, topics: make(map[string]*pubsub.Topic)}
	rcfg := n.cfg.Router
	rcfg.Tracers = nil
	rcfg.Score = nil
	if !source {
		rcfg.Tracers = []pubsub.RawTracer{&tracer{host: i, rec: n.rec}}
		if n.cfg.Score != nil {
			s := *n.cfg.Score()
			s.Inspect = func(scores map[peer.ID]float64) { n.rec.scores(i, scores) }
			s.InspectPeriod = 100 * time.Millisecond
			rcfg.Score = &s
		}
	}
	h.PS, err = pubsub.NewGossipSub(n.ctx, lh, gossipsub.RouterOptions(rcfg)...)
	if err != nil {
		lh.Close()
		return nil, fmt.Errorf("attpool/gossipsub/p2psim: router: %w", err)
	}
	for _, t := range n.topics {
		if h.topics[t], err = h.PS.Join(t); err != nil {
			lh.Close()
			return nil, fmt.Errorf("attpool/gossipsub/p2psim: join %s: %w", t, err)
		}
	}
	if !source {
		if err := n.startValidating(h); err != nil {
			lh.Close()
			return nil, err
		}
	}
	return h, nil
}

// startValidating gives h its pool, registers its validators and subscribes
// it to every topic (a reader per subscription drains the deliveries).
func (n *Net) startValidating(h *Host) error {
	p, err := pool.New(n.cfg.Pool, n.cfg.Network.Node())
	if err != nil {
		return err
	}
	h.Pool = p
	vcfg := n.cfg.Validators
	vcfg.Digest, vcfg.Self = n.cfg.Digest, h.Host.ID()
	vcfg.Observe = func(o gossipsub.Outcome) { n.rec.validated(h.Index, o) }
	v, err := gossipsub.NewValidators(p, vcfg)
	if err != nil {
		return err
	}
	if err := v.Register(h.PS, n.cfg.Subnets...); err != nil {
		return err
	}
	for _, t := range n.topics {
		sub, err := h.topics[t].Subscribe()
		if err != nil {
			return fmt.Errorf("attpool/gossipsub/p2psim: subscribe %s: %w", t, err)
		}
		n.wg.Go(func() { drain(n.ctx, sub) })
	}
	return nil
}

// drain reads a subscription until ctx ends (the node's consumer of
// accepted messages; their content is already in the pool).
func drain(ctx context.Context, sub *pubsub.Subscription) {
	defer sub.Cancel()
	for {
		if _, err := sub.Next(ctx); err != nil {
			return
		}
	}
}

func connect(ctx context.Context, a, b *Host) error {
	info := peer.AddrInfo{ID: b.Host.ID(), Addrs: b.Host.Addrs()}
	if err := a.Host.Connect(ctx, info); err != nil {
		return fmt.Errorf("attpool/gossipsub/p2psim: connect: %w", err)
	}
	return nil
}

// waitReady waits until every validating host has grafted its neighbours in
// every topic's mesh and every source sees its entry host in every topic.
func (n *Net) waitReady(ctx context.Context) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !n.ready() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("attpool/gossipsub/p2psim: meshes not formed within %v", n.cfg.Setup)
		case <-tick.C:
		}
	}
	return nil
}

func (n *Net) ready() bool {
	for i := range n.Hosts {
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(n.Hosts) {
				continue
			}
			for _, t := range n.topics {
				if !n.rec.grafted(i, n.Hosts[j].Host.ID(), t) {
					return false
				}
			}
		}
	}
	for i, e := range n.cfg.Sources {
		for _, t := range n.topics {
			if !contains(n.Sources[i].PS.ListPeers(t), n.Hosts[e].Host.ID()) {
				return false
			}
		}
	}
	return true
}

func contains(ps []peer.ID, id peer.ID) bool {
	for _, p := range ps {
		if p == id {
			return true
		}
	}
	return false
}

// Close stops everything Start started. It is idempotent.
func (n *Net) Close() {
	n.cancel()
	n.wg.Wait()
	for _, h := range append(append([]*Host(nil), n.Hosts...), n.Sources...) {
		if h.Pool != nil {
			h.Pool.Close()
		}
		h.Host.Close()
	}
}

// Distance is the number of links between validating hosts a and b.
func Distance(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// ClientScore is the peer scoring of a beacon node (gossipsub.PeerScore) for
// Config.Score.
func ClientScore(digest gossipsub.ForkDigest, subnets []uint64) func() *gossipsub.Score {
	return func() *gossipsub.Score { return gossipsub.PeerScore(digest, subnets, 12*time.Second) }
}

// PermissiveScore is ClientScore with thresholds no score reaches, so that
// every message of a faulty source is validated and its verdict can be
// checked; the scores are still computed.
func PermissiveScore(digest gossipsub.ForkDigest, subnets []uint64) func() *gossipsub.Score {
	return func() *gossipsub.Score {
		s := gossipsub.PeerScore(digest, subnets, 12*time.Second)
		th := *s.Thresholds
		th.GossipThreshold, th.PublishThreshold, th.GraylistThreshold = -1e15, -2e15, -3e15
		s.Thresholds = &th
		return s
	}
}
