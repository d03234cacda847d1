// Package curvetest builds crafted points for attpool's tests: points of the
// G2 curve outside the subgroup G2, of a small prime order. The verifier's
// tests and the differential oracle's (a module of its own) share it, each
// drawing the random curve points it starts from in its own way.
package curvetest

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// CurveOrderG2 is the order h2*r of the G2 curve group: the cofactor h2 =
// 13^2 * 23^2 * 2713 * 11953 * 262069 * p448 times the group order r
// (RFC 9380, BLS12-381 G2).
var CurveOrderG2 = new(big.Int).Mul(
	hex("5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5"),
	hex("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"))

func hex(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("attpool/internal/curvetest: bad constant " + s)
	}
	return n
}

// LE returns k little-endian and its bit length: the scalar format of
// package curve.
func LE(k *big.Int) ([]byte, int) {
	b := k.Bytes()
	slices.Reverse(b)
	return b, k.BitLen()
}

// RandomCurvePoint returns a random point of the G2 curve, almost surely
// outside G2: random compressed encodings from random until one decodes
// (crypto's decoding without the subgroup check), or random's error.
func RandomCurvePoint(random io.Reader) (curve.G2, error) {
	for {
		var b [96]byte
		if _, err := io.ReadFull(random, b[:]); err != nil {
			return curve.G2{}, err
		}
		b[0] = 0x80 | (b[0] & 0x20) | (b[0] % 0x1a) // compressed, finite, x < p
		var s crypto.Signature
		if _, err := s.SetBytesNoSubgroupCheck(b[:]); err == nil {
			return blspoint.Signature(&s).Jacobian(), nil
		}
	}
}

// ErrNoPoint: twenty random curve points gave no point of the order asked.
var ErrNoPoint = errors.New("attpool/internal/curvetest: no point of that order found")

// SmallOrder returns a point of order exactly ell, a prime factor of the G2
// cofactor: Q from random (a random point of the G2 curve), T = (h2 r /
// ell^v) Q with ell^v the power of ell in h2 r, then multiplied by ell while
// the next multiple is not the identity. It retries while Q gives the
// identity, and fails if the point it finds is in G2.
func SmallOrder(random func() curve.G2, ell int64) (curve.G2, error) {
	L := big.NewInt(ell)
	k := new(big.Int).Set(CurveOrderG2)
	for new(big.Int).Mod(k, L).Sign() == 0 {
		k.Div(k, L)
	}
	kb, kbits := LE(k)
	lb, lbits := LE(L)
	for range 20 {
		T := random()
		if T.Mul(kb, kbits).IsInfinity() {
			continue
		}
		for next := T; !next.Mul(lb, lbits).IsInfinity(); {
			T = next
		}
		if a := T.Affine(); a.InG2() {
			return curve.G2{}, fmt.Errorf("%w: a point of order %d reported in G2", ErrNoPoint, ell)
		}
		return T, nil
	}
	return curve.G2{}, fmt.Errorf("%w: order %d", ErrNoPoint, ell)
}
