package pool

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/internal/clientbatch"
)

// Constants of the consensus specs (mainnet preset and configuration) that
// the gossip rules use.
const (
	// MaximumGossipClockDisparity is MAXIMUM_GOSSIP_CLOCK_DISPARITY.
	MaximumGossipClockDisparity = 500 * time.Millisecond
	// AttestationPropagationSlotRange is ATTESTATION_PROPAGATION_SLOT_RANGE.
	AttestationPropagationSlotRange = 32
	// AttestationSubnetCount is ATTESTATION_SUBNET_COUNT.
	AttestationSubnetCount = 64
	// TargetAggregatorsPerCommittee is TARGET_AGGREGATORS_PER_COMMITTEE.
	TargetAggregatorsPerCommittee = 16
	// MinAttestationInclusionDelay is MIN_ATTESTATION_INCLUSION_DELAY.
	MinAttestationInclusionDelay = 1
	// MaxCommitteesPerSlot is MAX_COMMITTEES_PER_SLOT.
	MaxCommitteesPerSlot = attestation.MaxCommitteesPerSlot
	// MaxAttestationsElectra is MAX_ATTESTATIONS_ELECTRA.
	MaxAttestationsElectra = attestation.MaxAttestationsElectra
)

// Config configures a Pool. Zero fields take their value from
// DefaultConfig() (docs/DESIGN.md says why each); New fails with ErrConfig,
// naming the field, on a value out of range.
type Config struct {
	// SlotsPerEpoch is SLOTS_PER_EPOCH.
	SlotsPerEpoch uint64
	// SlotDuration is the slot time.
	SlotDuration time.Duration

	// BatchSize is the most signature sets one verifier call holds.
	BatchSize int
	// BatchTime is the verification time a batch is cut to; queued sets
	// older than it mean the workers are behind.
	BatchTime time.Duration
	// LatencyBudget is the longest a set waits for companions, up to 4x under load; negative: none.
	LatencyBudget time.Duration
	// VerifyWorkers is the goroutines that verify and merge at once; 0: GOMAXPROCS.
	VerifyWorkers int
	// SignatureVerifier verifies the sets; nil: a verifier.Verifier of the pool's own.
	SignatureVerifier SignatureVerifier

	// MaxPeers bounds the peers remembered for isolation; negative: none isolated.
	MaxPeers int

	// MaxPending bounds the signature sets queued or being verified.
	MaxPending int
	// MaxPendingPerPeer bounds those of one peer's messages.
	MaxPendingPerPeer int
	// MaxAggregates bounds the aggregates kept for blocks.
	MaxAggregates int
	// MaxData bounds the AttestationData kept, their roots and seen aggregates.
	MaxData int
	// MaxValidators bounds validator indices (the first-seen bitsets).
	MaxValidators uint64

	// Logger receives the pool's logs; nil discards them.
	Logger logrus.FieldLogger
	// Registerer receives the pool's metrics; nil keeps them unregistered.
	Registerer prometheus.Registerer

	// fixed, when not nil, is a client's queue (clientbatch), taken from a
	// SignatureVerifier that models a client: the benchmarks' baseline.
	fixed *clientbatch.Batching
	// seenAggregates and rootCache bound the aggregation bitlists
	// remembered and the data roots cached; 0: derived from MaxData.
	seenAggregates, rootCache int
	// peerHalfLife is the time in which a peer's invalid signatures are
	// half forgiven; 0: a slot.
	peerHalfLife time.Duration
	// pruneEvery is how often the pool looks for a new slot to prune for;
	// 0: MaximumGossipClockDisparity.
	pruneEvery time.Duration
}

// What the defaults are derived from.
const (
	// mainnetSlotsPerEpoch is SLOTS_PER_EPOCH of the mainnet preset.
	mainnetSlotsPerEpoch = 32
	// mainnetValidators is the order of the mainnet validator registry
	// (about a million), which the default bounds are sized for.
	mainnetValidators = 1 << 20
	// keptEpochs is how many epochs the pool keeps: the current and the
	// previous one, the epochs gossip and blocks may still carry (prune).
	keptEpochs = 2
	// attestationsPerSlot is what a node subscribed to every subnet sees a
	// slot at mainnetValidators: each validator attests once an epoch.
	attestationsPerSlot = mainnetValidators / mainnetSlotsPerEpoch
	// keptCommittees is the committees of the kept epochs at
	// MAX_COMMITTEES_PER_SLOT (mainnet has 64 a slot from 2^18 validators).
	keptCommittees = keptEpochs * mainnetSlotsPerEpoch * MaxCommitteesPerSlot
	// aggregateSets is the signature sets of one aggregate (selection proof,
	// aggregator signature, aggregate signature): MaxPending holds at least
	// one aggregate.
	aggregateSets = 3
)

