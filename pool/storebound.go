package pool

import (
	"math/bits"
	"slices"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/crypto"
)

// The aggregate store's bounds against one actor. An attacker with a few
// validators makes as many distinct AttestationData as it has
// validator-epochs (a source checkpoint of its choosing in each, which no
// gossip rule checks), each with its own few attesters. The honest
// validators make one to three a slot, each with thousands. So a full store
// (MaxData, MaxAggregates) makes room for a message by evicting the data
// whose messages brought the fewest attesters, the oldest of those first.
// It does so if they brought no more than the message brings. A crafted
// data evicts another. The honest data of a new slot, the newest, keeps its
// place while its attesters come. No message evicts data with more
// attesters than its own (it is then answered Ignore, ErrPoolFull). And
// each committee of a data keeps at most aggregatesPerCommittee aggregates
// that overlap (a block includes one of them per attestation). With an
// overlapping aggregate beyond them, the one of them and it whose attesters
// the others cover most is left out. The new one is then accepted without
// being kept. So a slot's honest aggregates, about
// TargetAggregatorsPerCommittee a committee, fit MaxAggregates, and few
// attesters a block may include are lost.

// aggregatesPerCommittee is the most overlapping aggregates kept for one
// committee and data. It is a quarter of the TARGET_AGGREGATORS_PER_COMMITTEE
// aggregates of a committee. So the default MaxAggregates (8 a committee of
// the two epochs kept) holds two data a committee (a fork).
const aggregatesPerCommittee = TargetAggregatorsPerCommittee / 4

// replaceMostCovered is aggs, a committee's full list, with one aggregate
// left out of it and the new one of bits and sig. The one left out is the
// one whose attesters the others cover the most of (fewest attesters of its
// own, then fewest attesters). So the attesters a block may include are
// kept. It is aggs as it was when that is the new one.
func replaceMostCovered(aggs []*aggregate, bits bitfield.Bitlist, sig *crypto.Signature) []*aggregate {
	cands := append(slices.Clip(aggs), &aggregate{bits: bits})
	drop, dropOwn := -1, 0
	for i, c := range cands {
		own := ownAttesters(cands, i)
		if drop < 0 || own < dropOwn || (own == dropOwn && c.participants() < cands[drop].participants()) {
			drop, dropOwn = i, own
		}
	}
	if drop == len(aggs) {
		return aggs
	}
	out := slices.Clone(aggs)
	out[drop] = newAggregate(bits, sig)
	return out
}

// ownAttesters is the number of attesters of cands[i] in no other of cands
// (bitlists of one length, at least two of them).
func ownAttesters(cands []*aggregate, i int) int {
	n := 0
	for k, b := range cands[i].bits {
		others := byte(0)
		for j, c := range cands {
			if j != i && k < len(c.bits) {
				others |= c.bits[k]
			}
		}
		// The length bit, set in every bitlist of the length, is in others.
		n += bits.OnesCount8(b &^ others)
	}
	return n
}

// roomFor makes room for one more aggregate of e's data, which brings w
// attesters. It evicts the lightest other data if the store is full. It
// returns false if there is none it may evict.
func (s *aggStore) roomFor(e *dataEntry, w int) bool {
	for s.n >= s.maxAggs {
		if !s.evictLightest(e, w) {
			return false
		}
	}
	return true
}

// evictable reports whether the store holds data other than keep (nil:
// any) it may evict for a message that brings w attesters.
func (s *aggStore) evictable(keep *dataEntry, w int) bool {
	low := s.lightest(keep)
	return low != nil && low.weight <= w
}

// lightest is the data entry other than keep whose messages brought the
// fewest attesters, the oldest of those; nil if there is none.
func (s *aggStore) lightest(keep *dataEntry) *dataEntry {
	var low *dataEntry
	for _, e := range s.byRoot {
		if e == keep {
			continue
		}
		if low == nil || e.weight < low.weight || (e.weight == low.weight && e.seq < low.seq) {
			low = e
		}
	}
	return low
}

// evictLightest drops the lightest data entry other than keep and its
// aggregates if its messages brought no more than w attesters; false if
// there is none.
func (s *aggStore) evictLightest(keep *dataEntry, w int) bool {
	e := s.lightest(keep)
	if e == nil || e.weight > w {
		return false
	}
	for ci := range e.committees {
		s.setCommittee(e, ci, nil)
	}
	delete(s.byRoot, e.root)
	s.evicted++
	if s.onEvict != nil {
		s.onEvict()
	}
	return true
}
