package attestation

import (
	"github.com/prysmaticlabs/go-bitfield"
)

// The unexported shapes below have the same fields as the exported
// attestation types; sszgen generates their encodings (shapes_encoding.go)
// and codec.go converts between them. Keep each in step with its exported
// type in types.go.

type attestationShape struct {
	AggregationBits bitfield.Bitlist `ssz:"bitlist" ssz-max:"131072"`
	Data            *AttestationData
	Signature       [96]byte             `ssz-size:"96"`
	CommitteeBits   bitfield.Bitvector64 `ssz-size:"8"`
}

type minimalAttestationShape struct {
	AggregationBits bitfield.Bitlist `ssz:"bitlist" ssz-max:"8192"`
	Data            *AttestationData
	Signature       [96]byte            `ssz-size:"96"`
	CommitteeBits   bitfield.Bitvector4 `ssz-size:"1"`
}

type phase0AttestationShape struct {
	AggregationBits bitfield.Bitlist `ssz:"bitlist" ssz-max:"2048"`
	Data            *AttestationData
	Signature       [96]byte `ssz-size:"96"`
}

type payloadAttestationDataShape struct {
	BeaconBlockRoot   [32]byte `ssz-size:"32"`
	Slot              uint64
	PayloadPresent    bool
	BlobDataAvailable bool
}

type payloadAttestationShape struct {
	AggregationBits bitfield.Bitvector512 `ssz-size:"64"`
	Data            *PayloadAttestationData
	Signature       [96]byte `ssz-size:"96"`
}
