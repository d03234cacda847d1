package crypto

import (
	crand "crypto/rand"

	blst "github.com/supranational/blst/bindings/go"
)

// VerifyDistinctBatch reports whether every sigs[i] is pks[i]'s signature of
// msgs[i], with one random-linear-combination check: blst's
// MultipleAggregateVerify with 64-bit blinding scalars from crypto/rand, one
// Miller loop per set and the signatures' subgroup checks, spread over
// GOMAXPROCS goroutines of blst's. It is the batch method of Prysm and
// Lighthouse, here for comparison and for sets of distinct messages. It says
// nothing about which set failed; empty or mismatched inputs give false.
func VerifyDistinctBatch(pks []*PublicKey, msgs [][]byte, sigs []*Signature) bool {
	n := len(pks)
	if n == 0 || len(msgs) != n || len(sigs) != n || hasInvalid(pks) {
		return false
	}
	ps := make([]*blst.P1Affine, n)
	ss := make([]*blst.P2Affine, n)
	ms := make([]blst.Message, n)
	for i := range n {
		if sigs[i] == nil {
			return false
		}
		ps[i], ss[i], ms[i] = pks[i].a.Blst(), sigs[i].a.Blst(), msgs[i]
	}
	randFn := func(s *blst.Scalar) {
		var b [32]byte
		for {
			if _, err := crand.Read(b[:8]); err != nil {
				panic("attpool/crypto: crypto/rand failed: " + err.Error())
			}
			if b != [32]byte{} {
				break
			}
		}
		s.FromLEndian(b[:])
	}
	return new(blst.P2Affine).MultipleAggregateVerify(ss, true, ps, false, ms, []byte(dst), randFn, 64)
}
