package attestation

import (
	"github.com/prysmaticlabs/go-bitfield"
)

// The SSZ encodings of the types in this package are hand-written over
// fastssz's primitives (encoding.go, attestation_codec.go,
// aggregate_codec.go, gloas_codec.go, progressive.go). The struct tags
// state each container's SSZ schema as sszgen and other SSZ tools read it
// (dynamic-ssz's ssz-type and ssz-index for the progressive Gloas
// containers); a test checks them against the limits the codecs enforce.

// Preset values used by the containers of this package.
const (
	// MaxValidatorsPerCommittee is MAX_VALIDATORS_PER_COMMITTEE, the same in
	// the mainnet and minimal presets.
	MaxValidatorsPerCommittee = 2048
	// MaxCommitteesPerSlot is MAX_COMMITTEES_PER_SLOT in the mainnet preset.
	MaxCommitteesPerSlot = 64
	// MinimalMaxCommitteesPerSlot is MAX_COMMITTEES_PER_SLOT in the minimal
	// preset.
	MinimalMaxCommitteesPerSlot = 4
	// MaxAttestationsElectra is MAX_ATTESTATIONS_ELECTRA, the number of
	// aggregate attestations a block may include from Electra on (both
	// presets).
	MaxAttestationsElectra = 8
)

// Checkpoint is the phase0 Checkpoint container: an epoch and the root of
// the block at its start. The zero value is the genesis-style checkpoint
// (epoch 0, zero root).
type Checkpoint struct {
	Epoch uint64
	Root  [32]byte `ssz-size:"32"`
}

// AttestationData is the phase0 AttestationData container, the message that
// attesters sign. It is unchanged in Electra, where Index must be 0 (the
// committee index moved to Attestation.CommitteeBits and
// SingleAttestation.CommitteeIndex).
//
// A nil Source or Target encodes and hashes as a zero Checkpoint. The zero
// value is valid.
type AttestationData struct {
	Slot            uint64
	Index           uint64
	BeaconBlockRoot [32]byte `ssz-size:"32"`
	Source          *Checkpoint
	Target          *Checkpoint
}

// Fork is the phase0 Fork container, which says which fork version signs
// messages of an epoch. The zero value is valid.
type Fork struct {
	PreviousVersion [4]byte `ssz-size:"4"`
	CurrentVersion  [4]byte `ssz-size:"4"`
	Epoch           uint64
}

// Attestation is the Electra Attestation container in the mainnet preset
// (unchanged in Fulu). AggregationBits is a Bitlist of at most
// MaxValidatorsPerCommittee*MaxCommitteesPerSlot bits covering the
// committees set in CommitteeBits, in increasing committee order.
//
// The zero value is not a valid attestation: AggregationBits needs its
// length bit and CommitteeBits 8 bytes. MarshalSSZ and HashTreeRoot
// return an error for it.
type Attestation struct {
	AggregationBits bitfield.Bitlist `ssz:"bitlist" ssz-max:"131072"`
	Data            *AttestationData
	Signature       [96]byte             `ssz-size:"96"`
	CommitteeBits   bitfield.Bitvector64 `ssz-size:"8"`
}

// MinimalAttestation is the Electra Attestation container in the minimal
// preset: AggregationBits holds at most
// MaxValidatorsPerCommittee*MinimalMaxCommitteesPerSlot bits and
// CommitteeBits is a Bitvector[4], one byte whose four high bits are zero.
type MinimalAttestation struct {
	AggregationBits bitfield.Bitlist `ssz:"bitlist" ssz-max:"8192"`
	Data            *AttestationData
	Signature       [96]byte            `ssz-size:"96"`
	CommitteeBits   bitfield.Bitvector4 `ssz-size:"1"`
}

// Phase0Attestation is the phase0 Attestation container (both presets, used
// until Deneb): AggregationBits covers the single committee Data.Index and
// holds at most MaxValidatorsPerCommittee bits.
type Phase0Attestation struct {
	AggregationBits bitfield.Bitlist `ssz:"bitlist" ssz-max:"2048"`
	Data            *AttestationData
	Signature       [96]byte `ssz-size:"96"`
}

// SingleAttestation is the Electra SingleAttestation container (both presets,
// unchanged in Fulu): the attestation of one validator, as gossiped on the
// attestation subnets.
type SingleAttestation struct {
	CommitteeIndex uint64
	AttesterIndex  uint64
	Data           *AttestationData
	Signature      [96]byte `ssz-size:"96"`
}

// IndexedAttestation is the Electra IndexedAttestation container in the
// mainnet preset: an attestation with its attesters as sorted validator
// indices, at most MaxValidatorsPerCommittee*MaxCommitteesPerSlot of them.
type IndexedAttestation struct {
	AttestingIndices []uint64 `ssz-max:"131072"`
	Data             *AttestationData
	Signature        [96]byte `ssz-size:"96"`
}

// MinimalIndexedAttestation is the Electra IndexedAttestation container in
// the minimal preset.
type MinimalIndexedAttestation struct {
	AttestingIndices []uint64 `ssz-max:"8192"`
	Data             *AttestationData
	Signature        [96]byte `ssz-size:"96"`
}

// Phase0IndexedAttestation is the phase0 IndexedAttestation container (both
// presets).
type Phase0IndexedAttestation struct {
	AttestingIndices []uint64 `ssz-max:"2048"`
	Data             *AttestationData
	Signature        [96]byte `ssz-size:"96"`
}

// AggregateAndProof is the Electra AggregateAndProof container in the
// mainnet preset.
type AggregateAndProof struct {
	AggregatorIndex uint64
	Aggregate       *Attestation
	SelectionProof  [96]byte `ssz-size:"96"`
}

// MinimalAggregateAndProof is the Electra AggregateAndProof container in the
// minimal preset.
type MinimalAggregateAndProof struct {
	AggregatorIndex uint64
	Aggregate       *MinimalAttestation
	SelectionProof  [96]byte `ssz-size:"96"`
}

// Phase0AggregateAndProof is the phase0 AggregateAndProof container (both
// presets).
type Phase0AggregateAndProof struct {
	AggregatorIndex uint64
	Aggregate       *Phase0Attestation
	SelectionProof  [96]byte `ssz-size:"96"`
}

// SignedAggregateAndProof is the Electra SignedAggregateAndProof container
// in the mainnet preset.
type SignedAggregateAndProof struct {
	Message   *AggregateAndProof
	Signature [96]byte `ssz-size:"96"`
}

// MinimalSignedAggregateAndProof is the Electra SignedAggregateAndProof
// container in the minimal preset.
type MinimalSignedAggregateAndProof struct {
	Message   *MinimalAggregateAndProof
	Signature [96]byte `ssz-size:"96"`
}

// Phase0SignedAggregateAndProof is the phase0 SignedAggregateAndProof
// container (both presets).
type Phase0SignedAggregateAndProof struct {
	Message   *Phase0AggregateAndProof
	Signature [96]byte `ssz-size:"96"`
}
