package pooltest

import (
	"math/big"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// fixedBase multiplies one G2 point by many scalars: a table of d*256^w*h
// for every byte position w and byte value d, so that k*h is the sum of one
// table point per byte of k (32 additions instead of a 255-bit
// multiplication; about 2.4 MB). Not constant time: for simulated keys only.
type fixedBase struct {
	table [32][256]curve.G2
}

// messageBase is the fixedBase of the hash to G2 of the 32-byte message
// root (a signing root): its multiples are signatures of root.
func messageBase(root [32]byte) *fixedBase {
	return newFixedBase(blspoint.Message(crypto.HashMessage(root[:])))
}

func newFixedBase(h *curve.G2Affine) *fixedBase {
	fb := new(fixedBase)
	base := h.Jacobian()
	for w := range fb.table {
		row := &fb.table[w]
		row[1] = base
		for d := 2; d < 256; d++ {
			row[d] = row[d-1]
			row[d].Add(&base)
		}
		base = row[255]
		base.Add(&row[1]) // 256 * 256^w * h
	}
	return fb
}

// mul returns the compressed k*h for a big-endian scalar k.
func (fb *fixedBase) mul(be [32]byte) [96]byte {
	acc := curve.G2Infinity()
	for w := range fb.table {
		if d := be[31-w]; d != 0 {
			acc.Add(&fb.table[w][d])
		}
	}
	a := acc.Affine()
	return a.Bytes()
}

// curveOrder is r, the order of the BLS12-381 groups.
var curveOrder, _ = new(big.Int).SetString("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16)

func skInt(sk *crypto.SecretKey) *big.Int {
	b := sk.Bytes()
	return new(big.Int).SetBytes(b[:])
}

// mulInt returns the compressed k*h, k reduced modulo r: the signature
// under secret key k of the message whose hash to G2 is h.
func (fb *fixedBase) mulInt(k *big.Int) [96]byte {
	var be [32]byte
	new(big.Int).Mod(k, curveOrder).FillBytes(be[:])
	return fb.mul(be)
}
