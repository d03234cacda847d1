package main

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/ssz"
)

// This file is the beacon node's own state, reduced to what the pool asks
// for. Each type implements one interface of pool.Node; the pool calls them
// from many goroutines on its hot path, so they are safe for concurrent use
// and answer from memory (caches the node keeps up to date), never from disk
// or the network.

const (
	slotsPerEpoch        = 32  // SLOTS_PER_EPOCH (mainnet)
	targetCommitteeSize  = 128 // TARGET_COMMITTEE_SIZE
	maxCommitteesPerSlot = pool.MaxCommitteesPerSlot
)

// ---------------------------------------------------------------------------
// Clock (pool.Clock)

// slotClock is the node's clock: the system clock, and the slot arithmetic
// from genesis. A real node would correct the system time (NTP); the pool
// only needs Now. The slots here are short so that a few seconds of traffic
// cover several of them.
type slotClock struct {
	genesis      time.Time
	slotDuration time.Duration
}

// Now implements pool.Clock.
func (c *slotClock) Now() time.Time { return time.Now() }

// slotStart is the time slot starts at.
func (c *slotClock) slotStart(slot uint64) time.Time {
	return c.genesis.Add(time.Duration(slot) * c.slotDuration)
}

// currentSlot is the slot of Now (0 before genesis).
func (c *slotClock) currentSlot() uint64 {
	d := c.Now().Sub(c.genesis)
	if d < 0 {
		return 0
	}
	return uint64(d / c.slotDuration)
}

// ---------------------------------------------------------------------------
// Validator keys (pool.PublicKeys)

// keyCache holds the validators' public keys decompressed and validated
// (KeyValidate) once, indexed by validator index: the state only has the 48
// compressed bytes, and decompressing a key costs more than the pool's whole
// share of verifying a signature. Readers take a snapshot of the slice
// without locking; sync appends the keys of new validators (deposits) and
// publishes a new slice.
type keyCache struct {
	mu   sync.Mutex // serializes writers
	keys atomic.Pointer[[]*crypto.PublicKey]
}

// PublicKey implements pool.PublicKeys: nil for a validator the node does
// not know (the pool then answers Ignore).
func (k *keyCache) PublicKey(index uint64) *crypto.PublicKey {
	keys := k.keys.Load()
	if keys == nil || index >= uint64(len(*keys)) {
		return nil
	}
	return (*keys)[index]
}

