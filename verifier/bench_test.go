package verifier_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/testenv"
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

// runMethods runs each method over sets ("alone" over at most 64 of them,
// it is slow) and reports its time per signature.
func runMethods(b *testing.B, sets []verifier.Set) {
	v64, v128 := newBenchVerifier(b, 64), newBenchVerifier(b, 128)
	methods := []struct {
		name string
		run  func([]verifier.Set)
		most int
	}{
		{"alone", func(s []verifier.Set) { baseline.Individual(s) }, 64},
		{"prysm", func(s []verifier.Set) { baseline.DistinctMessages(s) }, len(sets)},
		{"lodestar", func(s []verifier.Set) { baseline.SameRoot(s) }, len(sets)},
		{"attpool64", func(s []verifier.Set) { v64.Verify(s) }, len(sets)},
		{"attpool128", func(s []verifier.Set) { v128.Verify(s) }, len(sets)},
		{"floor", func(s []verifier.Set) { baseline.Decompress(s) }, len(sets)},
	}
	for _, m := range methods {
		s := sets[:min(len(sets), m.most)]
		b.Run(m.name, func(b *testing.B) {
			for b.Loop() {
				m.run(s)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(s)), "µs/sig")
		})
	}
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
				for b.Loop() {
					baseline.BatchInG2(pts, bits)
				}
			})
		}
	}
}

// BenchmarkLocalisation measures what finding invalid signatures costs, in
// calls of 1,024 and 2,048 sets over one root ("same"), 32-set roots
// ("mixed") or a root per set ("distinct", as the aggregators' own
// signatures on the aggregate topic): one invalid, 1% and 5% invalid
// (another set's valid signature: in G2, wrong for its key), and one
// signature outside G2; the 1% call also through VerifyStream
// ("bad=1%/stream"), as the pool verifies, which adds the check that
// answers the sets outside the ranges still searched early. Each iteration
// times, one after the other, the all-valid call, the failing call and
// localisationSingles single-signature verifications (decoding with the
// subgroup check and crypto.Verify, hash included, on one goroutine), so
// that the three are measured in the same moment of a shared machine. Each
// case reports the failing call's time ("ms/call"), its time over the
// all-valid call's ("x-valid") and the extra time per invalid signature in
// single verifications ("single/invalid": (t - t_valid) / invalid /
// t_single), and the same two ratios in CPU time of the process
// ("cpu-x-valid", "cpu-single/invalid"). After the timed runs it verifies
// the failing call once more and reports the pairing checks it made beyond
// its first, one-set checks included, per invalid signature
// ("checks/invalid": a count, which the machine's noise does not move).
// Each case has a Verifier of its own, which verifies the failing call once
// before it is timed, and the all-valid calls go through another, so that
// the failing calls' recent invalid share is the one a stream of such calls
// would have (one Verifier taking both would halve the share the search
// sizes its parts by). Run:
//
//	go test -run - -bench Localisation -benchtime 5x ./verifier/
func BenchmarkLocalisation(b *testing.B) {
	for _, layout := range []string{"same", "mixed", "distinct"} {
		perRoot := map[string]int{"same": 2048, "mixed": 32, "distinct": 1}[layout]
		all := benchSets(b, "loc-"+layout, 2048/perRoot, perRoot, 0)
		for _, n := range []int{1024, 2048} {
			valid := all[:n]
			// The all-valid calls go through a Verifier of their own, so
			// that they do not dilute the failing calls' recent invalid
			// share, and each case has a Verifier of its own, so that the
			// previous case's share does not carry over.
			vClean := newBenchVerifier(b, 64)
			for _, tc := range localisationCases(b, valid) {
				b.Run(fmt.Sprintf("%s/n=%d/%s", layout, n, tc.name), func(b *testing.B) {
					v := newBenchVerifier(b, 64)
					tc.verify(v) // the recent share, as in a stream of such calls
					var base, bad, single timed
					for b.Loop() {
						base.add(func() { vClean.Verify(valid) })
						bad.add(func() { tc.verify(v) })
						single.add(func() { verifySingles(b, all[:localisationSingles]) })
					}
					tSingle, cSingle := single.per(b.N * localisationSingles)
					t, c := bad.per(b.N)
					tBase, cBase := base.per(b.N)
					b.ReportMetric(t/1e6, "ms/call")
					b.ReportMetric(t/tBase, "x-valid")
					b.ReportMetric((t-tBase)/float64(tc.bad)/tSingle, "single/invalid")
					b.ReportMetric(c/cBase, "cpu-x-valid")
					b.ReportMetric((c-cBase)/float64(tc.bad)/cSingle, "cpu-single/invalid")
					s0 := v.Stats()
					tc.verify(v)
					s1 := v.Stats()
					work := s1.Checks - s0.Checks - 1 + s1.Individual - s0.Individual
					b.ReportMetric(float64(work)/float64(tc.bad), "checks/invalid")
				})
			}
		}
	}
}

