package pool

import (
	"runtime"
	"sync"
	"testing"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/par"
)

// benchSignatures returns n distinct valid signatures, decoded and
// compressed (signatures of one message by n interop keys).
func benchSignatures(b testing.TB, n int) ([]crypto.Signature, [][]byte) {
	b.Helper()
	msg := []byte("attpool merge benchmark")
	h := *blspoint.Message(crypto.HashMessage(msg))
	sigs := make([]crypto.Signature, n)
	enc := make([][]byte, n)
	par.For(n, 16, func(i int) {
		sk, err := crypto.InteropSecretKey(uint64(i % 4096))
		if err != nil {
			panic(err)
		}
		// i*sk*H(m): distinct points without signing n times.
		be := sk.Bytes()
		var le [32]byte
		for k := range be {
			le[k] = be[31-k]
		}
		q := h.Jacobian()
		q.Mul(le[:], 255)
		var m [8]byte
		for k, x := 0, uint64(i/4096+1); k < 8; k, x = k+1, x>>8 {
			m[k] = byte(x)
		}
		q.Mul(m[:], 64)
		a := q.Affine()
		sigs[i] = *blspoint.NewSignature(&a)
		e := a.Bytes()
		enc[i] = e[:]
	})
	return sigs, enc
}

// mergeCommittee merges sigs, one per committee position, into a fresh
// aggregate of a store with workers merge goroutines: the work of accepting
// a committee's attestations.
func mergeCommittee(sigs []crypto.Signature, workers int) *aggregate {
	s := newAggStore(1<<20, 1<<10, workers)
	key := aggKey{committee: 0}
	xs := make([]*single, len(sigs))
	var data = new(testData)
	for i := range sigs {
		xs[i] = &single{key: key, data: &data.d, pos: uint64(i), size: uint64(len(sigs)), sig: &sigs[i]}
	}
	s.addSingles(xs)
	return s.byRoot[key.root].committees[0][0]
}

// BenchmarkMergeCommittee measures merging the 2,048 accepted signatures of
// a full committee into their aggregate (bits and batch-affine point sums of
// the signatures decoded once at acceptance). Compare with
// BenchmarkAggregateCompressedCommittee: the merge is meant to take at most
// 1/20 of its time.
func BenchmarkMergeCommittee(b *testing.B) {
	sigs, _ := benchSignatures(b, 2048)
	b.ResetTimer()
	for b.Loop() {
		mergeCommittee(sigs, runtime.GOMAXPROCS(0))
	}
}

// BenchmarkAggregateCompressedCommittee is the baseline of
// BenchmarkMergeCommittee: aggregating the same 2,048 signatures from their
// compressed bytes, as blst's AggregateCompressed does (decompress with the
// subgroup check, then sum). blst is not imported outside crypto and its core,
// so it is a parallel Signature.SetBytes (decompression) followed by
// crypto.AggregateSignatures.
func BenchmarkAggregateCompressedCommittee(b *testing.B) {
	_, enc := benchSignatures(b, 2048)
	b.ResetTimer()
	for b.Loop() {
		sigs, errs := make([]crypto.Signature, len(enc)), make([]error, len(enc))
		par.For(len(enc), 16, func(i int) { _, errs[i] = sigs[i].SetBytes(enc[i]) })
		ptrs := make([]*crypto.Signature, len(sigs))
		for i := range sigs {
			if errs[i] != nil {
				b.Fatal(errs[i])
			}
			ptrs[i] = &sigs[i]
		}
		if _, err := crypto.AggregateSignatures(ptrs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMerge32768 merges 32,768 accepted signatures (a mainnet slot)
// with one and with two merge workers (GOMAXPROCS set to match): two are
// meant to be at least 1.7x faster on two cores.
func BenchmarkMerge32768(b *testing.B) {
	sigs, _ := benchSignatures(b, 32768)
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[workers], func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
			xs := slotSingles(sigs)
			for b.Loop() {
				newAggStore(1<<20, 1<<10, workers).addSingles(xs)
			}
		})
	}
}

// slotSingles returns sigs as the accepted attestations of 64 committees of
// len(sigs)/64.
func slotSingles(sigs []crypto.Signature) []*single {
	size := uint64(len(sigs) / 64)
	data := new(testData)
	xs := make([]*single, len(sigs))
	for i := range sigs {
		xs[i] = &single{key: aggKey{committee: uint64(i) / size}, data: &data.d, pos: uint64(i) % size, size: size, sig: &sigs[i]}
	}
	return xs
}

func TestMergeMatchesAggregate(t *testing.T) {
	sigs, _ := benchSignatures(t, 300)
	a := mergeCommittee(sigs, 2)
	ptrs := make([]*crypto.Signature, len(sigs))
	for i := range sigs {
		ptrs[i] = &sigs[i]
	}
	want, err := crypto.AggregateSignatures(ptrs)
	if err != nil {
		t.Fatal(err)
	}
	got := a.sig.Affine()
	if got.Bytes() != want.Bytes() || a.participants() != 300 {
		t.Fatal("merged aggregate differs from AggregateSignatures")
	}
}

type testData struct{ d attestation.AttestationData }

// BenchmarkScaleCeiling measures how far the machine's CPUs scale on
// perfectly independent blst work (decompressing points, no shared state):
// the ceiling for BenchmarkMerge32768's two-core ratio. On a 2-vCPU
// virtual machine it is about 1.73x.
func BenchmarkScaleCeiling(b *testing.B) {
	sigs, _ := benchSignatures(b, 4096)
	enc := make([][96]byte, len(sigs))
	for i := range sigs {
		enc[i] = sigs[i].Bytes()
	}
	for _, w := range []int{1, 2} {
		b.Run(map[int]string{1: "cpus=1", 2: "cpus=2"}[w], func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(w))
			for b.Loop() {
				var wg sync.WaitGroup
				for g := range w {
					wg.Go(func() {
						var s crypto.Signature
						for i := g; i < len(enc); i += w {
							s.SetBytesNoSubgroupCheck(enc[i][:])
						}
					})
				}
				wg.Wait()
			}
		})
	}
}
