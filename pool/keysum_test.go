package pool

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/crypto"
)

// keyTable is a PublicKeys over a fixed map: missing validators have no key.
type keyTable map[uint64]*crypto.PublicKey

func (k keyTable) PublicKey(v uint64) *crypto.PublicKey { return k[v] }

// keyPool returns a pool whose node has the keys of validators [0, n) but
// those in missing, and the committee of slot 0 index 0 (validators 0..size-1
// in a shuffled order).
func keyPool(t *testing.T, n int, missing ...uint64) (*Pool, keyTable) {
	keys := keyTable{}
	for v := range uint64(n) {
		sk, err := crypto.InteropSecretKey(v)
		if err != nil {
			t.Fatal(err)
		}
		keys[v] = sk.PublicKey()
	}
	for _, v := range missing {
		delete(keys, v)
	}
	e := newEnv(t, 1, 8, 0)
	e.node.Keys = keys
	return e.pool(Config{}), keys
}

// plainKey is the key of the members of committee bits names, summed plainly
// (crypto.AggregatePublicKeys), or the verdict the pool must give.
func plainKey(keys keyTable, committee []uint64, b bitfield.Bitlist) (*crypto.PublicKey, Result) {
	var pks []*crypto.PublicKey
	for _, i := range b.BitIndices() {
		pk := keys[committee[i]]
		if pk == nil {
			return nil, ignore(ErrUnknownValidator)
		}
		pks = append(pks, pk)
	}
	pk, err := crypto.AggregatePublicKeys(pks)
	if err != nil {
		return nil, reject(ErrInvalidAggregateSignature)
	}
	return pk, Result{}
}

func bitsOf(size int, positions ...int) bitfield.Bitlist {
	b := bitfield.NewBitlist(uint64(size))
	for _, p := range positions {
		b.SetBitAt(uint64(p), true)
	}
	return b
}

// randomView is a random 85-100% of a committee of size.
func randomView(rng *rand.Rand, size int) bitfield.Bitlist {
	share := 0.85 + 0.15*rng.Float64()
	b := bitfield.NewBitlist(uint64(size))
	for i := range size {
		if rng.Float64() < share {
			b.SetBitAt(uint64(i), true)
		}
	}
	return b
}

// checkKey compares the pool's key of b with the plain sum.
func checkKey(t *testing.T, p *Pool, keys keyTable, slot, index uint64, committee []uint64, b bitfield.Bitlist) {
	t.Helper()
	got, gotRes := p.participantsKey(slot, index, committee, b)
	want, wantRes := plainKey(keys, committee, b)
	sameErr := gotRes.Err == nil && wantRes.Err == nil || wantRes.Err != nil && errors.Is(gotRes, wantRes.Err)
	if (got == nil) != (want == nil) || gotRes.Verdict != wantRes.Verdict || !sameErr {
		t.Fatalf("bits %v: got %v %v, want %v %v", b.BitIndices(), got != nil, gotRes, want != nil, wantRes)
	}
	if want != nil && !got.Equal(want) {
		t.Fatalf("bits %v: the reused sum differs from the plain sum", b.BitIndices())
	}
}

// planOf is the start plan chooses for b.
func planOf(p *Pool, slot, index uint64, committee []uint64, b bitfield.Bitlist) start {
	e := p.keySums.entry(committeeID{slot, index}, committee)
	how, _ := e.plan(b, int(b.Count()))
	return how
}

func shuffled(rng *rand.Rand, n int) []uint64 {
	c := make([]uint64, n)
	for i := range c {
		c[i] = uint64(i)
	}
	rng.Shuffle(n, func(i, j int) { c[i], c[j] = c[j], c[i] })
	return c
}

