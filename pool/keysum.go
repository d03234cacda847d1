package pool

import (
	"cmp"
	"math/bits"
	"slices"
	"sync"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/crypto"
)

// The key an aggregate's signature is checked against is the sum of its
// participants' keys. That is about 500 additions for a mainnet committee,
// the largest share of an aggregate's cost before its signatures. The ~16
// aggregates of a committee differ in a few bits. So the pool keeps, per
// (slot, committee index), the committee's total key and the sums of the
// last aggregates it saw. It builds each new sum from the cheapest start.
// That is nothing (adding the participants), the total (subtracting the
// absent members) or a recent sum (adding and subtracting the members they
// differ by). The terms are summed in batch-affine form (crypto.KeySum).

const (
	// keySumCommittees bounds the committees whose sums are kept: four
	// slots of 64 committees (aggregates come in the slot of their data,
	// a few later). About 6 KiB each at mainnet size.
	keySumCommittees = 4 * MaxCommitteesPerSlot
	// recentKeySums is how many aggregate sums a committee keeps: half
	// of its expected aggregators, so that repeats and near-copies find
	// a close start.
	recentKeySums = TargetAggregatorsPerCommittee / 2
)

// committeeID names a beacon committee.
type committeeID struct{ slot, index uint64 }

// keySums is the pool's cache of committee key sums. Its zero value is
// empty and ready; it has its own lock (key sums are computed on the
// callers' goroutines, outside the pool's lock).
type keySums struct {
	mu sync.Mutex
	m  map[committeeID]*committeeKeys
}

// committeeKeys is what the cache knows of one committee.
type committeeKeys struct {
	committee []uint64 // the pool's copy: a changed shuffling starts over

	mu        sync.Mutex // guards what follows
	total     crypto.KeySum
	haveTotal bool
	noTotal   bool // a member has no key: no total, only sums of participants
	recent    []knownSum
	next      int   // the slot of recent written next once it is full
	byIndex   []int // committee positions by increasing validator index; nil until asked
}

// knownSum is the key sum of the participants bits name.
type knownSum struct {
	bits bitfield.Bitlist
	sum  crypto.KeySum
}

// entry returns the committee's entry, made (and the cache bounded) if
// needed.
func (c *keySums) entry(id committeeID, committee []uint64) *committeeKeys {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.m[id]; e != nil && slices.Equal(e.committee, committee) {
		return e
	}
	if c.m == nil {
		c.m = make(map[committeeID]*committeeKeys)
	}
	if _, replacing := c.m[id]; !replacing && len(c.m) >= keySumCommittees {
		c.evictOldestLocked()
	}
	e := &committeeKeys{committee: slices.Clone(committee)}
	c.m[id] = e
	return e
}

// evictOldestLocked drops the committees of the oldest slot held.
func (c *keySums) evictOldestLocked() { dropOldestSlot(c.m) }

// prune drops the committees of slots before minSlot.
func (c *keySums) prune(minSlot uint64) {
	c.mu.Lock()
	dropSlotsBefore(c.m, minSlot)
	c.mu.Unlock()
}

// dropSlotsBefore deletes the committees of slots before minSlot from m.
func dropSlotsBefore[V any](m map[committeeID]V, minSlot uint64) {
	for id := range m {
		if id.slot < minSlot {
			delete(m, id)
		}
	}
}

// dropOldestSlot deletes the committees of the oldest slot of m.
func dropOldestSlot[V any](m map[committeeID]V) {
	dropSlotsBefore(m, oldestKey(m, func(id committeeID) uint64 { return id.slot })+1)
}

// oldestKey is the least slot (or epoch) at gives a key of m, the largest
// uint64 if m is empty.
func oldestKey[K comparable, V any](m map[K]V, at func(K) uint64) uint64 {
	oldest := ^uint64(0)
	for k := range m {
		oldest = min(oldest, at(k))
	}
	return oldest
}

// len is the number of committees held.
func (c *keySums) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// start is where a sum is built from.
type start uint8

const (
	fromNothing start = iota // add the participants
	fromTotal                // the total less the absent members
	fromRecent               // a recent sum, corrected
)

// plan chooses the cheapest start for the sum of bits (count participants)
// and returns it, with a copy of the recent sum to start from.
func (e *committeeKeys) plan(b bitfield.Bitlist, count int) (start, knownSum) {
	n := len(e.committee)
	absent := n - count
	e.mu.Lock()
	defer e.mu.Unlock()
	best, cost := fromNothing, count
	// The total is worth building when it beats adding: its n additions
	// are paid once for the committee's aggregates.
	if !e.noTotal && absent < cost {
		best, cost = fromTotal, absent
	}
	var from knownSum
	for _, k := range e.recent {
		if d := differing(k.bits, b); d < cost {
			best, cost, from = fromRecent, d, k
		}
	}
	return best, from
}

// differing counts the bits in which a and b differ (bitlists of one
// length; the length bits cancel).
func differing(a, b bitfield.Bitlist) int {
	n := 0
	for i := range a {
		n += bits.OnesCount8(a[i] ^ b[i])
	}
	return n
}

// totalSum returns the committee's total key, summed on first use; ok is
// false when a member has no key.
func (e *committeeKeys) totalSum(keys PublicKeys) (crypto.KeySum, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.haveTotal || e.noTotal {
		return e.total, e.haveTotal
	}
	pks := make([]*crypto.PublicKey, len(e.committee))
	for i, v := range e.committee {
		if pks[i] = keys.PublicKey(v); pks[i] == nil {
			e.noTotal = true
			return e.total, false
		}
	}
	if err := e.total.Add(pks); err != nil {
		e.noTotal = true
		return e.total, false
	}
	e.haveTotal = true
	return e.total, true
}

