package crypto

import (
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

func BenchmarkCrypto(b *testing.B) {
	sk := interopKey(b, 0)
	pk := sk.PublicKey()
	msg := []byte("benchmark message, 32 bytes....")
	sig := Sign(sk, msg)
	sigBytes := sig.Bytes()
	pkBytes := pk.Bytes()

	b.Run("PublicKeyFromBytes", func(b *testing.B) {
		for b.Loop() {
			if _, err := PublicKeyFromBytes(pkBytes[:]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Decompress", func(b *testing.B) { // no subgroup check
		var s Signature
		for b.Loop() {
			if _, err := s.SetBytesNoSubgroupCheck(sigBytes[:]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("SignatureFromBytes", func(b *testing.B) { // with the subgroup check
		for b.Loop() {
			if _, err := SignatureFromBytes(sigBytes[:]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("InG2", func(b *testing.B) {
		for b.Loop() {
			if !sig.InG2() {
				b.Fatal("not in G2")
			}
		}
	})
	b.Run("Sign", func(b *testing.B) {
		for b.Loop() {
			Sign(sk, msg)
		}
	})
	b.Run("Verify", func(b *testing.B) {
		for b.Loop() {
			if !Verify(pk, msg, sig) {
				b.Fatal("rejected")
			}
		}
	})
	b.Run("HashToG2", func(b *testing.B) {
		for b.Loop() {
			curve.HashToG2(msg, []byte(dst))
		}
	})
}
