package crypto

import (
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

// VerifyDistinctBatch is internal/curve's distinct-message batch (the Prysm
// and Lighthouse method of verifier/baseline) on crypto's values, with
// crypto's own crafted inputs.
func VerifyDistinctBatch(pks []*PublicKey, msgs [][]byte, sigs []*Signature) bool {
	keys := make([]*curve.G1Affine, len(pks))
	for i, pk := range pks {
		if pk != nil {
			keys[i] = pk.point()
		}
	}
	points := make([]*curve.G2Affine, len(sigs))
	for i, s := range sigs {
		if s != nil {
			points[i] = s.point()
		}
	}
	return curve.VerifyDistinctBatch(keys, msgs, points)
}

func TestVerifyDistinctBatch(t *testing.T) {
	pks, msgs, sigs := distinctSigned(t, 6, 'd')
	if !VerifyDistinctBatch(pks, msgs, sigs) {
		t.Fatal("valid batch rejected")
	}
	if !VerifyDistinctBatch(pks[:1], msgs[:1], sigs[:1]) {
		t.Error("batch of one rejected")
	}
	// Swapping two signatures keeps the sum but breaks the statement.
	sw := append([]*Signature{sigs[1], sigs[0]}, sigs[2:]...)
	if VerifyDistinctBatch(pks, msgs, sw) {
		t.Error("swapped signatures accepted")
	}
	// Shifting two signatures by +T and -T (T of order 13) keeps their sum;
	// the subgroup checks must catch it.
	rng := newRand(53)
	T := order13Point(t, rng)
	a, b := sigs[0].point().Jacobian(), sigs[1].point().Jacobian()
	a.Add(&T)
	b.Sub(&T)
	aA, bA := a.Affine(), b.Affine()
	shifted := append([]*Signature{signatureFromPoint(&aA), signatureFromPoint(&bA)}, sigs[2:]...)
	if VerifyDistinctBatch(pks, msgs, shifted) {
		t.Error("signatures shifted out of G2 accepted")
	}
	var inf Signature
	for name, ok := range map[string]bool{
		"empty":         VerifyDistinctBatch(nil, nil, nil),
		"short msgs":    VerifyDistinctBatch(pks, msgs[:5], sigs),
		"short sigs":    VerifyDistinctBatch(pks, msgs, sigs[:5]),
		"nil key":       VerifyDistinctBatch([]*PublicKey{nil}, msgs[:1], sigs[:1]),
		"nil signature": VerifyDistinctBatch(pks[:1], msgs[:1], []*Signature{nil}),
		"wrong message": VerifyDistinctBatch(pks[:1], msgs[1:2], sigs[:1]),
		"infinity":      VerifyDistinctBatch(pks[:1], msgs[:1], []*Signature{&inf}),
	} {
		if ok {
			t.Errorf("%s: accepted", name)
		}
	}
}
