package pooltest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/ssz"
)

// injectFaults turns valid messages of msgs into the faults asked for (the
// late kinds are appended, copies or second aggregates of valid messages
// that stay valid).
func (t *AggregateTraffic) injectFaults(kit *slotKit, msgs []AggregateMsg, refs []aggRef, faults map[AggregateFault]int) ([]AggregateMsg, error) {
	rng := rand.New(rand.NewPCG(t.cfg.Seed^0xfa017, kit.slot))
	perm := rng.Perm(len(msgs))
	take := func(f AggregateFault) (int, error) {
		if len(perm) == 0 {
			return 0, fmt.Errorf("pooltest: slot %d: %d aggregates cannot hold the faults asked for (at %v)", kit.slot, len(msgs), f)
		}
		i := perm[0]
		perm = perm[1:]
		return i, nil
	}
	var late []AggregateMsg
	for _, f := range AggregateFaults() {
		for range faults[f] {
			i, err := take(f)
			if err != nil {
				return nil, err
			}
			c, k := kit.committees[refs[i].c], refs[i].k
			m := &msgs[i]
			if f == AggDuplicate || f == AggAggregatorSeen {
				// m stays valid; the late message refers to it.
				lm, err := t.lateFault(kit, c, k, m, f)
				if err != nil {
					return nil, err
				}
				late = append(late, lm)
				continue
			}
			sap, err := t.faulty(kit, c, k, m.Msg, f, rng)
			if err != nil {
				return nil, err
			}
			m.Msg, m.Fault = sap, f
			m.WantVerdict, m.WantErr = f.Want()
		}
	}
	return append(msgs, late...), nil
}

// lateFault returns the late message of fault f made from the valid message
// m of aggregator k of c.
func (t *AggregateTraffic) lateFault(kit *slotKit, c *committeeLoad, k int, m *AggregateMsg, f AggregateFault) (AggregateMsg, error) {
	lm := AggregateMsg{Committee: c.index, Fault: f, Late: true}
	lm.WantVerdict, lm.WantErr = f.Want()
	switch f {
	case AggDuplicate:
		lm.Msg = copyAggregate(m.Msg)
	case AggAggregatorSeen:
		if c.offline < 0 {
			return lm, fmt.Errorf("pooltest: %v needs a committee of at least %d", f, 2*pool.TargetAggregatorsPerCommittee)
		}
		// A second aggregate of the same aggregator with a bit no valid
		// aggregate holds: new to the pool, so only this rule applies.
		view := slices.Clone(c.views[k])
		view.SetBitAt(uint64(c.offline), true)
		lm.Msg = t.signedAggregate(kit, c, c.members[c.aggregators[k]], view, kit.data, kit.attMul)
	}
	return lm, nil
}

// copyAggregate returns a deep copy of sap.
func copyAggregate(sap *attestation.SignedAggregateAndProof) *attestation.SignedAggregateAndProof {
	out := *sap
	if sap.Message == nil {
		return &out
	}
	aap := *sap.Message
	out.Message = &aap
	if aap.Aggregate != nil {
		a := *aap.Aggregate
		a.AggregationBits = slices.Clone(a.AggregationBits)
		a.CommitteeBits = slices.Clone(a.CommitteeBits)
		if a.Data != nil {
			a.Data = a.Data.Copy()
		}
		aap.Aggregate = &a
	}
	return &out
}

