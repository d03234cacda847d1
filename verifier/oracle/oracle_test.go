package oracle_test

// An independent BLS oracle for the differential test (oracle_long_test.go):
// the consensus specs' Verify(PK, message, signature) for the min-pk
// proof-of-possession ciphersuite, written with gnark-crypto alone (field and
// curve arithmetic, hash to G2, pairing), sharing no code with blst or with
// the crypto package. Every decoding rule of the specs (the ZCash BLS12-381
// serialization, KeyValidate, signature_to_point with its subgroup check) is
// spelled out below instead of being left to a library's SetBytes, and the
// result is cross-checked against gnark's own SetBytes on every input.

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"gopkg.in/yaml.v3"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/curvetest"
	"github.com/attpool/attpool/internal/testenv"
	"github.com/attpool/attpool/verifier"
)

// oracleDST is the ciphersuite's domain separation tag, written out here
// rather than taken from the crypto package (the self-check compares them).
var oracleDST = []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_")

var (
	oracleP     = fp.Modulus()                             // the base field prime p
	oracleHalfP = new(big.Int).Rsh(fp.Modulus(), 1)        // (p-1)/2 (p is odd)
	oracleR     = fr.Modulus()                             // the group order r
	oracleB2    = bls.E2{A0: oracleFp(4), A1: oracleFp(4)} // b' = 4(1+u) of E'/Fp2
	oracleB1    = oracleFp(4)                              // b = 4 of E/Fp
)

func oracleFp(v uint64) fp.Element {
	var e fp.Element
	e.SetUint64(v)
	return e
}

// oracleRefusal is why the oracle refuses a decoding: one of a fixed set of
// reasons, compared with errors.Is.
type oracleRefusal string

func (r oracleRefusal) Error() string { return string(r) }

const (
	errOracleLength       oracleRefusal = "wrong length"
	errOracleUncompressed oracleRefusal = "compression flag clear"
	errOracleInfinityBits oracleRefusal = "infinity flag with a sign bit or nonzero bits"
	errOracleNonCanonical oracleRefusal = "coordinate >= p"
	errOracleNotOnCurve   oracleRefusal = "x has no y on the curve"
	errOracleInfinityKey  oracleRefusal = "public key at infinity"
	errOracleNotInGroup   oracleRefusal = "not in the prime-order subgroup"
)

// oracleCanonical reads a big-endian field element and refuses values >= p
// (rule: every coordinate is the canonical representative, x < p; the
// aliases x + p that fit the bits are invalid).
func oracleCanonical(b []byte) (fp.Element, error) {
	var e fp.Element
	v := new(big.Int).SetBytes(b)
	if v.Cmp(oracleP) >= 0 {
		return e, errOracleNonCanonical
	}
	e.SetBigInt(v)
	return e, nil
}

// oracleLargest is the ZCash "lexicographically largest" test of an Fp
// element: y > (p-1)/2 as an integer.
func oracleLargest(y *fp.Element) bool {
	var v big.Int
	y.BigInt(&v)
	return v.Cmp(oracleHalfP) > 0
}

// oracleLargest2 is the same test in Fp2 = Fp[u], y = y0 + y1*u: compare y1,
// or y0 when y1 is zero.
func oracleLargest2(y *bls.E2) bool {
	if !y.A1.IsZero() {
		return oracleLargest(&y.A1)
	}
	return oracleLargest(&y.A0)
}

// oracleFlags splits the three flag bits of the first byte of a ZCash
// encoding: c (compressed), i (infinity), s (sign of y).
func oracleFlags(b0 byte) (c, i, s bool) {
	return b0&0x80 != 0, b0&0x40 != 0, b0&0x20 != 0
}