// BenchmarkLocalisationBySize measures what finding invalid signatures
// costs by call size, on traffic whose invalid signatures come at random:
// 4,096 sets over one root, each invalid with probability 1% or 5%
// (another set's signature), verified in calls of n sets, against the same
// sets all valid in calls of n. Each iteration times, one after the other,
// the clean sets, the sets with invalid ones and localisationSingles single
// verifications; each case reports the time of the 4,096 ("ms"), and the
// extra time per invalid signature in single verifications, in wall time
// ("single/invalid") and in CPU time ("cpu-single/invalid"). The Verifier
// of the failing sets has verified them once before, and the clean sets go
// through another, so the recent invalid share steers the search as it
// would in a stream. Run:
//
//	go test -run - -bench LocalisationBySize -benchtime 2x ./verifier/
func BenchmarkLocalisationBySize(b *testing.B) {
	all := benchSets(b, "loc-size", 1, 4096, 0)
	for _, p := range []float64{0.01, 0.05} {
		rng := rand.New(rand.NewPCG(7, 8))
		bad := append([]verifier.Set(nil), all...)
		invalid := 0
		for i := range bad {
			if rng.Float64() < p {
				bad[i].Signature = all[(i+1)%len(all)].Signature
				invalid++
			}
		}
		for _, n := range []int{8, 16, 32, 64, 128, 256, 1024} {
			b.Run(fmt.Sprintf("invalid=%v/n=%d", p, n), func(b *testing.B) {
				// The clean sets go through a Verifier of their own, so that
				// they do not dilute v's recent invalid share.
				v, vClean := newBenchVerifier(b, 64), newBenchVerifier(b, 64)
				run := func(v *verifier.Verifier, sets []verifier.Set) {
					for lo := 0; lo < len(sets); lo += n {
						v.Verify(sets[lo:min(lo+n, len(sets))])
					}
				}
				run(v, bad)
				var clean, failing, single timed
				for b.Loop() {
					clean.add(func() { run(vClean, all) })
					failing.add(func() { run(v, bad) })
					single.add(func() { verifySingles(b, all[:localisationSingles]) })
				}
				tSingle, cSingle := single.per(b.N * localisationSingles)
				t, c := failing.per(b.N)
				tClean, cClean := clean.per(b.N)
				b.ReportMetric(t/1e6, "ms")
				b.ReportMetric((t-tClean)/float64(invalid)/tSingle, "single/invalid")
				b.ReportMetric((c-cClean)/float64(invalid)/cSingle, "cpu-single/invalid")
			})
		}
	}
}

// localisationSingles is the number of single verifications timed in each
// iteration of BenchmarkLocalisation.
const localisationSingles = 8

// verifySingles checks each set alone: decoding with the subgroup check,
// and crypto.Verify with the hash.
func verifySingles(b *testing.B, sets []verifier.Set) {
	for i := range sets {
		sig, err := crypto.SignatureFromBytes(sets[i].Signature[:])
		if err != nil || !crypto.Verify(sets[i].PublicKey, sets[i].Root[:], sig) {
			b.Fatal("valid set rejected")
		}
	}
}

// timed adds up the wall and CPU nanoseconds of the runs of a function.
type timed struct{ wall, cpu float64 }

func (t *timed) add(f func()) {
	t0, c0 := time.Now(), float64(testenv.CPUTime())
	f()
	t.wall += float64(time.Since(t0).Nanoseconds())
	t.cpu += float64(testenv.CPUTime()) - c0
}

// per returns the wall and CPU nanoseconds per run, over n runs.
func (t *timed) per(n int) (wall, cpu float64) {
	return t.wall / float64(n), t.cpu / float64(n)
}

