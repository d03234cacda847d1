package signtest

import (
	"testing"

	"github.com/attpool/attpool/crypto"
)

// TestSignMatchesCrypto: Sign gives crypto.Sign's signature, for a root
// hashed before and for one that is not, and Hashed keeps one hash a root.
func TestSignMatchesCrypto(t *testing.T) {
	sk, err := crypto.InteropSecretKey(3)
	if err != nil {
		t.Fatal(err)
	}
	for i, root := range [][32]byte{{1}, {2}, {1}} {
		if got, want := Sign(sk, root), crypto.Sign(sk, root[:]).Bytes(); got != want {
			t.Fatalf("root %d: Sign differs from crypto.Sign", i)
		}
	}
	if Hashed([32]byte{1}) != Hashed([32]byte{1}) {
		t.Fatal("a root hashed twice")
	}
}
