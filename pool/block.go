package pool

import (
	"slices"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/internal/curve"
)

// BlockFilter narrows the attestations [Pool.AttestationsForBlock] chooses
// from. The zero BlockFilter considers everything the pool holds.
type BlockFilter struct {
	// Includable, when not nil, is asked of each AttestationData before the
	// choice, and the data it says false of are left out: a node passes the
	// process_attestation checks that need its state, such as data.source
	// being the current or previous justified checkpoint. It runs with the
	// pool's lock held and must not call the pool.
	Includable func(*attestation.AttestationData) bool
}

// BlockAttestations are the attestations chosen for one block, in the
// containers of its slot's fork: exactly one of the fields is set (both
// are nil when there is nothing to include).
type BlockAttestations struct {
	// Electra holds them for a slot before Node.Gloas.ForkEpoch.
	Electra []*attestation.Attestation
	// Gloas holds them for a slot from Node.Gloas.ForkEpoch on: the same
	// bytes as the Electra containers, the progressive roots (EIP-7688).
	Gloas []*attestation.GloasAttestation
}

// Len is the number of attestations.
func (b BlockAttestations) Len() int { return len(b.Electra) + len(b.Gloas) }

// Attestations returns them as Electra containers whatever the fork (the
// Gloas ones converted without copying), as MarkIncluded takes them.
func (b BlockAttestations) Attestations() []*attestation.Attestation {
	if b.Gloas == nil {
		return b.Electra
	}
	out := make([]*attestation.Attestation, len(b.Gloas))
	for i, a := range b.Gloas {
		out[i] = (*attestation.Attestation)(a)
	}
	return out
}

// AttestationsForBlock returns the attestations for a block of slot: at
// most MAX_ATTESTATIONS_ELECTRA on-chain aggregates, each one
// AttestationData with one aggregate per committee joined as the specs'
// compute_on_chain_aggregate does (aggregation bits concatenated in
// committee order, committee_bits set for the committees present,
// signatures summed), in the containers of the slot's fork. They are the
// choice that includes the most attesters not already on chain (see
// [Pool.MarkIncluded]), found exactly (slashable double votes aside, and
// within a bounded search; docs/DESIGN.md): for each data and committee
// the best set of aggregates for the number of attestations the data gets,
// and the best split of the block's attestations between the data. They
// come most new attesters first. Only data a block of slot may include is
// considered (data.slot + MIN_ATTESTATION_INCLUSION_DELAY <= slot, from the
// current or the previous epoch of slot), and of those the ones f lets
// through.
func (p *Pool) AttestationsForBlock(slot uint64, f BlockFilter) BlockAttestations {
	atts := p.chooseForBlock(slot, f.Includable)
	if len(atts) == 0 {
		return BlockAttestations{}
	}
	if !p.isGloas(p.epochOf(slot)) {
		return BlockAttestations{Electra: atts}
	}
	out := make([]*attestation.GloasAttestation, len(atts))
	for i, a := range atts {
		out[i] = (*attestation.GloasAttestation)(a)
	}
	return BlockAttestations{Gloas: out}
}

// chooseForBlock is the choice of AttestationsForBlock, as Electra
// containers.
func (p *Pool) chooseForBlock(slot uint64, includable func(*attestation.AttestationData) bool) []*attestation.Attestation {
	p.mu.Lock()
	defer p.mu.Unlock()
	cands := p.packCandidates(slot, includable)
	ks, data := plan(cands, MaxAttestationsElectra)
	var chosen []packed
	for i, k := range ks {
		if k > 0 {
			chosen = append(chosen, data[i].attestations(k)...)
		}
	}
	slices.SortStableFunc(chosen, func(a, b packed) int { return b.gain - a.gain })
	out := make([]*attestation.Attestation, len(chosen))
	for i, c := range chosen {
		out[i] = c.att
	}
	return out
}

// packed is a chosen on-chain aggregate and the attesters it adds.
type packed struct {
	att  *attestation.Attestation
	gain int
}

// attestations are the k on-chain aggregates of d: the j-th joins the j-th
// aggregate of the best set of each committee (empty ones are left out).
func (d *planData) attestations(k int) []packed {
	var out []packed
	covered := make([][]uint64, len(d.comms))
	nw := 0
	for i, cp := range d.comms {
		covered[i] = make([]uint64, (len(cp.cov)+7)/8)
		nw = max(nw, len(covered[i]))
	}
	mask := make([]uint64, nw)
	for j := range k {
		pick := make([]*aggregate, len(d.comms))
		gain := 0
		for i, cp := range d.comms {
			if set := cp.chosen(k); j < len(set) {
				pick[i] = cp.aggs[set[j]]
				m := mask[:len(covered[i])]
				maskInto(m, pick[i].bits, cp.cov)
				before := popcount(covered[i])
				gain += orCount(covered[i], covered[i], m) - before
			}
		}
		if gain > 0 {
			out = append(out, packed{onChainAggregate(d.c.e.data, d.c.index, pick), gain})
		}
	}
	return out
}