// oracleDecodeG2 decodes a 96-byte compressed point of E'(Fp2), the curve of
// G2, by the rules of the ZCash serialization (the specs' signature_to_point
// before its subgroup check):
//
//   - exactly 96 bytes: a 96-byte string can only be the compressed form (an
//     uncompressed point is 192 bytes), so the c flag must be set;
//   - i set: the point at infinity, and then s must be clear and every other
//     bit (the low 5 bits of byte 0 and bytes 1..95) zero;
//   - i clear: x = x1*u + x0 with x1 the 381 bits after the flags (bytes
//     0..47) and x0 bytes 48..95, each canonical (< p);
//   - x must have a y with y^2 = x^3 + 4(1+u), and y is the root whose
//     lexicographic largeness equals s. (E'(Fp2) has odd order h2*r, so no
//     point has y = 0 and the two roots always differ.)
//
// The result is on the curve and may lie outside G2. The point at infinity is
// returned as gnark's (0, 0) sentinel with inf true.
func oracleDecodeG2(b []byte) (p bls.G2Affine, inf bool, err error) {
	if len(b) != 96 {
		return p, false, errOracleLength
	}
	c, i, s := oracleFlags(b[0])
	if !c {
		return p, false, errOracleUncompressed
	}
	if i {
		if s || b[0]&0x1f != 0 || !oracleZero(b[1:]) {
			return p, false, errOracleInfinityBits
		}
		return p, true, nil
	}
	var x1 [48]byte
	copy(x1[:], b[:48])
	x1[0] &= 0x1f
	if p.X.A1, err = oracleCanonical(x1[:]); err != nil {
		return p, false, err
	}
	if p.X.A0, err = oracleCanonical(b[48:]); err != nil {
		return p, false, err
	}
	var rhs, y, yy bls.E2
	rhs.Square(&p.X).Mul(&rhs, &p.X).Add(&rhs, &oracleB2)
	y.Sqrt(&rhs)
	if !yy.Square(&y).Equal(&rhs) { // explicit: Sqrt of a non-square is garbage
		return p, false, errOracleNotOnCurve
	}
	if oracleLargest2(&y) != s {
		y.Neg(&y)
	}
	p.Y = y
	if !p.IsOnCurve() {
		panic("oracle: decoded G2 point off the curve")
	}
	return p, false, nil
}

// oracleSignatureToPoint is the specs' signature_to_point followed by the
// subgroup check of CoreVerify: decode, then require the point to be in G2.
// Infinity is the identity of G2: it passes (KeyValidate is for keys only).
// The subgroup test is gnark's IsInSubGroup (psi(P) == [x0]P, the seed
// endomorphism test), which the self-check compares with [r]P == O.
func oracleSignatureToPoint(b []byte) (bls.G2Affine, bool, error) {
	p, inf, err := oracleDecodeG2(b)
	if err != nil || inf {
		return p, inf, err
	}
	if !p.IsInSubGroup() {
		return p, false, errOracleNotInGroup
	}
	return p, false, nil
}

// oracleKeyValidate decodes a 48-byte compressed G1 point with the rules of
// oracleDecodeG2 (x < p, y^2 = x^3 + 4, the sign bit picking y, flag bits)
// and applies the specs' KeyValidate: not the point at infinity (a
// well-formed infinity encoding is refused here), and in G1.
func oracleKeyValidate(b []byte) (bls.G1Affine, error) {
	p, err := oracleDecodeG1(b)
	if err != nil {
		return p, err
	}
	if !p.IsInSubGroup() {
		return p, errOracleNotInGroup
	}
	return p, nil
}