// DefaultConfig returns the configuration the zero fields of a Config stand
// for, a new Config each call. The fields it leaves zero are derived at New:
// VerifyWorkers from GOMAXPROCS, MaxPendingPerPeer from MaxPending (a
// quarter). docs/DESIGN.md ("The defaults") gives the reason for each value.
func DefaultConfig() Config {
	return Config{
		SlotsPerEpoch: mainnetSlotsPerEpoch,
		SlotDuration:  12 * time.Second,
		BatchSize:     1024,
		BatchTime:     50 * time.Millisecond,
		LatencyBudget: 5 * time.Millisecond,
		MaxPending:    2 * attestationsPerSlot,
		MaxPeers:      1024,
		MaxAggregates: TargetAggregatorsPerCommittee / 2 * keptCommittees,
		MaxData:       keptCommittees,
		MaxValidators: 4 * mainnetValidators,
	}
}

// sanitize fills in the defaults and checks the values.
func (c Config) sanitize() (Config, error) {
	c.fillDefaults()
	if c.Logger == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		c.Logger = l
	}
	return c, c.check()
}

// orDefault sets *v to def if it is zero.
func orDefault[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

// fillDefaults gives the zero fields their default.
func (c *Config) fillDefaults() {
	d := DefaultConfig()
	orDefault(&c.SlotsPerEpoch, d.SlotsPerEpoch)
	orDefault(&c.SlotDuration, d.SlotDuration)
	orDefault(&c.BatchSize, d.BatchSize)
	orDefault(&c.BatchTime, d.BatchTime)
	orDefault(&c.LatencyBudget, d.LatencyBudget)
	orDefault(&c.VerifyWorkers, runtime.GOMAXPROCS(0))
	orDefault(&c.MaxPeers, d.MaxPeers)
	orDefault(&c.peerHalfLife, c.SlotDuration)
	orDefault(&c.MaxPending, d.MaxPending)
	orDefault(&c.MaxPendingPerPeer, max(aggregateSets, c.MaxPending/4))
	orDefault(&c.MaxAggregates, d.MaxAggregates)
	orDefault(&c.MaxData, d.MaxData)
	// Twice TARGET_AGGREGATORS_PER_COMMITTEE aggregates a kept data.
	orDefault(&c.seenAggregates, 2*TargetAggregatorsPerCommittee*c.MaxData)
	orDefault(&c.rootCache, c.MaxData)
	orDefault(&c.MaxValidators, d.MaxValidators)
	orDefault(&c.pruneEvery, MaximumGossipClockDisparity)
	if cb, ok := c.SignatureVerifier.(clientbatch.Client); ok && c.fixed == nil {
		b := cb.ClientBatching()
		c.fixed = &b
	}
}

// check reports the first value out of range, naming its field.
func (c Config) check() error {
	bad := func(field string, v any) error { return fmt.Errorf("%w: %s %v", ErrConfig, field, v) }
	switch {
	case c.SlotDuration < time.Millisecond:
		return bad("SlotDuration", c.SlotDuration)
	case c.BatchSize < 1:
		return bad("BatchSize", c.BatchSize)
	case c.BatchTime < 0:
		return bad("BatchTime", c.BatchTime)
	case c.VerifyWorkers < 1:
		return bad("VerifyWorkers", c.VerifyWorkers)
	case c.MaxPending < aggregateSets:
		return bad("MaxPending", c.MaxPending)
	case c.MaxPendingPerPeer < aggregateSets, c.MaxPendingPerPeer > c.MaxPending:
		return bad("MaxPendingPerPeer", fmt.Sprintf("%d of MaxPending %d", c.MaxPendingPerPeer, c.MaxPending))
	case c.MaxAggregates < 1:
		return bad("MaxAggregates", c.MaxAggregates)
	case c.MaxData < 1, c.seenAggregates < 1, c.rootCache < 1:
		return bad("MaxData", c.MaxData)
	case c.fixed != nil && (c.fixed.Size < 1 || c.fixed.Min < 1 || c.fixed.Min > c.fixed.Size || c.fixed.Wait < 0):
		return bad("SignatureVerifier's client batching", *c.fixed)
	}
	return nil
}

// isolatesPeers reports whether the pool verifies isolated peers' sets
// apart: unless it batches as a client or MaxPeers is negative.
func (c Config) isolatesPeers() bool { return c.fixed == nil && c.MaxPeers > 0 }