// indexOrder returns the committee's positions in increasing order of their
// validator index, sorted on first use. The ~16 aggregates of a committee
// then list their attesters sorted in one pass each, not one sort each.
func (e *committeeKeys) indexOrder() []int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.byIndex == nil {
		order := make([]int, len(e.committee))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(e.committee[a], e.committee[b]) })
		e.byIndex = order
	}
	return e.byIndex
}

// sortedAttesters returns the members of committee (index of slot) whose
// bits are set, in increasing validator index order, as an
// IndexedAttestation lists them. bits has the committee's length.
func (p *Pool) sortedAttesters(slot, index uint64, committee []uint64, b bitfield.Bitlist) []uint64 {
	order := p.keySums.entry(committeeID{slot, index}, committee).indexOrder()
	out := make([]uint64, 0, b.Count())
	for _, i := range order {
		if b.BitAt(uint64(i)) {
			out = append(out, committee[i])
		}
	}
	return out
}

// remember keeps the sum of b among the recent ones.
func (e *committeeKeys) remember(b bitfield.Bitlist, sum crypto.KeySum) {
	k := knownSum{bits: slices.Clone(b), sum: sum}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.recent) < recentKeySums {
		e.recent = append(e.recent, k)
		return
	}
	e.recent[e.next] = k
	e.next = (e.next + 1) % recentKeySums
}

// participantsKey is the sum of the public keys of the members of committee
// (index of slot) whose bits are set: the key an aggregate's signature is
// checked against. It returns nil and the verdict when the key cannot be
// had. bits has the committee's length (the rules checked it).
func (p *Pool) participantsKey(slot, index uint64, committee []uint64, b bitfield.Bitlist) (*crypto.PublicKey, Result) {
	if b.Len() != uint64(len(committee)) {
		return nil, rejectf(ErrAggregationBitsLength, "%d bits, committee of %d", b.Len(), len(committee))
	}
	e := p.keySums.entry(committeeID{slot, index}, committee)
	how, from := e.plan(b, int(b.Count()))
	return p.keyOf(committee, b, how, from, e)
}

// keyOf sums the key of b from the start chosen and remembers it in e.
func (p *Pool) keyOf(committee []uint64, b bitfield.Bitlist, how start, from knownSum, e *committeeKeys) (*crypto.PublicKey, Result) {
	sum, add, sub, res := p.keyTerms(committee, b, how, from, e)
	if res.Err != nil {
		return nil, res
	}
	if err := sum.Add(add); err != nil {
		return nil, rejectf(ErrInvalidAggregateSignature, "%w", err)
	}
	if err := sum.Sub(sub); err != nil {
		return nil, rejectf(ErrInvalidAggregateSignature, "%w", err)
	}
	key, err := sum.PublicKey()
	if err != nil {
		// [REJECT] The signature of aggregate is valid (the key of its
		// participants is not valid, so no signature is).
		return nil, rejectf(ErrInvalidAggregateSignature, "%w", err)
	}
	e.remember(b, sum)
	return key, Result{}
}

// keyTerms is the sum the key of b starts from, and the keys to add to it
// and to subtract from it, by the start chosen. res is the Ignore of a
// member without a key.
func (p *Pool) keyTerms(committee []uint64, b bitfield.Bitlist, how start, from knownSum, e *committeeKeys) (sum crypto.KeySum, add, sub []*crypto.PublicKey, res Result) {
	switch how {
	case fromTotal:
		total, ok := e.totalSum(p.node.Keys)
		if !ok {
			return p.keyTerms(committee, b, fromNothing, knownSum{}, e)
		}
		// Every member has a key: the total was summed.
		sub, _ = p.membersWhere(committee, func(i int) byte { return ^b[i] })
		return total, nil, sub, Result{}
	case fromRecent:
		if add, res = p.membersWhere(committee, func(i int) byte { return b[i] &^ from.bits[i] }); res.Err != nil {
			return sum, nil, nil, res
		}
		sub, _ = p.membersWhere(committee, func(i int) byte { return from.bits[i] &^ b[i] })
		return from.sum, add, sub, Result{}
	}
	add, res = p.membersWhere(committee, func(i int) byte { return b[i] })
	return sum, add, nil, res
}

// membersWhere returns the keys of the members of committee whose bits are
// set in the bytes mask(i) gives for byte i of a bitlist of the committee's
// length. Bits past the committee are ignored. It returns the Ignore of the
// first member without a key instead.
func (p *Pool) membersWhere(committee []uint64, mask func(i int) byte) ([]*crypto.PublicKey, Result) {
	var out []*crypto.PublicKey
	n := len(committee)
	for i := 0; i*8 < n; i++ {
		m := mask(i)
		if rest := n - 8*i; rest < 8 {
			m &= byte(1)<<rest - 1
		}
		for m != 0 {
			j := bits.TrailingZeros8(m)
			m &= m - 1
			v := committee[8*i+j]
			pk := p.node.Keys.PublicKey(v)
			if pk == nil {
				return nil, ignoref(ErrUnknownValidator, "validator %d", v)
			}
			out = append(out, pk)
		}
	}
	return out, Result{}
}
