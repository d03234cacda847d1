package curve_test

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/curvetest"
)

// The external tests of the curve package: the point arithmetic checked
// against references, with keys and signatures from package crypto where a
// pairing needs them. The BLS12-381 constants come from curvetest.

// g2GeneratorHex is the compressed standard generator of G2.
const g2GeneratorHex = "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"

var (
	// groupR is r, the order of G1, G2 and GT.
	groupR, _ = new(big.Int).SetString("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16)
	// cofactorG2 is h2, the G2 curve group's order over r.
	cofactorG2 = new(big.Int).Quo(curvetest.CurveOrderG2, groupR)
)

// newRand returns a deterministic generator: tests are reproducible.
func newRand(seed byte) *rand.Rand {
	return rand.New(rand.NewChaCha8([32]byte{seed, 'c', 'u', 'r', 'v', 'e'}))
}

// randBytes returns n bytes of rng.
func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	_, _ = rngReader{rng}.Read(b)
	return b
}

// leScalar is k little-endian and its bit length.
func leScalar(k *big.Int) ([]byte, int) { return curvetest.LE(k) }

// interopKey returns the interop secret key of index i.
func interopKey(t testing.TB, i int) *crypto.SecretKey {
	t.Helper()
	sk, err := crypto.InteropSecretKey(uint64(i))
	if err != nil {
		t.Fatal(err)
	}
	return sk
}

// rngReader reads rng's bytes.
type rngReader struct{ rng *rand.Rand }

func (r rngReader) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(r.rng.Uint32())
	}
	return len(b), nil
}

// randomCurvePoint returns a point of the G2 curve, almost surely outside
// G2 (curvetest.RandomCurvePoint over rng).
func randomCurvePoint(t testing.TB, rng *rand.Rand) *curve.G2Affine {
	t.Helper()
	p, err := curvetest.RandomCurvePoint(rngReader{rng})
	if err != nil {
		t.Fatal(err)
	}
	a := p.Affine()
	return &a
}

// order13Point returns a point of order 13 of the G2 curve.
func order13Point(t testing.TB, rng *rand.Rand) curve.G2 {
	t.Helper()
	T, err := curvetest.SmallOrder(func() curve.G2 { return randomCurvePoint(t, rng).Jacobian() }, 13)
	if err != nil {
		t.Fatal(err)
	}
	if t13 := T; T.IsInfinity() || !t13.Mul([]byte{13}, 4).IsInfinity() {
		t.Fatal("T is infinity or 13*T is not the identity")
	}
	return T
}

// mulByOrder returns r*p.
func mulByOrder(p *curve.G2Affine) curve.G2 {
	k, n := leScalar(groupR)
	q := p.Jacobian()
	return *q.Mul(k, n)
}

// checkInG2 asserts that p is in G2: InG2, r*p the identity, and it
// round-trips as a signature with the subgroup check (crypto's tests check
// the encoding itself).
func checkInG2(t testing.TB, p *curve.G2Affine) {
	t.Helper()
	if q := mulByOrder(p); !p.InG2() || !q.IsInfinity() {
		t.Fatalf("point %x: not in G2", p.Bytes())
	}
	b := p.Bytes()
	back, err := crypto.SignatureFromBytes(b[:])
	if err != nil || !back.Equal(blspoint.NewSignature(p)) {
		t.Fatalf("point %x does not round-trip: %v", b, err)
	}
}

// checkNotInG2 asserts that p is on the curve but outside G2.
func checkNotInG2(t testing.TB, p *curve.G2Affine) {
	t.Helper()
	if q := mulByOrder(p); p.IsInfinity() || p.InG2() || q.IsInfinity() {
		t.Fatalf("point %x: want outside G2", p.Bytes())
	}
	b := p.Bytes()
	if _, err := new(crypto.Signature).SetBytesNoSubgroupCheck(b[:]); err != nil {
		t.Fatalf("point %x: not on the curve: %v", b, err)
	}
}

// mulRefG2 is double-and-add k*p, with Double and Add only: a reference
// for Mul.
func mulRefG2(p curve.G2, k *big.Int) curve.G2 {
	acc := curve.G2Infinity()
	for i := k.BitLen() - 1; i >= 0; i-- {
		acc.Double()
		if k.Bit(i) == 1 {
			acc.Add(&p)
		}
	}
	return acc
}

func BenchmarkCurve(b *testing.B) {
	sk := interopKey(b, 0)
	pk := sk.PublicKey()
	msg := []byte("benchmark message, 32 bytes....")
	sig := crypto.Sign(sk, msg)
	pts512 := ptrs(g2Points(512, 40))
	b.Run("SumG2/n=512", func(b *testing.B) {
		for b.Loop() {
			curve.SumG2(pts512)
		}
	})
	b.Run("Mul13Add", func(b *testing.B) {
		acc, h := pts512[0].Jacobian(), pts512[1].Jacobian()
		for b.Loop() {
			acc.Mul13Add(&h)
		}
	})

	rng := newRand(41)
	for _, n := range []int{64, 512} {
		g1 := ptrs(g1Points(n, 42))
		g2 := pts512[:n]
		sc := scalars64(rng, n)
		b.Run("MultiExpG1/64bit/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				curve.MultiExpG1(g1, sc, 64)
			}
		})
		b.Run("MultiExpG2/64bit/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				curve.MultiExpG2(g2, sc, 64)
			}
		})
	}

	g := curve.G1Generator()
	ng := g.Jacobian()
	negG := ng.Neg().Affine()
	h := *blspoint.Message(crypto.HashMessage(msg))
	ps := []curve.G1Affine{*blspoint.Key(pk), negG}
	qs := []curve.G2Affine{h, *blspoint.Signature(sig)}
	b.Run("MillerLoop/pairs=2", func(b *testing.B) {
		for b.Loop() {
			curve.MillerLoop(ps, qs)
		}
	})
	// A one-root check with the root's lines kept (the verifier's
	// searches and the hot roots' checks).
	b.Run("MillerLoopLines/pairs=2", func(b *testing.B) {
		lines := []*curve.Lines{curve.NewLines(&h), nil}
		for b.Loop() {
			curve.MillerLoopLines(ps, qs, lines)
		}
	})
	b.Run("NewLines", func(b *testing.B) {
		for b.Loop() {
			curve.NewLines(&h)
		}
	})
	b.Run("FinalExpIsOne", func(b *testing.B) {
		f := curve.MillerLoop(ps, qs)
		for b.Loop() {
			if !f.FinalExpIsOne() {
				b.Fatal("not one")
			}
		}
	})
	b.Run("BatchAffineG1/n=512", func(b *testing.B) {
		js := make([]curve.G1, 512)
		for i, p := range g1Points(512, 43) {
			js[i] = p.Jacobian()
			js[i].Add(&js[i])
		}
		for b.Loop() {
			curve.BatchAffineG1(js)
		}
	})
}
