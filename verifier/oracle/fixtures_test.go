package oracle_test

import (
	crand "crypto/rand"
	"math/big"
	"sync"
	"testing"

	"github.com/attpool/attpool/crypto"
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
		for i := range 256 {
			sk, err := crypto.InteropSecretKey(uint64(i))
			if err != nil {
				panic(err)
			}
			testSKs = append(testSKs, sk)
			testPKs = append(testPKs, sk.PublicKey())
		}
	})
	return testSKs, testPKs
}

// want returns what verifying each set alone with blst says.
func want(sets []verifier.Set) []bool {
	out := make([]bool, len(sets))
	for i, s := range sets {
		sig, err := crypto.SignatureFromBytes(s.Signature[:])
		out[i] = err == nil && crypto.Verify(s.PublicKey, s.Root[:], sig)
	}
	return out
}

// G2 cofactor h2 (RFC 9380) and group order r; TestOracleSelfCheck compares
// r with gnark's.
var (
	h2, _ = new(big.Int).SetString("5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5", 16)
	r, _  = new(big.Int).SetString("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16)
)

// leBytes returns k little-endian and its bit length (crypto's scalar format).
func leBytes(k *big.Int) ([]byte, int) {
	le := k.Bytes()
	for i, j := 0, len(le)-1; i < j; i, j = i+1, j-1 {
		le[i], le[j] = le[j], le[i]
	}
	return le, k.BitLen()
}

// randomCurvePoint returns a random point of the G2 curve (almost surely
// outside G2): random compressed encodings until one decodes.
func randomCurvePoint(t testing.TB) crypto.G2 {
	t.Helper()
	for {
		var b [96]byte
		if _, err := crand.Read(b[:]); err != nil {
			t.Fatal(err)
		}
		b[0] = 0x80 | (b[0] & 0x20) | (b[0] % 0x1a) // compressed, finite, x < p
		var s crypto.Signature
		if _, err := s.SetBytesNoSubgroupCheck(b[:]); err == nil {
			return s.Point().Jacobian()
		}
	}
}

// orderThirteen returns a point of order 13 of the G2 curve.
func orderThirteen(t testing.TB) crypto.G2 { return smallOrderPoint(t, 13) }

// shifted returns the encoding of sig + D.
func shifted(t testing.TB, sig [96]byte, D *crypto.G2) [96]byte {
	t.Helper()
	var s crypto.Signature
	if _, err := s.SetBytesNoSubgroupCheck(sig[:]); err != nil {
		t.Fatal(err)
	}
	p := s.Point().Jacobian()
	p.Add(D)
	a := p.Affine()
	return a.Bytes()
}

func neg(p crypto.G2) *crypto.G2 { q := p; q.Neg(); return &q }

// randomG2 returns a random point of G2 (a multiple of the generator).
func randomG2(t testing.TB) crypto.G2 {
	var k [32]byte
	if _, err := crand.Read(k[:]); err != nil {
		t.Fatal(err)
	}
	g := crypto.G2Generator()
	p := g.Jacobian()
	return *p.Mul(k[:], 255)
}
