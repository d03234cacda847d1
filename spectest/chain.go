package spectest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/attestantio/go-eth2-client/spec/electra"
	"github.com/attestantio/go-eth2-client/spec/fulu"
	"github.com/attestantio/go-eth2-client/spec/gloas"
	"github.com/attestantio/go-eth2-client/spec/phase0"
	dynssz "github.com/pk910/dynamic-ssz"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/ssz"
)

// The beacon state and blocks of the networking format are decoded with
// go-eth2-client's containers through dynamic-ssz, which sizes them for the
// preset; what the pool's node needs is then derived from them here: the
// validators' keys, the beacon committees (the specs' swap-or-not
// shuffling), the fork schedule and the blocks' roots.

// preset holds the preset values the runner uses.
type preset struct {
	slotsPerEpoch, maxCommitteesPerSlot, targetCommitteeSize uint64
	shuffleRoundCount, epochsPerHistoricalVector             uint64
	slotMs                                                   int64
	// ssz sizes the containers; nil for mainnet, whose sizes are the
	// containers' static ones.
	ssz *dynssz.DynSsz
}

var presets = map[string]*preset{
	"mainnet": {
		slotsPerEpoch: 32, maxCommitteesPerSlot: 64, targetCommitteeSize: 128,
		shuffleRoundCount: 90, epochsPerHistoricalVector: 65536, slotMs: 12000,
		ssz: dynssz.NewDynSsz(nil),
	},
	"minimal": {
		slotsPerEpoch: 8, maxCommitteesPerSlot: 4, targetCommitteeSize: 4,
		shuffleRoundCount: 10, epochsPerHistoricalVector: 64, slotMs: 6000,
		ssz: dynssz.NewDynSsz(minimalSSZ),
	},
}

// minimalSSZ is the minimal preset's values of the sizes in
// go-eth2-client's containers (presets/minimal of consensus-specs).
var minimalSSZ = map[string]any{
	"SLOTS_PER_EPOCH":                        uint64(8),
	"SLOTS_PER_HISTORICAL_ROOT":              uint64(64),
	"EPOCHS_PER_HISTORICAL_VECTOR":           uint64(64),
	"EPOCHS_PER_SLASHINGS_VECTOR":            uint64(64),
	"EPOCHS_PER_ETH1_VOTING_PERIOD":          uint64(4),
	"HISTORICAL_ROOTS_LIMIT":                 uint64(16777216),
	"VALIDATOR_REGISTRY_LIMIT":               uint64(1099511627776),
	"MIN_SEED_LOOKAHEAD":                     uint64(1),
	"MAX_COMMITTEES_PER_SLOT":                uint64(4),
	"MAX_VALIDATORS_PER_COMMITTEE":           uint64(2048),
	"SYNC_COMMITTEE_SIZE":                    uint64(32),
	"MAX_PROPOSER_SLASHINGS":                 uint64(16),
	"MAX_ATTESTER_SLASHINGS":                 uint64(2),
	"MAX_ATTESTER_SLASHINGS_ELECTRA":         uint64(1),
	"MAX_ATTESTATIONS":                       uint64(128),
	"MAX_ATTESTATIONS_ELECTRA":               uint64(8),
	"MAX_DEPOSITS":                           uint64(16),
	"MAX_VOLUNTARY_EXITS":                    uint64(16),
	"MAX_BLS_TO_EXECUTION_CHANGES":           uint64(16),
	"MAX_BYTES_PER_TRANSACTION":              uint64(1073741824),
	"MAX_TRANSACTIONS_PER_PAYLOAD":           uint64(1048576),
	"MAX_EXTRA_DATA_BYTES":                   uint64(32),
	"MAX_WITHDRAWALS_PER_PAYLOAD":            uint64(4),
	"MAX_BLOB_COMMITMENTS_PER_BLOCK":         uint64(4096),
	"KZG_COMMITMENT_INCLUSION_PROOF_DEPTH":   uint64(17),
	"MAX_DEPOSIT_REQUESTS_PER_PAYLOAD":       uint64(8192),
	"MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD":    uint64(16),
	"MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD": uint64(2),
	"PENDING_DEPOSITS_LIMIT":                 uint64(134217728),
	"PENDING_PARTIAL_WITHDRAWALS_LIMIT":      uint64(64),
	"PENDING_CONSOLIDATIONS_LIMIT":           uint64(64),
	"DEPOSIT_CONTRACT_TREE_DEPTH":            uint64(32),
	"PTC_SIZE":                               uint64(16),
}

// anchorState is what the runner reads of the anchor BeaconState.
type anchorState struct {
	genesisTime uint64
	gvr         [32]byte
	slot        uint64
	fork        phase0.Fork
	validators  []*phase0.Validator
	mixes       []phase0.Root             // RANDAO mixes, EPOCHS_PER_HISTORICAL_VECTOR of them
	ptcWindow   [][]phase0.ValidatorIndex // Gloas: the PTCs of the previous, current and next epochs
}

