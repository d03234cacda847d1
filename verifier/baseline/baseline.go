// Package baseline implements, over attpool's crypto package, the signature
// verification strategies of other Ethereum clients, so that benchmarks can
// measure attpool's verifier beside them in one process. It is for
// measurement, not for production use: its batch checks say only whether a
// whole batch is valid.
//
//   - [Individual]: every signature alone (what any client does on a failed
//     batch); [EachAlone] is the same as a pool.SignatureVerifier, the
//     per-signature baseline.
//   - [DistinctMessages]: the distinct-message batch of Prysm and Lighthouse
//     (blst MultipleAggregateVerify, 64-bit blinding, one Miller loop per
//     signature).
//   - [SameRoot]: the same-root method of Lodestar and Nimbus: parallel
//     decompression, parallel per-signature subgroup checks, 64-bit random
//     blinding with one G1 and one G2 multi-scalar multiplication, two Miller
//     loops per root.
//   - [Decompress]: parallel decompression alone, the floor under every
//     method.
//   - [PerPointInG2] and [BatchInG2]: the subgroup checks alone, each
//     point's and attpool's batch check (the digit rounds of its fused
//     check, without the pairing).
//
// [Prysm], [Lighthouse], [Lodestar] and [Teku] wrap these into each client's
// whole method, a failing batch included, as pool.SignatureVerifier
// implementations with exact per-set verdicts, for benchmarks that run the
// pool as the clients verify (clients.go).
package baseline

import (
	crand "crypto/rand"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/verifier"
	"github.com/attpool/attpool/verifier/internal/rounds"
)

// Individual verifies every set alone, in parallel: decompression (or the
// subgroup check of a set's Decoded point), hash to G2, two Miller loops and
// a final exponentiation each.
func Individual(sets []verifier.Set) []bool {
	out := make([]bool, len(sets))
	par.For(len(sets), 1, func(i int) {
		sig, ok := signatureOf(&sets[i], true)
		out[i] = ok && crypto.Verify(sets[i].PublicKey, sets[i].Root[:], sig)
	})
	return out
}

// EachAlone is the per-signature baseline as a pool.SignatureVerifier: its
// Verify is [Individual].
type EachAlone struct{}

// Verify checks every set alone, in parallel.
func (EachAlone) Verify(sets []verifier.Set) []bool { return Individual(sets) }

// signatureOf is a set's signature: its Decoded point when the caller
// decoded it, else decoded from its bytes; with subgroup, only a point in G2
// is ok.
func signatureOf(s *verifier.Set, subgroup bool) (*crypto.Signature, bool) {
	if s.Decoded != nil {
		return s.Decoded, !subgroup || s.Decoded.InG2()
	}
	var sig crypto.Signature
	var err error
	if subgroup {
		_, err = sig.SetBytes(s.Signature[:])
	} else {
		_, err = sig.SetBytesNoSubgroupCheck(s.Signature[:])
	}
	return &sig, err == nil
}

// signaturesOf is signatureOf of every set, in parallel; ok is false when any
// set's is not ok.
func signaturesOf(sets []verifier.Set, subgroup bool) (sigs []*crypto.Signature, ok bool) {
	sigs = make([]*crypto.Signature, len(sets))
	oks := make([]bool, len(sets))
	par.For(len(sets), 1, func(i int) { sigs[i], oks[i] = signatureOf(&sets[i], subgroup) })
	return sigs, !slices.Contains(oks, false)
}

// Decompress decodes every signature in parallel (on-curve check only) and
// returns how many decoded: the floor of every method.
func Decompress(sets []verifier.Set) int {
	errs := make([]error, len(sets))
	par.For(len(sets), 16, func(i int) {
		var s crypto.Signature
		_, errs[i] = s.SetBytesNoSubgroupCheck(sets[i].Signature[:])
	})
	n := 0
	for _, err := range errs {
		if err == nil {
			n++
		}
	}
	return n
}

// DistinctMessages checks the whole batch as Prysm and Lighthouse do:
// decompression in parallel (or the sets' Decoded points), then one
// random-linear-combination check with a Miller loop per set
// ([curve.VerifyDistinctBatch], which checks the signatures' subgroups).
func DistinctMessages(sets []verifier.Set) bool {
	if len(sets) == 0 {
		return true
	}
	sigs, ok := signaturesOf(sets, false)
	if !ok {
		return false
	}
	pks := make([]*curve.G1Affine, len(sets))
	pts := make([]*curve.G2Affine, len(sets))
	msgs := make([][]byte, len(sets))
	for i := range sets {
		if sets[i].PublicKey == nil {
			return false
		}
		pks[i], pts[i], msgs[i] = blspoint.Key(sets[i].PublicKey), blspoint.Signature(sigs[i]), sets[i].Root[:]
	}
	return curve.VerifyDistinctBatch(pks, msgs, pts)
}

