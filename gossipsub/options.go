package gossipsub

import (
	"runtime"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"
)

// RouterConfig is what RouterOptions sets on a gossipsub router. Zero fields
// take the values of DefaultRouterConfig().
type RouterConfig struct {
	// SlotDuration is the slot time (12 s on mainnet); the seen-messages TTL
	// is two epochs of it, as the specs say.
	SlotDuration time.Duration
	// SlotsPerEpoch is SLOTS_PER_EPOCH (32 on mainnet).
	SlotsPerEpoch int
	// ValidateQueue is the queue of messages waiting for the validation
	// front-end (pubsub.WithValidateQueueSize); a full queue drops messages.
	ValidateQueue int
	// ValidateThrottle bounds the validations running at once over all
	// topics (pubsub.WithValidateThrottle).
	ValidateThrottle int
	// ValidateWorkers is the number of front-end workers that decode the
	// envelope and start the validators (pubsub.WithValidateWorkers).
	ValidateWorkers int
	// OutboundQueue is the queue of RPCs to each peer
	// (pubsub.WithPeerOutboundQueueSize); a full queue drops messages.
	OutboundQueue int
	// Score, when not nil, enables peer scoring (see PeerScore).
	Score *Score
	// Tracers receive the router's raw events (pubsub.WithRawTracer).
	Tracers []pubsub.RawTracer
}

// DefaultRouterConfig returns the values the zero fields of a RouterConfig
// stand for, a new RouterConfig each call. ValidateWorkers is left zero: it
// is GOMAXPROCS when the options are made.
func DefaultRouterConfig() RouterConfig {
	return RouterConfig{
		SlotDuration:  12 * time.Second,
		SlotsPerEpoch: 32,
		// A subnet's attestations arrive in a burst at a third of the
		// slot; the front-end only starts validators, so the queue absorbs
		// bursts of a few thousand messages without dropping (pubsub's
		// default is 32).
		ValidateQueue: 4096,
		// pubsub's default: enough validators in flight for the pool's
		// batches of every subscribed topic at once.
		ValidateThrottle: 8192,
		// Outbound queue per peer: a burst of a few hundred forwarded
		// messages per heartbeat must not be dropped (pubsub's default is
		// 32; Prysm uses 600).
		OutboundQueue: 1024,
	}
}

func (c RouterConfig) sanitize() RouterConfig {
	d := DefaultRouterConfig()
	if c.SlotDuration <= 0 {
		c.SlotDuration = d.SlotDuration
	}
	if c.SlotsPerEpoch <= 0 {
		c.SlotsPerEpoch = d.SlotsPerEpoch
	}
	if c.ValidateQueue <= 0 {
		c.ValidateQueue = d.ValidateQueue
	}
	if c.ValidateThrottle <= 0 {
		c.ValidateThrottle = d.ValidateThrottle
	}
	if c.ValidateWorkers <= 0 {
		// Workers only do envelope checks and start goroutines: one per
		// CPU (pubsub's default) leaves the CPUs to the verifier.
		c.ValidateWorkers = runtime.GOMAXPROCS(0)
	}
	if c.OutboundQueue <= 0 {
		c.OutboundQueue = d.OutboundQueue
	}
	return c
}

// GossipSubParams are the specs' gossipsub parameters (phase0
// p2p-interface.md): D 8, D_low 6, D_high 12, D_lazy 6, heartbeat 0.7 s,
// fanout TTL 60 s, mcache_len 6, mcache_gossip 3; the rest pubsub's
// defaults.
func GossipSubParams() pubsub.GossipSubParams {
	p := pubsub.DefaultGossipSubParams()
	p.D, p.Dlo, p.Dhi, p.Dlazy = 8, 6, 12, 6
	p.HeartbeatInterval = 700 * time.Millisecond
	p.FanoutTTL = 60 * time.Second
	p.HistoryLength, p.HistoryGossip = 6, 3
	return p
}

// RouterOptions are the options of pubsub.NewGossipSub for a beacon node:
// the specs' message-id function and gossipsub parameters, StrictNoSign
// with no author (messages are identified by content and signed in the
// application layer), max_message_size(), the seen-messages TTL of two
// epochs, the validation queue, throttle and workers of cfg, the outbound
// queue, and peer scoring when cfg.Score is set.
func RouterOptions(cfg RouterConfig) []pubsub.Option {
	cfg = cfg.sanitize()
	opts := []pubsub.Option{
		pubsub.WithMessageIdFn(MessageID),
		pubsub.WithMessageSignaturePolicy(pubsub.StrictNoSign),
		pubsub.WithNoAuthor(),
		pubsub.WithMaxMessageSize(MaxMessageSize),
		pubsub.WithSeenMessagesTTL(2 * time.Duration(cfg.SlotsPerEpoch) * cfg.SlotDuration),
		pubsub.WithGossipSubParams(GossipSubParams()),
		pubsub.WithValidateQueueSize(cfg.ValidateQueue),
		pubsub.WithValidateThrottle(cfg.ValidateThrottle),
		pubsub.WithValidateWorkers(cfg.ValidateWorkers),
		pubsub.WithPeerOutboundQueueSize(cfg.OutboundQueue),
		// Peer exchange on PRUNE: off, as consensus clients run it (peers
		// come from discv5, not from other peers' advertisements).
		pubsub.WithPeerExchange(false),
	}
	if s := cfg.Score; s != nil {
		opts = append(opts, pubsub.WithPeerScore(s.Params, s.Thresholds))
		if s.Inspect != nil {
			opts = append(opts, pubsub.WithPeerScoreInspect(s.Inspect, s.InspectPeriod))
		}
	}
	for _, t := range cfg.Tracers {
		opts = append(opts, pubsub.WithRawTracer(t))
	}
	return opts
}

