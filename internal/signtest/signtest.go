// Package signtest signs many test messages fast, for attpool's tests: each
// signing root is hashed to G2 once per process and kept (a test binary
// signs a few hundred roots at most), so a signature costs one
// multiplication instead of a hash and a multiplication. The signatures are
// those crypto.Sign returns.
package signtest

import (
	"sync"

	"github.com/attpool/attpool/crypto"
)

var hashes sync.Map // [32]byte -> *crypto.HashedMessage

// Hashed returns root hashed to G2 as crypto.Sign hashes it, hashing each
// root once per process. It is safe for concurrent use.
func Hashed(root [32]byte) *crypto.HashedMessage {
	if h, ok := hashes.Load(root); ok {
		return h.(*crypto.HashedMessage)
	}
	h, _ := hashes.LoadOrStore(root, crypto.HashMessage(root[:]))
	return h.(*crypto.HashedMessage)
}

// Sign returns sk's signature of root: crypto.Sign(sk, root[:]).Bytes().
func Sign(sk *crypto.SecretKey, root [32]byte) [96]byte {
	return Hashed(root).Sign(sk).Bytes()
}
