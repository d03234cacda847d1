// Package memnode holds in-memory implementations of the interfaces of
// pool.Node, for tests, examples and simulations: a manual clock, interop
// keys, committees, a payload timeliness committee drawn from them, a chain
// of blocks added by hand and a fork schedule. They are safe for concurrent
// use. memnode does not import package pool, so that pool's own tests can use
// it; package pooltest exports its types to everyone else.
package memnode

import (
	"sync"
	"time"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/ssz"
)

// ManualClock is a Clock that moves only when told to.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewManualClock returns a clock showing t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t} }

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set sets the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// Advance moves the clock by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// InteropKeys holds the interop keys (crypto.InteropSecretKey) of validators
// [0, n), derived on first use and cached. It implements pool.PublicKeys.
type InteropKeys struct {
	n    uint64
	mu   sync.RWMutex
	keys map[uint64]keyPair
}

// keyPair is one validator's interop keys.
type keyPair struct {
	sk *crypto.SecretKey
	pk *crypto.PublicKey
}

// NewInteropKeys returns the keys of a validator set of n validators.
func NewInteropKeys(n uint64) *InteropKeys {
	return &InteropKeys{n: n, keys: make(map[uint64]keyPair)}
}

// PublicKey returns validator index's public key, or nil past the set.
func (k *InteropKeys) PublicKey(index uint64) *crypto.PublicKey { return k.pair(index).pk }

// SecretKey returns validator index's secret key, or nil past the set.
func (k *InteropKeys) SecretKey(index uint64) *crypto.SecretKey { return k.pair(index).sk }

// pair returns validator index's keys, derived if not cached; none past the
// set.
func (k *InteropKeys) pair(index uint64) keyPair {
	if index >= k.n {
		return keyPair{}
	}
	k.mu.RLock()
	kp, ok := k.keys[index]
	k.mu.RUnlock()
	if ok {
		return kp
	}
	sk, err := crypto.InteropSecretKey(index)
	if err != nil {
		return keyPair{}
	}
	kp = keyPair{sk, sk.PublicKey()}
	k.mu.Lock()
	k.keys[index] = kp
	k.mu.Unlock()
	return kp
}

// deriveChunk is how many keys a goroutine of Derive claims at a time: a
// derivation (a scalar multiplication) dwarfs a claim, and the goroutines
// still end together.
const deriveChunk = 16

// Derive derives the keys of the given validators in parallel.
func (k *InteropKeys) Derive(indices []uint64) {
	par.For(len(indices), deriveChunk, func(x int) { k.SecretKey(indices[x]) })
}

// ShuffledCommittees is a pool.Committees for a fixed set of n active
// validators: the committee count is get_committee_count_per_slot's
// (TARGET_COMMITTEE_SIZE 128) and the committees split a per-epoch
// permutation of the validators as compute_committee does. The permutation is a simple affine one, not the
// specs' swap-or-not shuffle: good for tests and simulations only.
type ShuffledCommittees struct {
	n             uint64
	slotsPerEpoch uint64
	mult          uint64
	mu            sync.Mutex
	epochs        map[uint64][]uint64
}

// The constants of ShuffledCommittees.
const (
	// targetCommitteeSize is TARGET_COMMITTEE_SIZE.
	targetCommitteeSize = 128
	// shuffleMultiplier is Knuth's multiplicative hashing constant (the
	// prime nearest 2^32/phi), which spreads consecutive indices apart; a
	// permutation takes the first value at or above it mod n that is
	// coprime to n.
	shuffleMultiplier = 2654435761
	// shuffleOffsetStep is the prime each epoch's permutation is offset by,
	// so that committees change from epoch to epoch.
	shuffleOffsetStep = 7919
	// keptShufflings is how many epochs' permutations are cached: the
	// previous, the current and the next, and one for a lookup far off.
	keptShufflings = 4
)

