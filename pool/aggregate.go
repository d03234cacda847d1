package pool

import (
	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/par"
)

// aggregate is one aggregate of the attestations of a committee to one
// AttestationData: its bits and the sum of its signatures, kept as a point
// (never re-encoded and decoded).
type aggregate struct {
	bits  bitfield.Bitlist
	count int
	sig   curve.G2
}

// dataEntry holds the aggregates of every committee for one AttestationData.
type dataEntry struct {
	data       *attestation.AttestationData // the pool's own copy
	root       [32]byte
	committees map[uint64][]*aggregate // overlapping aggregates are kept apart
}

// aggStore is the pool's index of aggregates, by data root then committee.
// It is guarded by the pool's mutex.
type aggStore struct {
	maxAggs, maxData int
	workers          int
	n                int // aggregates
	byRoot           map[[32]byte]*dataEntry
}

func newAggStore(maxAggs, maxData, workers int) *aggStore {
	return &aggStore{maxAggs: maxAggs, maxData: maxData, workers: workers, byRoot: make(map[[32]byte]*dataEntry)}
}

// canStore reports whether an attestation of committee k can be stored
// without exceeding a bound: it joins an aggregate there is, or there is room
// for a new one.
func (s *aggStore) canStore(k aggKey) bool {
	e := s.byRoot[k.root]
	if e != nil && len(e.committees[k.committee]) > 0 {
		return true
	}
	return s.n < s.maxAggs && (e != nil || len(s.byRoot) < s.maxData)
}

func (s *aggStore) entry(root [32]byte, data *attestation.AttestationData, create bool) *dataEntry {
	e := s.byRoot[root]
	if e == nil && create && len(s.byRoot) < s.maxData {
		e = &dataEntry{data: data.Copy(), root: root, committees: make(map[uint64][]*aggregate)}
		s.byRoot[root] = e
	}
	return e
}

// single is one accepted attestation to be merged.
type single struct {
	key  aggKey
	data *attestation.AttestationData
	pos  uint64 // position in the committee
	size uint64 // committee size
	sig  *crypto.Signature
}

// place decides which aggregate of the store single x joins: the first one
// without x's bit. It returns nil and true if an aggregate already holds the
// bit (x is redundant: BLS signatures are deterministic, so it is the same
// signature), nil and false if x cannot be stored (bounds).
func (s *aggStore) place(x *single) (*aggregate, bool) {
	e := s.entry(x.key.root, x.data, true)
	if e == nil {
		return nil, false
	}
	aggs := e.committees[x.key.committee]
	for _, a := range aggs {
		if a.bits.Len() != x.size {
			return nil, false
		}
		if !a.bits.BitAt(x.pos) {
			return a, true
		}
	}
	if len(aggs) > 0 {
		return nil, true
	}
	if s.n >= s.maxAggs {
		return nil, false
	}
	a := &aggregate{bits: bitfield.NewBitlist(x.size), sig: curve.G2Infinity()}
	e.committees[x.key.committee] = append(aggs, a)
	s.n++
	return a, true
}

// addSingles merges accepted attestations into their aggregates: bits set,
// signature points summed in batch (spread over the store's workers when
// there are many). stored[i] reports whether xs[i] is in the store
// afterwards.
func (s *aggStore) addSingles(xs []*single) (stored []bool) {
	stored = make([]bool, len(xs))
	taskOf := make(map[*aggregate]int)
	var tasks []mergeTask
	var last *aggregate // the aggregate of the previous single, most often the next one's
	var lastKey aggKey
	lastTask := -1
	for i, x := range xs {
		a := last
		if a == nil || x.key != lastKey || a.bits.BitAt(x.pos) || a.bits.Len() != x.size {
			var ok bool
			a, ok = s.place(x)
			stored[i] = ok
			if a == nil {
				continue
			}
			t, seen := taskOf[a]
			if !seen {
				t = len(tasks)
				taskOf[a] = t
				tasks = append(tasks, mergeTask{dst: &a.sig, points: make([]*curve.G2Affine, 0, x.size)})
			}
			last, lastKey, lastTask = a, x.key, t
		}
		stored[i] = true
		a.bits.SetBitAt(x.pos, true)
		a.count++
		tasks[lastTask].points = append(tasks[lastTask].points, blspoint.Signature(x.sig))
	}
	mergeAll(tasks, s.workers)
	// An aggregate that grew may now contain another of its committee.
	touched := make(map[aggKey]bool)
	for i, x := range xs {
		if i == 0 || x.key != xs[i-1].key { // singles come grouped by committee
			touched[x.key] = true
		}
	}
	for k := range touched {
		if e := s.byRoot[k.root]; e != nil && len(e.committees[k.committee]) > 1 {
			e.committees[k.committee] = s.dropContained(e.committees[k.committee])
		}
	}
	return stored
}

