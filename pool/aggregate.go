package pool

import (
	"slices"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/par"
)

// aggregate is one aggregate of the attestations of a committee to one
// AttestationData, or of the payload attestations of a PTC to one
// PayloadAttestationData. It holds its bits and the sum of its signatures,
// kept as a point (never re-encoded and decoded).
type aggregate struct {
	bits bitfield.Bitlist
	sig  curve.G2
}

// newAggregate is the aggregate of one gossip aggregate: a copy of its bits,
// its signature.
func newAggregate(bits bitfield.Bitlist, sig *crypto.Signature) *aggregate {
	a := &aggregate{bits: slices.Clone(bits), sig: curve.G2Infinity()}
	a.sig.AddAffine(blspoint.Signature(sig))
	return a
}

// participants is the number of attesters of a.
func (a *aggregate) participants() int { return int(a.bits.Count()) }

// join adds to a the attesters of bits, none of them in a, and their
// signature.
func (a *aggregate) join(bits bitfield.Bitlist, sig *crypto.Signature) {
	_ = a.bits.NoAllocOr(bits, a.bits)
	a.sig.AddAffine(blspoint.Signature(sig))
}

// dataEntry holds the aggregates of every committee for one AttestationData.
type dataEntry struct {
	data       *attestation.AttestationData // the pool's own copy
	root       [32]byte
	committees map[uint64][]*aggregate // overlapping aggregates are kept apart
	// weight is the attesters the data's stored messages brought, seq its
	// order of creation: the lightest, oldest data leaves first when the
	// store is full (storebound.go).
	weight int
	seq    uint64
}

// aggStore is the pool's index of aggregates, by data root then committee.
// It is guarded by the pool's mutex.
type aggStore struct {
	maxAggs, maxData int
	workers          int
	n                int // aggregates: set by setCommittee alone
	byRoot           map[[32]byte]*dataEntry
	seq              uint64 // the next dataEntry.seq
	evicted          int    // data entries evicted for room (storebound.go)
	onEvict          func() // when not nil, called at each eviction
}

// setCommittee makes aggs the aggregates of committee in e (none: the
// committee is dropped) and keeps s.n their count.
func (s *aggStore) setCommittee(e *dataEntry, committee uint64, aggs []*aggregate) {
	s.n += len(aggs) - len(e.committees[committee])
	if len(aggs) == 0 {
		delete(e.committees, committee)
		return
	}
	e.committees[committee] = aggs
}

func newAggStore(maxAggs, maxData, workers int) *aggStore {
	return &aggStore{maxAggs: maxAggs, maxData: maxData, workers: workers, byRoot: make(map[[32]byte]*dataEntry)}
}

// canStore reports whether a message of committee k that brings w attesters
// can be stored without exceeding a bound. It can when it joins an
// aggregate there is, or there is room for a new one. It can also when
// there is data the store may evict for it (storebound.go).
func (s *aggStore) canStore(k aggKey, w int) bool {
	e := s.byRoot[k.root]
	if e != nil && len(e.committees[k.committee]) > 0 {
		return true
	}
	return (s.n < s.maxAggs && (e != nil || len(s.byRoot) < s.maxData)) || s.evictable(e, w)
}