// oracleDecodeG1 is oracleKeyValidate without the subgroup check.
func oracleDecodeG1(b []byte) (p bls.G1Affine, err error) {
	if len(b) != 48 {
		return p, errOracleLength
	}
	c, i, s := oracleFlags(b[0])
	if !c {
		return p, errOracleUncompressed
	}
	if i {
		if s || b[0]&0x1f != 0 || !oracleZero(b[1:]) {
			return p, errOracleInfinityBits
		}
		return p, errOracleInfinityKey
	}
	var x [48]byte
	copy(x[:], b)
	x[0] &= 0x1f
	if p.X, err = oracleCanonical(x[:]); err != nil {
		return p, err
	}
	var rhs, y, yy fp.Element
	rhs.Square(&p.X).Mul(&rhs, &p.X).Add(&rhs, &oracleB1)
	y.Sqrt(&rhs)
	if !yy.Square(&y).Equal(&rhs) {
		return p, errOracleNotOnCurve
	}
	if oracleLargest(&y) != s {
		y.Neg(&y)
	}
	p.Y = y
	if !p.IsOnCurve() {
		panic("oracle: decoded G1 point off the curve")
	}
	return p, nil
}

func oracleZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// Caches of pure functions of their keys: the hash of a root to G2 and the
// decoded keys. They save time only; every verdict still decodes its
// signature and runs its own pairing check.
var (
	oracleHashes sync.Map // string(msg) -> bls.G2Affine
	oracleKeys   sync.Map // [48]byte -> oracleKey
)

type oracleKey struct {
	p   bls.G1Affine
	err error
}

func oracleHash(msg []byte) bls.G2Affine {
	if h, ok := oracleHashes.Load(string(msg)); ok {
		return h.(bls.G2Affine)
	}
	h, err := bls.HashToG2(msg, oracleDST)
	if err != nil {
		panic("oracle: hash to G2: " + err.Error())
	}
	oracleHashes.Store(string(msg), h)
	return h
}

func oracleKeyCached(b [48]byte) (bls.G1Affine, error) {
	if k, ok := oracleKeys.Load(b); ok {
		return k.(oracleKey).p, k.(oracleKey).err
	}
	p, err := oracleKeyValidate(b[:])
	oracleKeys.Store(b, oracleKey{p, err})
	return p, err
}

// oracleVerify is the specs' Verify(PK, message, signature) = CoreVerify:
// signature_to_point (with the G2 subgroup check), KeyValidate(PK), then
// e(PK, H(message)) == e(g1, signature), checked as
// e(PK, H) * e(-g1, S) == 1 with gnark's PairingCheck. The infinity signature
// decodes and is in G2; it is not special-cased: gnark's Miller loop drops a
// pair with a point at infinity (e(P, O) = 1), so the check becomes
// e(PK, H) == 1, false for a valid key and a hash that is not the identity.
func oracleVerify(pkBytes [48]byte, root [32]byte, sig [96]byte) bool {
	pk, err := oracleKeyCached(pkBytes)
	if err != nil {
		return false
	}
	return oracleVerifyPoint(pk, root[:], sig[:])
}

func oracleVerifyBytes(pkBytes, msg, sig []byte) bool {
	pk, err := oracleKeyValidate(pkBytes)
	if err != nil {
		return false
	}
	return oracleVerifyPoint(pk, msg, sig)
}

func oracleVerifyPoint(pk bls.G1Affine, msg, sig []byte) bool {
	S, _, err := oracleSignatureToPoint(sig)
	if err != nil {
		return false
	}
	H := oracleHash(msg)
	_, _, g1, _ := bls.Generators()
	var negG1 bls.G1Affine
	negG1.Neg(&g1)
	ok, err := bls.PairingCheck([]bls.G1Affine{pk, negG1}, []bls.G2Affine{H, S})
	return err == nil && ok
}

// oracleGnarkAgrees compares the oracle's explicit signature decoding with
// gnark's own G2Affine.SetBytes (which also checks the subgroup). For 96-byte
// inputs they implement the same rules: gnark's mask table refuses the flag
// patterns 001, 011 and 111, reads 000 and 010 as the 192-byte uncompressed
// form (too short here), and checks an infinity encoding for zero bits. An
// error names any disagreement.
func oracleGnarkAgrees(sig []byte) error {
	p, inf, err := oracleSignatureToPoint(sig)
	var g bls.G2Affine
	_, gerr := g.SetBytes(sig)
	switch {
	case (err == nil) != (gerr == nil):
		return fmt.Errorf("oracle decoding %v, gnark SetBytes %v", err, gerr)
	case err == nil && inf != g.IsInfinity():
		return fmt.Errorf("oracle infinity %v, gnark %v", inf, g.IsInfinity())
	case err == nil && !p.Equal(&g):
		return fmt.Errorf("oracle and gnark SetBytes decode different points")
	}
	return nil
}

