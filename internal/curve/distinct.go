package curve

import (
	crand "crypto/rand"

	blst "github.com/supranational/blst/bindings/go"
)

// SignatureDST is the domain separation tag of Ethereum's BLS signatures
// (the proof-of-possession ciphersuite of the IETF BLS draft, which the
// consensus specs use): the one copy of the protocol string, unexported
// outside the module.
const SignatureDST = "BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"

// VerifyDistinctBatch reports whether every sigs[i] is the signature of
// msgs[i] by pks[i], with one random-linear-combination check: blst's
// MultipleAggregateVerify with 64-bit blinding scalars from crypto/rand, one
// Miller loop per set and the signatures' subgroup checks, spread over
// GOMAXPROCS goroutines of blst's. It is the batch method of Prysm and
// Lighthouse, for verifier/baseline. It says nothing about which set failed;
// empty or mismatched inputs, a nil or infinity key and a nil signature give
// false.
func VerifyDistinctBatch(pks []*G1Affine, msgs [][]byte, sigs []*G2Affine) bool {
	n := len(pks)
	if n == 0 || len(msgs) != n || len(sigs) != n {
		return false
	}
	ps := make([]*blst.P1Affine, n)
	ss := make([]*blst.P2Affine, n)
	ms := make([]blst.Message, n)
	for i := range n {
		if pks[i] == nil || pks[i].IsInfinity() || sigs[i] == nil {
			return false
		}
		ps[i], ss[i], ms[i] = pks[i].Blst(), sigs[i].Blst(), msgs[i]
	}
	randFn := func(s *blst.Scalar) {
		var b [32]byte
		for {
			if _, err := crand.Read(b[:8]); err != nil {
				panic("attpool/curve: crypto/rand failed: " + err.Error())
			}
			if b != [32]byte{} {
				break
			}
		}
		s.FromLEndian(b[:])
	}
	return new(blst.P2Affine).MultipleAggregateVerify(ss, true, ps, false, ms, []byte(SignatureDST), randFn, 64)
}
