package attestation

import (
	"github.com/prysmaticlabs/go-bitfield"
)

// Gloas (EIP-7732) preset values.
const (
	// PTCSize is PTC_SIZE of the mainnet preset, the number of members of
	// a slot's payload timeliness committee (PayloadAttestation).
	PTCSize = 512
	// MinimalPTCSize is PTC_SIZE of the minimal preset
	// (MinimalPayloadAttestation).
	MinimalPTCSize = 16
	// MaxPayloadAttestations is MAX_PAYLOAD_ATTESTATIONS, the number of
	// payload attestations a block may include (both presets).
	MaxPayloadAttestations = 4
)

// PayloadAttestationData is the Gloas PayloadAttestationData container, the
// message that the members of a slot's payload timeliness committee (PTC)
// sign: whether the payload of the block BeaconBlockRoot at Slot was
// present, and whether its blob data was available. The zero value is valid.
//
// UnmarshalSSZ rejects a boolean byte other than 0 or 1, which fastssz's
// UnmarshalBool would decode as false (gloas_codec.go).
type PayloadAttestationData struct {
	BeaconBlockRoot   [32]byte `ssz-size:"32"`
	Slot              uint64
	PayloadPresent    bool
	BlobDataAvailable bool
}

// PayloadAttestationMessage is the Gloas PayloadAttestationMessage
// container, the attestation of one PTC member as gossiped on the
// payload_attestation_message topic. A nil Data encodes and hashes as a zero
// PayloadAttestationData.
type PayloadAttestationMessage struct {
	ValidatorIndex uint64
	Data           *PayloadAttestationData
	Signature      [96]byte `ssz-size:"96"`
}

// PayloadAttestation is the Gloas PayloadAttestation container in the
// mainnet preset, the aggregate of the PTC members' attestations that a
// block includes: AggregationBits holds one bit per PTC member in committee
// order (a Bitvector[PTC_SIZE], 64 bytes).
//
// It is a progressive container (EIP-7495) in the specs: it encodes like a
// container but hashes differently, so its SSZ methods are hand-written
// (gloas_codec.go). The zero value is not valid: AggregationBits needs its
// 64 bytes, and MarshalSSZ and HashTreeRoot return an error wrapping
// ErrInvalidAggregationBits for it.
type PayloadAttestation struct {
	AggregationBits bitfield.Bitvector512 `ssz-size:"64"`
	Data            *PayloadAttestationData
	Signature       [96]byte `ssz-size:"96"`
}

// MinimalPayloadAttestation is the Gloas PayloadAttestation container in
// the minimal preset, where PTC_SIZE is 16: AggregationBits is a
// Bitvector[16], member i's bit being AggregationBits[i/8]>>(i%8)&1. It
// encodes and hashes as PayloadAttestation does (a progressive container),
// with two bytes of bits. The zero value is valid.
type MinimalPayloadAttestation struct {
	AggregationBits [MinimalPTCSize / 8]byte `ssz-size:"2"`
	Data            *PayloadAttestationData
	Signature       [96]byte `ssz-size:"96"`
}

// GloasAttestation is the Gloas Attestation container (EIP-7688) in the
// mainnet preset. It has the fields of Attestation and the same encoding,
// but the specs make it a progressive container (active_fields [1, 1, 1,
// 1]) whose AggregationBits is a ProgressiveBitList, with no limit: its
// hash tree root differs from the Electra one for every value. Blocks from
// the Gloas fork on hold GloasAttestations. An *Attestation converts to a
// *GloasAttestation and back without copying:
//
//	gloas := (*attestation.GloasAttestation)(att)
//
// The zero value is not valid (AggregationBits has no length bit):
// MarshalSSZ and HashTreeRoot return an error for it, as for Attestation.
type GloasAttestation struct {
	AggregationBits bitfield.Bitlist     `ssz-type:"progressive-bitlist" ssz-index:"0"`
	Data            *AttestationData     `ssz-index:"1"`
	Signature       [96]byte             `ssz-size:"96" ssz-index:"2"`
	CommitteeBits   bitfield.Bitvector64 `ssz-size:"8" ssz-index:"3"`
}

// MinimalGloasAttestation is the Gloas Attestation container in the
// minimal preset: GloasAttestation with the CommitteeBits of
// MinimalAttestation (a Bitvector[4]). It converts to and from
// *MinimalAttestation.
type MinimalGloasAttestation struct {
	AggregationBits bitfield.Bitlist    `ssz-type:"progressive-bitlist" ssz-index:"0"`
	Data            *AttestationData    `ssz-index:"1"`
	Signature       [96]byte            `ssz-size:"96" ssz-index:"2"`
	CommitteeBits   bitfield.Bitvector4 `ssz-size:"1" ssz-index:"3"`
}

// GloasIndexedAttestation is the Gloas IndexedAttestation container (both
// presets): a progressive container (active_fields [1, 1, 1]) whose
// AttestingIndices is a ProgressiveList, with no limit in SSZ (the specs'
// is_valid_indexed_attestation still bounds it by
// MAX_VALIDATORS_PER_COMMITTEE * MAX_COMMITTEES_PER_SLOT). It encodes like
// IndexedAttestation, and an *IndexedAttestation converts to it.
type GloasIndexedAttestation struct {
	AttestingIndices []uint64         `ssz-type:"progressive-list" ssz-index:"0"`
	Data             *AttestationData `ssz-index:"1"`
	Signature        [96]byte         `ssz-size:"96" ssz-index:"2"`
}

// GloasAggregateAndProof is the AggregateAndProof container from the Gloas
// fork on, in the mainnet preset: the Electra container (not progressive)
// holding a GloasAttestation, so its root, which the aggregator signs,
// differs from the Electra one. It encodes like AggregateAndProof.
type GloasAggregateAndProof struct {
	AggregatorIndex uint64
	Aggregate       *GloasAttestation
	SelectionProof  [96]byte `ssz-size:"96"`
}

// MinimalGloasAggregateAndProof is the AggregateAndProof container from the
// Gloas fork on, in the minimal preset.
type MinimalGloasAggregateAndProof struct {
	AggregatorIndex uint64
	Aggregate       *MinimalGloasAttestation
	SelectionProof  [96]byte `ssz-size:"96"`
}

// GloasSignedAggregateAndProof is the SignedAggregateAndProof container
// from the Gloas fork on, in the mainnet preset. Its encoding is that of
// SignedAggregateAndProof, so a node may decode a gossip message as either
// (the Gloas gossip bound, MAX_SIGNED_AGGREGATE_AND_PROOF_SIZE, keeps the
// aggregation bits within the Electra limit).
type GloasSignedAggregateAndProof struct {
	Message   *GloasAggregateAndProof
	Signature [96]byte `ssz-size:"96"`
}

// MinimalGloasSignedAggregateAndProof is the SignedAggregateAndProof
// container from the Gloas fork on, in the minimal preset.
type MinimalGloasSignedAggregateAndProof struct {
	Message   *MinimalGloasAggregateAndProof
	Signature [96]byte `ssz-size:"96"`
}