// oracleNaiveInG2 is the definition of G2 membership, [r]P == O, by plain
// double-and-add in gnark's Jacobian coordinates.
func oracleNaiveInG2(p *bls.G2Affine) bool {
	var base, acc bls.G2Jac
	base.FromAffine(p)
	acc.FromAffine(&bls.G2Affine{}) // infinity
	for i := oracleR.BitLen() - 1; i >= 0; i-- {
		acc.DoubleAssign()
		if oracleR.Bit(i) == 1 {
			acc.AddAssign(&base)
		}
	}
	return acc.Z.IsZero()
}

func oracleNaiveInG1(p *bls.G1Affine) bool {
	var base, acc bls.G1Jac
	base.FromAffine(p)
	acc.FromAffine(&bls.G1Affine{})
	for i := oracleR.BitLen() - 1; i >= 0; i-- {
		acc.DoubleAssign()
		if oracleR.Bit(i) == 1 {
			acc.AddAssign(&base)
		}
	}
	return acc.Z.IsZero()
}

// oracleSign signs with gnark: sk * HashToG2(msg), compressed.
func oracleSign(sk *big.Int, msg []byte) [96]byte {
	var s bls.G2Affine
	h := oracleHash(msg)
	s.ScalarMultiplication(&h, sk)
	return s.Bytes()
}

// oracleSetX1 returns sig with x1 (the integer under the flag bits of bytes
// 0..47) replaced by v, flags kept; ok is false when v does not fit 381 bits.
func oracleSetX1(sig [96]byte, v *big.Int) ([96]byte, bool) {
	if v.BitLen() > 381 {
		return sig, false
	}
	flags := sig[0] & 0xe0
	var x [48]byte
	v.FillBytes(x[:])
	copy(sig[:48], x[:])
	sig[0] |= flags
	return sig, true
}

// oracleSetX0 returns sig with x0 (bytes 48..95) replaced by v (< 2^384).
func oracleSetX0(sig [96]byte, v *big.Int) [96]byte {
	v.FillBytes(sig[48:])
	return sig
}

func oracleX1(sig [96]byte) *big.Int {
	var x [48]byte
	copy(x[:], sig[:48])
	x[0] &= 0x1f
	return new(big.Int).SetBytes(x[:])
}

func oracleX0(sig [96]byte) *big.Int { return new(big.Int).SetBytes(sig[48:]) }

