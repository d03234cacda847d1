package pool

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/prysmaticlabs/go-bitfield"
)

// bruteBest is the most bits outside cov that at most k of aggs cover
// together, over every subset.
func bruteBest(aggs []bitfield.Bitlist, cov bitfield.Bitlist, k int) int {
	best := 0
	for set := range 1 << len(aggs) {
		if bits.OnesCount(uint(set)) > k {
			continue
		}
		n := 0
		for i := range cov.Len() {
			if cov.BitAt(i) {
				continue
			}
			for j, a := range aggs {
				if set>>j&1 == 1 && a.BitAt(i) {
					n++
					break
				}
			}
		}
		best = max(best, n)
	}
	return best
}

// TestCommitteeBestSets: the search's best set of k aggregates of a
// committee is the best of every subset, for random committees with near
// and exact copies, aggregates inside others and attesters on chain, and
// its choice covers what it says.
func TestCommitteeBestSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	trials := 300
	if testing.Short() {
		trials = 100
	}
	for trial := range trials {
		size := uint64(1 + rng.IntN(200))
		var aggs []*aggregate
		var raw []bitfield.Bitlist
		for range 1 + rng.IntN(11) {
			var b bitfield.Bitlist
			if len(raw) > 0 && rng.IntN(3) == 0 {
				b = slices.Clone(raw[rng.IntN(len(raw))])
				for range rng.IntN(3) {
					i := rng.Uint64N(size)
					b.SetBitAt(i, !b.BitAt(i))
				}
			} else {
				b = randBits(rng, size, rng.Float64())
			}
			raw = append(raw, b)
			aggs = append(aggs, &aggregate{bits: b})
		}
		cov := randBits(rng, size, rng.Float64()*0.5)
		nodes := maxSearchNodes
		scratch := make([]uint64, 2*((len(cov)+7)/8))
		c := newCommitteePack(aggs, cov, scratch, &nodes)
		if want := bruteBest(raw, cov, len(raw)); c.all != want {
			t.Fatalf("trial %d: union %d, want %d", trial, c.all, want)
		}
		for k := 1; k <= len(raw); k++ {
			c.extend(k)
			want := bruteBest(raw, cov, k)
			if got := c.value(k); got != want {
				t.Fatalf("trial %d: best of %d aggregates %d, want %d", trial, k, got, want)
			}
			set := c.chosen(k)
			union := bitfield.NewBitlist(size)
			for _, i := range set {
				_ = union.NoAllocOr(c.aggs[i].bits, union)
			}
			covers := 0
			for i := range size {
				if union.BitAt(i) && !cov.BitAt(i) {
					covers++
				}
			}
			if len(set) > k || covers != want {
				t.Fatalf("trial %d, k %d: the choice %v has %d aggregates covering %d, want at most %d covering %d", trial, k, set, len(set), covers, k, want)
			}
		}
	}
}

func randBits(rng *rand.Rand, n uint64, p float64) bitfield.Bitlist {
	b := bitfield.NewBitlist(n)
	for i := range n {
		if rng.Float64() < p {
			b.SetBitAt(i, true)
		}
	}
	return b
}

// TestKnapsack: the split of the budget is the best of every split, the
// fewest attestations on ties.
func TestKnapsack(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 200 {
		const budget = 4
		pool := make([]*planData, 1+rng.IntN(4))
		for i := range pool {
			d := &planData{values: make([]int, budget+1)}
			for k := 1; k <= budget; k++ {
				d.values[k] = d.values[k-1] + rng.IntN(5)
			}
			pool[i] = d
		}
		take := knapsack(pool, budget)
		total, used := 0, 0
		for i, k := range take {
			total += pool[i].values[k]
			used += k
		}
		best := 0
		var split func(i, left, sum int)
		split = func(i, left, sum int) {
			if i == len(pool) {
				best = max(best, sum)
				return
			}
			for k := 0; k <= left; k++ {
				split(i+1, left-k, sum+pool[i].values[k])
			}
		}
		split(0, budget, 0)
		if used > budget || total != best {
			t.Fatalf("trial %d: %v uses %d for %d, best %d", trial, take, used, total, best)
		}
		for i, k := range take {
			if k > 0 && pool[i].values[k] == pool[i].values[k-1] {
				t.Fatalf("trial %d: data %d given an attestation that adds nothing", trial, i)
			}
		}
	}
}
