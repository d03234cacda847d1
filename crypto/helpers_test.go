package crypto

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

// Curve constants, derived in the tests from the BLS parameter x rather than
// typed in, so that a typo cannot silently agree with the code under test.
var (
	blsX = new(big.Int).Neg(new(big.Int).SetUint64(0xd201000000010000))

	// fieldP is p = (x-1)^2 (x^4 - x^2 + 1)/3 + x.
	fieldP = func() *big.Int {
		x := blsX
		r := poly(x, 1, 0, -1, 0, 1) // x^4 - x^2 + 1
		xm1 := new(big.Int).Sub(x, big.NewInt(1))
		p := new(big.Int).Mul(xm1, xm1)
		p.Mul(p, r)
		p.Quo(p, big.NewInt(3))
		return p.Add(p, x)
	}()

	// groupR is r = x^4 - x^2 + 1.
	groupR = poly(blsX, 1, 0, -1, 0, 1)

	// cofactorG2 is h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13)/9.
	cofactorG2 = func() *big.Int {
		h := poly(blsX, 1, -4, 5, 0, -4, 6, -4, -4, 13)
		return h.Quo(h, big.NewInt(9))
	}()
)

// poly evaluates the polynomial with coefficients cs (highest degree first) at x.
func poly(x *big.Int, cs ...int64) *big.Int {
	acc := new(big.Int)
	for _, c := range cs {
		acc.Mul(acc, x)
		acc.Add(acc, big.NewInt(c))
	}
	return acc
}

// newRand returns a deterministic generator: tests are reproducible.
func newRand(seed byte) *rand.Rand {
	return rand.New(rand.NewChaCha8([32]byte{seed, 'a', 't', 't', 'p', 'o', 'o', 'l'}))
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// leScalar returns k as a little-endian byte string and its bit length, the
// scalar format of the building blocks.
func leScalar(k *big.Int) ([]byte, int) {
	be := k.Bytes()
	le := make([]byte, len(be))
	for i := range be {
		le[i] = be[len(be)-1-i]
	}
	return le, k.BitLen()
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

var interopKeys struct {
	once sync.Once
	sks  [8]*SecretKey
	err  error
}

// interopKey returns the interop key of index i < 8 (cached).
func interopKey(t testing.TB, i int) *SecretKey {
	t.Helper()
	interopKeys.once.Do(func() {
		for j := range interopKeys.sks {
			interopKeys.sks[j], interopKeys.err = InteropSecretKey(uint64(j))
			if interopKeys.err != nil {
				return
			}
		}
	})
	if interopKeys.err != nil {
		t.Fatalf("InteropSecretKey: %v", interopKeys.err)
	}
	return interopKeys.sks[i]
}

// distinctSigned returns n interop keys with their signatures of the
// distinct messages {tag, i}.
func distinctSigned(t testing.TB, n int, tag byte) (pks []*PublicKey, msgs [][]byte, sigs []*Signature) {
	for i := range n {
		sk := interopKey(t, i)
		m := []byte{tag, byte(i)}
		pks = append(pks, sk.PublicKey())
		msgs = append(msgs, m)
		sigs = append(sigs, Sign(sk, m))
	}
	return pks, msgs, sigs
}

// checkErr asserts that err wraps want and carries the package's prefix.
func checkErr(t testing.TB, err, want error) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", want)
	}
	if !errors.Is(err, want) {
		t.Fatalf("got error %q, want one wrapping %q", err, want)
	}
	if !strings.Contains(err.Error(), "attpool/crypto:") {
		t.Fatalf("error %q lacks the attpool/crypto: prefix", err)
	}
}

// fp2 is an element c0 + c1*i of Fp2 = Fp[i]/(i^2+1), for independent checks.
type fp2 struct{ c0, c1 *big.Int }

func (a fp2) mul(b fp2) fp2 {
	t0 := new(big.Int).Mul(a.c0, b.c0)
	t1 := new(big.Int).Mul(a.c1, b.c1)
	c0 := new(big.Int).Sub(t0, t1)
	c1 := new(big.Int).Mul(a.c0, b.c1)
	c1.Add(c1, new(big.Int).Mul(a.c1, b.c0))
	return fp2{c0.Mod(c0, fieldP), c1.Mod(c1, fieldP)}
}

