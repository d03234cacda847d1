package crypto

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math/big"

	"github.com/attpool/attpool/internal/curve"
	blst "github.com/supranational/blst/bindings/go"
)

// Sizes of the encodings, in bytes.
const (
	SecretKeySize = 32
	PublicKeySize = 48
	SignatureSize = 96
)

// dst is the hash-to-curve domain separation tag of Ethereum's BLS signatures
// (the proof-of-possession ciphersuite of the IETF BLS draft, min-pk).
const dst = curve.SignatureDST

// curveOrder is r, the order of G1, G2 and GT.
var curveOrder, _ = new(big.Int).SetString("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16)

// SecretKey is a BLS secret key: a scalar in [1, r). The zero value is the
// scalar 0, not a valid key: its public key is the point at infinity, which
// KeyValidate rejects, and what it signs is the infinity signature, which
// no valid key verifies. Make keys with [SecretKeyFromBytes],
// [GenerateSecretKey] or [InteropSecretKey].
type SecretKey struct {
	s blst.SecretKey
}

// SecretKeyFromBytes decodes a 32-byte big-endian scalar in [1, r).
func SecretKeyFromBytes(b []byte) (*SecretKey, error) {
	if len(b) != SecretKeySize {
		return nil, wrapf(ErrInvalidLength, "secret key of %d bytes", len(b))
	}
	sk := new(SecretKey)
	if sk.s.Deserialize(b) == nil || !sk.s.Valid() {
		return nil, ErrInvalidSecretKey
	}
	return sk, nil
}

// GenerateSecretKey draws a key from 32 bytes of rand (use crypto/rand.Reader).
func GenerateSecretKey(rand io.Reader) (*SecretKey, error) {
	var ikm [32]byte
	if _, err := io.ReadFull(rand, ikm[:]); err != nil {
		return nil, fmt.Errorf("attpool/crypto: reading key material: %w", err)
	}
	s := blst.KeyGen(ikm[:])
	if s == nil {
		return nil, ErrInvalidSecretKey
	}
	return &SecretKey{s: *s}, nil
}

// InteropSecretKey returns the deterministic key of validator index of the
// consensus specs' interop genesis (mocked_start): the little-endian integer
// of sha256(index as 32 little-endian bytes), reduced modulo r. The keys are
// public knowledge: use them only in tests, examples and simulations.
func InteropSecretKey(index uint64) (*SecretKey, error) {
	var in [32]byte
	binary.LittleEndian.PutUint64(in[:8], index)
	h := sha256.Sum256(in[:])
	// little-endian to big.Int
	for i, j := 0, len(h)-1; i < j; i, j = i+1, j-1 {
		h[i], h[j] = h[j], h[i]
	}
	k := new(big.Int).SetBytes(h[:])
	k.Mod(k, curveOrder)
	var be [32]byte
	k.FillBytes(be[:])
	return SecretKeyFromBytes(be[:])
}

// Bytes returns the 32-byte big-endian encoding.
func (sk *SecretKey) Bytes() [SecretKeySize]byte {
	var out [SecretKeySize]byte
	copy(out[:], sk.s.Serialize())
	return out
}

// PublicKey returns the key's public key.
func (sk *SecretKey) PublicKey() *PublicKey {
	pk := new(PublicKey)
	*pk.point().Blst() = *new(blst.P1Affine).From(&sk.s)
	return pk
}

// PublicKey is a BLS public key: a point of G1 that passed KeyValidate (on the
// curve, in G1, not the point at infinity). Values come from
// [PublicKeyFromBytes], [SecretKey.PublicKey] or [AggregatePublicKeys]. The
// zero value is the point at infinity, not a valid key: the verification
// and aggregation functions reject it as they reject nil. A PublicKey is
// immutable and safe for concurrent use.
type PublicKey curve.G1Affine

// PublicKey, Signature and HashedMessage are defined over the curve points
// of package internal/curve, so that the verifier and the pool reach a
// value's point by a type conversion, which the compiler checks and which
// costs nothing: (*curve.G1Affine)(pk). Package internal/blspoint names
// these conversions.

func (pk *PublicKey) point() *curve.G1Affine { return (*curve.G1Affine)(pk) }

// PublicKeyFromBytes decodes a 48-byte compressed G1 point and applies the
// specs' KeyValidate: the point must be on the curve, in G1 and not the point
// at infinity. Decompressing and validating costs about 50 µs: callers should
// cache the result per validator.
func PublicKeyFromBytes(b []byte) (*PublicKey, error) {
	if len(b) != PublicKeySize {
		return nil, wrapf(ErrInvalidLength, "public key of %d bytes", len(b))
	}
	var in [PublicKeySize]byte
	copy(in[:], b)
	pk := new(PublicKey)
	if err := decodeErr(pk.point().SetCompressed(&in)); err != nil {
		return nil, wrapf(err, "public key")
	}
	if err := pk.keyValidate("public key"); err != nil {
		return nil, err
	}
	return pk, nil
}

// Bytes returns the 48-byte compressed encoding.
func (pk *PublicKey) Bytes() [PublicKeySize]byte {
	var out [PublicKeySize]byte
	copy(out[:], pk.point().Blst().Compress())
	return out
}

// Equal reports whether pk and q are the same key.
func (pk *PublicKey) Equal(q *PublicKey) bool { return pk.point().Blst().Equals(q.point().Blst()) }

// Signature is a BLS signature: a point on the G2 curve in affine form. A
// Signature from [SignatureFromBytes] or [Sign] is in G2; one from
// [Signature.SetBytesNoSubgroupCheck] is only known to be on the curve, and
// whoever decoded it must check the subgroup before trusting a verdict. The
// zero value is the point at infinity, the same value [SignatureFromBytes]
// decodes from the infinity encoding (0xc0 then zeros): a valid element of
// G2, the aggregate of no signatures.
type Signature curve.G2Affine

func (s *Signature) point() *curve.G2Affine { return (*curve.G2Affine)(s) }

// SignatureFromBytes decodes a 96-byte compressed G2 point and checks that it
// is on the curve and in G2 (the specs' signature_to_point with its subgroup
// check). The point at infinity is accepted: it is in G2.
func SignatureFromBytes(b []byte) (*Signature, error) {
	return new(Signature).SetBytes(b)
}

// SetBytes sets s to the decoded signature b, checked as in
// [SignatureFromBytes], and returns s. On error s is left unchanged.
func (s *Signature) SetBytes(b []byte) (*Signature, error) {
	var t Signature
	if _, err := t.SetBytesNoSubgroupCheck(b); err != nil {
		return nil, err
	}
	if !t.point().InG2() {
		return nil, wrapf(ErrNotInSubgroup, "signature")
	}
	*s = t
	return s, nil
}

// SetBytesNoSubgroupCheck sets s to the decoded signature b, checking only
// that it is a canonical encoding of a point on the curve, and returns s. It
// leaves the G2 subgroup check to the caller (the batch verifier checks many
// points at once). On error s is left unchanged.
func (s *Signature) SetBytesNoSubgroupCheck(b []byte) (*Signature, error) {
	if len(b) != SignatureSize {
		return nil, wrapf(ErrInvalidLength, "signature of %d bytes", len(b))
	}
	var in [SignatureSize]byte
	copy(in[:], b)
	var t curve.G2Affine
	if err := decodeErr(t.SetCompressed(&in)); err != nil {
		return nil, wrapf(err, "signature")
	}
	*s = Signature(t)
	return s, nil
}

// Bytes returns the 96-byte compressed encoding.
func (s *Signature) Bytes() [SignatureSize]byte {
	var out [SignatureSize]byte
	copy(out[:], s.point().Blst().Compress())
	return out
}

// Equal reports whether s and t are the same point.
func (s *Signature) Equal(t *Signature) bool { return s.point().Equal(t.point()) }

// InG2 reports whether s is in the prime-order subgroup G2.
func (s *Signature) InG2() bool { return s.point().InG2() }

// IsInfinity reports whether s is the point at infinity.
func (s *Signature) IsInfinity() bool { return s.point().IsInfinity() }
