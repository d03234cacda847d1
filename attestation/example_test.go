package attestation_test

import (
	"fmt"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/ssz"
)

// A validator's SingleAttestation arrives from a subnet. The pool turns it
// into an Attestation with one bit set, encodes it, and computes the root
// its signature must be checked against.
func Example() {
	single := &attestation.SingleAttestation{
		CommitteeIndex: 2,
		AttesterIndex:  1234,
		Data: &attestation.AttestationData{
			Slot:   100,
			Source: &attestation.Checkpoint{Epoch: 2},
			Target: &attestation.Checkpoint{Epoch: 3},
		},
	}

	// Decode what came from the network (here: what we just encoded).
	wire, err := single.MarshalSSZ()
	if err != nil {
		panic(err)
	}
	var received attestation.SingleAttestation
	if err := received.UnmarshalSSZ(wire); err != nil {
		panic(err)
	}
	fmt.Println("SingleAttestation bytes:", len(wire))

	// The attester is at position 7 of a committee of 16, as found in the
	// beacon state's committee for (slot 100, committee 2).
	att, err := received.ToAttestation(16, 7)
	if err != nil {
		panic(err)
	}
	fmt.Println("committees:", att.CommitteeBits.BitIndices())
	fmt.Println("aggregation bits:", att.AggregationBits.Len(), "set:", att.AggregationBits.BitIndices())

	enc, err := att.MarshalSSZ()
	if err != nil {
		panic(err)
	}
	fmt.Println("Attestation bytes:", len(enc))

	// The signature covers AttestationData in the beacon attester domain.
	dataRoot, err := att.Data.HashTreeRoot()
	if err != nil {
		panic(err)
	}
	domain, err := ssz.ComputeDomain(ssz.DomainBeaconAttester, ssz.Version{0x05}, ssz.Root{})
	if err != nil {
		panic(err)
	}
	signingRoot := ssz.ComputeSigningRootFromRoot(dataRoot, domain)
	fmt.Printf("signing root: %x...\n", signingRoot[:4])

	// Malformed input gives an error, not a panic.
	var bad attestation.Attestation
	fmt.Println("decoding garbage fails:", bad.UnmarshalSSZ([]byte{1, 2, 3}) != nil)
	// Output:
	// SingleAttestation bytes: 240
	// committees: [2]
	// aggregation bits: 16 set: [7]
	// Attestation bytes: 239
	// signing root: aba2c646...
	// decoding garbage fails: true
}
