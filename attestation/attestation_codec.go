package attestation

import (
	"bytes"
	"fmt"

	ssz "github.com/ferranbt/fastssz"
	"github.com/prysmaticlabs/go-bitfield"
)

// The SSZ methods of Attestation, MinimalAttestation, Phase0Attestation and
// the Gloas GloasAttestation and MinimalGloasAttestation, one codec told the
// preset's limits and whether the container is progressive. Besides the
// encoding it checks:
//
//   - UnmarshalSSZ decodes into fresh values, so decoding into a value that
//     was used before gives the same result as decoding into a zero value,
//     and leaves the receiver unchanged on error;
//   - MinimalAttestation.UnmarshalSSZ rejects committee bits 4..7 set;
//   - MarshalSSZTo, HashTreeRootWith and friends reject a nil receiver and
//     invalid bitfields with an error instead of producing a wrong encoding
//     or root (or panicking).

// attestationPreset is what the presets' and forks' Attestation containers
// differ in.
type attestationPreset struct {
	bitsLimit  uint64 // the AggregationBits limit, in bits; 0: none (a ProgressiveBitList)
	committees int    // the CommitteeBits length, in bits; 0: no such field (phase0)
}

var (
	mainnetAttestation      = attestationPreset{MaxValidatorsPerCommittee * MaxCommitteesPerSlot, MaxCommitteesPerSlot}
	minimalAttestation      = attestationPreset{MaxValidatorsPerCommittee * MinimalMaxCommitteesPerSlot, MinimalMaxCommitteesPerSlot}
	phase0Attestation       = attestationPreset{MaxValidatorsPerCommittee, 0}
	gloasAttestation        = attestationPreset{0, MaxCommitteesPerSlot}
	minimalGloasAttestation = attestationPreset{0, MinimalMaxCommitteesPerSlot}
)

// progressive reports whether the container is the Gloas one:
// ProgressiveContainer(active_fields=[1] * 4) with a ProgressiveBitList.
func (p attestationPreset) progressive() bool { return p.bitsLimit == 0 }

// fixedSize is the size of the fixed part of the encoding: the offset of
// AggregationBits, Data, Signature and CommitteeBits.
func (p attestationPreset) fixedSize() int {
	return offsetSize + attestationDataSize + signatureSize + (p.committees+7)/8
}

// attestationCodec encodes the Attestation container of preset whose fields
// it points to. bits is nil for a nil attestation, committee for phase0.
type attestationCodec struct {
	preset    attestationPreset
	bits      *bitfield.Bitlist
	data      **AttestationData
	signature *[signatureSize]byte
	committee *[]byte
}

// validateBitlist checks that b is a bitlist of at most limit bits (0: any
// length).
func validateBitlist(b []byte, limit uint64) error {
	if limit == 0 {
		limit = 8 * uint64(len(b)) // more than b can hold
	}
	return ssz.ValidateBitlist(b, limit)
}

