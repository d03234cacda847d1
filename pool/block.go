package pool

import (
	"math/bits"
	"slices"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
)

// AttestationsForBlock returns the attestations for a block of slot: at most
// MAX_ATTESTATIONS_ELECTRA on-chain aggregates, each one AttestationData with
// one aggregate per committee joined as the specs' compute_on_chain_aggregate
// does (aggregation bits concatenated in committee order, committee_bits set
// for the committees present, signatures summed). They are chosen greedily,
// each time the one adding the most attesters not yet included by the ones
// before or by the chain (see [Pool.MarkIncluded]). Only data a block of
// slot may include is considered:
// data.slot + MIN_ATTESTATION_INCLUSION_DELAY <= slot, from the current or
// the previous epoch of slot (Deneb+). Whether data.source matches the
// justified checkpoint of the block's state is the node's to know: use
// [Pool.AttestationsForBlockWith] to filter on it.
func (p *Pool) AttestationsForBlock(slot uint64) []*attestation.Attestation {
	return p.AttestationsForBlockWith(slot, nil)
}

// AttestationsForBlockWith is [Pool.AttestationsForBlock] over the data for
// which includable (when not nil) says true, checked before the greedy
// choice: a node passes the process_attestation checks that need its state,
// such as data.source being the current or previous justified checkpoint.
// includable runs with the pool's lock held and must not call the pool.
func (p *Pool) AttestationsForBlockWith(slot uint64, includable func(*attestation.AttestationData) bool) []*attestation.Attestation {
	epoch := p.epochOf(slot)
	p.mu.Lock()
	defer p.mu.Unlock()

	type candidate struct {
		e     *dataEntry
		slot  uint64
		index []uint64 // committees, ascending
	}
	var cands []*candidate
	for _, e := range p.store.byRoot {
		ds := e.data.Slot
		if ds+MinAttestationInclusionDelay > slot {
			continue
		}
		if de := p.epochOf(ds); de != epoch && de+1 != epoch {
			continue
		}
		if includable != nil && !includable(e.data) {
			continue
		}
		c := &candidate{e: e, slot: ds}
		for ci, aggs := range e.committees {
			if len(aggs) > 0 {
				c.index = append(c.index, ci)
			}
		}
		slices.Sort(c.index)
		cands = append(cands, c)
	}
	// Deterministic order among equal gains.
	slices.SortFunc(cands, func(a, b *candidate) int {
		if a.slot != b.slot {
			return int(int64(b.slot) - int64(a.slot))
		}
		return slices.Compare(a.e.root[:], b.e.root[:])
	})

	// covered holds the attesters already included, per (slot, committee),
	// by the chain (MarkIncluded) or by the attestations chosen before: a
	// validator attests once per epoch, in one committee, so its position
	// there names it.
	covered := make(map[committeeID]bitfield.Bitlist)
	for _, c := range cands {
		for _, ci := range c.index {
			id := committeeID{c.slot, ci}
			if inc := p.included.of(id); inc != nil && covered[id] == nil {
				covered[id] = slices.Clone(inc)
			}
		}
	}
	gain := func(c *candidate, ci uint64, a *aggregate) int {
		cov := covered[committeeID{c.slot, ci}]
		if cov == nil {
			return a.count
		}
		return newBits(a.bits, cov)
	}

	var out []*attestation.Attestation
	for len(out) < MaxAttestationsElectra {
		best, bestGain := -1, 0
		var bestPick []*aggregate
		for i, c := range cands {
			total := 0
			pick := make([]*aggregate, len(c.index))
			for k, ci := range c.index {
				g := 0
				for _, a := range c.e.committees[ci] {
					if n := gain(c, ci, a); n > g {
						g, pick[k] = n, a
					}
				}
				total += g
			}
			if total > bestGain {
				best, bestGain, bestPick = i, total, pick
			}
		}
		if best < 0 {
			break
		}
		c := cands[best]
		out = append(out, onChainAggregate(c.e.data, c.index, bestPick))
		for k, ci := range c.index {
			a := bestPick[k]
			if a == nil {
				continue
			}
			key := committeeID{c.slot, ci}
			if cov := covered[key]; cov != nil {
				_ = cov.NoAllocOr(a.bits, cov)
			} else {
				cov = make(bitfield.Bitlist, len(a.bits))
				copy(cov, a.bits)
				covered[key] = cov
			}
		}
	}
	return out
}

// newBits counts the bits of a not in cov (bitlists of one length).
func newBits(a, cov bitfield.Bitlist) int {
	if len(a) != len(cov) {
		return 0
	}
	n := 0
	for i := range a {
		n += bits.OnesCount8(a[i] &^ cov[i])
	}
	return n
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
	sum := crypto.G2Infinity()
	var off uint64
	for _, a := range pick {
		if a == nil {
			continue
		}
		n := a.bits.Len()
		for i := range n {
			if a.bits.BitAt(i) {
				aggBits.SetBitAt(off+i, true)
			}
		}
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
