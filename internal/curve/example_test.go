package curve_test

import (
	"fmt"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// The building blocks: a pairing check e(pk, H(m)) * e(-g1, sig) == 1 done
// by hand, as the batch verifier does for many signatures at once.
func ExampleMillerLoop() {
	sk, _ := crypto.InteropSecretKey(1)
	msg := []byte("m")
	sig := crypto.Sign(sk, msg)

	g := curve.G1Generator()
	ng := g.Jacobian()
	negG1 := ng.Neg().Affine()
	f := curve.MillerLoop(
		[]curve.G1Affine{*blspoint.Key(sk.PublicKey()), negG1},
		[]curve.G2Affine{*blspoint.Message(crypto.HashMessage(msg)), *blspoint.Signature(sig)},
	)
	fmt.Println(f.FinalExpIsOne())
	// Output: true
}