// sync decompresses the keys of registry (the state's validator pubkeys) that
// the cache does not hold yet, in parallel.
func (k *keyCache) sync(registry [][crypto.PublicKeySize]byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	var old []*crypto.PublicKey
	if p := k.keys.Load(); p != nil {
		old = *p
	}
	if len(registry) <= len(old) {
		return nil
	}
	keys := make([]*crypto.PublicKey, len(registry))
	copy(keys, old)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := len(old); i < len(registry); i++ {
		g.Go(func() (err error) {
			keys[i], err = crypto.PublicKeyFromBytes(registry[i][:]) // decompress, KeyValidate
			if err != nil {
				return fmt.Errorf("validator %d: %w", i, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	k.keys.Store(&keys)
	return nil
}

// ---------------------------------------------------------------------------
// Committees (pool.Committees)

// committeeCache keeps the shuffling of the epochs the node's state can
// compute: the previous, current and next epoch of the clock. A real node
// shuffles the active validators with compute_shuffled_index (swap-or-not)
// seeded from the state's RANDAO mix; a seeded permutation stands in for it
// here. Splitting the shuffled list into committees is the specs'
// compute_committee.
type committeeCache struct {
	clock      *slotClock
	validators uint64 // active validators (every validator here)

	mu     sync.Mutex
	epochs map[uint64][]uint64 // epoch -> shuffled active indices
}

func newCommitteeCache(clock *slotClock, validators uint64) *committeeCache {
	return &committeeCache{clock: clock, validators: validators, epochs: make(map[uint64][]uint64)}
}

// known reports whether the node's state can compute epoch's committees.
func (c *committeeCache) known(epoch uint64) bool {
	current := c.clock.currentSlot() / slotsPerEpoch
	return epoch+1 >= current && epoch <= current+1
}

// CommitteeCountPerSlot implements pool.Committees: the specs'
// get_committee_count_per_slot.
func (c *committeeCache) CommitteeCountPerSlot(epoch uint64) (uint64, bool) {
	if !c.known(epoch) {
		return 0, false
	}
	return max(1, min(maxCommitteesPerSlot, c.validators/slotsPerEpoch/targetCommitteeSize)), true
}

// BeaconCommittee implements pool.Committees: the specs'
// get_beacon_committee.
func (c *committeeCache) BeaconCommittee(slot, index uint64) ([]uint64, bool) {
	epoch := slot / slotsPerEpoch
	perSlot, ok := c.CommitteeCountPerSlot(epoch)
	if !ok || index >= perSlot {
		return nil, false
	}
	shuffled := c.shuffling(epoch)
	// compute_committee(indices, seed, index=(slot % SLOTS_PER_EPOCH) *
	// committees_per_slot + index, count=committees_per_slot * SLOTS_PER_EPOCH)
	i := (slot%slotsPerEpoch)*perSlot + index
	count := perSlot * slotsPerEpoch
	n := uint64(len(shuffled))
	return shuffled[n*i/count : n*(i+1)/count], true
}

func (c *committeeCache) shuffling(epoch uint64) []uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.epochs[epoch]; ok {
		return s
	}
	rng := rand.New(rand.NewPCG(epoch, 0x5eed))
	s := make([]uint64, c.validators)
	for i := range s {
		s[i] = uint64(i)
	}
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	for e := range c.epochs { // keep a few epochs
		if e+2 < epoch {
			delete(c.epochs, e)
		}
	}
	c.epochs[epoch] = s
	return s
}

// ---------------------------------------------------------------------------
// Fork schedule (pool.ForkSchedule)

type fork struct {
	name    string
	epoch   uint64
	version ssz.Version
}

// forkSchedule is the chain configuration's fork schedule and the genesis
// validators root: together they make the signature domains (and the fork
// digest in the gossip topic names).
type forkSchedule struct {
	forks                 []fork // ascending epochs, the first at 0
	genesisValidatorsRoot ssz.Root
}

// ForkVersion implements pool.ForkSchedule.
func (f *forkSchedule) ForkVersion(epoch uint64) ssz.Version {
	return f.at(epoch).version
}

// GenesisValidatorsRoot implements pool.ForkSchedule.
func (f *forkSchedule) GenesisValidatorsRoot() ssz.Root { return f.genesisValidatorsRoot }

func (f *forkSchedule) at(epoch uint64) fork {
	cur := f.forks[0]
	for _, fk := range f.forks[1:] {
		if fk.epoch <= epoch {
			cur = fk
		}
	}
	return cur
}

// genesisValidatorsRootOf stands in for hash_tree_root(genesis_state.validators).
func genesisValidatorsRootOf(registry [][crypto.PublicKeySize]byte) ssz.Root {
	h := sha256.New()
	for _, pk := range registry {
		h.Write(pk[:])
	}
	return ssz.Root(h.Sum(nil))
}

// ---------------------------------------------------------------------------
// Fork choice (pool.ForkChoice)

type blockInfo struct {
	parent [32]byte
	slot   uint64
	valid  bool
}

// forkChoice is the node's fork-choice store, reduced to the block tree and
// the checkpoints: the block importer adds blocks, the pool asks whether the
// block an attestation votes for is known and valid, and for checkpoint
// ancestors.
type forkChoice struct {
	mu        sync.RWMutex
	blocks    map[[32]byte]blockInfo
	justified attestation.Checkpoint
	finalized attestation.Checkpoint
}

func newForkChoice() *forkChoice {
	return &forkChoice{blocks: make(map[[32]byte]blockInfo)}
}

// importBlock records a block that passed (or failed) validation.
func (f *forkChoice) importBlock(root, parent [32]byte, slot uint64, valid bool) {
	f.mu.Lock()
	f.blocks[root] = blockInfo{parent: parent, slot: slot, valid: valid}
	f.mu.Unlock()
}

func (f *forkChoice) setCheckpoints(justified, finalized attestation.Checkpoint) {
	f.mu.Lock()
	f.justified, f.finalized = justified, finalized
	f.mu.Unlock()
}

// block returns the block of root, and whether it is known.
func (f *forkChoice) block(root [32]byte) (blockInfo, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	b, ok := f.blocks[root]
	return b, ok
}

// Block implements pool.ForkChoice.
func (f *forkChoice) Block(root [32]byte) (seen, valid bool) {
	b, ok := f.block(root)
	return ok, ok && b.valid
}

// BlockPayload implements pool.ForkChoice. This node's chain does not reach
// Gloas, so it gives the slot only; the pool does not ask before Gloas.
func (f *forkChoice) BlockPayload(root [32]byte) (uint64, pool.PayloadStatus, bool) {
	b, ok := f.block(root)
	return b.slot, pool.PayloadUnverified, ok
}

// CheckpointBlock implements pool.ForkChoice: the specs'
// get_checkpoint_block, walking back from root to the last block at or
// before the epoch's first slot.
func (f *forkChoice) CheckpointBlock(root [32]byte, epoch uint64) ([32]byte, bool) {
	start := epoch * slotsPerEpoch
	f.mu.RLock()
	defer f.mu.RUnlock()
	for b, ok := f.blocks[root]; ok; b, ok = f.blocks[root] {
		if b.slot <= start {
			return root, true
		}
		root = b.parent
	}
	return [32]byte{}, false // a block of the walk is unknown
}

// FinalizedCheckpoint implements pool.ForkChoice.
func (f *forkChoice) FinalizedCheckpoint() attestation.Checkpoint {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.finalized
}

// justifiedCheckpoint is the source every honest attestation votes for, and
// what a block proposer filters the pool's attestations by.
func (f *forkChoice) justifiedCheckpoint() attestation.Checkpoint {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.justified
}

// blockRoot is the root of the toy chain's block at slot (one per slot).
func blockRoot(slot uint64) [32]byte {
	return sha256.Sum256(fmt.Appendf(nil, "block %d", slot))
}

// ---------------------------------------------------------------------------
