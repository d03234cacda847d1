package verifier

import (
	crand "crypto/rand"
	"flag"
	"math/big"
	"slices"
	"sync"
	"testing"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/par"
)

// Test fixtures: interop keys, signatures, and crafted bad points.

var (
	keysOnce sync.Once
	testSKs  []*crypto.SecretKey
	testPKs  []*crypto.PublicKey
)

const numTestKeys = 256

func testKeys(t testing.TB) ([]*crypto.SecretKey, []*crypto.PublicKey) {
	t.Helper()
	keysOnce.Do(func() {
		for i := range numTestKeys {
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

func randRoot(t testing.TB) [32]byte {
	var r [32]byte
	if _, err := crand.Read(r[:]); err != nil {
		t.Fatal(err)
	}
	return r
}

// validSet signs root with key i.
func validSet(t testing.TB, i int, root [32]byte) Set {
	sks, pks := testKeys(t)
	return Set{Root: root, PublicKey: pks[i%len(pks)], Signature: crypto.Sign(sks[i%len(sks)], root[:]).Bytes()}
}

// want returns what verifying each set alone says: the reference verdicts,
// computed on every core.
func want(sets []Set) []bool {
	out := make([]bool, len(sets))
	par.For(len(sets), 1, func(i int) {
		s := &sets[i]
		sig, err := crypto.SignatureFromBytes(s.Signature[:])
		out[i] = err == nil && crypto.Verify(s.PublicKey, s.Root[:], sig)
	})
	return out
}

// long runs the randomized tests at full size (go test ./verifier/ -long);
// by default they run a fraction of their trials, with the same assertions,
// so that go test stays under a minute on two cores.
var long = flag.Bool("long", false, "run the verifier's randomized tests at full size")

// trials returns full under -long and short otherwise.
func trials(full, short int) int {
	if *long {
		return full
	}
	return short
}

// G2 cofactor h2 and group order r (RFC 9380, BLS12-381 G2).
var (
	h2, _ = new(big.Int).SetString("5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5", 16)
	r, _  = new(big.Int).SetString("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16)
)

// leBytes returns k little-endian and its bit length (the scalar format of
// package curve).
func leBytes(k *big.Int) ([]byte, int) {
	b := k.Bytes()
	slices.Reverse(b)
	return b, k.BitLen()
}

// randomCurvePoint returns a random point on the G2 curve (almost surely
// outside G2).
func randomCurvePoint(t testing.TB) curve.G2 {
	t.Helper()
	for {
		var b [96]byte
		if _, err := crand.Read(b[:]); err != nil {
			t.Fatal(err)
		}
		b[0] = 0x80 | (b[0] & 0x20) | (b[0] % 0x1a) // compressed, finite, x < p
		var s crypto.Signature
		if _, err := s.SetBytesNoSubgroupCheck(b[:]); err == nil {
			return blspoint.Signature(&s).Jacobian()
		}
	}
}

// orderThirteen returns a point T of order 13: (h2*r/169)*Q for a random
// curve point Q, retried until T is not the identity. The 13-part of the G2
// curve group is Z/13 x Z/13 (exponent 13), so (h2*r/13)*Q is always the
// identity and the cofactor must be divided by 13^2.
func orderThirteen(t testing.TB) curve.G2 {
	t.Helper()
	k := new(big.Int).Mul(h2, r)
	if new(big.Int).Mod(k, big.NewInt(169)).Sign() != 0 {
		t.Fatal("169 does not divide h2*r")
	}
	k.Div(k, big.NewInt(169))
	kb, kbits := leBytes(k)
	for range 20 {
		T := randomCurvePoint(t)
		T.Mul(kb, kbits)
		if T.IsInfinity() {
			continue
		}
		T13 := T
		T13.Mul([]byte{13}, 4)
		if !T13.IsInfinity() {
			t.Fatal("(h2*r/169)*Q has order other than 13")
		}
		a := T.Affine()
		if a.InG2() {
			t.Fatal("point of order 13 reported in G2")
		}
		return T
	}
	t.Fatal("no point of order 13 found")
	return curve.G2{}
}

// shifted returns the encoding of sig + D.
func shifted(t testing.TB, sig [96]byte, D *curve.G2) [96]byte {
	t.Helper()
	var s crypto.Signature
	if _, err := s.SetBytesNoSubgroupCheck(sig[:]); err != nil {
		t.Fatal(err)
	}
	p := blspoint.Signature(&s).Jacobian()
	p.Add(D)
	a := p.Affine()
	return a.Bytes()
}

func neg(p curve.G2) *curve.G2 { q := p; q.Neg(); return &q }

// randomG2 returns a random point of G2 (a multiple of the generator).
func randomG2(t testing.TB) curve.G2 {
	var k [32]byte
	if _, err := crand.Read(k[:]); err != nil {
		t.Fatal(err)
	}
	g := curve.G2Generator()
	p := g.Jacobian()
	return *p.Mul(k[:], 255)
}

func newVerifier(t testing.TB, bits int) *Verifier {
	t.Helper()
	v, err := New(Config{SecurityBits: bits})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

// checkExact fails the test unless v's verdicts equal the reference.
func checkExact(t *testing.T, v *Verifier, sets []Set) {
	t.Helper()
	got := v.Verify(sets)
	exp := want(sets)
	if len(got) != len(sets) {
		t.Fatalf("got %d verdicts for %d sets", len(got), len(sets))
	}
	for i := range exp {
		if got[i] != exp[i] {
			t.Fatalf("set %d of %d: verdict %v, alone %v", i, len(sets), got[i], exp[i])
		}
	}
}
