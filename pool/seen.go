package pool

import (
	"math/bits"

	"github.com/prysmaticlabs/go-bitfield"
)

// epochSeen is a first-seen cache keyed by (epoch, validator index): one
// bitset over validator indices per epoch, so a million validators cost
// 128 KiB an epoch. Only the epochs gossip may still carry are kept (prune).
// It is guarded by the pool's mutex.
type epochSeen struct {
	maxIndex uint64
	epochs   map[uint64][]uint64
}

func newEpochSeen(maxIndex uint64) *epochSeen {
	return &epochSeen{maxIndex: maxIndex, epochs: make(map[uint64][]uint64)}
}

func (s *epochSeen) has(epoch, index uint64) bool {
	b := s.epochs[epoch]
	w := index / 64
	return w < uint64(len(b)) && b[w]&(1<<(index%64)) != 0
}

// add marks (epoch, index); false if index is past the bound.
func (s *epochSeen) add(epoch, index uint64) bool {
	if index >= s.maxIndex {
		return false
	}
	b := s.epochs[epoch]
	w := index / 64
	if w >= uint64(len(b)) {
		nb := make([]uint64, max(w+1, uint64(2*len(b))))
		nb = nb[:min(uint64(len(nb)), (s.maxIndex+63)/64)]
		copy(nb, b)
		b = nb
		s.epochs[epoch] = b
	}
	b[w] |= 1 << (index % 64)
	return true
}

func (s *epochSeen) prune(minEpoch uint64) {
	for e := range s.epochs {
		if e < minEpoch {
			delete(s.epochs, e)
		}
	}
}

func (s *epochSeen) count() int {
	n := 0
	for _, b := range s.epochs {
		for _, w := range b {
			n += bits.OnesCount64(w)
		}
	}
	return n
}

// aggKey names the aggregates of one committee voting for one
// AttestationData.
type aggKey struct {
	root      [32]byte
	committee uint64
}

// seenAggregates remembers the aggregation bits of the valid aggregates seen
// per (data root, committee): the specs' seen.aggregate_data_roots. Guarded
// by the pool's mutex.
type seenAggregates struct {
	max   int
	n     int
	byKey map[aggKey]*seenBits
}

type seenBits struct {
	slot uint64
	bits []bitfield.Bitlist
}

func newSeenAggregates(max int) *seenAggregates {
	return &seenAggregates{max: max, byKey: make(map[aggKey]*seenBits)}
}

// covered reports whether some seen bitlist is a non-strict superset of b.
func (s *seenAggregates) covered(k aggKey, b bitfield.Bitlist) bool {
	e := s.byKey[k]
	if e == nil {
		return false
	}
	for _, seen := range e.bits {
		if isSuperset(seen, b) {
			return true
		}
	}
	return false
}

// add remembers b; false if the bound is hit.
func (s *seenAggregates) add(k aggKey, slot uint64, b bitfield.Bitlist) bool {
	if s.n >= s.max {
		return false
	}
	e := s.byKey[k]
	if e == nil {
		e = &seenBits{slot: slot}
		s.byKey[k] = e
	}
	e.bits = append(e.bits, b)
	s.n++
	return true
}

func (s *seenAggregates) prune(minSlot uint64) {
	for k, e := range s.byKey {
		if e.slot < minSlot {
			s.n -= len(e.bits)
			delete(s.byKey, k)
		}
	}
}

// isSuperset reports whether a ⊇ b (bitlists of one length).
func isSuperset(a, b bitfield.Bitlist) bool {
	ok, err := a.Contains(b)
	return err == nil && ok
}

// remove unmarks (epoch, index).
func (s *epochSeen) remove(epoch, index uint64) {
	b := s.epochs[epoch]
	if w := index / 64; w < uint64(len(b)) {
		b[w] &^= 1 << (index % 64)
	}
}