// SameRoot checks the batch as Lodestar and Nimbus do: sets are grouped by
// root; each group of two or more gets parallel decompression and subgroup
// checks and one 64-bit blinded same-message check (G1 and G2 multi-scalar
// multiplications, two Miller loops); single sets go to one
// [DistinctMessages] batch.
func SameRoot(sets []verifier.Set) bool {
	var singles []verifier.Set
	for _, g := range byRoot(sets) {
		if len(g.idx) == 1 {
			singles = append(singles, sets[g.idx[0]])
			continue
		}
		if !sameRootGroup(g.sets(sets), g.root) {
			return false
		}
	}
	return len(singles) == 0 || DistinctMessages(singles)
}

// rootGroup is the indices of the sets of one signing root.
type rootGroup struct {
	root [32]byte
	idx  []int
}

func (g rootGroup) sets(all []verifier.Set) []verifier.Set {
	out := make([]verifier.Set, len(g.idx))
	for k, i := range g.idx {
		out[k] = all[i]
	}
	return out
}

// byRoot groups the sets by signing root, in the order the roots first
// appear.
func byRoot(sets []verifier.Set) []rootGroup {
	at := make(map[[32]byte]int)
	var groups []rootGroup
	for i := range sets {
		k, ok := at[sets[i].Root]
		if !ok {
			k = len(groups)
			at[sets[i].Root] = k
			groups = append(groups, rootGroup{root: sets[i].Root})
		}
		groups[k].idx = append(groups[k].idx, i)
	}
	return groups
}

func sameRootGroup(group []verifier.Set, root [32]byte) bool {
	n := len(group)
	sigs, ok := signaturesOf(group, true) // decompression + subgroup checks
	if !ok {
		return false
	}
	pks := make([]*curve.G1Affine, n)
	pts := make([]*curve.G2Affine, n)
	for k := range group {
		if group[k].PublicKey == nil {
			return false
		}
		pks[k], pts[k] = blspoint.Key(group[k].PublicKey), blspoint.Signature(sigs[k])
	}
	scalars := make([]byte, 8*n)
	if _, err := crand.Read(scalars); err != nil {
		return false
	}
	for k := range n {
		if [8]byte(scalars[8*k:8*k+8]) == [8]byte{} {
			scalars[8*k] = 1
		}
	}
	P := curve.MultiExpG1(pks, scalars, 64)
	S := curve.MultiExpG2(pts, scalars, 64)
	H := *blspoint.Message(crypto.HashMessage(root[:]))
	g := curve.G1Generator()
	neg := g.Jacobian()
	neg.Neg()
	gt := curve.MillerLoop([]curve.G1Affine{P.Affine(), neg.Affine()}, []curve.G2Affine{H, S.Affine()})
	return gt.FinalExpIsOne()
}

// PerPointInG2 checks every point's subgroup alone, in parallel.
func PerPointInG2(points []*crypto.Signature) bool {
	ok := make([]bool, len(points))
	par.For(len(points), 1, func(i int) { ok[i] = points[i].InG2() })
	for _, b := range ok {
		if !b {
			return false
		}
	}
	return true
}

// pairScratch keeps the digit rounds' scratch memory between calls, as a
// verifier does: it grows to the points of a chunk.
var pairScratch = sync.Pool{New: func() any { return new(curve.PairRoundScratch) }}

// BatchInG2 reports whether every point is in G2 by attpool's batch subgroup
// check alone, without the pairing check it is fused with in a verifier
// call: rounds of random digit sums (docs/DESIGN.md, "Soundness"), each
// checked with one subgroup test, the passes in parallel. A batch holding a
// point outside G2 passes with probability at most 2^-securityBits. The
// point at infinity is in G2 (it takes no part in the rounds); a nil point
// gives false. No points give true.
func BatchInG2(points []*crypto.Signature, securityBits int) bool {
	pts := make([]*curve.G2Affine, 0, len(points))
	for _, p := range points {
		if p == nil {
			return false
		}
		if !p.IsInfinity() { // in G2, and no term of any round sum
			pts = append(pts, blspoint.Signature(p))
		}
	}
	if len(pts) == 0 {
		return true
	}
	R := rounds.For(securityBits, 0) // one test
	round := rounds.Round(rounds.Draw(len(pts), R, true), len(pts), R)
	ok := make([]bool, rounds.Passes(R))
	w := min(runtime.GOMAXPROCS(0), len(ok))
	var next atomic.Int64 // passes taken in turn, so none waits on another's
	par.ForOn(w, w, 1, func(int) {
		sc := pairScratch.Get().(*curve.PairRoundScratch)
		defer pairScratch.Put(sc)
		for t := int(next.Add(1) - 1); t < len(ok); t = int(next.Add(1) - 1) {
			_, _, ok[t] = rounds.G2Pass(sc, pts, round, t, R)
		}
	})
	return !slices.Contains(ok, false)
}