// TestParticipantsKeyReuse: mainnet-like views of one committee, and the
// edge cases, each equal to the plain sum; every start is taken.
func TestParticipantsKeyReuse(t *testing.T) {
	const size = 200
	p, keys := keyPool(t, size)
	rng := rand.New(rand.NewPCG(1, 2))
	committee := shuffled(rng, size)
	all := make([]int, size)
	for i := range all {
		all[i] = i
	}
	cases := []bitfield.Bitlist{
		bitsOf(size, 7),          // one present: from nothing
		bitsOf(size, all...),     // all present: the total, nothing subtracted
		bitsOf(size, all[1:]...), // all but one
		bitsOf(size, 7),          // a repeat
		bitsOf(size, 7, 8),       // one more than a recent sum
		bitsOf(size, size-1),     // the last bit (the length bit's byte)
	}
	for range 40 {
		cases = append(cases, randomView(rng, size))
	}
	starts := map[start]int{}
	for _, b := range cases {
		starts[planOf(p, 0, 0, committee, b)]++
		checkKey(t, p, keys, 0, 0, committee, b)
	}
	// A near-copy of a recent view starts from it.
	last := cases[len(cases)-1]
	near := bitfield.Bitlist(append([]byte(nil), last...))
	near.SetBitAt(3, !near.BitAt(3))
	if how := planOf(p, 0, 0, committee, near); how != fromRecent {
		t.Errorf("a near-copy of a recent view starts from %d, want a recent sum", how)
	}
	checkKey(t, p, keys, 0, 0, committee, near)
	for _, s := range []start{fromNothing, fromTotal, fromRecent} {
		if starts[s] == 0 {
			t.Errorf("start %d never taken: %v", s, starts)
		}
	}
}

// TestParticipantsKeyUnknownValidator: a member without a key fails only
// the aggregates it is in, whatever the start.
func TestParticipantsKeyUnknownValidator(t *testing.T) {
	const size = 64
	const missing = 5
	p, keys := keyPool(t, size, missing)
	committee := shuffled(rand.New(rand.NewPCG(3, 4)), size)
	pos := 0
	for committee[pos] != missing {
		pos++
	}
	without := make([]int, 0, size)
	for i := range size {
		if i != pos {
			without = append(without, i)
		}
	}
	withIt := append([]int{pos}, without[:size-10]...)
	for _, b := range []bitfield.Bitlist{
		bitsOf(size, without...),     // large, no total possible: from nothing
		bitsOf(size, withIt...),      // close to the last: from it, adding the missing one
		bitsOf(size, pos),            // the missing one alone
		bitsOf(size, without[:3]...), // small
	} {
		checkKey(t, p, keys, 0, 0, committee, b)
	}
}

// TestParticipantsKeyInfinity: keys that cancel give an invalid aggregate
// signature on every start, as the plain sum does.
func TestParticipantsKeyInfinity(t *testing.T) {
	const size = 16
	p, keys := keyPool(t, size)
	var neg crypto.KeySum
	if err := neg.Sub([]*crypto.PublicKey{keys[0]}); err != nil {
		t.Fatal(err)
	}
	nk, err := neg.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	keys[1] = nk // validator 1's key is validator 0's negated
	committee := shuffled(rand.New(rand.NewPCG(5, 6)), size)
	at := map[uint64]int{}
	for i, v := range committee {
		at[v] = i
	}
	for _, b := range []bitfield.Bitlist{
		bitsOf(size, at[0], at[1]),        // from nothing
		bitsOf(size, at[0], at[1], at[2]), // from the last: a valid key
		bitsOf(size, at[0], at[1]),        // a repeat of the cancelling pair
	} {
		checkKey(t, p, keys, 0, 0, committee, b)
	}
	// Everyone but validator 2..size-1: the total less the others.
	full := make([]int, size)
	for i := range full {
		full[i] = i
	}
	checkKey(t, p, keys, 1, 0, committee, bitsOf(size, full...))
	checkKey(t, p, keys, 1, 0, committee, bitsOf(size, at[0], at[1]))
}