func checkAggregationBits(b bitfield.Bitlist, limit uint64) error {
	if err := validateBitlist(b, limit); err != nil {
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

// committeeBits returns the CommitteeBits of c's attestation, empty in
// phase0.
func (c attestationCodec) committeeBits() []byte {
	if c.committee == nil {
		return nil
	}
	return *c.committee
}

// validate reports whether c's attestation can be encoded and hashed.
func (c attestationCodec) validate() error {
	if c.bits == nil {
		return ErrNilAttestation
	}
	if err := checkAggregationBits(*c.bits, c.preset.bitsLimit); err != nil {
		return err
	}
	return checkCommitteeBits(c.committeeBits(), c.preset.committees)
}

func (c attestationCodec) encode(dst []byte) ([]byte, error) {
	if err := c.validate(); err != nil {
		return dst, err
	}
	dst = ssz.WriteOffset(dst, c.preset.fixedSize())
	dst = orNew(*c.data).encodeFixed(dst)
	dst = append(dst, c.signature[:]...)
	dst = append(dst, c.committeeBits()...)
	return append(dst, *c.bits...), nil
}

// decode sets c's attestation to the value encoded in buf, in fresh
// values, after checking all of buf.
func (c attestationCodec) decode(buf []byte) error {
	if c.bits == nil {
		return ErrNilAttestation
	}
	fixed := c.preset.fixedSize()
	if err := variableOffset(buf, 0, fixed); err != nil {
		return err
	}
	committee, bits := buf[fixed-(c.preset.committees+7)/8:fixed], buf[fixed:]
	if err := validateBitlist(bits, c.preset.bitsLimit); err != nil {
		return err
	}
	if err := checkCommitteeBits(committee, c.preset.committees); err != nil {
		return err
	}
	data := new(AttestationData)
	if err := data.decodeFixed(buf[offsetSize : offsetSize+attestationDataSize]); err != nil {
		return err
	}
	*c.data = data
	*c.signature = [signatureSize]byte(buf[offsetSize+attestationDataSize:])
	if c.committee != nil {
		*c.committee = bytes.Clone(committee)
	}
	*c.bits = bytes.Clone(bits)
	return nil
}

func (c attestationCodec) size() int {
	if c.bits == nil {
		return 0
	}
	return c.preset.fixedSize() + len(*c.bits)
}

func (c attestationCodec) hash(hh ssz.HashWalker) error {
	if err := c.validate(); err != nil {
		return err
	}
	if c.preset.progressive() {
		progressiveContainer(hh, 4, func(field func()) {
			field()
			putProgressiveBitlist(hh, *c.bits)
			field()
			orNew(*c.data).hashFixed(hh)
			field()
			hh.PutBytes(c.signature[:])
			field()
			hh.PutBytes(*c.committee)
		})
		return nil
	}
	indx := hh.Index()
	hh.PutBitlist(*c.bits, c.preset.bitsLimit)
	orNew(*c.data).hashFixed(hh)
	hh.PutBytes(c.signature[:])
	if c.committee != nil {
		hh.PutBytes(*c.committee)
	}
	hh.Merkleize(indx)
	return nil
}

//ssz:doc UnmarshalSSZ sets a to the value encoded in buf. On error a is unchanged.
//ssz:doc SizeSSZ returns the size of the SSZ encoding of a; 0 for a nil a.
func (a *Attestation) codec() attestationCodec {
	if a == nil {
		return attestationCodec{preset: mainnetAttestation}
	}
	return attestationCodec{mainnetAttestation, &a.AggregationBits, &a.Data, &a.Signature, (*[]byte)(&a.CommitteeBits)}
}

//ssz:doc UnmarshalSSZ sets a to the value encoded in buf. Besides the encoding's structure it checks that bits 4..7 of CommitteeBits, past the end of the Bitvector[4], are zero. On error a is unchanged.
//ssz:doc SizeSSZ returns the size of the SSZ encoding of a; 0 for a nil a.
func (a *MinimalAttestation) codec() attestationCodec {
	if a == nil {
		return attestationCodec{preset: minimalAttestation}
	}
	return attestationCodec{minimalAttestation, &a.AggregationBits, &a.Data, &a.Signature, (*[]byte)(&a.CommitteeBits)}
}

//ssz:doc MarshalSSZ returns the SSZ encoding of a, the same bytes as the Attestation with its fields.
//ssz:doc UnmarshalSSZ sets a to the value encoded in buf, whose AggregationBits may be of any length. On error a is unchanged.
//ssz:doc SizeSSZ returns the size of the SSZ encoding of a; 0 for a nil a.
//ssz:doc HashTreeRoot returns the SSZ hash tree root of a, as a progressive container.
func (a *GloasAttestation) codec() attestationCodec {
	if a == nil {
		return attestationCodec{preset: gloasAttestation}
	}
	return attestationCodec{gloasAttestation, &a.AggregationBits, &a.Data, &a.Signature, (*[]byte)(&a.CommitteeBits)}
}

//ssz:doc MarshalSSZ returns the SSZ encoding of a, the same bytes as the MinimalAttestation with its fields.
//ssz:doc UnmarshalSSZ sets a to the value encoded in buf, whose AggregationBits may be of any length; bits 4..7 of CommitteeBits must be zero. On error a is unchanged.
//ssz:doc SizeSSZ returns the size of the SSZ encoding of a; 0 for a nil a.
//ssz:doc HashTreeRoot returns the SSZ hash tree root of a, as a progressive container.
func (a *MinimalGloasAttestation) codec() attestationCodec {
	if a == nil {
		return attestationCodec{preset: minimalGloasAttestation}
	}
	return attestationCodec{minimalGloasAttestation, &a.AggregationBits, &a.Data, &a.Signature, (*[]byte)(&a.CommitteeBits)}
}

//ssz:doc UnmarshalSSZ sets a to the value encoded in buf. On error a is unchanged.
//ssz:doc SizeSSZ returns the size of the SSZ encoding of a; 0 for a nil a.
func (a *Phase0Attestation) codec() attestationCodec {
	if a == nil {
		return attestationCodec{preset: phase0Attestation}
	}
	return attestationCodec{phase0Attestation, &a.AggregationBits, &a.Data, &a.Signature, nil}
}