// packCandidate is the data of one entry of the store as block packing sees
// it: its committees and the attesters of each already on chain.
type packCandidate struct {
	e     *dataEntry
	slot  uint64
	index []uint64           // committees, ascending
	cov   []bitfield.Bitlist // the attesters of index[k] on chain: read only
}

// packCandidates returns the candidates of a block of slot in a
// deterministic order (newest slot first, then by data root) so that ties
// go the same way every time.
func (p *Pool) packCandidates(slot uint64, includable func(*attestation.AttestationData) bool) []*packCandidate {
	var cands []*packCandidate
	for _, e := range p.store.byRoot {
		if p.mayInclude(slot, e.data, includable) {
			cands = append(cands, newPackCandidate(e))
		}
	}
	slices.SortFunc(cands, func(a, b *packCandidate) int {
		if a.slot != b.slot {
			return int(int64(b.slot) - int64(a.slot))
		}
		return slices.Compare(a.e.root[:], b.e.root[:])
	})
	// covered holds the attesters already included, per (slot, committee):
	// a validator attests once per epoch, in one committee, so its position
	// there names it, whatever data it voted for.
	covered := make(map[committeeID]bitfield.Bitlist, MaxCommitteesPerSlot*len(cands))
	for _, c := range cands {
		c.shareCoverage(covered, &p.included)
	}
	return cands
}

// mayInclude reports whether a block of slot may include d:
// d.slot + MIN_ATTESTATION_INCLUSION_DELAY <= slot, d from the current or
// the previous epoch of slot, and includable (if not nil) says so.
func (p *Pool) mayInclude(slot uint64, d *attestation.AttestationData, includable func(*attestation.AttestationData) bool) bool {
	if d.Slot+MinAttestationInclusionDelay > slot {
		return false
	}
	if de, epoch := p.epochOf(d.Slot), p.epochOf(slot); de != epoch && de+1 != epoch {
		return false
	}
	return includable == nil || includable(d)
}

// newPackCandidate is the candidate of e, its committees in ascending order.
func newPackCandidate(e *dataEntry) *packCandidate {
	c := &packCandidate{e: e, slot: e.data.Slot}
	for ci, aggs := range e.committees {
		if len(aggs) > 0 {
			c.index = append(c.index, ci)
		}
	}
	slices.Sort(c.index)
	c.cov = make([]bitfield.Bitlist, len(c.index))
	return c
}

// shareCoverage gives c the coverage of its committees, shared with the
// candidates of its slot: what blocks included (not copied: packing only
// reads it, under the pool's lock).
func (c *packCandidate) shareCoverage(covered map[committeeID]bitfield.Bitlist, included *includedBits) {
	for k, ci := range c.index {
		id := committeeID{c.slot, ci}
		cov := covered[id]
		if cov == nil {
			if cov = included.byCommittee[id]; cov == nil {
				cov = bitfield.NewBitlist(c.e.committees[ci][0].bits.Len())
			}
			covered[id] = cov
		}
		c.cov[k] = cov
	}
}

// orBitsAt sets in dst the bits of src (its length bit excluded) shifted
// to offset off; dst holds at least off+src.Len() bits.
func orBitsAt(dst bitfield.Bitlist, off uint64, src bitfield.Bitlist) {
	n := src.Len()
	shift := off % 8
	for i, b := range src {
		if rest := n - 8*uint64(i); rest < 8 {
			b &= byte(1)<<rest - 1 // not the length bit
		}
		if b == 0 {
			continue
		}
		at := off/8 + uint64(i)
		dst[at] |= b << shift
		if hi := b >> (8 - shift); shift != 0 && hi != 0 {
			dst[at+1] |= hi
		}
	}
}

// onChainAggregate is compute_on_chain_aggregate over the picked aggregates
// (pick[k] of committee index[k]; nil ones are left out).
func onChainAggregate(data *attestation.AttestationData, index []uint64, pick []*aggregate) *attestation.Attestation {
	committeeBits := bitfield.NewBitvector64()
	var total uint64
	for k, a := range pick {
		if a != nil {
			total += a.bits.Len()
			committeeBits.SetBitAt(index[k], true)
		}
	}
	aggBits := bitfield.NewBitlist(total)
	sum := curve.G2Infinity()
	var off uint64
	for _, a := range pick {
		if a == nil {
			continue
		}
		n := a.bits.Len()
		orBitsAt(aggBits, off, a.bits)
		off += n
		sum.Add(&a.sig)
	}
	aff := sum.Affine()
	return &attestation.Attestation{
		AggregationBits: aggBits,
		Data:            data.Copy(),
		Signature:       aff.Bytes(),
		CommitteeBits:   committeeBits,
	}
}
