// Package baseline implements, over attpool's crypto package, the signature
// verification strategies of other Ethereum clients, so that benchmarks can
// measure attpool's verifier beside them in one process. It is for
// measurement, not for production use: its batch checks say only whether a
// whole batch is valid.
//
//   - [Individual]: every signature alone (what any client does on a failed
//     batch).
//   - [DistinctMessages]: the distinct-message batch of Prysm and Lighthouse
//     (blst MultipleAggregateVerify, 64-bit blinding, one Miller loop per
//     signature).
//   - [SameRoot]: the same-root method of Lodestar and Nimbus: parallel
//     decompression, parallel per-signature subgroup checks, 64-bit random
//     blinding with one G1 and one G2 multi-scalar multiplication, two Miller
//     loops per root.
//   - [Decompress]: parallel decompression alone, the floor under every
//     method.
package baseline

import (
	crand "crypto/rand"
	"runtime"
	"sync"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
)

// parallel runs f(0..n-1) over GOMAXPROCS goroutines, joined before it returns.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}

// Individual verifies every set alone, in parallel: decompression, subgroup
// check, hash to G2, two Miller loops and a final exponentiation each.
func Individual(sets []verifier.Set) []bool {
	out := make([]bool, len(sets))
	parallel(len(sets), func(i int) {
		sig, err := crypto.SignatureFromBytes(sets[i].Signature[:])
		out[i] = err == nil && crypto.Verify(sets[i].PublicKey, sets[i].Root[:], sig)
	})
	return out
}

// Decompress decodes every signature in parallel (on-curve check only) and
// returns how many decoded: the floor of every method.
func Decompress(sets []verifier.Set) int {
	in := make([][]byte, len(sets))
	for i := range sets {
		in[i] = sets[i].Signature[:]
	}
	_, errs := crypto.SignaturesFromBytes(in, false)
	n := 0
	for _, err := range errs {
		if err == nil {
			n++
		}
	}
	return n
}

// DistinctMessages checks the whole batch as Prysm and Lighthouse do:
// decompression in parallel, then one random-linear-combination check with a
// Miller loop per set ([crypto.VerifyDistinctBatch]).
func DistinctMessages(sets []verifier.Set) bool {
	if len(sets) == 0 {
		return true
	}
	in := make([][]byte, len(sets))
	for i := range sets {
		in[i] = sets[i].Signature[:]
	}
	sigs, errs := crypto.SignaturesFromBytes(in, false)
	pks := make([]*crypto.PublicKey, len(sets))
	msgs := make([][]byte, len(sets))
	ps := make([]*crypto.Signature, len(sets))
	for i := range sets {
		if errs[i] != nil {
			return false
		}
		pks[i], msgs[i], ps[i] = sets[i].PublicKey, sets[i].Root[:], &sigs[i]
	}
	return crypto.VerifyDistinctBatch(pks, msgs, ps)
}

// SameRoot checks the batch as Lodestar and Nimbus do: sets are grouped by
// root; each group of two or more gets parallel decompression and subgroup
// checks and one 64-bit blinded same-message check (G1 and G2 multi-scalar
// multiplications, two Miller loops); single sets go to one
// [DistinctMessages] batch.
func SameRoot(sets []verifier.Set) bool {
	groups := make(map[[32]byte][]int)
	var order [][32]byte
	for i := range sets {
		if _, ok := groups[sets[i].Root]; !ok {
			order = append(order, sets[i].Root)
		}
		groups[sets[i].Root] = append(groups[sets[i].Root], i)
	}
	var singles []verifier.Set
	for _, root := range order {
		idx := groups[root]
		if len(idx) == 1 {
			singles = append(singles, sets[idx[0]])
			continue
		}
		if !sameRootGroup(sets, idx, root) {
			return false
		}
	}
	return len(singles) == 0 || DistinctMessages(singles)
}

func sameRootGroup(sets []verifier.Set, idx []int, root [32]byte) bool {
	n := len(idx)
	in := make([][]byte, n)
	for k, i := range idx {
		in[k] = sets[i].Signature[:]
	}
	sigs, errs := crypto.SignaturesFromBytes(in, true) // decompress + subgroup check
	pks := make([]*crypto.G1Affine, n)
	pts := make([]*crypto.G2Affine, n)
	for k, i := range idx {
		if errs[k] != nil || sets[i].PublicKey == nil {
			return false
		}
		pks[k], pts[k] = sets[i].PublicKey.Point(), sigs[k].Point()
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
	P := crypto.MultiExpG1(pks, scalars, 64)
	S := crypto.MultiExpG2(pts, scalars, 64)
	H := crypto.HashToG2(root[:], crypto.DST)
	g := crypto.G1Generator()
	neg := g.Jacobian()
	neg.Neg()
	gt := crypto.MillerLoop([]crypto.G1Affine{P.Affine(), neg.Affine()}, []crypto.G2Affine{H, S.Affine()})
	return gt.FinalExpIsOne()
}

// PerPointInG2 checks every point's subgroup alone, in parallel.
func PerPointInG2(points []*crypto.Signature) bool {
	ok := make([]bool, len(points))
	parallel(len(points), func(i int) { ok[i] = points[i].InG2() })
	for _, b := range ok {
		if !b {
			return false
		}
	}
	return true
}
