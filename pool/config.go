package pool

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/verifier"
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

// Config configures a Pool. Zero fields take their value from DefaultConfig.
type Config struct {
	// SlotsPerEpoch is SLOTS_PER_EPOCH (32 on mainnet).
	SlotsPerEpoch uint64
	// SlotDuration is the slot time (12 s on mainnet).
	SlotDuration time.Duration

	// BatchSize is the number of signature sets that makes a batch full:
	// a full batch is verified at once.
	BatchSize int
	// BatchDelay is how long a signature set waits for its batch to fill
	// before it is verified anyway.
	BatchDelay time.Duration
	// VerifyWorkers is the number of batches verified at once (goroutines
	// owned by the pool); 0 means GOMAXPROCS.
	VerifyWorkers int
	// MergeWorkers is the number of goroutines a large merge of signatures
	// is spread over; 0 means GOMAXPROCS.
	MergeWorkers int
	// PerSignature makes the pool verify every signature alone (in
	// parallel) instead of in batch checks: the baseline of the benchmarks.
	// It sets Verifier.Individual.
	PerSignature bool
	// Verifier configures the pool's verifier.
	Verifier verifier.Config
	// SignatureVerifier, when not nil, is the verifier the pool uses instead
	// of building its own from Verifier and PerSignature (which are then
	// ignored): a node can share one across pools and topics. The pool does
	// not close it.
	SignatureVerifier SignatureVerifier

	// MaxPending bounds the signature sets queued or being verified.
	MaxPending int
	// MaxAggregates bounds the aggregates kept for block packing.
	MaxAggregates int
	// MaxData bounds the distinct AttestationData the pool keeps aggregates
	// of.
	MaxData int
	// MaxSeenAggregates bounds the aggregation bitlists remembered for the
	// superset rule of beacon_aggregate_and_proof.
	MaxSeenAggregates int
	// MaxRootCache bounds the cache of AttestationData roots.
	MaxRootCache int
	// MaxValidators bounds validator indices: the first-seen caches are
	// bitsets over them.
	MaxValidators uint64
	// PruneInterval is how often the pool looks at the clock to prune what
	// the new slot made useless.
	PruneInterval time.Duration

	// Logger receives the pool's logs; nil discards them.
	Logger logrus.FieldLogger
	// Registerer receives the pool's metrics; nil keeps them unregistered.
	Registerer prometheus.Registerer
}

// DefaultConfig is the configuration the zero fields of a Config stand for.
var DefaultConfig = Config{
	SlotsPerEpoch:     32,
	SlotDuration:      12 * time.Second,
	BatchSize:         1024,
	BatchDelay:        5 * time.Millisecond,
	MaxPending:        1 << 16,
	MaxAggregates:     1 << 15,
	MaxData:           1 << 12,
	MaxSeenAggregates: 1 << 16,
	MaxRootCache:      1 << 12,
	MaxValidators:     1 << 22,
	PruneInterval:     500 * time.Millisecond,
}

// sanitize fills in defaults and checks the values.
func (c Config) sanitize() (Config, error) {
	d := DefaultConfig
	if c.SlotsPerEpoch == 0 {
		c.SlotsPerEpoch = d.SlotsPerEpoch
	}
	if c.SlotDuration == 0 {
		c.SlotDuration = d.SlotDuration
	}
	if c.BatchSize == 0 {
		c.BatchSize = d.BatchSize
	}
	if c.BatchDelay == 0 {
		c.BatchDelay = d.BatchDelay
	}
	if c.VerifyWorkers == 0 {
		c.VerifyWorkers = runtime.GOMAXPROCS(0)
	}
	if c.MergeWorkers == 0 {
		c.MergeWorkers = runtime.GOMAXPROCS(0)
	}
	if c.MaxPending == 0 {
		c.MaxPending = d.MaxPending
	}
	if c.MaxAggregates == 0 {
		c.MaxAggregates = d.MaxAggregates
	}
	if c.MaxData == 0 {
		c.MaxData = d.MaxData
	}
	if c.MaxSeenAggregates == 0 {
		c.MaxSeenAggregates = d.MaxSeenAggregates
	}
	if c.MaxRootCache == 0 {
		c.MaxRootCache = d.MaxRootCache
	}
	if c.MaxValidators == 0 {
		c.MaxValidators = d.MaxValidators
	}
	if c.PruneInterval == 0 {
		c.PruneInterval = d.PruneInterval
	}
	if c.PerSignature {
		c.Verifier.Individual = true
	}
	if c.Logger == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		c.Logger = l
	}
	switch {
	case c.SlotDuration < time.Millisecond:
		return c, fmt.Errorf("%w: SlotDuration %v", ErrConfig, c.SlotDuration)
	case c.BatchSize < 1, c.BatchDelay < 0, c.VerifyWorkers < 1, c.MergeWorkers < 1:
		return c, fmt.Errorf("%w: batching (size %d, delay %v, workers %d/%d)", ErrConfig,
			c.BatchSize, c.BatchDelay, c.VerifyWorkers, c.MergeWorkers)
	case c.MaxPending < 3, c.MaxAggregates < 1, c.MaxData < 1, c.MaxSeenAggregates < 1, c.MaxRootCache < 1:
		return c, fmt.Errorf("%w: bounds must be positive", ErrConfig)
	case c.PruneInterval < 0:
		return c, fmt.Errorf("%w: PruneInterval %v", ErrConfig, c.PruneInterval)
	}
	return c, nil
}
