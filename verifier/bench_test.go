package verifier_test

import (
	"fmt"
	"testing"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
	"github.com/attpool/attpool/verifier/baseline"
)

// Benchmarks of the same paths as examples/verifybench (which prints medians
// and ratios); run with -bench . -benchtime 5x. The hash cache is disabled so
// every method hashes its roots.

var benchKeys []*crypto.SecretKey

func benchSets(b *testing.B, label string, roots, per, first int) []verifier.Set {
	b.Helper()
	for len(benchKeys) < first+roots*per {
		sk, err := crypto.InteropSecretKey(uint64(len(benchKeys)))
		if err != nil {
			b.Fatal(err)
		}
		benchKeys = append(benchKeys, sk)
	}
	var sets []verifier.Set
	for g := range roots {
		var root [32]byte
		copy(root[:], fmt.Sprintf("%s-%d", label, g))
		for i := range per {
			sk := benchKeys[first+g*per+i]
			sets = append(sets, verifier.Set{Root: root, PublicKey: sk.PublicKey(), Signature: crypto.Sign(sk, root[:]).Bytes()})
		}
	}
	return sets
}

func newBenchVerifier(b *testing.B, bits int) *verifier.Verifier {
	v, err := verifier.New(verifier.Config{SecurityBits: bits, HashCacheSize: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(v.Close)
	return v
}

func runMethods(b *testing.B, sets []verifier.Set) {
	v64, v128 := newBenchVerifier(b, 64), newBenchVerifier(b, 128)
	perSig := func(b *testing.B, n int) {
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/sig")
	}
	b.Run("alone", func(b *testing.B) {
		s := sets[:min(len(sets), 64)]
		for b.Loop() {
			baseline.Individual(s)
		}
		perSig(b, len(s))
	})
	b.Run("prysm", func(b *testing.B) {
		for b.Loop() {
			baseline.DistinctMessages(sets)
		}
		perSig(b, len(sets))
	})
	b.Run("lodestar", func(b *testing.B) {
		for b.Loop() {
			baseline.SameRoot(sets)
		}
		perSig(b, len(sets))
	})
	b.Run("attpool64", func(b *testing.B) {
		for b.Loop() {
			v64.Verify(sets)
		}
		perSig(b, len(sets))
	})
	b.Run("attpool128", func(b *testing.B) {
		for b.Loop() {
			v128.Verify(sets)
		}
		perSig(b, len(sets))
	})
	b.Run("floor", func(b *testing.B) {
		for b.Loop() {
			baseline.Decompress(sets)
		}
		perSig(b, len(sets))
	})
}

func BenchmarkSameRoot(b *testing.B) {
	for _, n := range []int{16, 64, 256, 1024, 4096} {
		sets := benchSets(b, "same", 1, n, 0)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { runMethods(b, sets) })
	}
}

func BenchmarkMixed(b *testing.B) {
	sets := append(benchSets(b, "mixed", 64, 64, 0), benchSets(b, "single", 256, 1, 4096)...)
	runMethods(b, sets)
}

func BenchmarkBisection(b *testing.B) {
	for _, n := range []int{512, 4096} {
		valid := benchSets(b, "bisect", 1, n, 0)
		for _, bad := range []int{0, 1, 8, 64} {
			sets := append([]verifier.Set(nil), valid...)
			for k := range bad {
				i := (k*7919 + 13) % n
				sets[i].Signature = valid[(i+1)%n].Signature
			}
			b.Run(fmt.Sprintf("n=%d/bad=%d", n, bad), func(b *testing.B) {
				v := newBenchVerifier(b, 64)
				for b.Loop() {
					v.Verify(sets)
				}
			})
		}
	}
}

func BenchmarkSubgroup(b *testing.B) {
	sets := benchSets(b, "subgroup", 1, 4096, 0)
	for _, k := range []int{256, 1024, 4096} {
		pts := make([]*crypto.Signature, k)
		for i := range pts {
			s, err := crypto.SignatureFromBytes(sets[i].Signature[:])
			if err != nil {
				b.Fatal(err)
			}
			pts[i] = s
		}
		b.Run(fmt.Sprintf("k=%d/per-point", k), func(b *testing.B) {
			for b.Loop() {
				baseline.PerPointInG2(pts)
			}
		})
		for _, bits := range []int{64, 128} {
			b.Run(fmt.Sprintf("k=%d/batch%d", k, bits), func(b *testing.B) {
				v := newBenchVerifier(b, bits)
				for b.Loop() {
					v.BatchInG2(pts)
				}
			})
		}
	}
}