// Score is a peer-scoring setup for RouterConfig.Score.
type Score struct {
	Params     *pubsub.PeerScoreParams
	Thresholds *pubsub.PeerScoreThresholds
	// Inspect, when not nil, receives every peer's score each
	// InspectPeriod (pubsub.WithPeerScoreInspect).
	Inspect       pubsub.PeerScoreInspectFn
	InspectPeriod time.Duration
}

// Score shape of the consensus clients (Prysm and Lighthouse derive theirs
// the same way): a peer at most earns maxInMesh from its time in a topic's
// mesh and maxFirstDeliveries from the messages it delivered first, weighted
// by the topic's weight; the aggregate topic weighs 0.5 and the 64
// attestation subnets 1 together.
const (
	maxInMesh          = 10.0
	maxFirstDeliveries = 40.0
	aggregateWeight    = 0.5
	subnetsWeight      = 1.0
)

// PeerScore returns the peer-scoring setup of a beacon node for the
// aggregate topic and the given attestation subnets of digest:
//
//   - thresholds as Prysm and Lighthouse set them: gossip -4000 (no gossip
//     to or from the peer), publish -8000 (not published to), graylist
//     -16000 (every RPC of the peer dropped before validation), accept PX
//     100, opportunistic graft 5;
//   - per topic, P1 (time in mesh, a slot quantum, capped after an hour) and
//     P2 (first deliveries, decaying over an epoch) bounded as above, P3 (mesh
//     deliveries) off, as clients leave it off where traffic is bursty;
//   - P4 (invalid messages: the REJECT verdicts) weighted so that k invalid
//     messages on one topic cost k² times the whole positive score a peer
//     can earn over these topics (with all 64 subnets, 75: 15 invalid
//     messages on a topic graylist a peer), decaying over 50 epochs;
//   - P6 (peers per IP) -35.11 past 10 peers, P7 (behaviour) -15.92 past 6,
//     decay intervals of one slot, scores retained for 100 epochs.
//
// slot is the slot duration (12 s on mainnet).
func PeerScore(digest ForkDigest, subnets []uint64, slot time.Duration) *Score {
	const slotsPerEpoch = 32
	epoch := slotsPerEpoch * slot
	decay := func(d time.Duration) float64 { return pubsub.ScoreParameterDecayWithBase(d, slot, 0.01) }

	weights := map[string]float64{AggregateTopic(digest): aggregateWeight}
	for _, s := range subnets {
		weights[AttestationTopic(digest, s)] = subnetsWeight / 64
	}
	maxPositive := 0.0
	for _, w := range weights {
		maxPositive += (maxInMesh + maxFirstDeliveries) * w
	}
	const meshCap = 3600 / 12 // an hour of slots
	const firstCap = 64       // first deliveries counted per topic, decaying over an epoch
	topics := make(map[string]*pubsub.TopicScoreParams, len(weights))
	for t, w := range weights {
		topics[t] = &pubsub.TopicScoreParams{
			SkipAtomicValidation:           true,
			TopicWeight:                    w,
			TimeInMeshWeight:               maxInMesh / meshCap,
			TimeInMeshQuantum:              slot,
			TimeInMeshCap:                  meshCap,
			FirstMessageDeliveriesWeight:   maxFirstDeliveries / firstCap,
			FirstMessageDeliveriesDecay:    decay(epoch),
			FirstMessageDeliveriesCap:      firstCap,
			InvalidMessageDeliveriesWeight: -maxPositive / w,
			InvalidMessageDeliveriesDecay:  decay(50 * epoch),
		}
	}
	return &Score{
		Params: &pubsub.PeerScoreParams{
			Topics:                      topics,
			AppSpecificScore:            func(peer.ID) float64 { return 0 },
			AppSpecificWeight:           1,
			IPColocationFactorWeight:    -35.11,
			IPColocationFactorThreshold: 10,
			BehaviourPenaltyWeight:      -15.92,
			BehaviourPenaltyThreshold:   6,
			BehaviourPenaltyDecay:       decay(10 * epoch),
			DecayInterval:               slot,
			DecayToZero:                 0.01,
			RetainScore:                 100 * epoch,
		},
		Thresholds: &pubsub.PeerScoreThresholds{
			GossipThreshold:             -4000,
			PublishThreshold:            -8000,
			GraylistThreshold:           -16000,
			AcceptPXThreshold:           100,
			OpportunisticGraftThreshold: 5,
		},
	}
}