// NewShuffledCommittees returns the committees of n validators.
func NewShuffledCommittees(n, slotsPerEpoch uint64) *ShuffledCommittees {
	mult := uint64(shuffleMultiplier) % max(n, 1)
	for n > 1 && gcd(mult, n) != 1 {
		mult++
	}
	return &ShuffledCommittees{n: n, slotsPerEpoch: slotsPerEpoch, mult: max(mult, 1), epochs: make(map[uint64][]uint64)}
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// CommitteeCountPerSlot returns max(1, min(64, n / SLOTS_PER_EPOCH / 128)).
func (c *ShuffledCommittees) CommitteeCountPerSlot(epoch uint64) (uint64, bool) {
	return max(1, min(attestation.MaxCommitteesPerSlot, c.n/c.slotsPerEpoch/targetCommitteeSize)), true
}

// BeaconCommittee returns committee index of slot.
func (c *ShuffledCommittees) BeaconCommittee(slot, index uint64) ([]uint64, bool) {
	epoch := slot / c.slotsPerEpoch
	cps, _ := c.CommitteeCountPerSlot(epoch)
	if index >= cps || c.n == 0 {
		return nil, false
	}
	list := c.shuffling(epoch)
	k := (slot%c.slotsPerEpoch)*cps + index
	count := c.slotsPerEpoch * cps
	return list[c.n*k/count : c.n*(k+1)/count], true
}

func (c *ShuffledCommittees) shuffling(epoch uint64) []uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l, ok := c.epochs[epoch]; ok {
		return l
	}
	l := make([]uint64, c.n)
	off := (epoch * shuffleOffsetStep) % c.n
	for p := range l {
		l[p] = (uint64(p)*c.mult + off) % c.n
	}
	if len(c.epochs) >= keptShufflings {
		oldest := ^uint64(0)
		for e := range c.epochs {
			oldest = min(oldest, e)
		}
		delete(c.epochs, oldest)
	}
	c.epochs[epoch] = l
	return l
}

// Committees is what CommitteePTC reads of the committees (pool.Committees).
type Committees interface {
	CommitteeCountPerSlot(epoch uint64) (count uint64, ok bool)
	BeaconCommittee(slot, index uint64) (committee []uint64, ok bool)
}

// CommitteePTC is a pool.PTCs over Committees: the PTC of a slot is PTC_SIZE
// members taken in turn from the slot's committees, concatenated in order
// (repeating them when they hold fewer). The specs draw the PTC from the
// same concatenation by balance-weighted sampling: good for tests and
// simulations only.
type CommitteePTC struct {
	Committees    Committees
	SlotsPerEpoch uint64
	// Size is PTC_SIZE: 0 means the mainnet preset's,
	// attestation.PTCSize; the minimal preset's is
	// attestation.MinimalPTCSize.
	Size int
}

// PTC returns the PTC_SIZE members of slot's PTC.
func (c CommitteePTC) PTC(slot uint64) ([]uint64, bool) {
	count, ok := c.Committees.CommitteeCountPerSlot(slot / c.SlotsPerEpoch)
	if !ok {
		return nil, false
	}
	size := c.Size
	if size == 0 {
		size = attestation.PTCSize
	}
	// Only the concatenation's first size members are taken: the committees
	// after them are not read (at mainnet sizes the first committee holds
	// them all).
	var all []uint64
	for i := uint64(0); i < count && len(all) < size; i++ {
		committee, ok := c.Committees.BeaconCommittee(slot, i)
		if !ok {
			return nil, false
		}
		all = append(all, committee...)
	}
	if len(all) == 0 {
		return nil, false
	}
	ptc := make([]uint64, size)
	for i := range ptc {
		ptc[i] = all[i%len(all)]
	}
	return ptc, true
}

