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

	pts512 := ptrs(g2Points(512, 40))
	b.Run("SumG2/n=512", func(b *testing.B) {
		for b.Loop() {
			curve.SumG2(pts512)
		}
	})
	b.Run("Mul13Add", func(b *testing.B) {
		acc, h := pts512[0].Jacobian(), pts512[1].Jacobian()
		for b.Loop() {
			acc.Mul13Add(&h)
		}
	})

	rng := newRand(41)
	for _, n := range []int{64, 512} {
		g1 := ptrs(g1Points(n, 42))
		g2 := pts512[:n]
		sc := scalars64(rng, n)
		b.Run("MultiExpG1/64bit/n="+itoa(n), func(b *testing.B) {
			for b.Loop() {
				curve.MultiExpG1(g1, sc, 64)
			}
		})
		b.Run("MultiExpG2/64bit/n="+itoa(n), func(b *testing.B) {
			for b.Loop() {
				curve.MultiExpG2(g2, sc, 64)
			}
		})
	}

	g := curve.G1Generator()
	ng := g.Jacobian()
	negG := ng.Neg().Affine()
	h := curve.HashToG2(msg, []byte(dst))
	ps := []curve.G1Affine{*pk.point(), negG}
	qs := []curve.G2Affine{h, *sig.point()}
	b.Run("MillerLoop/pairs=2", func(b *testing.B) {
		for b.Loop() {
			curve.MillerLoop(ps, qs)
		}
	})
	b.Run("FinalExpIsOne", func(b *testing.B) {
		f := curve.MillerLoop(ps, qs)
		for b.Loop() {
			if !f.FinalExpIsOne() {
				b.Fatal("not one")
			}
		}
	})
	b.Run("BatchAffineG1/n=512", func(b *testing.B) {
		js := make([]curve.G1, 512)
		for i, p := range g1Points(512, 43) {
			js[i] = p.Jacobian()
			js[i].Add(&js[i])
		}
		for b.Loop() {
			curve.BatchAffineG1(js)
		}
	})
}
