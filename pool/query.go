package pool

import (
	"errors"
	"fmt"
	"slices"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
)

// What the node gets back from the pool besides verdicts. It gets the
// indexed form of accepted messages (Result.Indexed) and the best aggregate
// of a committee for the validator API. It also gets the attesters blocks
// already included, which block packing leaves out.

// ErrInvalidIncluded reports an on-chain attestation given to MarkIncluded
// that does not fit the committees of its slot.
var ErrInvalidIncluded = errors.New("attpool/pool: invalid included attestation")

// indexedResults fills in the Indexed field of the accepted Results of one
// batch; the messages of one data share one copy of it.
type indexedResults struct {
	data map[[32]byte]*attestation.AttestationData
}

// add sets res.Indexed for the accepted message of g (attestations and
// aggregates: the topics that have attesters).
func (x *indexedResults) add(res *Result, g *group) {
	if res.Verdict != Accept || g.t.attesters == nil {
		return
	}
	if x.data == nil {
		x.data = make(map[[32]byte]*attestation.AttestationData)
	}
	d := x.data[g.info.root]
	if d == nil {
		d = g.data.Copy()
		x.data[g.info.root] = d
	}
	res.Indexed = &attestation.IndexedAttestation{AttestingIndices: g.t.attesters(g), Data: d, Signature: g.sig}
}

// AggregateAttestation returns the best aggregate the pool holds of
// committee committeeIndex for the AttestationData of root at slot (the one
// with the most attesters). It returns it as the validator API's
// aggregate_attestation serves it: an Electra Attestation with that
// committee's bit set. ok is false if the pool holds none.
func (p *Pool) AggregateAttestation(slot uint64, root [32]byte, committeeIndex uint64) (att *attestation.Attestation, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.store.byRoot[root]
	if e == nil || e.data.Slot != slot {
		return nil, false
	}
	var best *aggregate
	for _, a := range e.committees[committeeIndex] {
		if best == nil || a.participants() > best.participants() {
			best = a
		}
	}
	if best == nil {
		return nil, false
	}
	return onChainAggregate(e.data, []uint64{committeeIndex}, []*aggregate{best}), true
}

// includedBits holds, per committee, the positions of the attesters that
// blocks already included. A validator attests in one committee an epoch,
// so its position there names it for the whole target epoch, whatever data
// it voted for. Guarded by the pool's mutex; the zero value is empty.
type includedBits struct {
	byCommittee map[committeeID]bitfield.Bitlist
}

// maxIncludedCommittees bounds the committees whose included attesters are
// kept: the four epochs blocks and gossip may still touch (the pool prunes
// below the previous epoch).
const maxIncludedCommittees = 4 * mainnetSlotsPerEpoch * MaxCommitteesPerSlot

// MarkIncluded tells the pool that the attesters of att, an on-chain
// (Electra) Attestation of a block the node imported, are on chain. Block
// packing no longer counts them. The pool drops the aggregates they cover
// entirely. It returns an error wrapping ErrInvalidIncluded if att does
// not fit the committees of its slot (the node's, through
// Committees.BeaconCommittee).
func (p *Pool) MarkIncluded(att *attestation.Attestation) error {
	if att == nil || att.Data == nil {
		return fmt.Errorf("%w: no attestation or data", ErrInvalidIncluded)
	}
	parts, err := p.committeeParts(att)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pt := range parts {
		got := p.included.add(pt.id, pt.bits)
		p.store.dropCovered(pt.id, got)
	}
	return nil
}

// committeePart is the attesters of one committee of an on-chain
// attestation.
type committeePart struct {
	id   committeeID
	bits bitfield.Bitlist // of the committee's length
}

// committeeParts splits the aggregation bits of an on-chain attestation
// into its committees, in committee order (the specs'
// get_attesting_indices).
func (p *Pool) committeeParts(att *attestation.Attestation) ([]committeePart, error) {
	slot := att.Data.Slot
	var parts []committeePart
	var off uint64
	for _, ci := range att.CommitteeBits.BitIndices() {
		committee, ok := p.node.Committees.BeaconCommittee(slot, uint64(ci))
		if !ok {
			return nil, fmt.Errorf("%w: no committee %d at slot %d", ErrInvalidIncluded, ci, slot)
		}
		n := uint64(len(committee))
		if off+n > att.AggregationBits.Len() {
			return nil, fmt.Errorf("%w: aggregation bits shorter than the committees", ErrInvalidIncluded)
		}
		parts = append(parts, committeePart{committeeID{slot, uint64(ci)}, bitsAt(att.AggregationBits, off, n)})
		off += n
	}
	if len(parts) == 0 || off != att.AggregationBits.Len() {
		return nil, fmt.Errorf("%w: aggregation bits do not match the committees", ErrInvalidIncluded)
	}
	return parts, nil
}

// bitsAt returns the n bits of b from offset off, as a bitlist of length n.
func bitsAt(b bitfield.Bitlist, off, n uint64) bitfield.Bitlist {
	out := bitfield.NewBitlist(n)
	for i := range n {
		if b.BitAt(off + i) {
			out.SetBitAt(i, true)
		}
	}
	return out
}

// add merges b into the included attesters of committee id and returns
// them.
func (x *includedBits) add(id committeeID, b bitfield.Bitlist) bitfield.Bitlist {
	if x.byCommittee == nil {
		x.byCommittee = make(map[committeeID]bitfield.Bitlist)
	}
	cur := x.byCommittee[id]
	if cur != nil && cur.Len() == b.Len() {
		_ = cur.NoAllocOr(b, cur)
		return cur
	}
	if len(x.byCommittee) >= maxIncludedCommittees {
		dropOldestSlot(x.byCommittee)
	}
	cur = slices.Clone(b)
	x.byCommittee[id] = cur
	return cur
}

// prune drops the committees of slots before minSlot.
func (x *includedBits) prune(minSlot uint64) { dropSlotsBefore(x.byCommittee, minSlot) }

// copyOf returns a copy of the included attesters of committee id, nil if
// no block included any.
func (x *includedBits) copyOf(id committeeID) bitfield.Bitlist {
	return slices.Clone(x.byCommittee[id])
}
