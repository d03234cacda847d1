package crypto

import (
	"bytes"
	"errors"
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

// TestZeroValues: the zero values are what their documentation says. A zero
// PublicKey (the point at infinity, which no decoder returns) is rejected
// everywhere a nil key is; a zero Signature is the infinity signature; the
// zero SecretKey's key and signatures are rejected by every check.
func TestZeroValues(t *testing.T) {
	msg := []byte("zero")
	sk := interopKey(t, 1)
	pk := sk.PublicKey()
	sig := Sign(sk, msg)
	var zpk PublicKey

	if Verify(&zpk, msg, sig) {
		t.Error("Verify accepts the zero key")
	}
	if FastAggregateVerify([]*PublicKey{pk, &zpk}, msg, sig) {
		t.Error("FastAggregateVerify accepts a zero key beside a valid one (the sum is the valid key)")
	}
	if AggregateVerify([]*PublicKey{pk, &zpk}, [][]byte{msg, []byte("other")}, sig) {
		t.Error("AggregateVerify accepts a zero key")
	}
	if VerifyDistinctBatch([]*PublicKey{&zpk}, [][]byte{msg}, []*Signature{{}}) {
		t.Error("VerifyDistinctBatch accepts a zero key")
	}
	if _, err := AggregatePublicKeys([]*PublicKey{pk, &zpk}); !errors.Is(err, ErrInvalidEncoding) {
		t.Errorf("AggregatePublicKeys with a zero key: %v", err)
	}
	var ks KeySum
	if err := ks.Add([]*PublicKey{&zpk}); !errors.Is(err, ErrInvalidEncoding) {
		t.Errorf("KeySum.Add of a zero key: %v", err)
	}
	if _, err := ks.PublicKey(); !errors.Is(err, ErrInfinity) {
		t.Errorf("the zero KeySum's key: %v", err)
	}

	var zsig Signature
	inf, err := SignatureFromBytes(append([]byte{0xc0}, make([]byte, 95)...))
	if err != nil {
		t.Fatal(err)
	}
	if !zsig.Equal(inf) || !zsig.IsInfinity() || !zsig.InG2() {
		t.Error("the zero Signature is not the decoded infinity signature")
	}
	if b := zsig.Bytes(); b != inf.Bytes() {
		t.Errorf("the zero Signature encodes to %x", b)
	}
	if !EthFastAggregateVerify(nil, msg, &zsig) || Verify(pk, msg, &zsig) {
		t.Error("the zero Signature is not the infinity signature to the verifiers")
	}

	var zsk SecretKey
	if !zsk.PublicKey().point().IsInfinity() {
		t.Error("the zero SecretKey's public key is not the point at infinity")
	}
	if zs := Sign(&zsk, msg); !zs.IsInfinity() || Verify(zsk.PublicKey(), msg, zs) {
		t.Error("the zero SecretKey signs to something a verifier accepts")
	}
	if _, err := PublicKeyFromBytes(append([]byte{0xc0}, make([]byte, 47)...)); !errors.Is(err, ErrInfinity) {
		t.Errorf("the zero key's encoding decodes: %v", err)
	}

	var zh HashedMessage
	if s := zh.Sign(sk); !s.IsInfinity() {
		t.Error("the zero HashedMessage does not sign to infinity")
	}
}

// TestHashedMessageSignsAsSign: signing a message hashed once gives Sign's
// signature, for several keys and messages (the empty one included).
func TestHashedMessageSignsAsSign(t *testing.T) {
	for _, msg := range [][]byte{{}, []byte("m"), bytes.Repeat([]byte{0xab}, 32)} {
		h := HashMessage(msg)
		for i := range 4 {
			sk := interopKey(t, i)
			if got, want := h.Sign(sk), Sign(sk, msg); !got.Equal(want) {
				t.Fatalf("key %d, msg %x: HashedMessage.Sign %x, Sign %x", i, msg, got.Bytes(), want.Bytes())
			}
		}
		if want := curve.HashToG2(msg, []byte(dst)); !(*curve.G2Affine)(h).Equal(&want) {
			t.Fatalf("HashMessage(%x) is not the hash under the signatures' tag", msg)
		}
	}
}
