package attestation

import (
	"fmt"

	ssz "github.com/ferranbt/fastssz"
	"github.com/prysmaticlabs/go-bitfield"
)

// Hand-written SSZ methods of Attestation, MinimalAttestation and
// Phase0Attestation. They delegate to the code generated for the shapes in
// shapes.go and add what that code lacks:
//
//   - UnmarshalSSZ decodes into a fresh value, so decoding into a value that
//     was used before gives the same result as decoding into a zero value
//     (the generated code appends to existing bitfields), and leaves the
//     receiver unchanged on error;
//   - MinimalAttestation.UnmarshalSSZ rejects committee bits 4..7 set;
//   - MarshalSSZTo, HashTreeRootWith and friends reject a nil receiver and
//     invalid bitfields with an error instead of producing a wrong encoding
//     or root (or panicking).

// Bitlist limits, in bits.
const (
	attestationBitsLimit        = MaxValidatorsPerCommittee * MaxCommitteesPerSlot
	minimalAttestationBitsLimit = MaxValidatorsPerCommittee * MinimalMaxCommitteesPerSlot
	phase0AttestationBitsLimit  = MaxValidatorsPerCommittee
)

func checkAggregationBits(b bitfield.Bitlist, limit uint64) error {
	if err := ssz.ValidateBitlist(b, limit); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidAggregationBits, err)
	}
	return nil
}

func checkCommitteeBits(b []byte, nbits int) error {
	nbytes := (nbits + 7) / 8
	if len(b) != nbytes {
		return fmt.Errorf("%w: %d bytes, want %d", ErrInvalidCommitteeBits, len(b), nbytes)
	}
	if r := nbits % 8; r != 0 && b[nbytes-1]>>r != 0 {
		return fmt.Errorf("%w: bits set past bit %d", ErrInvalidCommitteeBits, nbits)
	}
	return nil
}

// validate reports whether a can be encoded and hashed.
func (a *Attestation) validate() error {
	if a == nil {
		return ErrNilAttestation
	}
	if err := checkAggregationBits(a.AggregationBits, attestationBitsLimit); err != nil {
		return err
	}
	return checkCommitteeBits(a.CommitteeBits, MaxCommitteesPerSlot)
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *Attestation) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *Attestation) MarshalSSZTo(buf []byte) ([]byte, error) {
	if err := a.validate(); err != nil {
		return buf, err
	}
	return (*attestationShape)(a).MarshalSSZTo(buf)
}

// UnmarshalSSZ sets a to the value encoded in buf. On error a is unchanged.
func (a *Attestation) UnmarshalSSZ(buf []byte) error {
	var v attestationShape
	if err := v.UnmarshalSSZ(buf); err != nil {
		return err
	}
	*a = Attestation(v)
	return nil
}

// SizeSSZ returns the size of the SSZ encoding of a; 0 for a nil a.
func (a *Attestation) SizeSSZ() int {
	if a == nil {
		return 0
	}
	return (*attestationShape)(a).SizeSSZ()
}

// HashTreeRoot returns the SSZ hash tree root of a.
func (a *Attestation) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// HashTreeRootWith hashes a with hh.
func (a *Attestation) HashTreeRootWith(hh ssz.HashWalker) error {
	if err := a.validate(); err != nil {
		return err
	}
	return (*attestationShape)(a).HashTreeRootWith(hh)
}

// GetTree returns the SSZ Merkle tree of a.
func (a *Attestation) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}

// validate reports whether a can be encoded and hashed.
func (a *MinimalAttestation) validate() error {
	if a == nil {
		return ErrNilAttestation
	}
	if err := checkAggregationBits(a.AggregationBits, minimalAttestationBitsLimit); err != nil {
		return err
	}
	return checkCommitteeBits(a.CommitteeBits, MinimalMaxCommitteesPerSlot)
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *MinimalAttestation) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *MinimalAttestation) MarshalSSZTo(buf []byte) ([]byte, error) {
	if err := a.validate(); err != nil {
		return buf, err
	}
	return (*minimalAttestationShape)(a).MarshalSSZTo(buf)
}

// UnmarshalSSZ sets a to the value encoded in buf. Besides the encoding's
// structure it checks that bits 4..7 of CommitteeBits, past the end of the
// Bitvector[4], are zero. On error a is unchanged.
func (a *MinimalAttestation) UnmarshalSSZ(buf []byte) error {
	var v minimalAttestationShape
	if err := v.UnmarshalSSZ(buf); err != nil {
		return err
	}
	if err := checkCommitteeBits(v.CommitteeBits, MinimalMaxCommitteesPerSlot); err != nil {
		return err
	}
	*a = MinimalAttestation(v)
	return nil
}

// SizeSSZ returns the size of the SSZ encoding of a; 0 for a nil a.
func (a *MinimalAttestation) SizeSSZ() int {
	if a == nil {
		return 0
	}
	return (*minimalAttestationShape)(a).SizeSSZ()
}

// HashTreeRoot returns the SSZ hash tree root of a.
func (a *MinimalAttestation) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// HashTreeRootWith hashes a with hh.
func (a *MinimalAttestation) HashTreeRootWith(hh ssz.HashWalker) error {
	if err := a.validate(); err != nil {
		return err
	}
	return (*minimalAttestationShape)(a).HashTreeRootWith(hh)
}

// GetTree returns the SSZ Merkle tree of a.
func (a *MinimalAttestation) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}

// validate reports whether a can be encoded and hashed.
func (a *Phase0Attestation) validate() error {
	if a == nil {
		return ErrNilAttestation
	}
	return checkAggregationBits(a.AggregationBits, phase0AttestationBitsLimit)
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *Phase0Attestation) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *Phase0Attestation) MarshalSSZTo(buf []byte) ([]byte, error) {
	if err := a.validate(); err != nil {
		return buf, err
	}
	return (*phase0AttestationShape)(a).MarshalSSZTo(buf)
}

// UnmarshalSSZ sets a to the value encoded in buf. On error a is unchanged.
func (a *Phase0Attestation) UnmarshalSSZ(buf []byte) error {
	var v phase0AttestationShape
	if err := v.UnmarshalSSZ(buf); err != nil {
		return err
	}
	*a = Phase0Attestation(v)
	return nil
}

// SizeSSZ returns the size of the SSZ encoding of a; 0 for a nil a.
func (a *Phase0Attestation) SizeSSZ() int {
	if a == nil {
		return 0
	}
	return (*phase0AttestationShape)(a).SizeSSZ()
}

// HashTreeRoot returns the SSZ hash tree root of a.
func (a *Phase0Attestation) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// HashTreeRootWith hashes a with hh.
func (a *Phase0Attestation) HashTreeRootWith(hh ssz.HashWalker) error {
	if err := a.validate(); err != nil {
		return err
	}
	return (*phase0AttestationShape)(a).HashTreeRootWith(hh)
}

// GetTree returns the SSZ Merkle tree of a.
func (a *Phase0Attestation) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}