// decodeState decodes a fork's BeaconState.
func decodeState(p *preset, fork string, b []byte) (*anchorState, error) {
	switch fork {
	case "electra":
		var s electra.BeaconState
		if err := p.ssz.UnmarshalSSZ(&s, b); err != nil {
			return nil, err
		}
		return &anchorState{uint64(s.GenesisTime), s.GenesisValidatorsRoot, uint64(s.Slot), *s.Fork, s.Validators, s.RANDAOMixes, nil}, nil
	case "fulu":
		var s fulu.BeaconState
		if err := p.ssz.UnmarshalSSZ(&s, b); err != nil {
			return nil, err
		}
		return &anchorState{uint64(s.GenesisTime), s.GenesisValidatorsRoot, uint64(s.Slot), *s.Fork, s.Validators, s.RANDAOMixes, nil}, nil
	case "gloas":
		var s gloas.BeaconState
		if err := p.ssz.UnmarshalSSZ(&s, b); err != nil {
			return nil, err
		}
		return &anchorState{uint64(s.GenesisTime), s.GenesisValidatorsRoot, uint64(s.Slot), *s.Fork, s.Validators, s.RANDAOMixes, s.PTCWindow}, nil
	}
	return nil, fmt.Errorf("no BeaconState for fork %q", fork)
}

// block is what the runner reads of a SignedBeaconBlock.
type block struct {
	root, parent [32]byte
	slot         uint64
	randaoReveal [96]byte
}

// decodeBlock decodes a fork's SignedBeaconBlock and hashes its message.
func decodeBlock(p *preset, fork string, b []byte) (*block, error) {
	var msg any
	var out block
	switch fork {
	case "electra", "fulu":
		var s electra.SignedBeaconBlock
		if err := p.ssz.UnmarshalSSZ(&s, b); err != nil {
			return nil, err
		}
		msg = s.Message
		out = block{parent: s.Message.ParentRoot, slot: uint64(s.Message.Slot), randaoReveal: s.Message.Body.RANDAOReveal}
	case "gloas":
		var s gloas.SignedBeaconBlock
		if err := p.ssz.UnmarshalSSZ(&s, b); err != nil {
			return nil, err
		}
		msg = s.Message
		out = block{parent: s.Message.ParentRoot, slot: uint64(s.Message.Slot), randaoReveal: s.Message.Body.RANDAOReveal}
	default:
		return nil, fmt.Errorf("no SignedBeaconBlock for fork %q", fork)
	}
	root, err := p.ssz.HashTreeRoot(msg)
	if err != nil {
		return nil, err
	}
	out.root = root
	return &out, nil
}

// decodeEnvelope decodes a Gloas SignedExecutionPayloadEnvelope and
// returns the root of the block it is the payload of.
func decodeEnvelope(p *preset, b []byte) ([32]byte, error) {
	var s gloas.SignedExecutionPayloadEnvelope
	if err := p.ssz.UnmarshalSSZ(&s, b); err != nil {
		return [32]byte{}, err
	}
	return s.Message.BeaconBlockRoot, nil
}

// randaoMixes follows the anchor state's RANDAO mixes through the imported
// blocks (process_randao) and the empty epochs after them
// (process_randao_mixes_reset copies a mix forward).
type randaoMixes struct {
	mixes []phase0.Root
	last  uint64 // the latest epoch whose mix is set
}

func newRandaoMixes(s *anchorState, p *preset) *randaoMixes {
	return &randaoMixes{mixes: append([]phase0.Root(nil), s.mixes...), last: s.slot / p.slotsPerEpoch}
}

func (m *randaoMixes) n() uint64 { return uint64(len(m.mixes)) }

// advance carries the mix forward to epoch.
func (m *randaoMixes) advance(epoch uint64) {
	for ; m.last < epoch; m.last++ {
		m.mixes[(m.last+1)%m.n()] = m.mixes[m.last%m.n()]
	}
}

// applyBlock is process_randao of a block of epoch.
func (m *randaoMixes) applyBlock(epoch uint64, reveal [96]byte) {
	m.advance(epoch)
	h := sha256.Sum256(reveal[:])
	mix := &m.mixes[epoch%m.n()]
	for i := range mix {
		mix[i] ^= h[i]
	}
}

// at is get_randao_mix(state, epoch) of the head state advanced to epoch
// or later: a mix of an epoch past the last set one is the last one.
func (m *randaoMixes) at(epoch uint64) [32]byte {
	if epoch > m.last {
		return m.mixes[m.last%m.n()]
	}
	return m.mixes[epoch%m.n()]
}

// stateCommittees gives the beacon committees of the head state: the
// active validators of an epoch shuffled with the epoch's attester seed.
type stateCommittees struct {
	p          *preset
	validators []*phase0.Validator
	mixes      *randaoMixes

	mu     sync.Mutex
	active map[uint64][]uint64
}

func (c *stateCommittees) activeIndices(epoch uint64) []uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.active[epoch]; ok {
		return a
	}
	var a []uint64
	for i, v := range c.validators {
		if uint64(v.ActivationEpoch) <= epoch && epoch < uint64(v.ExitEpoch) {
			a = append(a, uint64(i))
		}
	}
	if c.active == nil {
		c.active = map[uint64][]uint64{}
	}
	c.active[epoch] = a
	return a
}

