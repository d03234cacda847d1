package crypto

import (
	blst "github.com/supranational/blst/bindings/go"
)

// Sign signs msg with sk under [DST].
func Sign(sk *SecretKey, msg []byte) *Signature {
	s := new(Signature)
	s.a.p = *new(blst.P2Affine).Sign(&sk.s, msg, DST)
	return s
}

// Verify reports whether sig is pk's signature of msg: the specs' Verify,
// including the G2 subgroup check of sig (pk was validated when decoded).
// A nil argument gives false.
func Verify(pk *PublicKey, msg []byte, sig *Signature) bool {
	if pk == nil || sig == nil {
		return false
	}
	return sig.a.p.Verify(true, &pk.a.p, false, msg, DST)
}

// AggregateVerify reports whether sig is the aggregate of the signatures of
// pks[i] over msgs[i]. Empty or mismatched inputs give false.
func AggregateVerify(pks []*PublicKey, msgs [][]byte, sig *Signature) bool {
	if len(pks) == 0 || len(pks) != len(msgs) || sig == nil || hasNil(pks) {
		return false
	}
	ps := make([]*blst.P1Affine, len(pks))
	for i, pk := range pks {
		ps[i] = &pk.a.p
	}
	ms := make([]blst.Message, len(msgs))
	copy(ms, msgs)
	return sig.a.p.AggregateVerify(true, ps, false, ms, DST)
}

// FastAggregateVerify reports whether sig is the aggregate of the signatures
// of every key in pks over one msg. No keys give false.
func FastAggregateVerify(pks []*PublicKey, msg []byte, sig *Signature) bool {
	if len(pks) == 0 || sig == nil || hasNil(pks) {
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

func hasNil(pks []*PublicKey) bool {
	for _, pk := range pks {
		if pk == nil {
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
	pts := make([]*G2Affine, len(sigs))
	for i, s := range sigs {
		if s == nil {
			return nil, wrapf(ErrInvalidEncoding, "aggregating signatures: nil signature %d", i)
		}
		pts[i] = &s.a
	}
	sum := SumG2(pts)
	return &Signature{a: sum.Affine()}, nil
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
	return &PublicKey{a: sum.Affine()}, nil
}

func sumKeys(pks []*PublicKey) (G1, error) {
	if len(pks) == 0 {
		return G1{}, wrapf(ErrEmpty, "aggregating public keys")
	}
	pts := make([]*G1Affine, len(pks))
	for i, pk := range pks {
		if pk == nil {
			return G1{}, wrapf(ErrInvalidEncoding, "aggregating public keys: nil key %d", i)
		}
		pts[i] = &pk.a
	}
	return SumG1(pts), nil
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
	copy(out[:], a.p.Compress())
	return out, nil
}