type localisationCase struct {
	name   string
	sets   []verifier.Set
	bad    int
	stream bool // through VerifyStream, as the pool verifies, not Verify
}

// verify verifies the case's sets with v, as the case says.
func (tc *localisationCase) verify(v *verifier.Verifier) {
	if tc.stream {
		v.VerifyStream(tc.sets, func(int, bool) {})
		return
	}
	v.Verify(tc.sets)
}

// localisationCases returns the failing calls made from valid.
func localisationCases(b *testing.B, valid []verifier.Set) []localisationCase {
	n := len(valid)
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	withInvalid := func(bad int) []verifier.Set {
		sets := append([]verifier.Set(nil), valid...)
		for _, i := range rng.Perm(n)[:bad] {
			sets[i].Signature = valid[(i+1)%n].Signature
		}
		return sets
	}
	outside := append([]verifier.Set(nil), valid...)
	i := rng.IntN(n)
	outside[i].Signature = shiftOutsideG2(b, outside[i].Signature)
	one, pct := withInvalid(1), withInvalid(n/100)
	return []localisationCase{
		{name: "bad=1", sets: one, bad: 1},
		{name: "bad=1%", sets: pct, bad: n / 100},
		{name: "bad=1%/stream", sets: pct, bad: n / 100, stream: true},
		{name: "bad=5%", sets: withInvalid(n / 20), bad: n / 20},
		{name: "outsideG2=1", sets: outside, bad: 1},
	}
}

// shiftOutsideG2 returns the encoding of sig plus a random curve point: a
// point on the curve, almost surely outside G2.
func shiftOutsideG2(b *testing.B, sig [96]byte) [96]byte {
	var s crypto.Signature
	if _, err := s.SetBytesNoSubgroupCheck(sig[:]); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 3))
	for {
		var x [96]byte
		for i := range x {
			x[i] = byte(rng.Uint32())
		}
		x[0] = 0x80 | (x[0] & 0x20) | (x[0] % 0x1a) // compressed, finite, x < p
		var q crypto.Signature
		if _, err := q.SetBytesNoSubgroupCheck(x[:]); err != nil {
			continue
		}
		p := blspoint.Signature(&s).Jacobian()
		qj := blspoint.Signature(&q).Jacobian()
		p.Add(&qj)
		a := p.Affine()
		if a.InG2() {
			continue
		}
		return a.Bytes()
	}
}

// BenchmarkSmallCall is the calls of a lightly loaded node: a few sets of
// one root (hashed once, as in a pool's verifier), wall and CPU time per
// call and the goroutines made to run per call (the scheduler's work), with
// one, two and sixteen worker goroutines (each call's own goroutine works
// too; on a machine of fewer cores, sixteen show the wake-ups a many-core
// node's verifier makes).
func BenchmarkSmallCall(b *testing.B) {
	for _, n := range []int{1, 2, 3, 8, 16, 24, 40} {
		for _, w := range []int{1, 2, 16} {
			sets := benchSets(b, "small", 1, n, 0)
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				v, err := verifier.New(verifier.Config{Workers: w})
				if err != nil {
					b.Fatal(err)
				}
				defer v.Close()
				v.Verify(sets)
				cpu0, sched0 := testenv.CPUTime(), testenv.Schedulings()
				for b.Loop() {
					v.Verify(sets)
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/call")
				b.ReportMetric(float64((testenv.CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/call")
				b.ReportMetric((testenv.Schedulings()-sched0)/float64(b.N), "scheds/call")
			})
		}
	}
}

// BenchmarkSmallCallFailing is BenchmarkSmallCall with one invalid
// signature (another set's) in a call of one root: the search that finds it
// under the call's scalars, CPU time per call.
func BenchmarkSmallCallFailing(b *testing.B) {
	for _, n := range []int{4, 6, 12, 24} {
		valid := benchSets(b, "small-failing", 1, n, 0)
		sets := append([]verifier.Set(nil), valid...)
		sets[1].Signature = valid[2].Signature
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			v := newBenchVerifier(b, 64)
			cpu0 := testenv.CPUTime()
			for b.Loop() {
				if v.Verify(sets)[1] {
					b.Fatal("the invalid set was accepted")
				}
			}
			b.ReportMetric(float64((testenv.CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/call")
		})
	}
}
