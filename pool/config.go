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

// Config configures a Pool. Zero fields take their value from DefaultConfig()
// (each default with its reason there); New fails with ErrConfig on a value
// out of range.
type Config struct {
	// SlotsPerEpoch is SLOTS_PER_EPOCH (32 on mainnet).
	SlotsPerEpoch uint64
	// SlotDuration is the slot time (12 s on mainnet).
	SlotDuration time.Duration

	// Policy is how signature sets are gathered into the batches handed to
	// the verifier: BatchAdaptive (the default) or BatchFixed.
	Policy BatchPolicy
	// BatchSize is the most signature sets one batch holds, under both
	// policies.
	BatchSize int
	// BatchDelay is, under BatchFixed, how long the oldest queued set waits
	// for MinBatch sets before the queue is verified anyway. Under
	// BatchAdaptive it is the latency bound of a batch: a batch is cut to the number of sets the
	// recent passing batches verified, per set, in BatchDelay of wall time, so that
	// the verification of one batch (what a set that arrives while every
	// worker is busy waits for, and then what its own batch takes) lasts
	// about BatchDelay at most. Once a queued set has waited BatchDelay the
	// workers are behind, and batches go up to BatchSize again (less time
	// per set) until they catch up: the bound does not hold then, nor for
	// the time a failing batch spends finding its invalid sets. 0 means
	// DefaultConfig().BatchDelay under BatchAdaptive and FixedBatchDelay
	// under BatchFixed.
	BatchDelay time.Duration
	// LatencyBudget is, under BatchAdaptive, the longest a signature set
	// waits for companions (sets that arrive after it) before its batch's
	// verification starts. Within it the pool starts a batch at once or
	// waits, whichever costs less CPU per set by the cost of its recent
	// batches (a fixed cost per batch, a cost per signing root and per set,
	// measured as it runs) and the recent arrival rate of each root: batches
	// grow when waiting is cheap, and no set waits when nothing is coming. A
	// set that waits longer waits for a worker, not for companions: the
	// first verify worker, which takes every batch, is still verifying the
	// last one (the others take over once a set has waited BatchDelay). 0
	// means DefaultConfig().LatencyBudget; a negative value means no budget:
	// a free worker takes what is queued at once (the work-conserving rule).
	// BatchFixed ignores it.
	LatencyBudget time.Duration
	// MinBatch is, under BatchFixed, the number of queued sets that makes a
	// batch without waiting for BatchDelay; 1 means no wait at all (a free
	// worker takes what is queued). 0 means BatchSize: only a full batch
	// goes without waiting. BatchAdaptive ignores it.
	MinBatch int
	// VerifyWorkers is the number of batches verified at once (goroutines
	// owned by the pool; one more verifies isolated peers' sets); 0 means
	// GOMAXPROCS.
	VerifyWorkers int
	// MaxPeers bounds the peers whose invalid signatures the pool remembers
	// to isolate them (BatchAdaptive; see the package doc): a table of at
	// most MaxPeers entries, a few dozen bytes and the Peer's string each,
	// where a new peer takes the place of the lowest score. Negative: no
	// peer is isolated.
	MaxPeers int
	// PeerHalfLife is how fast a peer's invalid signatures are forgiven:
	// its score halves every PeerHalfLife. One invalid signature isolates a
	// peer for one PeerHalfLife. 0 means SlotDuration.
	PeerHalfLife time.Duration
	// MergeWorkers is the number of goroutines a large merge of signatures
	// is spread over; 0 means GOMAXPROCS.
	MergeWorkers int
	// Verifier configures the pool's verifier.
	Verifier verifier.Config
	// SignatureVerifier, when not nil, is the verifier the pool uses instead
	// of building its own from Verifier (which is then ignored): a node can
	// share one across pools and topics, and a benchmark can pass a baseline
	// (baseline.EachAlone checks every signature alone). The pool does not close it.
	SignatureVerifier SignatureVerifier

	// MaxPending bounds the signature sets queued, being verified or awaiting
	// their verdict.
	MaxPending int
	// MaxPendingPerPeer bounds those of the messages one peer forwarded,
	// so that no peer's flood takes the places of another's messages
	// (ErrQueueFull). The messages of NoPeer count as one peer's once a
	// message of a named peer has come: a node that passes no peers keeps
	// all of MaxPending for its messages, while in one that does, the
	// messages it cannot attribute crowd out no peer's. 0 means a quarter
	// of MaxPending (see DefaultConfig); at most MaxPending.
	MaxPendingPerPeer int
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

// BatchPolicy is how a Pool gathers signature sets into batches.
type BatchPolicy int

const (
	// BatchAdaptive, the default: a verify worker that is free takes what
	// is queued at once, or waits for more sets, within
	// Config.LatencyBudget, when a larger batch costs less per set; batches
	// grow with the backlog under load (the sets that arrived while the
	// workers were busy go together). Queued sets are
	// grouped by signing root, so that the verifier's same-root check pays;
	// the roots take turns, so a root with few sets is not held up by one
	// with many; BatchDelay bounds the verification time of a batch. Sets
	// forwarded by a peer that recently sent an invalid signature are
	// verified apart (see the package doc).
	BatchAdaptive BatchPolicy = iota
	// BatchFixed is the way of the clients: one FIFO of all sets, whatever
	// their root; a batch is formed when it holds MinBatch sets or its
	// oldest set has waited BatchDelay, of at most BatchSize sets. It does
	// not isolate peers.
	BatchFixed
)

// String names the policy.
func (b BatchPolicy) String() string {
	switch b {
	case BatchAdaptive:
		return "adaptive"
	case BatchFixed:
		return "fixed"
	}
	return fmt.Sprintf("BatchPolicy(%d)", int(b))
}

// FixedBatchDelay is what a zero BatchDelay means under BatchFixed: Prysm's
// batch wait (beacon-chain/sync/batch_verifier.go).
const FixedBatchDelay = 5 * time.Millisecond

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
// for. It returns a new Config each call: nothing a caller does to one
// changes the defaults. Why each value:
//
//   - SlotsPerEpoch 32: SLOTS_PER_EPOCH of the mainnet preset.
//   - SlotDuration 12 s: SLOT_DURATION_MS of the mainnet configuration.
//   - BatchSize 1024: the verifier's time per same-root set (µs, 64-bit
//     digits; verifybench, docs/bench/RESULTS.md) is 31.7 at 256 sets,
//     23.3 at 512, 21.2 at 1024 and 21.9 at 4096: past 1024 a batch costs
//     more latency and saves no time per set.
//   - BatchDelay 50 ms: about twice the 22 ms a full batch takes alone (1024 x
//     21.2 µs on 2 cores), as the VerifyWorkers batches verified at once share
//     the cores: the bound does not cut full batches when a backlog needs
//     them, while a slower machine gets smaller batches rather than slower
//     verdicts.
//   - LatencyBudget 5 ms: the wait Prysm chose for propagation. A node
//     validates a message before it forwards it, so a wait for companions
//     delays every hop of gossip, and 5 ms adds no more than Prysm's does.
//     The budget sweep of the latency benchmark (`go run ./examples/gossip
//     -latency -budgets 0,1,2,5,10,20,50`, 2 cores, both topics) has it take
//     15-36% off the CPU of no wait at 2, 16 and 64 subnets for a valid p99
//     of about Prysm's at 2 and 16 subnets; longer budgets cost less CPU
//     still but add about their length to every hop (docs/bench/RESULTS.md).
//   - MaxPending 2^16: two slots of the attestations of every subnet at 2^20
//     validators (2 x 2^15 sets): a pool more than two slots behind sheds load
//     (ErrQueueFull) rather than grow.
//   - MaxPeers 1024: ten times the hundred or so peers a beacon node keeps
//     connected, so the table holds every recent sender of invalid
//     signatures with room for churn, at a few dozen bytes and the Peer's
//     string an entry (about 100 KiB at most).
//   - MaxAggregates 2^15: half the TARGET_AGGREGATORS_PER_COMMITTEE aggregates
//     of a committee, kept apart where they overlap, for each committee of
//     the two epochs kept (8 x 2 x 32 x 64): a data keeps at most 4
//     overlapping aggregates a committee (the largest), so two data a
//     committee fit.
//   - MaxData 2^12: a distinct AttestationData for each committee of the two
//     epochs kept (2 x 32 x 64), where honest validators make one to three a
//     slot (one per head they see): a flood of distinct data finds the bound.
//   - MaxSeenAggregates 2^17: twice TARGET_AGGREGATORS_PER_COMMITTEE valid
//     aggregates for each committee of the two epochs kept (2 x 16 x 2 x 32 x
//     64): each member aggregates with probability 16 over the committee's
//     size, so the valid aggregates of two epochs number about 2^16 on
//     average, and a bound of 2^16 would miss half the time; about 100 bytes
//     each at mainnet committee size (13 MiB at most).
//   - MaxRootCache 2^12: as many data roots as MaxData, the data the store may
//     keep.
//   - MaxValidators 2^22: four times the mainnet registry (about 2^20); a
//     first-seen bitset costs at most MaxValidators/8 bytes (512 KiB) an
//     epoch.
//   - PruneInterval 500 ms: MAXIMUM_GOSSIP_CLOCK_DISPARITY: what the new slot
//     made useless is dropped at most that late, within what gossip allows
//     anyway.
//
// The fields it leaves zero are derived at New from the others or from the
// machine: MinBatch (BatchSize: under BatchFixed only a full batch goes
// without waiting, as in the clients), VerifyWorkers and MergeWorkers
// (GOMAXPROCS: the work is CPU-bound, one goroutine a core), PeerHalfLife
// (SlotDuration: one invalid signature isolates its peer for a slot, the span
// in which its attestations of that slot arrive), MaxPendingPerPeer (a
// quarter of MaxPending, half a slot of every subnet's attestations at the
// default: a backlog bound, far above what one peer forwards first while the
// pool keeps up, as a node's mesh peers share the first deliveries, and
// three flooding peers fill what the peers' reserves leave: see the package
// doc) and, under BatchFixed,
// BatchDelay (FixedBatchDelay, Prysm's wait).
//
// The measurements quoted are those of docs/bench/RESULTS.md (2 vCPUs,
// GOMAXPROCS=2), from `go run ./examples/verifybench -runs 5 -report docs/bench`.
func DefaultConfig() Config {
	return Config{
		SlotsPerEpoch:     mainnetSlotsPerEpoch,
		SlotDuration:      12 * time.Second,
		BatchSize:         1024,
		BatchDelay:        50 * time.Millisecond,
		LatencyBudget:     5 * time.Millisecond,
		MaxPending:        2 * attestationsPerSlot,
		MaxPeers:          1024,
		MaxAggregates:     TargetAggregatorsPerCommittee / 2 * keptCommittees,
		MaxData:           keptCommittees,
		MaxSeenAggregates: 2 * TargetAggregatorsPerCommittee * keptCommittees,
		MaxRootCache:      keptCommittees,
		MaxValidators:     4 * mainnetValidators,
		PruneInterval:     MaximumGossipClockDisparity,
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
	if c.Policy == BatchFixed {
		orDefault(&c.BatchDelay, FixedBatchDelay)
	}
	orDefault(&c.BatchDelay, d.BatchDelay)
	orDefault(&c.LatencyBudget, d.LatencyBudget)
	orDefault(&c.MinBatch, c.BatchSize)
	orDefault(&c.VerifyWorkers, runtime.GOMAXPROCS(0))
	orDefault(&c.MaxPeers, d.MaxPeers)
	orDefault(&c.PeerHalfLife, c.SlotDuration)
	orDefault(&c.MergeWorkers, runtime.GOMAXPROCS(0))
	orDefault(&c.MaxPending, d.MaxPending)
	orDefault(&c.MaxPendingPerPeer, max(aggregateSets, c.MaxPending/4))
	orDefault(&c.MaxAggregates, d.MaxAggregates)
	orDefault(&c.MaxData, d.MaxData)
	orDefault(&c.MaxSeenAggregates, d.MaxSeenAggregates)
	orDefault(&c.MaxRootCache, d.MaxRootCache)
	orDefault(&c.MaxValidators, d.MaxValidators)
	orDefault(&c.PruneInterval, d.PruneInterval)
}

// check reports the first value out of range.
func (c Config) check() error {
	switch {
	case c.SlotDuration < time.Millisecond:
		return fmt.Errorf("%w: SlotDuration %v", ErrConfig, c.SlotDuration)
	case c.Policy != BatchAdaptive && c.Policy != BatchFixed:
		return fmt.Errorf("%w: %v", ErrConfig, c.Policy)
	case c.BatchSize < 1, c.BatchDelay < 0, c.MinBatch < 1, c.MinBatch > c.BatchSize, c.VerifyWorkers < 1, c.MergeWorkers < 1:
		return fmt.Errorf("%w: batching (size %d, min %d, delay %v, workers %d/%d)", ErrConfig,
			c.BatchSize, c.MinBatch, c.BatchDelay, c.VerifyWorkers, c.MergeWorkers)
	case c.MaxPending < aggregateSets, c.MaxAggregates < 1, c.MaxData < 1, c.MaxSeenAggregates < 1, c.MaxRootCache < 1:
		return fmt.Errorf("%w: bounds must be positive", ErrConfig)
	case c.MaxPendingPerPeer < aggregateSets, c.MaxPendingPerPeer > c.MaxPending:
		return fmt.Errorf("%w: MaxPendingPerPeer %d of MaxPending %d", ErrConfig, c.MaxPendingPerPeer, c.MaxPending)
	case c.PeerHalfLife < 0:
		return fmt.Errorf("%w: PeerHalfLife %v", ErrConfig, c.PeerHalfLife)
	case c.PruneInterval < 0:
		return fmt.Errorf("%w: PruneInterval %v", ErrConfig, c.PruneInterval)
	}
	return nil
}

// isolatesPeers reports whether the pool verifies isolated peers' sets
// apart: under BatchAdaptive, unless MaxPeers is negative.
func (c Config) isolatesPeers() bool { return c.Policy == BatchAdaptive && c.MaxPeers > 0 }
