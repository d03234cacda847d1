package pooltest

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/ssz"
)

// AggregateFault is a way a generated SignedAggregateAndProof breaks one rule
// of the Electra beacon_aggregate_and_proof topic, or AggregateValid for
// none. Fault.Want is the verdict and the sentinel the pool must give it.
type AggregateFault uint8

// The faults, in the order of the topic's rules.
const (
	AggregateValid                AggregateFault = iota // a valid aggregate of the aggregator's view
	AggNilMessage                                       // no AggregateAndProof
	AggBadBits                                          // aggregation bits that are not a valid SSZ bitlist
	AggDataIndex                                        // data.index != 0
	AggCommitteeBits                                    // two committee bits set
	AggCommitteeIndex                                   // committee index >= committees per slot (needs fewer than 64)
	AggFutureSlot                                       // data of the next slot
	AggStaleEpoch                                       // data of two epochs back (needs slot >= 2 epochs)
	AggTargetEpoch                                      // target epoch of the next epoch
	AggBitsLength                                       // one aggregation bit too many
	AggNoParticipants                                   // no aggregation bit set
	AggDuplicate                                        // late copy of an accepted aggregate
	AggAggregatorSeen                                   // late second aggregate of an accepted aggregator
	AggNotAggregator                                    // a member whose selection proof does not select it
	AggAggregatorNotInCommittee                         // a selecting proof under another committee's validator
	AggInvalidSelectionProof                            // another aggregator's selection proof
	AggInvalidAggregatorSignature                       // another aggregator's outer signature
	AggInvalidAggregateSignature                        // the view's signature missing one member
	AggBlockUnknown                                     // a vote for a block the chain does not have
	AggBlockInvalid                                     // a vote for an invalid block
	AggTargetNotAncestor                                // a target that is not the vote's checkpoint
	AggFinalizedNotAncestor                             // a vote on a branch without the finalized block
	numAggregateFaults
)

var aggregateFaults = [numAggregateFaults]struct {
	name    string
	verdict pool.Verdict
	err     error
}{
	AggregateValid:                {"valid", pool.Accept, nil},
	AggNilMessage:                 {"nil_message", pool.Reject, pool.ErrMalformed},
	AggBadBits:                    {"bad_bits", pool.Reject, pool.ErrMalformed},
	AggDataIndex:                  {"data_index_nonzero", pool.Reject, pool.ErrDataIndexNonZero},
	AggCommitteeBits:              {"committee_bits", pool.Reject, pool.ErrCommitteeBits},
	AggCommitteeIndex:             {"committee_index", pool.Reject, pool.ErrCommitteeIndex},
	AggFutureSlot:                 {"future_slot", pool.Ignore, pool.ErrFutureSlot},
	AggStaleEpoch:                 {"stale_epoch", pool.Ignore, pool.ErrEpochWindow},
	AggTargetEpoch:                {"target_epoch", pool.Reject, pool.ErrTargetEpoch},
	AggBitsLength:                 {"aggregation_bits_length", pool.Reject, pool.ErrAggregationBitsLength},
	AggNoParticipants:             {"no_participants", pool.Reject, pool.ErrNoParticipants},
	AggDuplicate:                  {"duplicate", pool.Ignore, pool.ErrAggregateSeen},
	AggAggregatorSeen:             {"aggregator_seen", pool.Ignore, pool.ErrAggregatorSeen},
	AggNotAggregator:              {"not_aggregator", pool.Reject, pool.ErrNotAggregator},
	AggAggregatorNotInCommittee:   {"aggregator_not_in_committee", pool.Reject, pool.ErrAggregatorNotInCommittee},
	AggInvalidSelectionProof:      {"invalid_selection_proof", pool.Reject, pool.ErrInvalidSelectionProof},
	AggInvalidAggregatorSignature: {"invalid_aggregator_signature", pool.Reject, pool.ErrInvalidAggregatorSignature},
	AggInvalidAggregateSignature:  {"invalid_aggregate_signature", pool.Reject, pool.ErrInvalidAggregateSignature},
	AggBlockUnknown:               {"block_unknown", pool.Ignore, pool.ErrBlockUnknown},
	AggBlockInvalid:               {"block_invalid", pool.Reject, pool.ErrBlockInvalid},
	AggTargetNotAncestor:          {"target_not_ancestor", pool.Reject, pool.ErrTargetNotAncestor},
	AggFinalizedNotAncestor:       {"finalized_not_ancestor", pool.Ignore, pool.ErrFinalizedNotAncestor},
}