// MemChain is a pool.ForkChoice over blocks added by hand. S is the type of
// the payload status (pool.PayloadStatus: memnode cannot name it), whose
// zero value is the status of a payload not seen and verified.
type MemChain[S ~uint8] struct {
	slotsPerEpoch uint64
	mu            sync.RWMutex
	blocks        map[[32]byte]memBlock[S]
	finalized     attestation.Checkpoint
}

type memBlock[S ~uint8] struct {
	parent  [32]byte
	slot    uint64
	valid   bool
	payload S
}

// NewMemChain returns a chain with no blocks.
func NewMemChain[S ~uint8](slotsPerEpoch uint64) *MemChain[S] {
	return &MemChain[S]{slotsPerEpoch: slotsPerEpoch, blocks: make(map[[32]byte]memBlock[S])}
}

// AddBlock records block root at slot with its parent, valid or not.
func (c *MemChain[S]) AddBlock(root, parent [32]byte, slot uint64, valid bool) {
	c.mu.Lock()
	c.blocks[root] = memBlock[S]{parent: parent, slot: slot, valid: valid}
	c.mu.Unlock()
}

// SetPayloadStatus sets the status of the execution payload of block root
// (Gloas); a block added by AddBlock starts with the zero status
// (pool.PayloadUnverified). It does nothing for a block not added.
func (c *MemChain[S]) SetPayloadStatus(root [32]byte, status S) {
	c.mu.Lock()
	if b, ok := c.blocks[root]; ok {
		b.payload = status
		c.blocks[root] = b
	}
	c.mu.Unlock()
}

// BlockPayload returns the slot of block root and the status given to
// SetPayloadStatus.
func (c *MemChain[S]) BlockPayload(root [32]byte) (slot uint64, status S, ok bool) {
	c.mu.RLock()
	b, ok := c.blocks[root]
	c.mu.RUnlock()
	return b.slot, b.payload, ok
}

// SetFinalized sets the finalized checkpoint.
func (c *MemChain[S]) SetFinalized(cp attestation.Checkpoint) {
	c.mu.Lock()
	c.finalized = cp
	c.mu.Unlock()
}

// Block reports whether root was added and whether it is valid.
func (c *MemChain[S]) Block(root [32]byte) (seen, valid bool) {
	c.mu.RLock()
	b, ok := c.blocks[root]
	c.mu.RUnlock()
	return ok, ok && b.valid
}

// CheckpointBlock walks back from root to the last block at or before the
// first slot of epoch.
func (c *MemChain[S]) CheckpointBlock(root [32]byte, epoch uint64) ([32]byte, bool) {
	start := epoch * c.slotsPerEpoch
	c.mu.RLock()
	defer c.mu.RUnlock()
	for {
		b, ok := c.blocks[root]
		if !ok {
			return [32]byte{}, false
		}
		if b.slot <= start {
			return root, true
		}
		root = b.parent
	}
}

// FinalizedCheckpoint returns the checkpoint given to SetFinalized.
func (c *MemChain[S]) FinalizedCheckpoint() attestation.Checkpoint {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.finalized
}

// ForkList is a pool.ForkSchedule: Versions[i] signs from epoch Epochs[i] on
// (Epochs ascending, Epochs[0] = 0).
type ForkList struct {
	Epochs   []uint64
	Versions []ssz.Version
	Root     ssz.Root
}

// SingleFork returns a schedule with one fork version from genesis.
func SingleFork(version ssz.Version, genesisValidatorsRoot ssz.Root) *ForkList {
	return &ForkList{Epochs: []uint64{0}, Versions: []ssz.Version{version}, Root: genesisValidatorsRoot}
}

// ForkVersion returns the version of the last fork at or before epoch.
func (f *ForkList) ForkVersion(epoch uint64) ssz.Version {
	var v ssz.Version
	for i, e := range f.Epochs {
		if e <= epoch {
			v = f.Versions[i]
		}
	}
	return v
}

// GenesisValidatorsRoot returns f.Root.
func (f *ForkList) GenesisValidatorsRoot() ssz.Root { return f.Root }
