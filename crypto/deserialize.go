package crypto

// The specs' deserialization of points, as the bls12-381-tests
// deserialization_G1 and deserialization_G2 handlers define it (py_ecc's
// pubkey_to_G1 and signature_to_G2 with the subgroup check): a canonical
// compressed encoding (c flag set; b flag only with every other bit zero; x
// below the field modulus) of a point on the curve and in the prime-order
// subgroup. The point at infinity is a valid point of both groups. This
// differs from the specs' KeyValidate, which [PublicKeyFromBytes] applies:
// KeyValidate also rejects the point at infinity, so a key that is infinity
// deserializes but is not a valid public key.

// DeserializeG1 decodes a 48-byte compressed G1 point as the specs'
// deserialization does: canonical, on the curve and in G1, the point at
// infinity included. Errors wrap ErrInvalidLength, ErrInvalidEncoding,
// ErrNotOnCurve or ErrNotInSubgroup.
func DeserializeG1(b []byte) (G1Affine, error) {
	if len(b) != PublicKeySize {
		return G1Affine{}, wrapf(ErrInvalidLength, "G1 point of %d bytes", len(b))
	}
	var in [PublicKeySize]byte
	copy(in[:], b)
	var p G1Affine
	if err := decodeErr(uncompressG1(&p.p, &in)); err != nil {
		return G1Affine{}, wrapf(err, "G1 point")
	}
	if !p1AffIsInf(&p.p) && !p.p.InG1() {
		return G1Affine{}, wrapf(ErrNotInSubgroup, "G1 point")
	}
	return p, nil
}

// DeserializeG2 decodes a 96-byte compressed G2 point as the specs'
// deserialization does: canonical, on the curve and in G2, the point at
// infinity included (as [SignatureFromBytes] does). Errors wrap
// ErrInvalidLength, ErrInvalidEncoding, ErrNotOnCurve or ErrNotInSubgroup.
func DeserializeG2(b []byte) (G2Affine, error) {
	if len(b) != SignatureSize {
		return G2Affine{}, wrapf(ErrInvalidLength, "G2 point of %d bytes", len(b))
	}
	var in [SignatureSize]byte
	copy(in[:], b)
	var p G2Affine
	if err := decodeErr(uncompressG2(&p.p, &in)); err != nil {
		return G2Affine{}, wrapf(err, "G2 point")
	}
	if !p2AffIsInf(&p.p) && !p.p.InG2() {
		return G2Affine{}, wrapf(ErrNotInSubgroup, "G2 point")
	}
	return p, nil
}
