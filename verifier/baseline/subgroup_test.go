package baseline

import (
	crand "crypto/rand"
	"testing"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/curvetest"
)

// TestBatchInG2: points of G2 pass, alone or beside the point at infinity
// (which never reaches the digit rounds, which reject it); a point outside
// G2, random or of order 13 added to a signature (which one round misses
// with probability 1/13), fails at 64 and 128 bits; a nil point fails.
func TestBatchInG2(t *testing.T) {
	sets := testSets(t, 40)
	var pts []*crypto.Signature
	for _, s := range sets {
		sig, err := crypto.SignatureFromBytes(s.Signature[:])
		if err != nil {
			t.Fatal(err)
		}
		pts = append(pts, sig)
	}
	var inf [96]byte
	inf[0] = 0xc0
	decodedInf, err := crypto.SignatureFromBytes(inf[:])
	if err != nil {
		t.Fatal(err)
	}
	random := func() curve.G2 {
		Q, err := curvetest.RandomCurvePoint(crand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return Q
	}
	Q := random()
	qa := Q.Affine()
	outside := blspoint.NewSignature(&qa)
	T, err := curvetest.SmallOrder(random, 13)
	if err != nil {
		t.Fatal(err)
	}
	p := blspoint.Signature(pts[7]).Jacobian()
	p.Add(&T)
	pa := p.Affine()
	thirteen := blspoint.NewSignature(&pa)
	with := func(extra ...*crypto.Signature) []*crypto.Signature {
		return append(append([]*crypto.Signature{}, extra...), pts...)
	}
	for _, bits := range []int{64, 128} {
		for _, tc := range []struct {
			name string
			pts  []*crypto.Signature
			want bool
		}{
			{"no points", nil, true},
			{"points of G2", pts, true},
			{"infinity alone", []*crypto.Signature{decodedInf}, true},
			{"zero value alone", []*crypto.Signature{new(crypto.Signature)}, true},
			{"infinity among points of G2", with(decodedInf, new(crypto.Signature)), true},
			{"infinity beside a point outside G2", with(decodedInf, outside), false},
			{"a point with an order-13 part", with(thirteen), false},
			{"nil point", with(nil), false},
		} {
			if got := BatchInG2(tc.pts, bits); got != tc.want {
				t.Errorf("%d bits, %s: BatchInG2 %v, want %v", bits, tc.name, got, tc.want)
			}
		}
	}
}
