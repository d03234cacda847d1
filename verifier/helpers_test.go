package verifier

import (
	crand "crypto/rand"
	"flag"
	"sync"
	"testing"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/curvetest"
	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/internal/signtest"
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

// validSet signs root with key i; the set's reference verdict is true.
func validSet(t testing.TB, i int, root [32]byte) Set {
	sks, pks := testKeys(t)
	s := Set{Root: root, PublicKey: pks[i%len(pks)], Signature: signtest.Sign(sks[i%len(sks)], root)}
	wantMemo.Store(wantKey{s.PublicKey, s.Root, s.Signature}, true)
	return s
}

// want returns what verifying each set alone says: the reference verdicts,
// computed on every core. A set's verdict is computed once per test binary
// (wantMemo): the tests check many calls made of the same sets. The sets
// validSet and sameRoot sign are valid by construction and are not checked
// again; the others (every set a test changed) are.
func want(sets []Set) []bool {
	out := make([]bool, len(sets))
	par.For(len(sets), 1, func(i int) {
		s := &sets[i]
		key := wantKey{s.PublicKey, s.Root, s.Signature}
		if v, ok := wantMemo.Load(key); ok {
			out[i] = v.(bool)
			return
		}
		sig, err := crypto.SignatureFromBytes(s.Signature[:])
		out[i] = err == nil && crypto.Verify(s.PublicKey, s.Root[:], sig)
		wantMemo.Store(key, out[i])
	})
	return out
}

// wantKey names a set for wantMemo: the key by its pointer (the tests never
// change a PublicKey they made; each made key is a new pointer).
type wantKey struct {
	pk   *crypto.PublicKey
	root [32]byte
	sig  [96]byte
}

var wantMemo sync.Map // wantKey -> bool

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

// randomCurvePoint returns a random point on the G2 curve (almost surely
// outside G2).
func randomCurvePoint(t testing.TB) curve.G2 {
	t.Helper()
	Q, err := curvetest.RandomCurvePoint(crand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return Q
}

// orderThirteen returns a point of order 13 of the G2 curve (the 13-part of
// the curve group is Z/13 x Z/13, so it is not a multiple of a generator).
func orderThirteen(t testing.TB) curve.G2 {
	t.Helper()
	T, err := curvetest.SmallOrder(func() curve.G2 { return randomCurvePoint(t) }, 13)
	if err != nil {
		t.Fatal(err)
	}
	return T
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