// AggregateFaults returns every fault (AggregateValid excluded), in the order
// of the topic's rules.
func AggregateFaults() []AggregateFault {
	out := make([]AggregateFault, 0, numAggregateFaults-1)
	for f := AggNilMessage; f < numAggregateFaults; f++ {
		out = append(out, f)
	}
	return out
}

// SignatureFaults spreads n faults over the three invalid signatures of the
// topic (selection proof, aggregator signature, aggregate signature).
func SignatureFaults(n int) map[AggregateFault]int {
	out := map[AggregateFault]int{}
	for i, f := range []AggregateFault{AggInvalidSelectionProof, AggInvalidAggregatorSignature, AggInvalidAggregateSignature} {
		if c := (n + 2 - i) / 3; c > 0 {
			out[f] = c
		}
	}
	return out
}

// String returns the fault's short name ("valid", "invalid_selection_proof", ...).
func (f AggregateFault) String() string {
	if f >= numAggregateFaults {
		return fmt.Sprintf("fault(%d)", uint8(f))
	}
	return aggregateFaults[f].name
}

// Want returns the verdict the pool must give a message with fault f and the
// sentinel its error must wrap (nil for Accept).
func (f AggregateFault) Want() (pool.Verdict, error) {
	if f >= numAggregateFaults {
		return pool.Reject, nil
	}
	return aggregateFaults[f].verdict, aggregateFaults[f].err
}

// AggregateMsg is one generated SignedAggregateAndProof and the verdict the
// pool must give it.
type AggregateMsg struct {
	Msg         *attestation.SignedAggregateAndProof // never nil (its Message may be)
	Committee   uint64
	Fault       AggregateFault
	WantVerdict pool.Verdict
	WantErr     error // the sentinel of the rule; nil for Accept
	// Late messages (AggDuplicate, AggAggregatorSeen) depend on an earlier
	// verdict: send them once every message that is not late has its
	// verdict (SubmitAggregates does).
	Late bool
}

// Matches reports whether r is the verdict m must get: the same verdict and
// an error wrapping WantErr (no error for Accept).
//
// The expected verdicts assume that the pool sees no other aggregate of the
// slot's data than these (single attestations of it do not change them: the
// superset rule counts the valid gossip aggregates only).
func (m *AggregateMsg) Matches(r pool.Result) bool { return Matches(r, m.WantVerdict, m.WantErr) }

// Matches reports whether r is the verdict want with an error wrapping
// wantErr, or with no error where wantErr is nil.
func Matches(r pool.Result, want pool.Verdict, wantErr error) bool {
	if r.Verdict != want {
		return false
	}
	if wantErr == nil {
		return r.Err == nil
	}
	return errors.Is(r, wantErr)
}

// AggregateConfig configures an AggregateTraffic. Zero fields take their
// defaults.
type AggregateConfig struct {
	// MinView and MaxView bound the share of its committee's attestations
	// each aggregator saw, drawn uniformly between them for each aggregator
	// (defaults 0.85 and 1: gossip reaches most of a subnet's attestations
	// in time, never exactly the same ones).
	MinView, MaxView float64
	// Seed seeds the views and the choice of faulty messages.
	Seed uint64
}