// TestKeySumsBounded: the cache holds at most keySumCommittees committees,
// drops the oldest slot first, is pruned with the pool, and starts over when
// a committee changes; the keys stay right throughout.
func TestKeySumsBounded(t *testing.T) {
	const size = 32
	p, keys := keyPool(t, size)
	rng := rand.New(rand.NewPCG(7, 8))
	committee := shuffled(rng, size)
	slots := uint64(keySumCommittees/MaxCommitteesPerSlot + 2)
	for slot := range slots {
		for index := range uint64(MaxCommitteesPerSlot) {
			checkKey(t, p, keys, slot, index, committee, randomView(rng, size))
			if n := p.keySums.len(); n > keySumCommittees {
				t.Fatalf("%d committees held, bound %d", n, keySumCommittees)
			}
		}
	}
	p.keySums.mu.Lock()
	for id := range p.keySums.m {
		if id.slot < slots-keySumCommittees/MaxCommitteesPerSlot {
			t.Errorf("slot %d kept after newer ones filled the cache", id.slot)
		}
	}
	p.keySums.mu.Unlock()
	// Evicted and re-entered: still right.
	checkKey(t, p, keys, 0, 0, committee, randomView(rng, size))
	// A new shuffling of a cached committee.
	other := shuffled(rng, size)
	b := randomView(rng, size)
	checkKey(t, p, keys, slots-1, 0, other, b)
	checkKey(t, p, keys, slots-1, 0, committee, b)

	p.keySums.prune(slots)
	if n := p.keySums.len(); n != 0 {
		t.Errorf("%d committees held after pruning every slot", n)
	}
}

// BenchmarkParticipantsKey sums the keys of the 16 aggregates of a mainnet
// committee (512 members, views of 85-100%): "reused" through the pool's
// cache, new for every committee (so the total is summed each time, as for
// the first aggregates of a slot), against "plain" summation of each
// aggregate's participants. ns/op is per committee of 16 aggregates.
func BenchmarkParticipantsKey(b *testing.B) {
	const size = 512
	keys := keyTable{}
	for v := range uint64(size) {
		sk, _ := crypto.InteropSecretKey(v)
		keys[v] = sk.PublicKey()
	}
	rng := rand.New(rand.NewPCG(9, 10))
	committee := shuffled(rng, size)
	views := make([]bitfield.Bitlist, TargetAggregatorsPerCommittee)
	for i := range views {
		views[i] = randomView(rng, size)
	}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			for _, v := range views {
				if pk, _ := plainKey(keys, committee, v); pk == nil {
					b.Fatal("no key")
				}
			}
		}
	})
	b.Run("reused", func(b *testing.B) {
		p := &Pool{node: Node{Keys: keys}}
		slot := uint64(0)
		for b.Loop() {
			slot++
			for _, v := range views {
				if pk, _ := p.participantsKey(slot, 0, committee, v); pk == nil {
					b.Fatal("no key")
				}
			}
		}
	})
}

// TestParticipantsKeyConcurrent: the aggregates of one committee summed from
// many goroutines at once (the total built once, recent sums shared) all
// equal their plain sums.
func TestParticipantsKeyConcurrent(t *testing.T) {
	const size = 128
	p, keys := keyPool(t, size)
	rng := rand.New(rand.NewPCG(11, 12))
	committee := shuffled(rng, size)
	views := make([]bitfield.Bitlist, 64)
	for i := range views {
		views[i] = randomView(rng, size)
	}
	var wg sync.WaitGroup
	errs := make(chan string, len(views))
	for i := range views {
		wg.Go(func() {
			got, _ := p.participantsKey(3, 1, committee, views[i])
			want, _ := plainKey(keys, committee, views[i])
			if got == nil || !got.Equal(want) {
				errs <- fmt.Sprintf("view %d: wrong key", i)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestSortedAttesters: the attesters of random bits of shuffled committees
// come in increasing index order, the members of the bits and no other,
// and a committee whose shuffling changed under the same id gets its own
// order.
func TestSortedAttesters(t *testing.T) {
	p, _ := keyPool(t, 1)
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		n := 1 + rng.IntN(600)
		committee := make([]uint64, n)
		for i := range committee {
			committee[i] = uint64(rng.IntN(1 << 20))
		}
		b := bitfield.NewBitlist(uint64(n))
		var want []uint64
		for i := range n {
			if rng.IntN(3) > 0 {
				b.SetBitAt(uint64(i), true)
				want = append(want, committee[i])
			}
		}
		slices.Sort(want)
		// Two trials share each id: the second's committee differs.
		got := p.sortedAttesters(7, uint64(trial/2), committee, b)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: attesters %v, want %v", trial, got, want)
		}
	}
}