// CommitteeCountPerSlot is get_committee_count_per_slot.
func (c *stateCommittees) CommitteeCountPerSlot(epoch uint64) (uint64, bool) {
	n := uint64(len(c.activeIndices(epoch)))
	return max(1, min(c.p.maxCommitteesPerSlot, n/c.p.slotsPerEpoch/c.p.targetCommitteeSize)), true
}

// BeaconCommittee is get_beacon_committee.
func (c *stateCommittees) BeaconCommittee(slot, index uint64) ([]uint64, bool) {
	epoch := slot / c.p.slotsPerEpoch
	cps, _ := c.CommitteeCountPerSlot(epoch)
	if index >= cps {
		return nil, false
	}
	active := c.activeIndices(epoch)
	seed := c.seed(epoch)
	count := cps * c.p.slotsPerEpoch
	k := (slot%c.p.slotsPerEpoch)*cps + index
	n := uint64(len(active))
	start, end := n*k/count, n*(k+1)/count
	out := make([]uint64, 0, end-start)
	for i := start; i < end; i++ {
		out = append(out, active[shuffledIndex(i, n, seed, c.p.shuffleRoundCount)])
	}
	return out, true
}

// seed is get_seed(state, epoch, DOMAIN_BEACON_ATTESTER).
func (c *stateCommittees) seed(epoch uint64) [32]byte {
	var in [44]byte
	copy(in[:4], ssz.DomainBeaconAttester[:])
	binary.LittleEndian.PutUint64(in[4:12], epoch)
	// get_randao_mix(state, epoch + EPOCHS_PER_HISTORICAL_VECTOR -
	// MIN_SEED_LOOKAHEAD - 1): for epochs 0 and 1 the anchor state's last
	// two mixes, which no block of theirs writes.
	var mix [32]byte
	if epoch >= 2 {
		mix = c.mixes.at(epoch - 2)
	} else {
		mix = c.mixes.mixes[(epoch+c.mixes.n()-2)%c.mixes.n()]
	}
	copy(in[12:], mix[:])
	return sha256.Sum256(in[:])
}

// shuffledIndex is compute_shuffled_index(index, count, seed).
func shuffledIndex(index, count uint64, seed [32]byte, rounds uint64) uint64 {
	var buf [37]byte
	copy(buf[:32], seed[:])
	for r := range rounds {
		buf[32] = byte(r)
		h := sha256.Sum256(buf[:33])
		pivot := binary.LittleEndian.Uint64(h[:8]) % count
		flip := (pivot + count - index) % count
		position := max(index, flip)
		binary.LittleEndian.PutUint32(buf[33:], uint32(position/256))
		source := sha256.Sum256(buf[:37])
		if source[(position%256)/8]>>(position%8)&1 == 1 {
			index = flip
		}
	}
	return index
}

// stateKeys gives the validators' keys, decoded (KeyValidate) once each.
type stateKeys struct {
	validators []*phase0.Validator
	keys       sync.Map // uint64 -> *crypto.PublicKey, nil when invalid
}

func (k *stateKeys) PublicKey(index uint64) *crypto.PublicKey {
	if index >= uint64(len(k.validators)) {
		return nil
	}
	if pk, ok := k.keys.Load(index); ok {
		return pk.(*crypto.PublicKey)
	}
	pk, err := crypto.PublicKeyFromBytes(k.validators[index].PublicKey[:])
	if err != nil {
		pk = nil
	}
	k.keys.Store(index, pk)
	return pk
}

// stateForks is the state's fork: the previous version signs epochs
// before the fork epoch.
type stateForks struct {
	fork phase0.Fork
	gvr  [32]byte
}

func (f stateForks) ForkVersion(epoch uint64) ssz.Version {
	if epoch < uint64(f.fork.Epoch) {
		return ssz.Version(f.fork.PreviousVersion)
	}
	return ssz.Version(f.fork.CurrentVersion)
}

func (f stateForks) GenesisValidatorsRoot() ssz.Root { return ssz.Root(f.gvr) }

// statePTC is get_ptc(state, slot) of the anchor state: its ptc_window
// holds the PTCs of the previous, current and next epochs. Slots outside it
// have no PTC here (compute_ptc is not implemented): the pool then IGNOREs.
type statePTC struct {
	window        [][]phase0.ValidatorIndex
	epoch         uint64 // the state's current epoch
	slotsPerEpoch uint64
}

func (s statePTC) PTC(slot uint64) ([]uint64, bool) {
	epoch := slot / s.slotsPerEpoch
	if epoch+1 < s.epoch || epoch > s.epoch+1 {
		return nil, false
	}
	i := (epoch+1-s.epoch)*s.slotsPerEpoch + slot%s.slotsPerEpoch
	if i >= uint64(len(s.window)) {
		return nil, false
	}
	out := make([]uint64, len(s.window[i]))
	for j, v := range s.window[i] {
		out[j] = uint64(v)
	}
	return out, true
}
