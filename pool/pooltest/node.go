package pooltest

import (
	"time"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/internal/memnode"
	"github.com/attpool/attpool/ssz"
)

// The in-memory node: implementations of the interfaces of pool.Node for
// tests, examples and simulations, each safe for concurrent use. A Network
// holds one of each; they can also be wired into a pool.Node one by one.

// ManualClock is a pool.Clock that moves only when told to: Now returns its
// time, Set(t) sets it, Advance(d) moves it by d.
type ManualClock = memnode.ManualClock

// NewManualClock returns a clock showing t.
func NewManualClock(t time.Time) *ManualClock { return memnode.NewManualClock(t) }

// InteropKeys is a pool.PublicKeys: the interop keys
// (crypto.InteropSecretKey) of validators [0, n), derived on first use and
// cached. PublicKey(i) and SecretKey(i) return validator i's keys (nil past
// the set); Derive(indices) derives those of indices in parallel.
type InteropKeys = memnode.InteropKeys

// NewInteropKeys returns the keys of a validator set of n validators.
func NewInteropKeys(n uint64) *InteropKeys { return memnode.NewInteropKeys(n) }

// ShuffledCommittees is a pool.Committees for a fixed set of n active
// validators: get_committee_count_per_slot's committee count
// (TARGET_COMMITTEE_SIZE 128), committees that split a per-epoch permutation
// of the validators as compute_committee does. The permutation is a simple
// affine one, not the specs' swap-or-not shuffle.
type ShuffledCommittees = memnode.ShuffledCommittees

// NewShuffledCommittees returns the committees of n validators.
func NewShuffledCommittees(n, slotsPerEpoch uint64) *ShuffledCommittees {
	return memnode.NewShuffledCommittees(n, slotsPerEpoch)
}

// CommitteePTC is a pool.PTCs over its Committees (SlotsPerEpoch slots an
// epoch): the PTC of a slot is PTC_SIZE members taken in turn from the
// slot's committees, concatenated in order. The specs draw the PTC from the
// same concatenation by balance-weighted sampling.
type CommitteePTC = memnode.CommitteePTC

// MemChain is a pool.ForkChoice over blocks added by hand: AddBlock(root,
// parent, slot, valid), SetPayloadStatus(root, status) (a block starts as
// pool.PayloadUnverified) and SetFinalized(checkpoint) say what the pool's
// lookups (Block, CheckpointBlock, BlockPayload, FinalizedCheckpoint)
// answer.
type MemChain = memnode.MemChain[pool.PayloadStatus]

// NewMemChain returns a chain with no blocks.
func NewMemChain(slotsPerEpoch uint64) *MemChain {
	return memnode.NewMemChain[pool.PayloadStatus](slotsPerEpoch)
}

// ForkList is a pool.ForkSchedule: Versions[i] signs from epoch Epochs[i]
// on (Epochs ascending, Epochs[0] = 0), Root is the genesis validators root.
type ForkList = memnode.ForkList

// SingleFork returns a schedule with one fork version from genesis.
func SingleFork(version ssz.Version, genesisValidatorsRoot ssz.Root) *ForkList {
	return memnode.SingleFork(version, genesisValidatorsRoot)
}