// AggregateTraffic generates the beacon_aggregate_and_proof traffic of the
// slots of a Network as mainnet has it: per committee, the members that
// is_aggregator selects from their selection proofs (about
// TARGET_AGGREGATORS_PER_COMMITTEE = 16), each sending the aggregate of the
// attestations of its view (a random MinView-MaxView share of its committee,
// itself included). One member of every committee is offline: no view holds
// it (so that the late second aggregate of an aggregator is new to the
// pool). Aggregate signatures are one scalar multiplication each: the
// signature of a view is (sum of its members' secret keys) times the hash of
// the data, the same point as the sum of their signatures.
//
// It is not safe for concurrent use; its work is spread over GOMAXPROCS
// goroutines, joined before each method returns.
type AggregateTraffic struct {
	net  *Network
	cfg  AggregateConfig
	kits map[uint64]*slotKit // the selection proofs and views of recent slots
}

// maxKits bounds the slots whose selection proofs are kept (about 3 MB a
// mainnet slot, 5 MB of tables while it is generated).
const maxKits = 4

// NewAggregateTraffic returns a generator over net.
func NewAggregateTraffic(net *Network, cfg AggregateConfig) *AggregateTraffic {
	if cfg.MinView <= 0 {
		cfg.MinView = 0.85
	}
	if cfg.MaxView <= 0 || cfg.MaxView > 1 {
		cfg.MaxView = 1
	}
	cfg.MinView = min(cfg.MinView, cfg.MaxView)
	return &AggregateTraffic{net: net, cfg: cfg, kits: make(map[uint64]*slotKit)}
}

// committeeLoad is what the generator knows of one committee of a slot.
type committeeLoad struct {
	index       uint64
	members     []uint64
	proofs      [][96]byte // selection proof of every member
	aggregators []int      // positions of the selected members
	offline     int        // position no view holds
	views       []bitfield.Bitlist
	keySum      *big.Int // sum of the secret keys of the members but the offline one
}

// aggRef names aggregator k of committee c of a slotKit.
type aggRef struct{ c, k int }

// slotKit is the per-slot state shared by the messages of a slot.
type slotKit struct {
	slot       uint64
	epoch      uint64
	data       *attestation.AttestationData
	attMul     *fixedBase // multiples of the hash to G2 of the data's signing root
	aapDomain  ssz.Domain
	committees []*committeeLoad
}

// Slot returns the aggregates of every aggregator of every committee of
// slot, with faults[f] of them made to break the rule of fault f (faulty
// messages replace valid ones, except the late kinds, which are added). Set
// the Network's clock within slot (e.g. SetSlot(slot, 8*time.Second), when
// aggregates are sent) before submitting them. It derives the keys of the
// slot's committees, and adds to the Network's chain the blocks that the
// chain faults vote for. Every call returns new messages, which the caller
// may keep or modify; the selection proofs and views of a slot are computed
// on the first call only.
func (t *AggregateTraffic) Slot(slot uint64, faults map[AggregateFault]int) ([]AggregateMsg, error) {
	if err := t.feasible(slot, faults); err != nil {
		return nil, err
	}
	kit, err := t.kit(slot)
	if err != nil {
		return nil, err
	}
	var msgs []AggregateMsg
	var refs []aggRef
	for ci, c := range kit.committees {
		for k := range c.aggregators {
			msgs = append(msgs, AggregateMsg{Committee: c.index, Fault: AggregateValid, WantVerdict: pool.Accept})
			refs = append(refs, aggRef{ci, k})
		}
	}
	// The valid messages, signed in parallel.
	par.For(len(msgs), 64, func(i int) {
		c := kit.committees[refs[i].c]
		msgs[i].Msg = t.signedAggregate(kit, c, c.members[c.aggregators[refs[i].k]], c.views[refs[i].k], kit.data, kit.attMul)
	})
	return t.injectFaults(kit, msgs, refs, faults)
}

// feasible reports the faults the network cannot make at slot.
func (t *AggregateTraffic) feasible(slot uint64, faults map[AggregateFault]int) error {
	n := t.net
	if cps, _ := n.Committees.CommitteeCountPerSlot(slot / n.SlotsPerEpoch); faults[AggCommitteeIndex] > 0 && cps >= pool.MaxCommitteesPerSlot {
		return fmt.Errorf("pooltest: %v needs fewer than %d committees a slot", AggCommitteeIndex, pool.MaxCommitteesPerSlot)
	}
	if faults[AggStaleEpoch] > 0 && slot < 2*n.SlotsPerEpoch {
		return fmt.Errorf("pooltest: %v needs a slot of epoch 2 or later", AggStaleEpoch)
	}
	return nil
}

