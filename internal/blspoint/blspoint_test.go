package blspoint_test

import (
	"bytes"
	"testing"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
)

// TestPointsAreTheValuesPoints: the points read through a pointer to a key,
// a signature or a hashed message are theirs (same encodings), alias them,
// and NewSignature copies its point.
func TestPointsAreTheValuesPoints(t *testing.T) {
	sk, err := crypto.InteropSecretKey(5)
	if err != nil {
		t.Fatal(err)
	}
	pk := sk.PublicKey()
	msg := []byte("attpool")
	sig := crypto.Sign(sk, msg)

	if got, want := blspoint.Key(pk).Blst().Compress(), pk.Bytes(); !bytes.Equal(got, want[:]) {
		t.Errorf("Key: %x, want %x", got, want)
	}
	if got, want := blspoint.Signature(sig).Bytes(), sig.Bytes(); got != want {
		t.Errorf("Signature: %x, want %x", got, want)
	}
	if blspoint.Key(pk) != blspoint.Key(pk) || blspoint.Signature(sig) != blspoint.Signature(sig) {
		t.Error("the points do not alias their values")
	}
	// The key 1 signs a message to its hash.
	one, err := crypto.SecretKeyFromBytes(append(make([]byte, 31), 1))
	if err != nil {
		t.Fatal(err)
	}
	m := crypto.HashMessage(msg)
	if got, want := blspoint.Message(m).Bytes(), m.Sign(one).Bytes(); got != want {
		t.Errorf("Message: %x, want %x", got, want)
	}
	p := *blspoint.Signature(sig)
	s := blspoint.NewSignature(&p)
	if !s.Equal(sig) || blspoint.Signature(s) == &p {
		t.Error("NewSignature does not hold a copy of its point")
	}
	if blspoint.Key(nil) != nil {
		t.Error("Key(nil) is not nil")
	}
}
