package pool

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Block packing chooses at most MAX_ATTESTATIONS_ELECTRA on-chain
// attestations, each one AttestationData with at most one aggregate per
// committee, to include the most attesters not yet on chain. A validator
// attests once an epoch. So the attesters of two data of a slot are
// disjoint (but for slashable double votes), and so are committees. Taking
// data d in k attestations brings, per committee, the most attesters that
// k of its aggregates cover together. The whole choice is a knapsack over
// the data. plan solves it exactly. Per committee it finds the best set of
// k aggregates (a branch and bound search, not the aggregates picked one at
// a time). Over the data it runs a dynamic program. Both run lazily. A data
// is evaluated, and a committee searched, only as far as an upper bound of
// its value could still change the choice.

// committeePack is one committee of a candidate data: its aggregates'
// attesters not yet covered, and the best sets of them found so far. It is
// built in two steps. First come the union of the aggregates and the best
// single one (all that one attestation of the data needs, read without
// copying them). Then, for the search of more, come their masks, sorted,
// without those inside another.
type committeePack struct {
	aggs   []*aggregate // the aggregates; after prepare, those of masks in their order
	cov    []byte       // the attesters on chain
	all    int          // the attesters of the union of the aggregates, not on chain
	best   []int        // best[k]: the most attesters k aggregates cover together
	choice [][]int      // choice[k]: the aggregates that do, by index
	nodes  *int         // the search nodes the block has left (shared)
	// Set by prepare, for the search:
	masks  [][]uint64 // attesters not covered: distinct, none inside another, most first
	counts []int      // the attesters of masks[i]
	prefix []int      // prefix[i]: counts[0] + ... + counts[i-1]
	suffix [][]uint64 // suffix[i]: the union of masks[i:]
}

// maxSearchNodes bounds the sets the searches of one block try, in all.
// Once it is spent, each committee keeps the best set found so far (at least
// the one adding aggregates one at a time). TestPackingQuality's blocks try
// at most about 400. BenchmarkAttestationsForBlock's partial one tries about
// 800 and its mainnet one none (one aggregate a committee is all a data gets
// there). The bound only caps the time, a few milliseconds, that committees
// of many overlapping aggregates could take.
const maxSearchNodes = 1 << 16

// maskInto sets dst to the bits of b (a bitlist of cov's length) not in cov,
// as little-endian words, and returns how many there are. The length bits,
// set in both, cancel out.
func maskInto(dst []uint64, b, cov []byte) int {
	n := 0
	for i := range dst {
		var w uint64
		if 8*i+8 <= len(b) {
			w = binary.LittleEndian.Uint64(b[8*i:]) &^ binary.LittleEndian.Uint64(cov[8*i:])
		} else {
			var x, y [8]byte
			copy(x[:], b[8*i:])
			copy(y[:], cov[8*i:])
			w = binary.LittleEndian.Uint64(x[:]) &^ binary.LittleEndian.Uint64(y[:])
		}
		dst[i] = w
		n += bits.OnesCount64(w)
	}
	return n
}

func popcount(w []uint64) int {
	n := 0
	for _, x := range w {
		n += bits.OnesCount64(x)
	}
	return n
}

// orCount sets dst to a | b and returns its bits.
func orCount(dst, a, b []uint64) int {
	n := 0
	for i := range dst {
		dst[i] = a[i] | b[i]
		n += bits.OnesCount64(dst[i])
	}
	return n
}

// unionCount is the bits of a | b.
func unionCount(a, b []uint64) int {
	n := 0
	for i := range a {
		n += bits.OnesCount64(a[i] | b[i])
	}
	return n
}

// inside reports whether a is inside b.
func inside(a, b []uint64) bool {
	for i := range a {
		if a[i]&^b[i] != 0 {
			return false
		}
	}
	return true
}

// newCommitteePack is the committee of aggs against its coverage cov, with
// its best single aggregate; scratch holds twice the words of cov, nodes is
// the block's search budget. Aggregates of another length than cov count
// for nothing.
func newCommitteePack(aggs []*aggregate, cov []byte, scratch []uint64, nodes *int) *committeePack {
	c := &committeePack{aggs: aggs, cov: cov, nodes: nodes, best: []int{0}, choice: [][]int{nil}}
	union, m := scratch[:(len(cov)+7)/8], scratch[(len(cov)+7)/8:][:(len(cov)+7)/8]
	clear(union)
	top, most := -1, 0
	for i, a := range aggs {
		if len(a.bits) != len(cov) {
			continue
		}
		if n := maskInto(m, a.bits, cov); n > most {
			top, most = i, n
		}
		orCount(union, union, m)
	}
	c.all = popcount(union)
	if top >= 0 {
		c.best, c.choice = append(c.best, most), append(c.choice, []int{top})
	}
	return c
}

