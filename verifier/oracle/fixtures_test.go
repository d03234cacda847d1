package oracle_test

import (
	"math/big"
	"slices"
	"sync"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/pool/pooltest"
	"github.com/attpool/attpool/verifier"
)

// Fixtures of the differential test, built on the public API of crypto and
// verifier only (this module tests the library from outside).

var (
	keysOnce sync.Once
	testSKs  []*crypto.SecretKey
	testPKs  []*crypto.PublicKey
)

// testKeys returns the first 256 interop keys (cached).
func testKeys(t testing.TB) ([]*crypto.SecretKey, []*crypto.PublicKey) {
	t.Helper()
	keysOnce.Do(func() {
		k := pooltest.NewInteropKeys(256)
		for i := range uint64(256) {
			testSKs, testPKs = append(testSKs, k.SecretKey(i)), append(testPKs, k.PublicKey(i))
		}
	})
	return testSKs, testPKs
}

// want returns blst's per-set verdicts (crypto.Verify of each set alone),
// the reference the batch verdicts must equal.
func want(sets []verifier.Set) []bool {
	out := make([]bool, len(sets))
	for i := range sets {
		out[i] = verifyAlone(&sets[i])
	}
	return out
}

func verifyAlone(s *verifier.Set) bool {
	sig, err := crypto.SignatureFromBytes(s.Signature[:])
	return err == nil && crypto.Verify(s.PublicKey, s.Root[:], sig)
}

// The group order r = x^4 - x^2 + 1 and the G2 cofactor h2 = (x^8 - 4x^7 +
// 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9 (RFC 9380), derived from the BLS
// parameter x = -0xd201000000010000 rather than taken from gnark
// (TestOracleSelfCheck compares r with gnark's).
var (
	r  = blsPoly(1, 0, -1, 0, 1)
	h2 = new(big.Int).Quo(blsPoly(1, -4, 5, 0, -4, 6, -4, -4, 13), big.NewInt(9))
)

// blsPoly evaluates the polynomial of coefficients cs (highest first) at x.
func blsPoly(cs ...int64) *big.Int {
	x := new(big.Int).Neg(new(big.Int).SetUint64(0xd201000000010000))
	acc := new(big.Int)
	for _, c := range cs {
		acc.Mul(acc, x).Add(acc, big.NewInt(c))
	}
	return acc
}

// leBytes returns k little-endian and its bit length (crypto's scalar format).
func leBytes(k *big.Int) ([]byte, int) {
	b := k.Bytes()
	slices.Reverse(b)
	return b, k.BitLen()
}

// The crafted points are made with gnark-crypto (generic curve arithmetic,
// valid off the subgroup too) and handed to the verifier through their
// compressed encodings.

// toBlst converts a gnark point to the crypto package's, through its
// compressed encoding (no subgroup check).
func toBlst(t testing.TB, p bls.G2Affine) curve.G2 {
	t.Helper()
	b := p.Bytes()
	var s crypto.Signature
	if _, err := s.SetBytesNoSubgroupCheck(b[:]); err != nil {
		t.Fatalf("blst decoding gnark's %x: %v", b, err)
	}
	return blspoint.Signature(&s).Jacobian()
}

// randomCurvePoint returns a random point of the G2 curve (almost surely
// outside G2): a random x of Fp2 until x^3 + 4(1+u) is a square.
func randomCurvePoint(t testing.TB) curve.G2 {
	t.Helper()
	for {
		var p bls.G2Affine
		if _, err := p.X.SetRandom(); err != nil {
			t.Fatal(err)
		}
		var rhs bls.E2
		rhs.Square(&p.X).Mul(&rhs, &p.X).Add(&rhs, &oracleB2)
		if rhs.Legendre() == 1 {
			p.Y.Sqrt(&rhs)
			return toBlst(t, p)
		}
	}
}

// orderThirteen returns a point of order 13 of the G2 curve.
func orderThirteen(t testing.TB) curve.G2 { return smallOrderPoint(t, 13) }

// shifted returns the encoding of sig + D, added in gnark's Jacobian
// coordinates.
func shifted(t testing.TB, sig [96]byte, D *curve.G2) [96]byte {
	t.Helper()
	s, _, err := oracleDecodeG2(sig[:])
	if err != nil {
		t.Fatal(err)
	}
	d := oracleFromBlst(t, *D)
	var acc, dj bls.G2Jac
	acc.FromAffine(&s)
	dj.FromAffine(&d)
	acc.AddAssign(&dj)
	var out bls.G2Affine
	out.FromJacobian(&acc)
	return out.Bytes()
}

func neg(p curve.G2) *curve.G2 { q := p; q.Neg(); return &q }

// randomG2 returns [k]g2 for a random scalar k.
func randomG2(t testing.TB) curve.G2 {
	var k fr.Element
	if _, err := k.SetRandom(); err != nil {
		t.Fatal(err)
	}
	_, _, _, g2 := bls.Generators()
	var p bls.G2Affine
	p.ScalarMultiplication(&g2, k.BigInt(new(big.Int)))
	return toBlst(t, p)
}