// kit returns the selection proofs, aggregators and views of slot, computed
// on first use.
func (t *AggregateTraffic) kit(slot uint64) (*slotKit, error) {
	if kit := t.kits[slot]; kit != nil {
		return kit, nil
	}
	kit, err := t.newKit(slot)
	if err != nil {
		return nil, err
	}
	if len(t.kits) >= maxKits {
		oldest := slot
		for s := range t.kits {
			oldest = min(oldest, s)
		}
		delete(t.kits, oldest)
	}
	t.kits[slot] = kit
	return kit, nil
}

func (t *AggregateTraffic) newKit(slot uint64) (*slotKit, error) {
	n := t.net
	epoch := slot / n.SlotsPerEpoch
	kit := &slotKit{slot: slot, epoch: epoch, data: n.Data(slot)}
	attRoot, err := t.signingRoot(kit.data, ssz.DomainBeaconAttester, epoch)
	if err != nil {
		return nil, err
	}
	kit.attMul = messageBase(attRoot)
	selDomain, err := t.domain(ssz.DomainSelectionProof, epoch)
	if err != nil {
		return nil, err
	}
	if kit.aapDomain, err = t.domain(ssz.DomainAggregateAndProof, epoch); err != nil {
		return nil, err
	}
	selRoot := ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(slot), selDomain)
	selMul := messageBase(selRoot)

	cps, ok := n.Committees.CommitteeCountPerSlot(epoch)
	if !ok {
		return nil, fmt.Errorf("pooltest: no committees for epoch %d", epoch)
	}
	type member struct{ c, pos int }
	var all []member
	for ci := range cps {
		members, ok := n.Committees.BeaconCommittee(slot, ci)
		if !ok {
			return nil, fmt.Errorf("pooltest: no committee %d at slot %d", ci, slot)
		}
		c := &committeeLoad{index: ci, members: members, proofs: make([][96]byte, len(members))}
		kit.committees = append(kit.committees, c)
		for pos := range members {
			all = append(all, member{int(ci), pos})
		}
	}
	n.DeriveKeys(n.Attesters(slot))
	par.For(len(all), 64, func(i int) {
		c := kit.committees[all[i].c]
		sk := n.Keys.SecretKey(c.members[all[i].pos])
		c.proofs[all[i].pos] = selMul.mul(sk.Bytes())
	})
	rng := rand.New(rand.NewPCG(t.cfg.Seed, slot))
	for _, c := range kit.committees {
		for pos, proof := range c.proofs {
			if isAggregator(len(c.members), proof) {
				c.aggregators = append(c.aggregators, pos)
			}
		}
		if len(c.aggregators) == len(c.members) {
			c.offline = -1 // committees of fewer than 2*16 select every member
		} else {
			for c.offline = rng.IntN(len(c.members)); slices.Contains(c.aggregators, c.offline); {
				c.offline = rng.IntN(len(c.members))
			}
		}
		c.views = t.views(rng, c)
	}
	par.For(len(kit.committees), 64, func(i int) {
		c := kit.committees[i]
		c.keySum = new(big.Int)
		for pos, v := range c.members {
			if pos != c.offline {
				c.keySum.Add(c.keySum, skInt(n.Keys.SecretKey(v)))
			}
		}
	})
	return kit, nil
}