// prepare computes the masks of the aggregates, sorted most attesters
// first, and prefix and suffix for the search. It leaves out masks inside
// another: a set with one of them does no better than with the other.
func (c *committeePack) prepare() {
	if c.suffix != nil {
		return
	}
	nw := (len(c.cov) + 7) / 8
	words := make([]uint64, (2*len(c.aggs)+1)*nw) // the masks, then the suffixes
	suffixes := words[len(c.aggs)*nw:]
	type cand struct {
		a *aggregate
		m []uint64
		n int
	}
	var cands []cand
	for i, a := range c.aggs {
		m := words[i*nw : (i+1)*nw]
		if len(a.bits) == len(c.cov) {
			if n := maskInto(m, a.bits, c.cov); n > 0 {
				cands = append(cands, cand{a, m, n})
			}
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int { return y.n - x.n })
	c.aggs = nil
	for _, x := range cands {
		if !slices.ContainsFunc(c.masks, func(m []uint64) bool { return inside(x.m, m) }) {
			c.aggs, c.masks, c.counts = append(c.aggs, x.a), append(c.masks, x.m), append(c.counts, x.n)
		}
	}
	c.choice[1] = []int{0} // the first mask has the most attesters, best[1]
	n := len(c.masks)
	c.prefix = make([]int, n+1)
	for i, k := range c.counts {
		c.prefix[i+1] = c.prefix[i] + k
	}
	c.suffix = make([][]uint64, n+1)
	c.suffix[n] = suffixes[n*nw : (n+1)*nw]
	for i := n - 1; i >= 0; i-- {
		c.suffix[i] = suffixes[i*nw : (i+1)*nw]
		orCount(c.suffix[i], c.masks[i], c.suffix[i+1])
	}
}

// known is the largest k whose best set is known.
func (c *committeePack) known() int { return len(c.best) - 1 }

// saturated reports whether the best sets known cover every attester the
// masks have: more masks add nothing.
func (c *committeePack) saturated() bool { return c.best[c.known()] == c.all }

// value is best[k] when known, and otherwise an upper bound of it. k masks
// cover at most the union of all. They also cover at most best[j] plus
// k - j times the largest mask.
func (c *committeePack) value(k int) int {
	j := c.known()
	if k <= j || c.saturated() {
		return c.best[min(k, j)]
	}
	return min(c.all, c.best[j]+(k-j)*c.best[1]) // best[1]: the largest mask
}

// chosen is the best set of at most k masks.
func (c *committeePack) chosen(k int) []int { return c.choice[min(k, c.known())] }

// extend finds the best sets of up to k masks.
func (c *committeePack) extend(k int) {
	for c.known() < k && !c.saturated() {
		c.search(c.known() + 1)
	}
}

// search finds the best set of k masks, knowing those of k - 1. It is a
// depth first search over the masks in order (most attesters first). It is
// cut where the union of what remains, or the sum of the largest masks that
// remain, cannot beat the best set so far. It starts from the set of k - 1
// with the mask that adds the most.
func (c *committeePack) search(k int) {
	c.prepare()
	nw := len(c.suffix[0])
	prev := c.choice[k-1]
	cur := make([]uint64, nw)
	for _, i := range prev {
		orCount(cur, cur, c.masks[i])
	}
	best, bestSet := c.best[k-1], slices.Clone(prev)
	tmp := make([]uint64, nw)
	for i, m := range c.masks {
		if n := orCount(tmp, cur, m); n > best && !slices.Contains(prev, i) {
			best, bestSet = n, append(slices.Clone(prev), i)
		}
	}
	unions := make([][]uint64, k+1) // unions[d]: the union of the set at depth d
	for d := range unions {
		unions[d] = make([]uint64, nw)
	}
	set := make([]int, 0, k)
	var dfs func(from, depth, count int)
	dfs = func(from, depth, count int) {
		left := k - depth
		for i := from; i < len(c.masks) && best < c.all; i++ {
			if count+c.prefix[min(i+left, len(c.masks))]-c.prefix[i] <= best || unionCount(unions[depth], c.suffix[i]) <= best {
				return // the bounds only fall as i grows
			}
			if *c.nodes <= 0 {
				return
			}
			*c.nodes--
			n := orCount(unions[depth+1], unions[depth], c.masks[i])
			set = append(set, i)
			if n > best {
				best, bestSet = n, slices.Clone(set)
			}
			if left > 1 {
				dfs(i+1, depth+1, n)
			}
			set = set[:len(set)-1]
		}
	}
	dfs(0, 0, 0)
	c.best, c.choice = append(c.best, best), append(c.choice, bestSet)
}

// planData is a candidate data as the plan sees it.
type planData struct {
	c      *packCandidate
	index  int              // in the candidates
	bound  int              // before evaluation: an upper bound of its value
	comms  []*committeePack // nil until evaluated
	values []int            // values[k] for k = 0..budget: exact up to exact, bounds after
	exact  int              // values[:exact+1] are exact
}

// evaluate makes the values of d exact up to k; nodes is the block's
// search budget.
func (d *planData) evaluate(k, budget int, nodes *int) {
	if d.comms == nil {
		d.comms = make([]*committeePack, len(d.c.index))
		var scratch []uint64
		for i, ci := range d.c.index {
			if nw := (len(d.c.cov[i]) + 7) / 8; len(scratch) < 2*nw {
				scratch = make([]uint64, 2*nw)
			}
			d.comms[i] = newCommitteePack(d.c.e.committees[ci], d.c.cov[i], scratch, nodes)
		}
	}
	d.exact = budget
	for _, cp := range d.comms {
		cp.extend(k)
		if !cp.saturated() {
			d.exact = min(d.exact, cp.known())
		}
	}
	for j := range d.values {
		d.values[j] = 0
		for _, cp := range d.comms {
			d.values[j] += cp.value(j)
		}
	}
}

// plan returns how many attestations of each candidate a block of budget
// attestations includes (ks[i] for cands[i]) to bring the most new
// attesters, and the planData of the candidates.
//
// A data not evaluated yet is worth, however many attestations it gets, at
// most the attesters of its committees not on chain and not in the
// aggregates of the data of its slot evaluated already (they are disjoint).
// So of those data only the budget largest bounds can be chosen. The
// knapsack over the evaluated data and those runs on the values known
// exactly and the bounds of the others. While its choice needs a bound, the
// data concerned are evaluated that far and it runs again. Its choice is
// then optimal: no choice is worth more than the bounds say.
func plan(cands []*packCandidate, budget int) (ks []int, data []*planData) {
	data = make([]*planData, len(cands))
	bySlot := map[uint64][]*planData{}
	for i, c := range cands {
		d := &planData{c: c, index: i, values: make([]int, budget+1)}
		for k := range c.index {
			d.bound += int(c.cov[k].Len() - c.cov[k].Count())
		}
		data[i] = d
		bySlot[c.slot] = append(bySlot[c.slot], d)
	}
	var fresh, pool []*planData
	nodes := maxSearchNodes
	for {
		pool, fresh = pool[:0], fresh[:0]
		for _, d := range data {
			if d.comms != nil {
				pool = append(pool, d)
			} else if d.bound > 0 {
				fresh = append(fresh, d)
			}
		}
		slices.SortStableFunc(fresh, func(x, y *planData) int { return y.bound - x.bound })
		for _, d := range fresh[:min(budget, len(fresh))] {
			for k := 1; k <= budget; k++ {
				d.values[k] = d.bound
			}
			pool = append(pool, d)
		}
		take := knapsack(pool, budget)
		done := true
		for i, d := range pool {
			if take[i] <= d.exact {
				continue
			}
			first := d.comms == nil
			d.evaluate(take[i], budget, &nodes)
			if first {
				d.claim(bySlot[d.c.slot])
			}
			done = false
		}
		if done {
			ks = make([]int, len(cands))
			for i, d := range pool {
				ks[d.index] = take[i]
			}
			return ks, data
		}
	}
}

// claim takes the attesters of d's aggregates out of the bounds of the
// data of its slot not evaluated yet: they voted for d.
func (d *planData) claim(slot []*planData) {
	for _, o := range slot {
		if o.comms != nil {
			continue
		}
		for k, ci := range d.c.index {
			if _, ok := slices.BinarySearch(o.c.index, ci); ok {
				o.bound = max(0, o.bound-d.comms[k].all)
			}
		}
	}
}

// knapsack returns how many attestations to give each of pool (at most
// budget in all) to maximize the sum of their values. It is a dynamic
// program over the data, the fewest attestations on ties.
func knapsack(pool []*planData, budget int) []int {
	best := make([]int, budget+1) // best[b]: the most value b attestations bring, over the data so far
	pick := make([][]int, len(pool))
	for i, d := range pool {
		next := make([]int, budget+1)
		pick[i] = make([]int, budget+1)
		for b := range next {
			next[b] = best[b]
			for k := 1; k <= b; k++ {
				if v := best[b-k] + d.values[k]; v > next[b] {
					next[b], pick[i][b] = v, k
				}
			}
		}
		best = next
	}
	take := make([]int, len(pool))
	b := budget
	for i := len(pool) - 1; i >= 0; i-- {
		take[i] = pick[i][b]
		b -= take[i]
	}
	return take
}