// faulty returns a copy of the valid message sap of aggregator k of c made to
// break the rule of fault f (and only it: the checks before pass, and its
// signatures are valid unless f is about one).
func (t *AggregateTraffic) faulty(kit *slotKit, c *committeeLoad, k int, sap *attestation.SignedAggregateAndProof, f AggregateFault, rng *rand.Rand) (*attestation.SignedAggregateAndProof, error) {
	out := copyAggregate(sap)
	aap := out.Message
	agg := aap.Aggregate
	n := t.net
	switch f {
	case AggNilMessage:
		out.Message = nil
	case AggBadBits:
		agg.AggregationBits = append(agg.AggregationBits, 0) // a zero last byte: no length bit
	case AggDataIndex:
		agg.Data.Index = 1
	case AggCommitteeBits:
		agg.CommitteeBits.SetBitAt((c.index+1)%pool.MaxCommitteesPerSlot, true)
	case AggCommitteeIndex:
		cps := uint64(len(kit.committees))
		if cps >= pool.MaxCommitteesPerSlot {
			return nil, fmt.Errorf("pooltest: %v needs fewer than %d committees a slot", f, pool.MaxCommitteesPerSlot)
		}
		agg.CommitteeBits = bitfield.NewBitvector64()
		agg.CommitteeBits.SetBitAt(cps, true)
	case AggFutureSlot:
		agg.Data = n.Data(kit.slot + 1)
	case AggStaleEpoch:
		if kit.slot < 2*n.SlotsPerEpoch {
			return nil, fmt.Errorf("pooltest: %v needs a slot of epoch 2 or later", f)
		}
		agg.Data = n.Data(kit.slot - 2*n.SlotsPerEpoch)
	case AggTargetEpoch:
		agg.Data.Target.Epoch++
	case AggBitsLength:
		b := bitfield.NewBitlist(agg.AggregationBits.Len() + 1)
		for _, i := range agg.AggregationBits.BitIndices() {
			b.SetBitAt(uint64(i), true)
		}
		agg.AggregationBits = b
	case AggNoParticipants:
		agg.AggregationBits = bitfield.NewBitlist(agg.AggregationBits.Len())
	case AggNotAggregator:
		pos := rng.IntN(len(c.members))
		for isAggregator(len(c.members), c.proofs[pos]) {
			if len(c.aggregators) == len(c.members) {
				return nil, fmt.Errorf("pooltest: %v needs a committee of at least %d", f, 2*pool.TargetAggregatorsPerCommittee)
			}
			pos = rng.IntN(len(c.members))
		}
		aap.AggregatorIndex, aap.SelectionProof = c.members[pos], c.proofs[pos]
		t.signOuter(kit, out, aap.AggregatorIndex)
	case AggAggregatorNotInCommittee:
		v, err := t.outsider(kit, c, aap.AggregatorIndex)
		if err != nil {
			return nil, fmt.Errorf("pooltest: %v: %w", f, err)
		}
		aap.AggregatorIndex = v
		t.signOuter(kit, out, v)
	case AggInvalidSelectionProof:
		proof, ok := t.otherSelectingProof(kit, c, k)
		if !ok {
			return nil, fmt.Errorf("pooltest: %v needs two aggregators of one committee size", f)
		}
		aap.SelectionProof = proof
		t.signOuter(kit, out, aap.AggregatorIndex)
	case AggInvalidAggregatorSignature:
		t.signOuter(kit, out, (aap.AggregatorIndex+1)%n.Validators)
	case AggInvalidAggregateSignature:
		// The view's signature without one member's: a valid point.
		view := agg.AggregationBits
		key := t.viewKey(c, view)
		member := c.members[(c.aggregators[k]+1)%len(c.members)]
		key.Sub(key, skInt(n.Keys.SecretKey(member)))
		agg.Signature = kit.attMul.mulInt(key)
		t.signOuter(kit, out, aap.AggregatorIndex)
	case AggBlockUnknown, AggBlockInvalid, AggTargetNotAncestor, AggFinalizedNotAncestor:
		d, err := t.chainFaultData(kit, f)
		if err != nil {
			return nil, err
		}
		// A one-member aggregate (the aggregator's own attestation) of
		// the faulty data, validly signed: only the chain rule fails.
		agg.Data = d
		pos := c.aggregators[k]
		agg.AggregationBits = bitfield.NewBitlist(uint64(len(c.members)))
		agg.AggregationBits.SetBitAt(uint64(pos), true)
		root, err := t.signingRoot(d, ssz.DomainBeaconAttester, kit.epoch)
		if err != nil {
			return nil, err
		}
		agg.Signature = crypto.Sign(n.Keys.SecretKey(c.members[pos]), root[:]).Bytes()
		t.signOuter(kit, out, aap.AggregatorIndex)
	default:
		return nil, fmt.Errorf("pooltest: no fault %v", f)
	}
	return out, nil
}

// otherSelectingProof returns the selection proof of another aggregator
// whose committee has the size of c: it selects, but is not the signature
// of aggregator k of c.
func (t *AggregateTraffic) otherSelectingProof(kit *slotKit, c *committeeLoad, k int) ([96]byte, bool) {
	for _, o := range kit.committees {
		if len(o.members)/pool.TargetAggregatorsPerCommittee != len(c.members)/pool.TargetAggregatorsPerCommittee {
			continue
		}
		for j, pos := range o.aggregators {
			if o != c || j != k {
				return o.proofs[pos], true
			}
		}
	}
	return [96]byte{}, false
}

