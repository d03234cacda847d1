package crypto

import (
	"github.com/attpool/attpool/internal/curve"
	blst "github.com/supranational/blst/bindings/go"
)

// Sign signs msg with sk under the ciphersuite's domain tag
// (BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_).
func Sign(sk *SecretKey, msg []byte) *Signature {
	s := new(Signature)
	*(*curve.G2Affine)(s).Blst() = *new(blst.P2Affine).Sign(&sk.s, msg, []byte(dst))
	return s
}

// Verify reports whether sig is pk's signature of msg: the specs' Verify,
// including the G2 subgroup check of sig (pk was validated when decoded).
// A nil argument or the zero PublicKey gives false.
func Verify(pk *PublicKey, msg []byte, sig *Signature) bool {
	if !validKey(pk) || sig == nil {
		return false
	}
	return sig.point().Blst().Verify(true, pk.point().Blst(), false, msg, []byte(dst))
}

// AggregateVerify reports whether sig is the aggregate of the signatures of
// pks[i] over msgs[i]. Empty or mismatched inputs give false.
func AggregateVerify(pks []*PublicKey, msgs [][]byte, sig *Signature) bool {
	if len(pks) == 0 || len(pks) != len(msgs) || sig == nil || hasInvalid(pks) {
		return false
	}
	ps := make([]*blst.P1Affine, len(pks))
	for i, pk := range pks {
		ps[i] = pk.point().Blst()
	}
	ms := make([]blst.Message, len(msgs))
	copy(ms, msgs)
	return sig.point().Blst().AggregateVerify(true, ps, false, ms, []byte(dst))
}

// FastAggregateVerify reports whether sig is the aggregate of the signatures
// of every key in pks over one msg. No keys give false.
func FastAggregateVerify(pks []*PublicKey, msg []byte, sig *Signature) bool {
	if len(pks) == 0 || sig == nil || hasInvalid(pks) {
		return false
	}
	agg, err := AggregatePublicKeys(pks)
	if err != nil {
		return false
	}
	return Verify(agg, msg, sig)
}

// EthFastAggregateVerify is the consensus specs' eth_fast_aggregate_verify:
// [FastAggregateVerify], except that no keys with the infinity signature is
// valid.
func EthFastAggregateVerify(pks []*PublicKey, msg []byte, sig *Signature) bool {
	if len(pks) == 0 && sig != nil && sig.IsInfinity() {
		return true
	}
	return FastAggregateVerify(pks, msg, sig)
}

// validKey reports whether pk is a key: not nil, not the zero value (the
// point at infinity, which no decoder returns).
func validKey(pk *PublicKey) bool { return pk != nil && !pk.point().IsInfinity() }

// hasInvalid reports whether a key of pks is not [validKey].
func hasInvalid(pks []*PublicKey) bool {
	for _, pk := range pks {
		if !validKey(pk) {
			return true
		}
	}
	return false
}

// AggregateSignatures returns the sum of the signatures. They must be in G2
// (as from [SignatureFromBytes]); none is an error.
func AggregateSignatures(sigs []*Signature) (*Signature, error) {
	if len(sigs) == 0 {
		return nil, wrapf(ErrEmpty, "aggregating signatures")
	}
	pts := make([]*curve.G2Affine, len(sigs))
	for i, s := range sigs {
		if s == nil {
			return nil, wrapf(ErrInvalidEncoding, "aggregating signatures: nil signature %d", i)
		}
		pts[i] = s.point()
	}
	sum := curve.SumG2(pts)
	a := sum.Affine()
	return (*Signature)(&a), nil
}

// AggregatePublicKeys returns the sum of the keys: the key that verifies
// signatures aggregated over one message. None, or a sum at infinity, is an
// error.
func AggregatePublicKeys(pks []*PublicKey) (*PublicKey, error) {
	sum, err := sumKeys(pks)
	if err != nil {
		return nil, err
	}
	if sum.IsInfinity() {
		return nil, wrapf(ErrInfinity, "aggregating public keys")
	}
	a := sum.Affine()
	return (*PublicKey)(&a), nil
}

func sumKeys(pks []*PublicKey) (curve.G1, error) {
	if len(pks) == 0 {
		return curve.G1{}, wrapf(ErrEmpty, "aggregating public keys")
	}
	pts := make([]*curve.G1Affine, len(pks))
	for i, pk := range pks {
		if !validKey(pk) {
			return curve.G1{}, wrapf(ErrInvalidEncoding, "aggregating public keys: nil or zero key %d", i)
		}
		pts[i] = pk.point()
	}
	return curve.SumG1(pts), nil
}

// EthAggregatePubkeys is the consensus specs' eth_aggregate_pubkeys over
// encoded keys: each must pass KeyValidate, and there must be at least one.
// It returns the compressed sum.
func EthAggregatePubkeys(encoded [][]byte) ([PublicKeySize]byte, error) {
	var out [PublicKeySize]byte
	pks := make([]*PublicKey, len(encoded))
	for i, b := range encoded {
		pk, err := PublicKeyFromBytes(b)
		if err != nil {
			return out, wrapf(err, "key %d", i)
		}
		pks[i] = pk
	}
	sum, err := sumKeys(pks)
	if err != nil {
		return out, err
	}
	a := sum.Affine()
	copy(out[:], a.Blst().Compress())
	return out, nil
}