// entry is the entry of root, made if create (for a message that brings w
// attesters, evicting data for it if the store is full) and nil if absent.
func (s *aggStore) entry(root [32]byte, data *attestation.AttestationData, create bool, w int) *dataEntry {
	e := s.byRoot[root]
	if e == nil && create && (len(s.byRoot) < s.maxData || s.evictLightest(nil, w)) {
		e = &dataEntry{data: data.Copy(), root: root, committees: make(map[uint64][]*aggregate), seq: s.seq}
		s.seq++
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
// bit. x is then redundant: BLS signatures are deterministic, so it is the
// same signature. It returns nil and false if x cannot be stored (bounds).
func (s *aggStore) place(x *single) (*aggregate, bool) {
	e := s.entry(x.key.root, x.data, true, 1)
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
	if !s.roomFor(e, 1) {
		return nil, false
	}
	a := &aggregate{bits: bitfield.NewBitlist(x.size), sig: curve.G2Infinity()}
	s.setCommittee(e, x.key.committee, append(aggs, a))
	return a, true
}

// addSingles merges accepted attestations into their aggregates. It sets
// the bits and sums the signature points in batch (spread over the store's
// workers when there are many). stored[i] reports whether xs[i] is in the store
// afterwards.
func (s *aggStore) addSingles(xs []*single) (stored []bool) {
	var m merger
	stored = make([]bool, len(xs))
	for i, x := range xs {
		if !m.joinsLast(x) {
			a, ok := s.place(x)
			stored[i] = ok
			if a == nil {
				continue
			}
			m.switchTo(a, x)
		}
		stored[i] = true
		m.add(x)
		if e := s.byRoot[x.key.root]; e != nil {
			e.weight++
		}
	}
	mergeAll(m.tasks, s.workers)
	s.dropGrownContained(xs)
	return stored
}

// merger gathers the signature points of singles by the aggregate they
// join, one merge task an aggregate.
type merger struct {
	tasks   []mergeTask
	taskOf  map[*aggregate]int
	last    *aggregate // the aggregate of the previous single, most often the next one's
	lastKey aggKey
	task    int // last's task
}

// joinsLast reports whether x joins the previous single's aggregate.
func (m *merger) joinsLast(x *single) bool {
	return m.last != nil && x.key == m.lastKey && !m.last.bits.BitAt(x.pos) && m.last.bits.Len() == x.size
}

// switchTo makes a, which x joins, the last aggregate.
func (m *merger) switchTo(a *aggregate, x *single) {
	m.last, m.lastKey, m.task = a, x.key, m.taskFor(a, int(x.size))
}

// taskFor returns the index of a's merge task, made with room for n points
// if a has none yet.
func (m *merger) taskFor(a *aggregate, n int) int {
	if m.taskOf == nil {
		m.taskOf = make(map[*aggregate]int)
	}
	t, seen := m.taskOf[a]
	if !seen {
		t = len(m.tasks)
		m.taskOf[a] = t
		m.tasks = append(m.tasks, mergeTask{dst: &a.sig, points: make([]*curve.G2Affine, 0, n)})
	}
	return t
}

// add sets x's bit in the last aggregate and queues its point.
func (m *merger) add(x *single) {
	m.last.bits.SetBitAt(x.pos, true)
	m.tasks[m.task].points = append(m.tasks[m.task].points, blspoint.Signature(x.sig))
}

// dropGrownContained drops, in each committee the singles joined, the
// aggregates another one now contains (an aggregate that grew may).
func (s *aggStore) dropGrownContained(xs []*single) {
	touched := make(map[aggKey]bool)
	for i, x := range xs {
		if i == 0 || x.key != xs[i-1].key { // singles come grouped by committee
			touched[x.key] = true
		}
	}
	for k := range touched {
		if e := s.byRoot[k.root]; e != nil && len(e.committees[k.committee]) > 1 {
			s.setCommittee(e, k.committee, dropContained(e.committees[k.committee]))
		}
	}
}

// dropContained returns the aggregates of the list not contained in another
// (of equal ones, the first stays), in a new slice.
func dropContained(aggs []*aggregate) []*aggregate {
	drop := make([]bool, len(aggs))
	for i := range aggs {
		drop[i] = containedInOther(aggs, drop, i)
	}
	kept := make([]*aggregate, 0, len(aggs))
	for i, a := range aggs {
		if !drop[i] {
			kept = append(kept, a)
		}
	}
	return kept
}

// containedInOther reports whether aggs[i] is contained in another aggregate
// of aggs not dropped: a larger one, or an equal one before it.
func containedInOther(aggs []*aggregate, drop []bool, i int) bool {
	a := aggs[i]
	for j, b := range aggs {
		if i != j && !drop[j] && isSuperset(b.bits, a.bits) && (j < i || b.participants() > a.participants()) {
			return true
		}
	}
	return false
}

// addAggregate stores a valid gossip aggregate of committee k. Stored
// aggregates it contains are dropped; it joins the first stored one it does
// not overlap, or else is kept apart. It returns false if it cannot be
// stored (bounds).
func (s *aggStore) addAggregate(k aggKey, data *attestation.AttestationData, bits bitfield.Bitlist, sig *crypto.Signature) bool {
	w := int(bits.Count())
	e := s.entry(k.root, data, true, w)
	if e == nil {
		return false
	}
	if stored, known := knownAggregate(e.committees[k.committee], bits); known {
		return stored
	}
	aggs := slices.DeleteFunc(e.committees[k.committee], func(a *aggregate) bool { return isSuperset(bits, a.bits) })
	s.setCommittee(e, k.committee, aggs)
	e.weight += w
	if a := firstDisjoint(aggs, bits); a != nil {
		a.join(bits, sig)
		// Grown, it may contain others of its committee.
		s.setCommittee(e, k.committee, dropContained(aggs))
		return true
	}
	if len(aggs) >= aggregatesPerCommittee {
		s.setCommittee(e, k.committee, replaceMostCovered(aggs, bits, sig))
		return true
	}
	if !s.roomFor(e, w) {
		return false
	}
	s.setCommittee(e, k.committee, append(aggs, newAggregate(bits, sig)))
	return true
}

// knownAggregate decides an aggregate of bits from the stored aggregates of
// its committee alone when it can (known true). It is not stored when their
// length differs (another shuffling). It is stored already when one
// contains it.
func knownAggregate(aggs []*aggregate, bits bitfield.Bitlist) (stored, known bool) {
	for _, a := range aggs {
		if a.bits.Len() != bits.Len() {
			return false, true
		}
		if isSuperset(a.bits, bits) {
			return true, true // nothing new
		}
	}
	return false, false
}

// firstDisjoint is the first of aggs that shares no attester with bits, nil
// if none.
func firstDisjoint(aggs []*aggregate, bits bitfield.Bitlist) *aggregate {
	for _, a := range aggs {
		if overlap, err := a.bits.Overlaps(bits); err == nil && !overlap {
			return a
		}
	}
	return nil
}

// dropCovered drops the aggregates of committee id (of any data of its
// slot) whose attesters are all in included.
func (s *aggStore) dropCovered(id committeeID, included bitfield.Bitlist) {
	covered := func(a *aggregate) bool { return a.bits.Len() == included.Len() && isSuperset(included, a.bits) }
	for _, e := range s.byRoot {
		if e.data.Slot == id.slot {
			s.setCommittee(e, id.index, slices.DeleteFunc(e.committees[id.index], covered))
		}
	}
}

// prune drops the data of slots before minSlot.
func (s *aggStore) prune(minSlot uint64) {
	for r, e := range s.byRoot {
		if e.data.Slot >= minSlot {
			continue
		}
		for ci := range e.committees {
			s.setCommittee(e, ci, nil)
		}
		delete(s.byRoot, r)
	}
}

// mergeTask adds the sum of points to dst.
type mergeTask struct {
	dst    *curve.G2
	points []*curve.G2Affine
}

// How mergeAll splits its points (bounds chosen, not measured one by one).
const (
	// minChunk is the fewest points worth a goroutine of their own. The
	// batch-affine sum shares its field inversions among the points of a
	// chunk. So a chunk much smaller pays them for few points.
	minChunk = 256
	// chunksPerWorker is how many chunks a worker gets on average: more
	// than one, so that a worker that finishes early (uneven tasks, cores
	// shared with the verifier) takes another.
	chunksPerWorker = 4
)

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
	// Split into chunks of about total/(chunksPerWorker*workers) points,
	// never across tasks, taken by the workers as they go.
	chunks := chunksPerWorker * workers
	chunk := max(minChunk, (total+chunks-1)/chunks)
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
