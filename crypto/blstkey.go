package crypto

import (
	blst "github.com/supranational/blst/bindings/go"
)

// PublicKeyFromBlst returns the public key of a point a Go client already
// holds decompressed, as blst's *P1Affine (the form Prysm and other Go
// clients cache per validator), without decompressing it again, so that a
// node keeps one key cache. It checks what KeyValidate (and
// [PublicKeyFromBytes]) check, trusting nothing of the caller's point: on
// the curve (a round trip through the 96-byte uncompressed encoding, which
// blst checks without a square root), not the point at infinity, and in G1
// (the subgroup check, most of the cost: BenchmarkPublicKeyFromBlst
// measured about 0.6 times PublicKeyFromBytes, which also pays the
// square root). The point is copied: the caller may reuse p.
func PublicKeyFromBlst(p *blst.P1Affine) (*PublicKey, error) {
	if p == nil {
		return nil, wrapf(ErrInvalidEncoding, "nil blst public key")
	}
	pk := new(PublicKey)
	if pk.point().Blst().Deserialize(p.Serialize()) == nil {
		return nil, wrapf(ErrNotOnCurve, "blst public key")
	}
	if err := pk.keyValidate("blst public key"); err != nil {
		return nil, err
	}
	return pk, nil
}

// keyValidate is what KeyValidate checks of a point on the curve: not the
// point at infinity, in G1.
func (pk *PublicKey) keyValidate(what string) error {
	if pk.point().IsInfinity() {
		return wrapf(ErrInfinity, "%s", what)
	}
	if !pk.point().InG1() {
		return wrapf(ErrNotInSubgroup, "%s", what)
	}
	return nil
}
