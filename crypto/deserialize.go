package crypto

import "github.com/attpool/attpool/internal/curve"

// The specs' deserialization of points, as the bls12-381-tests
// deserialization_G1 and deserialization_G2 handlers define it (py_ecc's
// pubkey_to_G1 and signature_to_G2 with the subgroup check): a canonical
// compressed encoding (c flag set; b flag only with every other bit zero; x
// below the field modulus) of a point on the curve and in the prime-order
// subgroup. The point at infinity is a valid point of both groups. This
// differs from the specs' KeyValidate, which [PublicKeyFromBytes] applies:
// KeyValidate also rejects the point at infinity, so a key that is infinity
// deserializes but is not a valid public key.

// DeserializeG1 reports whether b, 48 bytes, is a compressed G1 point as
// the specs' deserialization requires: canonical, on the curve and in G1,
// the point at infinity included. Errors wrap ErrInvalidLength,
// ErrInvalidEncoding, ErrNotOnCurve or ErrNotInSubgroup.
func DeserializeG1(b []byte) error {
	_, err := deserializeG1(b)
	return err
}

// DeserializeG2 reports whether b, 96 bytes, is a compressed G2 point as the
// specs' deserialization requires: canonical, on the curve and in G2, the
// point at infinity included (as [SignatureFromBytes] does). Errors wrap
// ErrInvalidLength, ErrInvalidEncoding, ErrNotOnCurve or ErrNotInSubgroup.
func DeserializeG2(b []byte) error {
	_, err := deserializeG2(b)
	return err
}

// deserializeG1 is [DeserializeG1] with the decoded point.
func deserializeG1(b []byte) (curve.G1Affine, error) {
	var p curve.G1Affine
	decode := func(b []byte) curve.DecodeResult { return p.SetCompressed((*[PublicKeySize]byte)(b)) }
	return deserialize(b, PublicKeySize, "G1 point", &p, decode, p.InG1, p.IsInfinity)
}

// deserializeG2 is [DeserializeG2] with the decoded point.
func deserializeG2(b []byte) (curve.G2Affine, error) {
	var p curve.G2Affine
	decode := func(b []byte) curve.DecodeResult { return p.SetCompressed((*[SignatureSize]byte)(b)) }
	return deserialize(b, SignatureSize, "G2 point", &p, decode, p.InG2, p.IsInfinity)
}

// deserialize checks b's size, decodes it into *p and checks the subgroup
// of the point decoded, unless it is the point at infinity. On error it
// returns the zero point.
func deserialize[A any](b []byte, size int, what string, p *A, decode func([]byte) curve.DecodeResult, inGroup, isInfinity func() bool) (A, error) {
	var zero A
	if len(b) != size {
		return zero, wrapf(ErrInvalidLength, "%s of %d bytes", what, len(b))
	}
	if err := decodeErr(decode(b)); err != nil {
		return zero, wrapf(err, "%s", what)
	}
	if !isInfinity() && !inGroup() {
		return zero, wrapf(ErrNotInSubgroup, "%s", what)
	}
	return *p, nil
}