// dropContained removes the aggregates contained in another of the list (of
// equal ones, the first stays).
func (s *aggStore) dropContained(aggs []*aggregate) []*aggregate {
	drop := make([]bool, len(aggs))
	for i, a := range aggs {
		for j, b := range aggs {
			if i != j && !drop[j] && isSuperset(b.bits, a.bits) && (b.count > a.count || j < i) {
				drop[i] = true
				break
			}
		}
	}
	kept := make([]*aggregate, 0, len(aggs))
	for i, a := range aggs {
		if drop[i] {
			s.n--
			continue
		}
		kept = append(kept, a)
	}
	return kept
}

// addAggregate stores a valid gossip aggregate of committee k. Stored
// aggregates it contains are dropped; it merges into the first stored one it
// does not overlap, or else is kept apart. It returns false if it cannot be
// stored (bounds).
func (s *aggStore) addAggregate(k aggKey, data *attestation.AttestationData, bits bitfield.Bitlist, sig *crypto.Signature) bool {
	e := s.entry(k.root, data, true)
	if e == nil {
		return false
	}
	aggs := e.committees[k.committee]
	for _, a := range aggs {
		if a.bits.Len() != bits.Len() {
			return false
		}
		if isSuperset(a.bits, bits) {
			return true // nothing new
		}
	}
	kept := aggs[:0]
	for _, a := range aggs {
		if isSuperset(bits, a.bits) {
			s.n--
			continue
		}
		kept = append(kept, a)
	}
	for i := len(kept); i < len(aggs); i++ {
		aggs[i] = nil
	}
	aggs = kept
	e.committees[k.committee] = aggs
	count := int(bits.Count())
	for _, a := range aggs {
		if overlap, err := a.bits.Overlaps(bits); err == nil && !overlap {
			_ = a.bits.NoAllocOr(bits, a.bits)
			a.count += count
			a.sig.AddAffine(blspoint.Signature(sig))
			// Grown, it may contain others of its committee.
			e.committees[k.committee] = s.dropContained(aggs)
			return true
		}
	}
	if s.n >= s.maxAggs {
		return false
	}
	nb := make(bitfield.Bitlist, len(bits))
	copy(nb, bits)
	a := &aggregate{bits: nb, count: count, sig: curve.G2Infinity()}
	a.sig.AddAffine(blspoint.Signature(sig))
	e.committees[k.committee] = append(aggs, a)
	s.n++
	return true
}

// dropCovered drops the aggregates of committee id (of any data of its
// slot) whose attesters are all in included.
func (s *aggStore) dropCovered(id committeeID, included bitfield.Bitlist) {
	for _, e := range s.byRoot {
		if e.data.Slot != id.slot {
			continue
		}
		aggs := e.committees[id.index]
		kept := aggs[:0]
		for _, a := range aggs {
			if a.bits.Len() == included.Len() && isSuperset(included, a.bits) {
				s.n--
				continue
			}
			kept = append(kept, a)
		}
		clear(aggs[len(kept):])
		if len(kept) == 0 {
			delete(e.committees, id.index)
		} else {
			e.committees[id.index] = kept
		}
	}
}

// prune drops the data of slots before minSlot.
func (s *aggStore) prune(minSlot uint64) {
	for r, e := range s.byRoot {
		if e.data.Slot < minSlot {
			for _, aggs := range e.committees {
				s.n -= len(aggs)
			}
			delete(s.byRoot, r)
		}
	}
}

// mergeTask adds the sum of points to dst.
type mergeTask struct {
	dst    *curve.G2
	points []*curve.G2Affine
}

// minChunk is the fewest points worth a goroutine of their own.
const minChunk = 256

// mergeAll runs the tasks, summing the points with batch-affine addition
// (curve.SumG2) in chunks spread over workers goroutines (the caller's
// included, joined before it returns) when there are enough of them.
func mergeAll(tasks []mergeTask, workers int) {
	total := 0
	for _, t := range tasks {
		total += len(t.points)
	}
	if workers <= 1 || total < 2*minChunk {
		for _, t := range tasks {
			sum := curve.SumG2(t.points)
			t.dst.Add(&sum)
		}
		return
	}
	// Split into chunks of about total/(4*workers) points, never across
	// tasks, taken by the workers as they go.
	chunk := max(minChunk, (total+4*workers-1)/(4*workers))
	type piece struct {
		task   int
		points []*curve.G2Affine
	}
	var pieces []piece
	for i, t := range tasks {
		for lo := 0; lo < len(t.points); lo += chunk {
			pieces = append(pieces, piece{i, t.points[lo:min(lo+chunk, len(t.points))]})
		}
	}
	sums := make([]curve.G2, len(pieces))
	par.ForOn(workers, len(pieces), 1, func(i int) { sums[i] = curve.SumG2(pieces[i].points) })
	for i, pc := range pieces {
		tasks[pc.task].dst.Add(&sums[i])
	}
}
