package curve

import "testing"

// TestZeroValues: the zero points are the identity (sums may start from
// them, and G1Infinity/G2Infinity are the zero values); the zero GT is
// rejected by every check and stays zero in products.
func TestZeroValues(t *testing.T) {
	var z1 G1
	var z2 G2
	var a1 G1Affine
	var a2 G2Affine
	if !z1.IsInfinity() || !z2.IsInfinity() || !a1.IsInfinity() || !a2.IsInfinity() {
		t.Fatal("a zero point is not the point at infinity")
	}
	if z1 != G1Infinity() || z2 != G2Infinity() {
		t.Error("G1Infinity or G2Infinity is not the zero value")
	}
	g1, g2 := G1Generator(), G2Generator()
	s1, s2 := z1, z2
	s1.AddAffine(&g1)
	s2.AddAffine(&g2)
	j1, j2 := g1.Jacobian(), g2.Jacobian()
	if !s1.Equal(&j1) || !s2.Equal(&j2) {
		t.Error("a sum started from the zero value is not the plain sum")
	}
	s1, s2 = j1, j2
	s1.Add(&z1)
	s2.Add(&z2)
	if !s1.Equal(&j1) || !s2.Equal(&j2) {
		t.Error("adding the zero value changes a point")
	}
	if b := a2.Bytes(); b[0] != 0xc0 {
		t.Errorf("the zero G2Affine encodes to %x, not infinity", b)
	}

	var zt GT
	if zt.IsOne() || zt.FinalExpIsOne() {
		t.Error("the zero GT passes a check")
	}
	f := MillerLoop([]G1Affine{g1}, []G2Affine{g2})
	f.Mul(&zt)
	if f.IsOne() || f.FinalExpIsOne() {
		t.Error("a product with the zero GT passes a check")
	}
	one := GTOne()
	if !one.IsOne() || !one.FinalExpIsOne() {
		t.Error("GTOne is not one")
	}
}
