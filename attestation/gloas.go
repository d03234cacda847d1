package attestation

import (
	"github.com/prysmaticlabs/go-bitfield"
)

// Gloas (EIP-7732) preset values.
const (
	// PTCSize is PTC_SIZE of the mainnet preset, the number of members of
	// a slot's payload timeliness committee. The minimal preset's PTC_SIZE
	// is 16; this package's PayloadAttestation has the mainnet shape only.
	PTCSize = 512
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

// PayloadAttestation is the Gloas PayloadAttestation container, the
// aggregate of the PTC members' attestations that a block includes:
// AggregationBits holds one bit per PTC member in committee order
// (a Bitvector[PTC_SIZE], 64 bytes).
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
