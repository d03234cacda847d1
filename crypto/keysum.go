package crypto

import "github.com/attpool/attpool/internal/curve"

// KeySum is a running sum of public keys, in Jacobian form: the key of an
// aggregate built from the key of another by adding and subtracting the
// members they differ by. Every term is a validated key, so the sum is in G1.
// The zero value is the empty sum. A KeySum is a value: copying it copies
// the sum.
type KeySum struct{ p curve.G1 }

// Add adds the keys, summed with batch-affine addition (one shared
// inversion). A nil or zero key is an error and leaves s unchanged.
func (s *KeySum) Add(pks []*PublicKey) error { return s.addSigned(pks, false) }

// Sub subtracts the keys, as Add adds them.
func (s *KeySum) Sub(pks []*PublicKey) error { return s.addSigned(pks, true) }

// addSigned adds the sum of pks, negated if neg.
func (s *KeySum) addSigned(pks []*PublicKey, neg bool) error {
	sum, err := sumKeysOrNone(pks)
	if err != nil {
		return err
	}
	if neg {
		sum.Neg()
	}
	s.p.Add(&sum)
	return nil
}

// PublicKey returns the sum as a key. The empty sum, or one at infinity, is
// an error wrapping ErrInfinity.
func (s *KeySum) PublicKey() (*PublicKey, error) {
	if s.p.IsInfinity() {
		return nil, wrapf(ErrInfinity, "sum of public keys")
	}
	a := s.p.Affine()
	return (*PublicKey)(&a), nil
}

// sumKeysOrNone is sumKeys where no keys sum to the identity.
func sumKeysOrNone(pks []*PublicKey) (curve.G1, error) {
	if len(pks) == 0 {
		return curve.G1Infinity(), nil
	}
	return sumKeys(pks)
}