// views draws the view of every aggregator of c: itself and a random share
// of the other members but the offline one. No view may contain another
// (so that every valid aggregate is new to the pool whatever the order):
// where one does, it loses the other's aggregator, until none does.
func (t *AggregateTraffic) views(rng *rand.Rand, c *committeeLoad) []bitfield.Bitlist {
	size := len(c.members)
	views := make([]bitfield.Bitlist, len(c.aggregators))
	for k, pos := range c.aggregators {
		share := t.cfg.MinView + rng.Float64()*(t.cfg.MaxView-t.cfg.MinView)
		b := bitfield.NewBitlist(uint64(size))
		for i := range size {
			if i == pos || (i != c.offline && rng.Float64() < share) {
				b.SetBitAt(uint64(i), true)
			}
		}
		views[k] = b
	}
	for changed := true; changed; {
		changed = false
		for k, vk := range views {
			for j, vj := range views {
				if j == k {
					continue
				}
				if in, _ := vk.Contains(vj); in {
					vk.SetBitAt(uint64(c.aggregators[j]), false)
					changed = true
				}
			}
		}
	}
	return views
}

// isAggregator is the specs' is_aggregator.
func isAggregator(committeeLen int, proof [96]byte) bool {
	modulo := max(1, uint64(committeeLen)/pool.TargetAggregatorsPerCommittee)
	h := sha256.Sum256(proof[:])
	return binary.LittleEndian.Uint64(h[:8])%modulo == 0
}

func (t *AggregateTraffic) domain(typ ssz.DomainType, epoch uint64) (ssz.Domain, error) {
	return ssz.ComputeDomain(typ, t.net.Forks.ForkVersion(epoch), t.net.Forks.GenesisValidatorsRoot())
}

func (t *AggregateTraffic) signingRoot(d *attestation.AttestationData, typ ssz.DomainType, epoch uint64) ([32]byte, error) {
	domain, err := t.domain(typ, epoch)
	if err != nil {
		return [32]byte{}, err
	}
	return ssz.ComputeSigningRoot(d.Copy(), domain)
}

// viewKey returns the sum of the secret keys of the members of view.
func (t *AggregateTraffic) viewKey(c *committeeLoad, view bitfield.Bitlist) *big.Int {
	// The committee's sum less the absent members: views hold 85-100%.
	sum := new(big.Int).Set(c.keySum)
	for pos, v := range c.members {
		if pos == c.offline {
			if view.BitAt(uint64(pos)) {
				sum.Add(sum, skInt(t.net.Keys.SecretKey(v)))
			}
			continue
		}
		if !view.BitAt(uint64(pos)) {
			sum.Sub(sum, skInt(t.net.Keys.SecretKey(v)))
		}
	}
	return sum
}

// signedAggregate returns the SignedAggregateAndProof of aggregator of c
// (a member) over view and data, valid if aggregator
// is selected; mul multiplies data's hash to G2).
func (t *AggregateTraffic) signedAggregate(kit *slotKit, c *committeeLoad, aggregator uint64, view bitfield.Bitlist, data *attestation.AttestationData, mul *fixedBase) *attestation.SignedAggregateAndProof {
	committeeBits := bitfield.NewBitvector64()
	committeeBits.SetBitAt(c.index, true)
	pos := slices.Index(c.members, aggregator)
	aap := &attestation.AggregateAndProof{
		AggregatorIndex: aggregator,
		Aggregate: &attestation.Attestation{
			AggregationBits: slices.Clone(view),
			Data:            data.Copy(),
			Signature:       mul.mulInt(t.viewKey(c, view)),
			CommitteeBits:   committeeBits,
		},
		SelectionProof: c.proofs[pos],
	}
	sap := &attestation.SignedAggregateAndProof{Message: aap}
	t.signOuter(kit, sap, aggregator)
	return sap
}

// signOuter sets sap's signature: validator's over its AggregateAndProof.
func (t *AggregateTraffic) signOuter(kit *slotKit, sap *attestation.SignedAggregateAndProof, validator uint64) {
	msgRoot, err := t.net.aggregateAndProofRoot(sap.Message)
	if err != nil {
		panic(fmt.Sprintf("pooltest: signing root of a generated aggregate: %v", err))
	}
	root := ssz.ComputeSigningRootFromRoot(msgRoot, kit.aapDomain)
	sap.Signature = crypto.Sign(t.net.Keys.SecretKey(validator), root[:]).Bytes()
}