func (a fp2) add(b fp2) fp2 {
	c0 := new(big.Int).Add(a.c0, b.c0)
	c1 := new(big.Int).Add(a.c1, b.c1)
	return fp2{c0.Mod(c0, fieldP), c1.Mod(c1, fieldP)}
}

func (a fp2) equal(b fp2) bool { return a.c0.Cmp(b.c0) == 0 && a.c1.Cmp(b.c1) == 0 }

// lexLarger reports whether a > -a in the order of the serialization spec
// (compare c1 first, then c0): the meaning of the sign bit.
func (a fp2) lexLarger() bool {
	half := new(big.Int).Rsh(fieldP, 1) // (p-1)/2
	if a.c1.Sign() != 0 {
		return a.c1.Cmp(half) > 0
	}
	return a.c0.Cmp(half) > 0
}

// g2Coords decodes p's uncompressed encoding into affine coordinates,
// asserting that each is canonical (below p).
func g2Coords(t testing.TB, p *curve.G2Affine) (x, y fp2) {
	t.Helper()
	u := p.Uncompressed()
	var c [4]*big.Int
	for i := range c {
		c[i] = new(big.Int).SetBytes(u[48*i : 48*(i+1)])
		if c[i].Cmp(fieldP) >= 0 {
			t.Fatalf("uncompressed coordinate %d is not below p", i)
		}
	}
	return fp2{c[1], c[0]}, fp2{c[3], c[2]}
}

// onTwist reports whether (x, y) satisfies y^2 = x^3 + 4(1+i), computed
// with math/big independently of blst.
func onTwist(x, y fp2) bool {
	b := fp2{big.NewInt(4), big.NewInt(4)}
	return y.mul(y).equal(x.mul(x).mul(x).add(b))
}

// mulByOrder returns r*p with blst's generic ladder (r is not below r, so
// blst cannot take its endomorphism shortcut): the identity iff p is in G2.
func mulByOrder(p *curve.G2Affine) curve.G2 {
	k, n := leScalar(groupR)
	q := p.Jacobian()
	return *q.Mul(k, n)
}

// checkEncodingG2 checks s's compressed encoding against its coordinates:
// flags, sign bit, x, and that decoding without the subgroup check gives s
// back.
func checkEncodingG2(t testing.TB, s *Signature) {
	t.Helper()
	b := s.Bytes()
	if s.IsInfinity() {
		want := make([]byte, SignatureSize)
		want[0] = 0xc0
		if !bytes.Equal(b[:], want) {
			t.Fatalf("infinity encodes as %x", b)
		}
		return
	}
	x, y := g2Coords(t, s.point())
	if !onTwist(x, y) {
		t.Fatalf("point %x is not on the curve", b)
	}
	if b[0]&0x80 == 0 || b[0]&0x40 != 0 {
		t.Fatalf("bad flags %#x in %x", b[0]&0xe0, b)
	}
	if got, want := b[0]&0x20 != 0, y.lexLarger(); got != want {
		t.Fatalf("sign bit %v, want %v in %x", got, want, b)
	}
	xb := b
	xb[0] &= 0x1f
	if new(big.Int).SetBytes(xb[:48]).Cmp(x.c1) != 0 || new(big.Int).SetBytes(xb[48:]).Cmp(x.c0) != 0 {
		t.Fatalf("x of %x does not match the uncompressed form", b)
	}
	var back Signature
	if _, err := back.SetBytesNoSubgroupCheck(b[:]); err != nil {
		t.Fatalf("re-decoding %x: %v", b, err)
	}
	if !back.Equal(s) {
		t.Fatalf("re-decoding %x gives another point", b)
	}
}