// markerRoot is a block root of slot no simulated block has (BlockRoot's
// last byte is 0xb1), tagged.
func markerRoot(slot uint64, tag byte) [32]byte {
	var r [32]byte
	binary.LittleEndian.PutUint64(r[:], slot+1)
	r[30], r[31] = tag, 0xfa
	return r
}

// chainFaultData returns the AttestationData of slot that breaks the chain
// rule of fault f, adding to the chain the blocks it needs.
func (t *AggregateTraffic) chainFaultData(kit *slotKit, f AggregateFault) (*attestation.AttestationData, error) {
	n := t.net
	d := kit.data.Copy()
	switch f {
	case AggBlockUnknown:
		d.BeaconBlockRoot = markerRoot(kit.slot, 1)
	case AggBlockInvalid:
		d.BeaconBlockRoot = markerRoot(kit.slot, 2)
		n.Chain.AddBlock(d.BeaconBlockRoot, BlockRoot(kit.slot), kit.slot, false)
	case AggTargetNotAncestor:
		d.Target.Root = markerRoot(kit.slot, 3)
	case AggFinalizedNotAncestor:
		// A branch from a block at the epoch's start whose parent the
		// chain does not know: no finalized block below it.
		base, head := markerRoot(kit.epoch*n.SlotsPerEpoch, 4), markerRoot(kit.slot, 5)
		n.Chain.AddBlock(base, markerRoot(0, 6), kit.epoch*n.SlotsPerEpoch, true)
		if kit.slot > kit.epoch*n.SlotsPerEpoch {
			n.Chain.AddBlock(head, base, kit.slot, true)
		} else {
			head = base
		}
		cp, ok := n.Chain.CheckpointBlock(head, kit.epoch)
		if !ok {
			return nil, fmt.Errorf("pooltest: %v: no checkpoint on the branch", f)
		}
		d.BeaconBlockRoot, d.Target.Root = head, cp
		if fin := n.Chain.FinalizedCheckpoint(); fin.Root == base {
			return nil, fmt.Errorf("pooltest: %v: the finalized block is on the branch", f)
		}
	}
	return d, nil
}

// outsider returns a validator outside committee c that aggregates for no
// committee of kit's epoch, searching from after start. The specs' rule
// that an aggregator's first aggregate of an epoch is the only one it may
// send ([IGNORE]) comes before the committee check ([REJECT]), so an
// outsider that aggregates elsewhere in the epoch would be ignored, not
// rejected, once its own aggregate is in.
func (t *AggregateTraffic) outsider(kit *slotKit, c *committeeLoad, start uint64) (uint64, error) {
	n := t.net
	for i := uint64(1); i < n.Validators; i++ {
		v := (start + i) % n.Validators
		if slices.Contains(c.members, v) {
			continue
		}
		agg, err := t.aggregatesIn(v, kit.epoch)
		if err != nil {
			return 0, err
		}
		if !agg {
			return v, nil
		}
	}
	return 0, errors.New("no validator outside the committee aggregates for no committee of the epoch")
}

// aggregatesIn reports whether validator v is selected as an aggregator of
// its committee in epoch.
func (t *AggregateTraffic) aggregatesIn(v, epoch uint64) (bool, error) {
	n := t.net
	cps, ok := n.Committees.CommitteeCountPerSlot(epoch)
	if !ok {
		return false, fmt.Errorf("no committees for epoch %d", epoch)
	}
	for slot := epoch * n.SlotsPerEpoch; slot < (epoch+1)*n.SlotsPerEpoch; slot++ {
		for ci := range cps {
			members, ok := n.Committees.BeaconCommittee(slot, ci)
			if !ok {
				return false, fmt.Errorf("no committee %d at slot %d", ci, slot)
			}
			if !slices.Contains(members, v) {
				continue
			}
			domain, err := t.domain(ssz.DomainSelectionProof, epoch)
			if err != nil {
				return false, err
			}
			root := ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(slot), domain)
			n.DeriveKeys([]uint64{v})
			proof := crypto.Sign(n.Keys.SecretKey(v), root[:]).Bytes()
			return isAggregator(len(members), proof), nil
		}
	}
	return false, fmt.Errorf("validator %d is in no committee of epoch %d", v, epoch)
}
