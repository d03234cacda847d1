package crypto

import (
	"bytes"
	"errors"
	"io"
	"math/big"
	"strings"
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

var (
	g1GeneratorHex = "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
	g2GeneratorHex = "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e" +
		"024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
)

func infinityBytes(n int) []byte {
	b := make([]byte, n)
	b[0] = 0xc0
	return b
}

// fpBytes returns v as 48 big-endian bytes (v < 2^384).
func fpBytes(v *big.Int) []byte {
	b := make([]byte, 48)
	return v.FillBytes(b)
}

// withFlags returns a copy of b with the top three bits of b[0] set to flags.
func withFlags(b []byte, flags byte) []byte {
	c := bytes.Clone(b)
	c[0] = c[0]&0x1f | flags
	return c
}

// offCurveG1 returns the compressed encoding of the smallest x with no
// point on the G1 curve, checked with math/big (x^3+4 is not a square mod p).
func offCurveG1(t testing.TB) []byte {
	t.Helper()
	for x := int64(1); x < 100; x++ {
		bx := big.NewInt(x)
		rhs := new(big.Int).Exp(bx, big.NewInt(3), fieldP)
		rhs.Add(rhs, big.NewInt(4))
		if big.Jacobi(rhs, fieldP) == -1 {
			return withFlags(fpBytes(bx), 0x80)
		}
	}
	t.Fatal("no x off the G1 curve below 100")
	return nil
}

// offCurveG2 returns the compressed encoding of an x = c0 (c1 = 0) with no
// point on the G2 curve: x^3 + 4(1+i) is not a square in Fp2, that is its
// norm is not a square in Fp.
func offCurveG2(t testing.TB) []byte {
	t.Helper()
	for x := int64(1); x < 100; x++ {
		xx := fp2{big.NewInt(x), new(big.Int)}
		rhs := xx.mul(xx).mul(xx).add(fp2{big.NewInt(4), big.NewInt(4)})
		norm := new(big.Int).Mul(rhs.c0, rhs.c0)
		norm.Add(norm, new(big.Int).Mul(rhs.c1, rhs.c1))
		norm.Mod(norm, fieldP)
		if big.Jacobi(norm, fieldP) == -1 {
			b := make([]byte, 96)
			copy(b[48:], fpBytes(big.NewInt(x)))
			b[0] = 0x80
			return b
		}
	}
	t.Fatal("no x off the G2 curve below 100")
	return nil
}

func TestCurveConstants(t *testing.T) {
	if groupR.Cmp(curveOrder) != 0 {
		t.Fatalf("curveOrder = %x, r from x = %x", curveOrder, groupR)
	}
	if fieldP.BitLen() != 381 || !fieldP.ProbablyPrime(20) || !groupR.ProbablyPrime(20) {
		t.Fatal("p or r wrong")
	}
	if new(big.Int).Mod(cofactorG2, big.NewInt(169)).Sign() != 0 {
		t.Fatal("13^2 does not divide h2")
	}
}

func TestSecretKeyFromBytes(t *testing.T) {
	one := make([]byte, 32)
	one[31] = 1
	rMinus1 := new(big.Int).Sub(groupR, big.NewInt(1)).FillBytes(make([]byte, 32))
	for _, b := range [][]byte{one, rMinus1, mustHex(t, "25295f0d1d592a90b333e26e85149708208e9f8e8bc18f6c77bd62f8ad7a6866")} {
		sk, err := SecretKeyFromBytes(b)
		if err != nil {
			t.Fatalf("SecretKeyFromBytes(%x): %v", b, err)
		}
		if got := sk.Bytes(); !bytes.Equal(got[:], b) {
			t.Errorf("Bytes() = %x, want %x", got, b)
		}
		checkPublicKey(t, sk.PublicKey())
	}
	// sk = 1: the public key is the generator, and Sign gives H(m).
	sk1, _ := SecretKeyFromBytes(one)
	if got := sk1.PublicKey().Bytes(); !bytes.Equal(got[:], mustHex(t, g1GeneratorHex)) {
		t.Errorf("1*g1 = %x", got)
	}
	h := curve.HashToG2([]byte("m"), []byte(dst))
	if s := Sign(sk1, []byte("m")); !s.point().Equal(&h) {
		t.Error("Sign with key 1 is not HashToG2")
	}

	for _, n := range []int{0, 1, 31, 33, 48} {
		_, err := SecretKeyFromBytes(make([]byte, n))
		checkErr(t, err, ErrInvalidLength)
	}
	for name, b := range map[string][]byte{
		"zero":    make([]byte, 32),
		"r":       groupR.FillBytes(make([]byte, 32)),
		"r+1":     new(big.Int).Add(groupR, big.NewInt(1)).FillBytes(make([]byte, 32)),
		"2^256-1": bytes.Repeat([]byte{0xff}, 32),
	} {
		if _, err := SecretKeyFromBytes(b); !errors.Is(err, ErrInvalidSecretKey) {
			t.Errorf("%s: got %v, want ErrInvalidSecretKey", name, err)
		} else {
			checkErr(t, err, ErrInvalidSecretKey)
		}
	}
}

func TestGenerateSecretKey(t *testing.T) {
	seed := bytes.Repeat([]byte{7}, 32)
	a, err := GenerateSecretKey(bytes.NewReader(seed))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GenerateSecretKey(bytes.NewReader(seed))
	if a.Bytes() != b.Bytes() {
		t.Error("same key material gave different keys")
	}
	seed[0] ^= 1
	c, _ := GenerateSecretKey(bytes.NewReader(seed))
	if a.Bytes() == c.Bytes() {
		t.Error("different key material gave the same key")
	}
	for _, sk := range []*SecretKey{a, c} {
		sb := sk.Bytes()
		if _, err := SecretKeyFromBytes(sb[:]); err != nil {
			t.Errorf("generated key %x invalid: %v", sb, err)
		}
		checkPublicKey(t, sk.PublicKey())
	}
	// It reads exactly 32 bytes.
	r := bytes.NewReader(make([]byte, 40))
	if _, err := GenerateSecretKey(r); err != nil || r.Len() != 8 {
		t.Errorf("read %d bytes, err %v", 40-r.Len(), err)
	}
	_, err = GenerateSecretKey(io.LimitReader(bytes.NewReader(seed), 31))
	checkErr(t, err, io.ErrUnexpectedEOF)
	_, err = GenerateSecretKey(bytes.NewReader(nil))
	checkErr(t, err, io.EOF)
}

type decodeCase struct {
	name string
	in   []byte
	want error // nil: decodes
}

// publicKeyCases are the encodings every public key decoder must classify.
func publicKeyCases(t testing.TB) []decodeCase {
	valid := interopKey(t, 0).PublicKey().Bytes()
	// A key whose x + p still fits in the 381 bits of the encoding.
	var aliased [48]byte
	var xPlusP *big.Int
	for i := uint64(0); ; i++ {
		sk, _ := InteropSecretKey(i)
		aliased = sk.PublicKey().Bytes()
		xPlusP = new(big.Int).SetBytes(withFlags(aliased[:], 0))
		if xPlusP.Add(xPlusP, fieldP).BitLen() <= 381 {
			break
		}
		if i == 100 {
			t.Fatal("no key with x + p < 2^381")
		}
	}
	zeroX := make([]byte, 48)
	zeroX[0] = 0x80
	infNonZero := infinityBytes(48)
	infNonZero[47] = 1
	var cases = []decodeCase{
		{"valid", valid[:], nil},
		{"valid negated", withFlags(valid[:], valid[0]&0xe0^0x20), nil},
		{"generator", mustHex(t, g1GeneratorHex), nil},
		{"infinity", infinityBytes(48), ErrInfinity},
		{"infinity with sign bit", withFlags(infinityBytes(48), 0xe0), ErrInvalidEncoding},
		{"infinity with non-zero x", infNonZero, ErrInvalidEncoding},
		{"infinity flag on valid x", withFlags(valid[:], 0xc0), ErrInvalidEncoding},
		{"compression bit clear", withFlags(valid[:], valid[0]&0x60), ErrInvalidEncoding},
		{"all zero", make([]byte, 48), ErrInvalidEncoding},
		{"uncompressed infinity prefix", withFlags(make([]byte, 48), 0x40), ErrInvalidEncoding},
		{"x = p", withFlags(fpBytes(fieldP), 0x80), ErrInvalidEncoding},
		{"x + p aliasing a valid key", withFlags(fpBytes(xPlusP), aliased[0]&0xe0), ErrInvalidEncoding},
		{"x = 2^381-1", withFlags(bytes.Repeat([]byte{0xff}, 48), 0x80), ErrInvalidEncoding},
		{"not on curve", offCurveG1(t), ErrNotOnCurve},
		{"x = 0, order 3", zeroX, ErrNotInSubgroup},
		{"x = 0 negated, order 3", withFlags(zeroX, 0xa0), ErrNotInSubgroup},
	}
	for _, n := range []int{0, 1, 47, 49, 95, 96, 97} {
		cases = append(cases, decodeCase{"length " + itoa(n), make([]byte, n), ErrInvalidLength})
	}
	// a key from SecretKey's length-48 valid bytes, one longer/shorter.
	cases = append(cases,
		decodeCase{"valid + 1 byte", append(bytes.Clone(valid[:]), 0), ErrInvalidLength},
		decodeCase{"valid - 1 byte", bytes.Clone(valid[:47]), ErrInvalidLength})
	return cases
}

// onCopy returns decode of a copy of in, and fails t if decode modified
// its input.
func onCopy[T any](t *testing.T, in []byte, decode func([]byte) (T, error)) (T, error) {
	t.Helper()
	b := bytes.Clone(in)
	v, err := decode(b)
	if !bytes.Equal(b, in) {
		t.Error("input modified")
	}
	return v, err
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

func TestPublicKeyFromBytes(t *testing.T) {
	for _, c := range publicKeyCases(t) {
		t.Run(c.name, func(t *testing.T) {
			pk, err := onCopy(t, c.in, PublicKeyFromBytes)
			if c.want == nil {
				if err != nil {
					t.Fatalf("PublicKeyFromBytes(%x): %v", c.in, err)
				}
				checkPublicKey(t, pk)
				if b := pk.Bytes(); !bytes.Equal(b[:], c.in) {
					t.Errorf("Bytes() = %x, want %x", b, c.in)
				}
				return
			}
			if pk != nil {
				t.Error("non-nil key with an error")
			}
			checkErr(t, err, c.want)
		})
	}
}

// A random x on the curve is almost never in G1 (cofactor about 2^126).
func TestPublicKeyRandomCurvePointNotInG1(t *testing.T) {
	rng := newRand(3)
	found := 0
	for range 200 {
		b := randBytes(rng, 48)
		b[0] = b[0]&0x3f | 0x80
		if b[0]&0x1f > 0x19 {
			continue
		}
		x := new(big.Int).SetBytes(withFlags(b, 0))
		rhs := new(big.Int).Exp(x, big.NewInt(3), fieldP)
		rhs.Add(rhs, big.NewInt(4))
		onCurve := big.Jacobi(rhs, fieldP) >= 0
		_, err := PublicKeyFromBytes(b)
		if onCurve {
			found++
			checkErr(t, err, ErrNotInSubgroup)
		} else {
			checkErr(t, err, ErrNotOnCurve)
		}
	}
	if found == 0 {
		t.Fatal("no random x on the curve")
	}
}

// signatureCases are the encodings every signature decoder must classify;
// wantNoCheck is the outcome without the subgroup check.
type sigCase struct {
	name              string
	in                []byte
	want, wantNoCheck error
}

func signatureCases(t testing.TB) []sigCase {
	sig := Sign(interopKey(t, 0), []byte("attpool"))
	valid := sig.Bytes()
	outside := outsideG2Signature(t, sig, newRand(13)).Bytes()
	// x.c0 + p always fits in 48 bytes; x.c1 + p must fit in 381 bits.
	c0 := new(big.Int).SetBytes(valid[48:])
	c0Alias := append(bytes.Clone(valid[:48]), fpBytes(c0.Add(c0, fieldP))...)
	var c1Alias []byte
	for i := 0; c1Alias == nil; i++ {
		v := Sign(interopKey(t, 0), []byte{byte(i)}).Bytes()
		c1 := new(big.Int).SetBytes(withFlags(v[:48], 0))
		if c1.Add(c1, fieldP).BitLen() <= 381 {
			c1Alias = append(withFlags(fpBytes(c1), v[0]&0xe0), v[48:]...)
		}
		if i == 100 {
			t.Fatal("no signature with x.c1 + p < 2^381")
		}
	}
	infNonZero := infinityBytes(96)
	infNonZero[95] = 1
	infNonZeroC1 := infinityBytes(96)
	infNonZeroC1[1] = 1
	cases := []sigCase{
		{"valid", valid[:], nil, nil},
		{"valid negated", withFlags(valid[:], valid[0]&0xe0^0x20), nil, nil},
		{"generator", mustHex(t, g2GeneratorHex), nil, nil},
		{"infinity", infinityBytes(96), nil, nil},
		{"outside G2 (sig + order-13 T)", outside[:], ErrNotInSubgroup, nil},
		{"infinity with sign bit", withFlags(infinityBytes(96), 0xe0), ErrInvalidEncoding, ErrInvalidEncoding},
		{"infinity with non-zero x.c0", infNonZero, ErrInvalidEncoding, ErrInvalidEncoding},
		{"infinity with non-zero x.c1", infNonZeroC1, ErrInvalidEncoding, ErrInvalidEncoding},
		{"infinity flag on valid x", withFlags(valid[:], 0xc0), ErrInvalidEncoding, ErrInvalidEncoding},
		{"compression bit clear", withFlags(valid[:], valid[0]&0x60), ErrInvalidEncoding, ErrInvalidEncoding},
		{"all zero", make([]byte, 96), ErrInvalidEncoding, ErrInvalidEncoding},
		{"x.c1 = p", append(withFlags(fpBytes(fieldP), 0x80), make([]byte, 48)...), ErrInvalidEncoding, ErrInvalidEncoding},
		{"x.c0 = p", append(withFlags(make([]byte, 48), 0x80), fpBytes(fieldP)...), ErrInvalidEncoding, ErrInvalidEncoding},
		{"x.c0 = 2^384-1", append(withFlags(make([]byte, 48), 0x80), bytes.Repeat([]byte{0xff}, 48)...), ErrInvalidEncoding, ErrInvalidEncoding},
		{"not on curve", offCurveG2(t), ErrNotOnCurve, ErrNotOnCurve},
	}
	cases = append(cases,
		sigCase{"x.c1 + p aliasing a valid signature", c1Alias, ErrInvalidEncoding, ErrInvalidEncoding},
		sigCase{"x.c0 + p aliasing a valid signature", c0Alias, ErrInvalidEncoding, ErrInvalidEncoding})
	for _, n := range []int{0, 1, 47, 48, 49, 95, 97, 192} {
		cases = append(cases, sigCase{"length " + itoa(n), make([]byte, n), ErrInvalidLength, ErrInvalidLength})
	}
	cases = append(cases,
		sigCase{"valid + 1 byte", append(bytes.Clone(valid[:]), 0), ErrInvalidLength, ErrInvalidLength},
		sigCase{"valid - 1 byte", bytes.Clone(valid[:95]), ErrInvalidLength, ErrInvalidLength})
	return cases
}

func TestSignatureFromBytes(t *testing.T) {
	for _, c := range signatureCases(t) {
		t.Run(c.name, func(t *testing.T) {
			s, err := onCopy(t, c.in, SignatureFromBytes)
			if c.want != nil {
				if s != nil {
					t.Error("non-nil signature with an error")
				}
				checkErr(t, err, c.want)
				return
			}
			if err != nil {
				t.Fatalf("SignatureFromBytes(%x): %v", c.in, err)
			}
			checkOnCurveInG2(t, s)
			if b := s.Bytes(); !bytes.Equal(b[:], c.in) {
				t.Errorf("Bytes() = %x, want %x", b, c.in)
			}
		})
	}
}

// checkSetFailed checks a failed Set call: err wraps want, nothing was
// returned and the receiver s kept its value prev.
func checkSetFailed(t *testing.T, name string, err, want error, got, s, prev *Signature) {
	t.Helper()
	checkErr(t, err, want)
	if got != nil {
		t.Errorf("%s returned non-nil with an error", name)
	}
	if !s.Equal(prev) {
		t.Errorf("%s modified its receiver on error", name)
	}
}

func TestSignatureSetBytes(t *testing.T) {
	prev := Sign(interopKey(t, 1), []byte("previous"))
	for _, c := range signatureCases(t) {
		t.Run(c.name, func(t *testing.T) {
			// SetBytes
			s := *prev
			got, err := s.SetBytes(c.in)
			if c.want != nil {
				checkSetFailed(t, "SetBytes", err, c.want, got, &s, prev)
			} else {
				if err != nil || got != &s {
					t.Fatalf("SetBytes: %v, returned %p, want %p", err, got, &s)
				}
				checkOnCurveInG2(t, &s)
			}

			// SetBytesNoSubgroupCheck
			s = *prev
			got, err = s.SetBytesNoSubgroupCheck(c.in)
			if c.wantNoCheck != nil {
				checkSetFailed(t, "SetBytesNoSubgroupCheck", err, c.wantNoCheck, got, &s, prev)
				return
			}
			if err != nil || got != &s {
				t.Fatalf("SetBytesNoSubgroupCheck: %v", err)
			}
			if b := s.Bytes(); !bytes.Equal(b[:], c.in) {
				t.Errorf("Bytes() = %x, want %x", b, c.in)
			}
			if c.want == nil {
				checkOnCurveInG2(t, &s)
			} else {
				checkOnCurveNotInG2(t, &s)
			}
		})
	}
}

// TestErrorMessagesHavePrefix: every error of the package reads
// "attpool/crypto: ...", as the package's errors are documented to.
func TestErrorMessagesHavePrefix(t *testing.T) {
	valid := interopKey(t, 0).PublicKey().Bytes()
	errs := map[string]error{}
	_, errs["SecretKeyFromBytes length"] = SecretKeyFromBytes(nil)
	_, errs["SecretKeyFromBytes zero"] = SecretKeyFromBytes(make([]byte, 32))
	_, errs["GenerateSecretKey"] = GenerateSecretKey(bytes.NewReader(nil))
	_, errs["PublicKeyFromBytes length"] = PublicKeyFromBytes(nil)
	_, errs["PublicKeyFromBytes infinity"] = PublicKeyFromBytes(infinityBytes(48))
	_, errs["PublicKeyFromBytes encoding"] = PublicKeyFromBytes(make([]byte, 48))
	_, errs["SignatureFromBytes length"] = SignatureFromBytes(nil)
	_, errs["SignatureFromBytes encoding"] = SignatureFromBytes(make([]byte, 96))
	_, errs["SetBytesNoSubgroupCheck"] = new(Signature).SetBytesNoSubgroupCheck(nil)
	_, errs["AggregateSignatures"] = AggregateSignatures(nil)
	_, errs["AggregatePublicKeys"] = AggregatePublicKeys(nil)
	_, errs["EthAggregatePubkeys empty"] = EthAggregatePubkeys(nil)
	_, errs["EthAggregatePubkeys bad key"] = EthAggregatePubkeys([][]byte{valid[:], nil})
	for name, err := range errs {
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "attpool/crypto: ") {
			t.Errorf("%s: error %q does not start with \"attpool/crypto: \"", name, err)
		}
	}
}
