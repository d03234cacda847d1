package interop

import (
	"testing"

	"github.com/attpool/attpool/crypto"
)

// TestSecretKeys: key i is crypto.InteropSecretKey(i), whatever goroutine
// derived it.
func TestSecretKeys(t *testing.T) {
	sks, err := SecretKeys(9)
	if err != nil {
		t.Fatal(err)
	}
	if len(sks) != 9 {
		t.Fatalf("%d keys, want 9", len(sks))
	}
	for i, sk := range sks {
		want, err := crypto.InteropSecretKey(uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if sk.Bytes() != want.Bytes() {
			t.Errorf("key %d differs from InteropSecretKey(%d)", i, i)
		}
	}
}
