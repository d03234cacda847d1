package crypto

import (
	"math/big"
	"testing"
	"unsafe"

	blst "github.com/supranational/blst/bindings/go"
)

// TestPublicKeyFromBlst: a client's decompressed key becomes the same
// PublicKey as its bytes give, verifies signatures, and every point
// KeyValidate refuses is refused with the same error.
func TestPublicKeyFromBlst(t *testing.T) {
	sk := interopKey(t, 7)
	want := sk.PublicKey()
	enc := want.Bytes()
	p := new(blst.P1Affine).Uncompress(enc[:])
	if p == nil {
		t.Fatal("blst cannot decompress the key")
	}
	pk, err := PublicKeyFromBlst(p)
	if err != nil {
		t.Fatal(err)
	}
	if !pk.Equal(want) || pk.Bytes() != enc {
		t.Fatal("the adapted key differs from the decoded one")
	}
	msg := []byte("attestation")
	if !Verify(pk, msg, Sign(sk, msg)) {
		t.Fatal("the adapted key does not verify its signature")
	}
	*p = blst.P1Affine{} // the copy does not alias p
	if !pk.Equal(want) {
		t.Fatal("the adapted key aliases the caller's point")
	}
	checkPublicKey(t, pk)

	// The point at infinity (blst's zero value).
	_, err = PublicKeyFromBlst(new(blst.P1Affine))
	checkErr(t, err, ErrInfinity)
	_, err = PublicKeyFromBlst(nil)
	checkErr(t, err, ErrInvalidEncoding)

	// On the curve, outside G1.
	checkErr(t, adaptNotInG1(t), ErrNotInSubgroup)

	// Off the curve: a valid point with one bit of its y coordinate flipped
	// in memory (what only unsafe code or a corrupted cache could hold).
	bad := *new(blst.P1Affine).Uncompress(enc[:])
	raw := (*[96]byte)(unsafe.Pointer(&bad))
	raw[48] ^= 1
	_, err = PublicKeyFromBlst(&bad)
	checkErr(t, err, ErrNotOnCurve)
}

// adaptNotInG1 adapts a curve point outside G1 (decompressed by blst, which
// does not check the subgroup) and returns the error.
func adaptNotInG1(t *testing.T) error {
	rng := newRand(5)
	for range 200 {
		b := randBytes(rng, 48)
		b[0] = b[0]&0x1f | 0x80
		x := new(big.Int).SetBytes(withFlags(b, 0))
		rhs := new(big.Int).Exp(x, big.NewInt(3), fieldP)
		rhs.Add(rhs, big.NewInt(4))
		if big.Jacobi(rhs, fieldP) < 0 || x.Cmp(fieldP) >= 0 {
			continue
		}
		p := new(blst.P1Affine).Uncompress(b)
		if p == nil {
			t.Fatal("blst refuses a curve point")
		}
		_, err := PublicKeyFromBlst(p)
		return err
	}
	t.Fatal("no random x on the curve")
	return nil
}

// BenchmarkPublicKeyFromBlst against decoding the key's bytes.
func BenchmarkPublicKeyFromBlst(b *testing.B) {
	enc := interopKey(b, 7).PublicKey().Bytes()
	p := new(blst.P1Affine).Uncompress(enc[:])
	b.Run("from-blst", func(b *testing.B) {
		for b.Loop() {
			if _, err := PublicKeyFromBlst(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("from-bytes", func(b *testing.B) {
		for b.Loop() {
			if _, err := PublicKeyFromBytes(enc[:]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