// TestOracleSelfCheck checks the oracle itself before it judges the
// verifier: agreement with published values (interop keys, and the
// consensus BLS vectors when present), byte-for-byte agreement with blst on
// signing, each decoding rule on a crafted case, and its subgroup tests
// against [r]P == O.
func TestOracleSelfCheck(t *testing.T) {
	// The key 1 signs a message to its hash: the oracle's hash under
	// oracleDST must be crypto's under the ciphersuite's tag.
	one, err := crypto.SecretKeyFromBytes(append(make([]byte, 31), 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range [][]byte{{}, []byte("attpool")} {
		h := oracleHash(msg)
		if got, want := h.Bytes(), crypto.HashMessage(msg).Sign(one).Bytes(); got != want {
			t.Fatalf("oracle hash of %q under %q is %x, crypto's %x", msg, oracleDST, got, want)
		}
	}
	if oracleR.Cmp(r) != 0 {
		t.Fatalf("gnark's r %x differs from the test helpers' %x", oracleR, r)
	}
	if hr := new(big.Int).Mul(h2, r); hr.Cmp(curvetest.CurveOrderG2) != 0 {
		t.Fatalf("h2*r from the BLS parameter, %x, differs from curvetest's %x", hr, curvetest.CurveOrderG2)
	}

	t.Run("InteropKeys", func(t *testing.T) {
		// Published pubkeys of the interop keys: gnark's sk*g1 must encode to
		// them and the oracle's KeyValidate must accept them.
		f, err := os.Open(filepath.Join("..", "..", "crypto", "testdata", "interop_keys.txt"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		n := 0
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || line[0] == '#' {
				continue
			}
			fields := strings.Fields(line)
			if len(fields) != 3 {
				t.Fatalf("bad line %q", line)
			}
			skb, err1 := hex.DecodeString(fields[1])
			pkb, err2 := hex.DecodeString(fields[2])
			if err1 != nil || err2 != nil || len(pkb) != 48 {
				t.Fatalf("bad line %q", line)
			}
			sk := new(big.Int).SetBytes(skb)
			_, _, g1, _ := bls.Generators()
			var pk bls.G1Affine
			pk.ScalarMultiplication(&g1, sk)
			if got := pk.Bytes(); !bytes.Equal(got[:], pkb) {
				t.Fatalf("key %s: gnark pubkey %x, published %x", fields[0], got, pkb)
			}
			q, err := oracleKeyValidate(pkb)
			if err != nil || !q.Equal(&pk) {
				t.Fatalf("key %s: oracle KeyValidate %v", fields[0], err)
			}
			n++
		}
		if n < 10 {
			t.Fatalf("%d interop keys read", n)
		}
	})

	sks, pks := testKeys(t)
	msgs := [][]byte{make([]byte, 32), bytes.Repeat([]byte{0xab}, 32), []byte("attpool"), {}}
	sigs := make([][96]byte, len(msgs))
	for m, msg := range msgs {
		for k := range 4 {
			skb := sks[k].Bytes()
			sk := new(big.Int).SetBytes(skb[:])
			got := oracleSign(sk, msg)
			want := crypto.Sign(sks[k], msg).Bytes()
			if got != want {
				t.Fatalf("key %d msg %d: gnark signature %x, blst %x", k, m, got, want)
			}
			pkb := pks[k].Bytes()
			if !oracleVerifyBytes(pkb[:], msg, got[:]) {
				t.Fatalf("key %d msg %d: oracle rejects a valid signature", k, m)
			}
			if oracleVerifyBytes(pkb[:], msgs[(m+1)%len(msgs)], got[:]) {
				t.Fatalf("key %d msg %d: oracle accepts the signature of another message", k, m)
			}
			other := pks[k+1].Bytes()
			if oracleVerifyBytes(other[:], msg, got[:]) {
				t.Fatalf("key %d msg %d: oracle accepts another key", k, m)
			}
		}
		sigs[m] = crypto.Sign(sks[0], msg).Bytes()
	}

	t.Run("Crafted", func(t *testing.T) {
		pk := pks[0].Bytes()
		msg := msgs[1]
		good := sigs[1]
		T := orderThirteen(t)
		D := randomG2(t)
		g2 := curve.G2Generator()
		var inf [96]byte
		inf[0] = 0xc0
		x0 := oracleX0(good)
		alias0 := oracleSetX0(good, new(big.Int).Add(x0, oracleP))
		eqP1, _ := oracleSetX1(good, oracleP)
		junk := inf
		junk[77] = 1
		signInf := inf
		signInf[0] |= 0x20
		noComp := good
		noComp[0] &^= 0x80
		infNoComp := inf
		infNoComp[0] = 0x40
		negated := good
		negated[0] ^= 0x20
		cases := []struct {
			name string
			sig  [96]byte
			ok   bool  // Verify's verdict
			err  error // signature_to_point's error
		}{
			{"valid", good, true, nil},
			{"negated", negated, false, nil},
			{"shifted in G2", shifted(t, good, &D), false, nil},
			{"generator", g2.Bytes(), false, nil},
			{"infinity", inf, false, nil},
			{"order 13 shift", shifted(t, good, &T), false, errOracleNotInGroup},
			{"x0 + p", alias0, false, errOracleNonCanonical},
			{"x1 = p", eqP1, false, errOracleNonCanonical},
			{"infinity with junk", junk, false, errOracleInfinityBits},
			{"infinity with sign", signInf, false, errOracleInfinityBits},
			{"compression clear", noComp, false, errOracleUncompressed},
			{"infinity without compression", infNoComp, false, errOracleUncompressed},
			{"zero", [96]byte{}, false, errOracleUncompressed},
		}
		for _, c := range cases {
			_, _, err := oracleSignatureToPoint(c.sig[:])
			if err != c.err {
				t.Errorf("%s: signature_to_point error %v, want %v", c.name, err, c.err)
			}
			if got := oracleVerifyBytes(pk[:], msg, c.sig[:]); got != c.ok {
				t.Errorf("%s: oracle %v, want %v", c.name, got, c.ok)
			}
			if exp := want([]verifier.Set{{Root: [32]byte(msg), PublicKey: pks[0], Signature: c.sig}})[0]; exp != c.ok {
				t.Errorf("%s: blst reference %v, want %v", c.name, exp, c.ok)
			}
			if err := oracleGnarkAgrees(c.sig[:]); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}
		// An off-curve x: the oracle finds no y; so must gnark's SetBytes.
		offCurve := oracleOffCurve(t)
		if _, _, err := oracleDecodeG2(offCurve[:]); !errors.Is(err, errOracleNotOnCurve) {
			t.Errorf("off-curve x: %v", err)
		}
		if err := oracleGnarkAgrees(offCurve[:]); err != nil {
			t.Errorf("off-curve x: %v", err)
		}
		// Keys: infinity, a curve point outside G1, x >= p, flags.
		var keyInf [48]byte
		keyInf[0] = 0xc0
		if _, err := oracleKeyValidate(keyInf[:]); !errors.Is(err, errOracleInfinityKey) {
			t.Errorf("infinity key: %v", err)
		}
		if oracleVerifyBytes(keyInf[:], msg, inf[:]) {
			t.Errorf("infinity key and signature verify")
		}
		outside := oracleG1OutsideSubgroup(t)
		if _, err := oracleKeyValidate(outside[:]); !errors.Is(err, errOracleNotInGroup) {
			t.Errorf("key outside G1: %v", err)
		}
		keyAlias := pk
		var kx [48]byte
		copy(kx[:], pk[:])
		kx[0] &= 0x1f
		v := new(big.Int).Add(new(big.Int).SetBytes(kx[:]), oracleP)
		if v.BitLen() <= 381 {
			v.FillBytes(keyAlias[:])
			keyAlias[0] |= pk[0] & 0xe0
			if _, err := oracleKeyValidate(keyAlias[:]); !errors.Is(err, errOracleNonCanonical) {
				t.Errorf("key x + p: %v", err)
			}
		}
		keyNoComp := pk
		keyNoComp[0] &^= 0x80
		if _, err := oracleKeyValidate(keyNoComp[:]); !errors.Is(err, errOracleUncompressed) {
			t.Errorf("key without compression flag: %v", err)
		}
	})

	t.Run("Subgroup", func(t *testing.T) {
		// gnark's endomorphism subgroup tests against the definition.
		check := func(name string, p bls.G2Affine, wantIn bool) {
			t.Helper()
			if fast, naive := p.IsInSubGroup(), oracleNaiveInG2(&p); fast != naive || fast != wantIn {
				t.Errorf("%s: IsInSubGroup %v, [r]P == O %v, want %v", name, fast, naive, wantIn)
			}
		}
		for i := range 3 {
			D := randomG2(t)
			check(fmt.Sprint("G2 point ", i), oracleFromBlst(t, D), true)
			Q := randomCurvePoint(t)
			check(fmt.Sprint("curve point ", i), oracleFromBlst(t, Q), false)
			T := orderThirteen(t)
			check(fmt.Sprint("order 13 ", i), oracleFromBlst(t, T), false)
			T23 := smallOrderPoint(t, 23)
			check(fmt.Sprint("order 23 ", i), oracleFromBlst(t, T23), false)
			DT := D
			DT.Add(&T)
			check(fmt.Sprint("G2 + order 13 ", i), oracleFromBlst(t, DT), false)
		}
		for i := range 3 {
			p, err := oracleDecodeG1(func() []byte { b := pks[i].Bytes(); return b[:] }())
			if err != nil || !p.IsInSubGroup() || !oracleNaiveInG1(&p) {
				t.Errorf("key %d: not in G1 (%v)", i, err)
			}
		}
		o := oracleG1OutsideSubgroup(t)
		p, err := oracleDecodeG1(o[:])
		if err != nil || p.IsInSubGroup() || oracleNaiveInG1(&p) {
			t.Errorf("G1 curve point outside G1 judged in G1 (%v)", err)
		}
	})

	t.Run("ConsensusVectors", oracleSpecVectors)
}

// oracleFromBlst converts a blst point to gnark through its compressed bytes,
// with gnark's decoder (no subgroup check), so that the oracle's own decoder
// is not the one under test here.
func oracleFromBlst(t testing.TB, p curve.G2) bls.G2Affine {
	t.Helper()
	a := p.Affine()
	b := a.Bytes()
	var q bls.G2Affine
	dec := bls.NewDecoder(bytes.NewReader(b[:]), bls.NoSubgroupChecks())
	if err := dec.Decode(&q); err != nil {
		t.Fatalf("gnark decoding %x: %v", b, err)
	}
	return q
}

// oracleOffCurve returns a compressed encoding of an x in Fp2 for which
// x^3 + 4(1+u) is not a square.
func oracleOffCurve(t testing.TB) [96]byte {
	t.Helper()
	for {
		var x, rhs bls.E2
		x.MustSetRandom()
		rhs.Square(&x).Mul(&rhs, &x).Add(&rhs, &oracleB2)
		if rhs.Legendre() == -1 {
			var b [96]byte
			x1, x0 := x.A1.Bytes(), x.A0.Bytes()
			copy(b[:48], x1[:])
			copy(b[48:], x0[:])
			b[0] |= 0x80
			return b
		}
	}
}

// oracleG1OutsideSubgroup returns the compressed encoding of a point of
// E(Fp) outside G1: the first x = 1, 2, ... on the curve (the G1 cofactor is
// large, so such points are outside G1 but for a negligible chance, checked).
func oracleG1OutsideSubgroup(t testing.TB) [48]byte {
	t.Helper()
	for x := int64(1); x < 1000; x++ {
		var b [48]byte
		big.NewInt(x).FillBytes(b[:])
		b[0] |= 0x80
		if p, err := oracleDecodeG1(b[:]); err == nil && !oracleNaiveInG1(&p) {
			return b
		}
	}
	t.Fatal("no point of E(Fp) outside G1 found")
	return [48]byte{}
}

// smallOrderPoint returns a point of order exactly ell of the G2 curve, ell
// a prime factor of the cofactor, from the oracle's random curve points.
func smallOrderPoint(t testing.TB, ell int64) curve.G2 {
	t.Helper()
	T, err := curvetest.SmallOrder(func() curve.G2 { return randomCurvePoint(t) }, ell)
	if err != nil {
		t.Fatal(err)
	}
	return T
}

// oracleSpecVectors runs the oracle on the official BLS vectors: verify,
// deserialization_G1 (KeyValidate), deserialization_G2 (signature_to_point
// with the subgroup check) and hash_to_G2. The folder is
// $CONSENSUS_SPEC_TESTS, a relative path taken from the repository root
// (testenv skips when it is unset, and fails when it names a folder that
// does not exist or a file).
func oracleSpecVectors(t *testing.T) {
	base := filepath.Join(testenv.SpecTests(t), "general", "phase0", "bls")
	if _, err := os.Stat(base); err != nil {
		t.Fatalf("no consensus BLS vectors at %s: %v", base, err)
	}
	type vec struct {
		Input  map[string]any `yaml:"input"`
		Output any            `yaml:"output"`
	}
	load := func(handler string) map[string]vec {
		dirs, _ := filepath.Glob(filepath.Join(base, handler, "bls", "*"))
		out := map[string]vec{}
		for _, d := range dirs {
			raw, err := os.ReadFile(filepath.Join(d, "data.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			var v vec
			if err := yaml.Unmarshal(raw, &v); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			out[filepath.Base(d)] = v
		}
		if len(out) == 0 {
			t.Fatalf("no %s vectors under %s", handler, base)
		}
		return out
	}
	unhex := func(name string, v any) []byte {
		s, _ := v.(string)
		b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
		if err != nil {
			t.Fatalf("%s: bad hex %q", name, s)
		}
		return b
	}
	counts := map[string]int{}
	for name, v := range load("verify") {
		pk, msg, sig := unhex(name, v.Input["pubkey"]), unhex(name, v.Input["message"]), unhex(name, v.Input["signature"])
		if got := oracleVerifyBytes(pk, msg, sig); got != v.Output {
			t.Errorf("verify %s: oracle %v, want %v", name, got, v.Output)
		}
		counts["verify"]++
	}
	for name, v := range load("deserialization_G1") {
		_, err := oracleKeyValidate(unhex(name, v.Input["pubkey"]))
		if got := err == nil; got != v.Output {
			t.Errorf("deserialization_G1 %s: oracle %v (%v), want %v", name, got, err, v.Output)
		}
		counts["deserialization_G1"]++
	}
	for name, v := range load("deserialization_G2") {
		b := unhex(name, v.Input["signature"])
		_, _, err := oracleSignatureToPoint(b)
		if got := err == nil; got != v.Output {
			t.Errorf("deserialization_G2 %s: oracle %v (%v), want %v", name, got, err, v.Output)
		}
		if len(b) == 96 {
			if err := oracleGnarkAgrees(b); err != nil {
				t.Errorf("deserialization_G2 %s: %v", name, err)
			}
		}
		counts["deserialization_G2"]++
	}
	for name, v := range load("hash_to_G2") {
		msg, _ := v.Input["msg"].(string)
		out, _ := v.Output.(map[string]any)
		// These are RFC 9380's BLS12381G2_XMD:SHA-256_SSWU_RO_ vectors, with
		// the RFC's test DST unless a case names its own.
		dst := "QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_"
		if d, ok := v.Input["dst"].(string); ok {
			dst = d
		}
		h, err := bls.HashToG2([]byte(msg), []byte(dst))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			coord string
			e     bls.E2
		}{{"x", h.X}, {"y", h.Y}} {
			s, _ := out[c.coord].(string)
			parts := strings.Split(s, ",")
			if len(parts) != 2 {
				t.Fatalf("hash_to_G2 %s: bad %s %q", name, c.coord, s)
			}
			// The vectors give c0 (real) first, then c1.
			a0, a1 := c.e.A0.Bytes(), c.e.A1.Bytes()
			if got := "0x" + hex.EncodeToString(a0[:]) + ",0x" + hex.EncodeToString(a1[:]); got != strings.ReplaceAll(s, " ", "") {
				t.Errorf("hash_to_G2 %s: %s = %s, want %s", name, c.coord, got, s)
			}
		}
		counts["hash_to_G2"]++
	}
	t.Logf("consensus BLS vectors checked by the oracle: %v", oracleCounts(counts))
}

func oracleCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var sb strings.Builder
	for i, k := range keys {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(k + " " + strconv.Itoa(m[k]))
	}
	return sb.String()
}
