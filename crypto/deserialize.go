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
	if len(b) != PublicKeySize {
		return curve.G1Affine{}, wrapf(ErrInvalidLength, "G1 point of %d bytes", len(b))
	}
	var in [PublicKeySize]byte
	copy(in[:], b)
	var p curve.G1Affine
	if err := decodeErr(p.SetCompressed(&in)); err != nil {
		return curve.G1Affine{}, wrapf(err, "G1 point")
	}
	if !p.IsInfinity() && !p.InG1() {
		return curve.G1Affine{}, wrapf(ErrNotInSubgroup, "G1 point")
	}
	return p, nil
}

// deserializeG2 is [DeserializeG2] with the decoded point.
func deserializeG2(b []byte) (curve.G2Affine, error) {
	if len(b) != SignatureSize {
		return curve.G2Affine{}, wrapf(ErrInvalidLength, "G2 point of %d bytes", len(b))
	}
	var in [SignatureSize]byte
	copy(in[:], b)
	var p curve.G2Affine
	if err := decodeErr(p.SetCompressed(&in)); err != nil {
		return curve.G2Affine{}, wrapf(err, "G2 point")
	}
	if !p.IsInfinity() && !p.InG2() {
		return curve.G2Affine{}, wrapf(ErrNotInSubgroup, "G2 point")
	}
	return p, nil
}