// checkOnCurveInG2 asserts every invariant of a signature in G2.
func checkOnCurveInG2(t testing.TB, s *Signature) {
	t.Helper()
	checkEncodingG2(t, s)
	if !s.InG2() || !s.point().InG2() {
		t.Fatalf("signature %x: InG2 false", s.Bytes())
	}
	if q := mulByOrder(s.point()); !q.IsInfinity() {
		t.Fatalf("signature %x: r*s is not the identity", s.Bytes())
	}
	b := s.Bytes()
	back, err := SignatureFromBytes(b[:])
	if err != nil || !back.Equal(s) {
		t.Fatalf("signature %x does not round-trip: %v", b, err)
	}
}

// checkOnCurveNotInG2 asserts that s is on the curve but outside G2.
func checkOnCurveNotInG2(t testing.TB, s *Signature) {
	t.Helper()
	checkEncodingG2(t, s)
	if s.IsInfinity() || s.InG2() || s.point().InG2() {
		t.Fatalf("point %x: want outside G2", s.Bytes())
	}
	if q := mulByOrder(s.point()); q.IsInfinity() {
		t.Fatalf("point %x: r*s is the identity, so it is in G2", s.Bytes())
	}
}

// checkPublicKey asserts the invariants of a PublicKey: KeyValidate holds
// (not infinity, in G1), flags are right and the encoding round-trips.
func checkPublicKey(t testing.TB, pk *PublicKey) {
	t.Helper()
	b := pk.Bytes()
	if pk.point().IsInfinity() {
		t.Fatalf("public key %x is infinity", b)
	}
	if b[0]&0x80 == 0 || b[0]&0x40 != 0 {
		t.Fatalf("public key %x: bad flags", b)
	}
	k, n := leScalar(groupR)
	q := pk.point().Jacobian()
	if q.IsInfinity() || !q.Mul(k, n).IsInfinity() {
		t.Fatalf("public key %x: not of order r", b)
	}
	back, err := PublicKeyFromBytes(b[:])
	if err != nil || !back.Equal(pk) || !pk.Equal(back) {
		t.Fatalf("public key %x does not round-trip: %v", b, err)
	}
}

// randomCurvePoint returns a point of the G2 curve that is (with
// overwhelming probability) outside G2: random x bytes with the compression
// flag, decoded without the subgroup check until one decodes.
func randomCurvePoint(t testing.TB, rng *rand.Rand) *Signature {
	t.Helper()
	for range 1000 {
		b := randBytes(rng, SignatureSize)
		b[0] = b[0]&0x3f | 0x80 // compressed, not infinity; sign bit random
		b[48] &= 0x1f           // keep x.c0 mostly below p
		s, err := new(Signature).SetBytesNoSubgroupCheck(b)
		if err == nil {
			return s
		}
	}
	t.Fatal("no random x decoded in 1000 tries")
	return nil
}

// order13Point returns a point T of order 13 of the G2 curve.
//
// The curve group has order h2*r with 13^2 | h2. Its 13-part is not cyclic
// (it is Z/13 x Z/13: every point is killed by h2*r/13, see
// TestOrder13Construction), so h2*r/13 maps every point to infinity and the
// construction uses h2*r/169, which projects a point onto its 13-part: that
// projection has order 13 unless it is zero (probability 1/169).
func order13Point(t testing.TB, rng *rand.Rand) curve.G2 {
	t.Helper()
	k := new(big.Int).Mul(cofactorG2, groupR)
	k.Quo(k, big.NewInt(169))
	kb, kn := leScalar(k)
	for range 10 {
		p := randomCurvePoint(t, rng).point().Jacobian()
		p.Mul(kb, kn)
		if p.IsInfinity() {
			continue
		}
		t13 := p
		if !t13.Mul([]byte{13}, 4).IsInfinity() {
			t.Fatal("13*T is not the identity")
		}
		return p
	}
	t.Fatal("no point of order 13 found")
	return curve.G2{}
}

// outsideG2Signature returns sig + T for T of order 13: a curve point
// outside G2 that shifts a valid signature.
func outsideG2Signature(t testing.TB, sig *Signature, rng *rand.Rand) *Signature {
	t.Helper()
	T := order13Point(t, rng)
	s := sig.point().Jacobian()
	s.Add(&T)
	a := s.Affine()
	return signatureFromPoint(&a)
}

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }
