package curvetest

import (
	crand "crypto/rand"
	"math/big"
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

// curvePoint draws random curve points from crypto/rand.
func curvePoint(t *testing.T) func() curve.G2 {
	return func() curve.G2 {
		Q, err := RandomCurvePoint(crand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return Q
	}
}

// TestSmallOrder: the point has order exactly ell (not the identity, ell
// times it is) and is outside G2, for 13 (whose part of the curve group is
// not cyclic) and 23.
func TestSmallOrder(t *testing.T) {
	for _, ell := range []int64{13, 23} {
		T, err := SmallOrder(curvePoint(t), ell)
		if err != nil {
			t.Fatal(err)
		}
		lb, lbits := LE(big.NewInt(ell))
		times := T
		if T.IsInfinity() || !times.Mul(lb, lbits).IsInfinity() {
			t.Fatalf("ell %d: the point's order is not %d", ell, ell)
		}
		if a := T.Affine(); a.InG2() {
			t.Fatalf("ell %d: point in G2", ell)
		}
	}
}

// TestSmallOrderNotAFactor: 7 does not divide the cofactor: no point of
// order 7 is found.
func TestSmallOrderNotAFactor(t *testing.T) {
	if _, err := SmallOrder(curvePoint(t), 7); err == nil {
		t.Fatal("a point of order 7 returned")
	}
}

// TestCurveOrder: CurveOrderG2 is a multiple of 13^2 and 23^2 (the
// cofactor's small primes) and kills a random curve point.
func TestCurveOrder(t *testing.T) {
	for _, f := range []int64{169, 529} {
		if new(big.Int).Mod(CurveOrderG2, big.NewInt(f)).Sign() != 0 {
			t.Fatalf("%d does not divide h2*r", f)
		}
	}
	kb, kbits := LE(CurveOrderG2)
	if Q := curvePoint(t)(); !Q.Mul(kb, kbits).IsInfinity() {
		t.Fatal("h2*r does not kill a curve point")
	}
}
