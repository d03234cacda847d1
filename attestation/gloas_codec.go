package attestation

import (
	"fmt"

	ssz "github.com/ferranbt/fastssz"
)

// Hand-written SSZ methods of the Gloas PayloadAttestationData and
// PayloadAttestation. They delegate the encoding to the code generated for
// the shapes in shapes.go and add what that code lacks:
//
//   - PayloadAttestationData.UnmarshalSSZ rejects a boolean byte other than
//     0 or 1 (the generated code decodes it as false, so the value would not
//     re-encode to the same bytes); PayloadAttestationMessage and
//     PayloadAttestation decode their Data through it;
//   - PayloadAttestation hashes as the progressive container (EIP-7495) the
//     specs declare, which sszgen does not know;
//   - PayloadAttestation decodes into a fresh value (the generated code
//     appends to an existing bitvector) and leaves the receiver unchanged on
//     error, and rejects AggregationBits of a length other than 64 bytes
//     with ErrInvalidAggregationBits.

const payloadAttestationDataSize = 42

// MarshalSSZ returns the SSZ encoding of d.
func (d *PayloadAttestationData) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(d)
}

// MarshalSSZTo appends the SSZ encoding of d to buf.
func (d *PayloadAttestationData) MarshalSSZTo(buf []byte) ([]byte, error) {
	return (*payloadAttestationDataShape)(d).MarshalSSZTo(buf)
}

// UnmarshalSSZ sets d to the value encoded in buf. On error d is unchanged.
func (d *PayloadAttestationData) UnmarshalSSZ(buf []byte) error {
	if len(buf) != payloadAttestationDataSize {
		return ssz.ErrSize
	}
	for _, b := range buf[40:42] {
		if b > 1 {
			return fmt.Errorf("%w: boolean byte %#x", ErrInvalidBoolean, b)
		}
	}
	return (*payloadAttestationDataShape)(d).UnmarshalSSZ(buf)
}

// SizeSSZ returns the size of the SSZ encoding of d (42 bytes).
func (d *PayloadAttestationData) SizeSSZ() int {
	return payloadAttestationDataSize
}

// HashTreeRoot returns the SSZ hash tree root of d, the root that PTC
// members sign (with the DOMAIN_PTC_ATTESTER domain).
func (d *PayloadAttestationData) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(d)
}

// HashTreeRootWith hashes d with hh.
func (d *PayloadAttestationData) HashTreeRootWith(hh ssz.HashWalker) error {
	return (*payloadAttestationDataShape)(d).HashTreeRootWith(hh)
}

// GetTree returns the SSZ Merkle tree of d.
func (d *PayloadAttestationData) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(d)
}

// validate reports whether a can be encoded and hashed.
func (a *PayloadAttestation) validate() error {
	if a == nil {
		return ErrNilAttestation
	}
	if n := len(a.AggregationBits); n != PTCSize/8 {
		return fmt.Errorf("%w: %d bytes, want %d", ErrInvalidAggregationBits, n, PTCSize/8)
	}
	return nil
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *PayloadAttestation) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *PayloadAttestation) MarshalSSZTo(buf []byte) ([]byte, error) {
	if err := a.validate(); err != nil {
		return buf, err
	}
	return (*payloadAttestationShape)(a).MarshalSSZTo(buf)
}

// UnmarshalSSZ sets a to the value encoded in buf. On error a is unchanged.
func (a *PayloadAttestation) UnmarshalSSZ(buf []byte) error {
	var v payloadAttestationShape
	if err := v.UnmarshalSSZ(buf); err != nil {
		return err
	}
	*a = PayloadAttestation(v)
	return nil
}

// SizeSSZ returns the size of the SSZ encoding of a (202 bytes); 0 for a
// nil a.
func (a *PayloadAttestation) SizeSSZ() int {
	if a == nil {
		return 0
	}
	return (*payloadAttestationShape)(a).SizeSSZ()
}

// HashTreeRoot returns the SSZ hash tree root of a.
func (a *PayloadAttestation) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// payloadAttestationActiveFields is pack_bits(active_fields) of
// PayloadAttestation, whose active_fields are [1, 1, 1].
const payloadAttestationActiveFields = 0b111

// HashTreeRootWith hashes a with hh as the specs' progressive container
// with active_fields [1, 1, 1]:
//
//	mix_in_active_fields(merkleize_progressive([r0, r1, r2]), [1, 1, 1])
//	  = hash(hash(r0, hash(merkleize([r1, r2], 4), Bytes32())), pack_bits([1, 1, 1]))
//
// where r0, r1 and r2 are the roots of AggregationBits, Data and Signature.
func (a *PayloadAttestation) HashTreeRootWith(hh ssz.HashWalker) error {
	if err := a.validate(); err != nil {
		return err
	}
	data := a.Data
	if data == nil {
		data = new(PayloadAttestationData)
	}
	var zero [32]byte
	top := hh.Index()
	hh.PutBytes(a.AggregationBits) // r0: the first subtree holds one leaf
	rest := hh.Index()
	second := hh.Index()
	if err := data.HashTreeRootWith(hh); err != nil {
		return err
	}
	hh.PutBytes(a.Signature[:])
	hh.AppendBytes32(zero[:]) // the second subtree holds 4 leaves
	hh.AppendBytes32(zero[:])
	hh.Merkleize(second)
	hh.AppendBytes32(zero[:]) // merkleize_progressive of no more chunks
	hh.Merkleize(rest)
	hh.Merkleize(top)
	hh.PutUint64(payloadAttestationActiveFields)
	hh.Merkleize(top)
	return nil
}

// GetTree returns the SSZ Merkle tree of a.
func (a *PayloadAttestation) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}
