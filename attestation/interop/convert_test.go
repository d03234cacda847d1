package interop_test

import (
	"bytes"

	ebitfield "github.com/OffchainLabs/go-bitfield"
	"github.com/attestantio/go-eth2-client/spec/electra"
	"github.com/attestantio/go-eth2-client/spec/gloas"
	"github.com/attestantio/go-eth2-client/spec/phase0"

	"github.com/attpool/attpool/attestation"
)

// Field-by-field maps from attpool's containers to go-eth2-client's, with
// no SSZ in between: the encodings are compared against these.

func eth2Checkpoint(c *attestation.Checkpoint) *phase0.Checkpoint {
	return &phase0.Checkpoint{Epoch: phase0.Epoch(c.Epoch), Root: c.Root}
}

func eth2Fork(f *attestation.Fork) *phase0.Fork {
	return &phase0.Fork{PreviousVersion: f.PreviousVersion, CurrentVersion: f.CurrentVersion, Epoch: phase0.Epoch(f.Epoch)}
}

func eth2Data(d *attestation.AttestationData) *phase0.AttestationData {
	return &phase0.AttestationData{
		Slot: phase0.Slot(d.Slot), Index: phase0.CommitteeIndex(d.Index), BeaconBlockRoot: d.BeaconBlockRoot,
		Source: eth2Checkpoint(d.Source), Target: eth2Checkpoint(d.Target),
	}
}

func eth2SingleAttestation(s *attestation.SingleAttestation) *electra.SingleAttestation {
	return &electra.SingleAttestation{
		CommitteeIndex: phase0.CommitteeIndex(s.CommitteeIndex), AttesterIndex: phase0.ValidatorIndex(s.AttesterIndex),
		Data: eth2Data(s.Data), Signature: s.Signature,
	}
}

func eth2Bits(b []byte) ebitfield.Bitlist { return bytes.Clone(b) }

func eth2Attestation(a *attestation.Attestation) *electra.Attestation {
	return &electra.Attestation{
		AggregationBits: eth2Bits(a.AggregationBits), Data: eth2Data(a.Data), Signature: a.Signature,
		CommitteeBits: bytes.Clone(a.CommitteeBits),
	}
}

func eth2MinimalAttestation(a *attestation.MinimalAttestation) *electra.Attestation {
	return &electra.Attestation{
		AggregationBits: eth2Bits(a.AggregationBits), Data: eth2Data(a.Data), Signature: a.Signature,
		CommitteeBits: bytes.Clone(a.CommitteeBits),
	}
}

func eth2Phase0Attestation(a *attestation.Phase0Attestation) *phase0.Attestation {
	return &phase0.Attestation{AggregationBits: eth2Bits(a.AggregationBits), Data: eth2Data(a.Data), Signature: a.Signature}
}

func eth2IndexedAttestation(i *attestation.IndexedAttestation) *electra.IndexedAttestation {
	return &electra.IndexedAttestation{AttestingIndices: cloneIndices(i.AttestingIndices), Data: eth2Data(i.Data), Signature: i.Signature}
}

func eth2MinimalIndexedAttestation(i *attestation.MinimalIndexedAttestation) *electra.IndexedAttestation {
	return &electra.IndexedAttestation{AttestingIndices: cloneIndices(i.AttestingIndices), Data: eth2Data(i.Data), Signature: i.Signature}
}

func eth2Phase0IndexedAttestation(i *attestation.Phase0IndexedAttestation) *phase0.IndexedAttestation {
	return &phase0.IndexedAttestation{AttestingIndices: cloneIndices(i.AttestingIndices), Data: eth2Data(i.Data), Signature: i.Signature}
}

func cloneIndices(v []uint64) []uint64 { return append([]uint64(nil), v...) }

func eth2AggregateAndProof(a *attestation.AggregateAndProof) *electra.AggregateAndProof {
	return &electra.AggregateAndProof{
		AggregatorIndex: phase0.ValidatorIndex(a.AggregatorIndex), Aggregate: eth2Attestation(a.Aggregate), SelectionProof: a.SelectionProof,
	}
}

func eth2MinimalAggregateAndProof(a *attestation.MinimalAggregateAndProof) *electra.AggregateAndProof {
	return &electra.AggregateAndProof{
		AggregatorIndex: phase0.ValidatorIndex(a.AggregatorIndex), Aggregate: eth2MinimalAttestation(a.Aggregate), SelectionProof: a.SelectionProof,
	}
}

func eth2Phase0AggregateAndProof(a *attestation.Phase0AggregateAndProof) *phase0.AggregateAndProof {
	return &phase0.AggregateAndProof{
		AggregatorIndex: phase0.ValidatorIndex(a.AggregatorIndex), Aggregate: eth2Phase0Attestation(a.Aggregate), SelectionProof: a.SelectionProof,
	}
}

func eth2SignedAggregateAndProof(s *attestation.SignedAggregateAndProof) *electra.SignedAggregateAndProof {
	return &electra.SignedAggregateAndProof{Message: eth2AggregateAndProof(s.Message), Signature: s.Signature}
}

func eth2MinimalSignedAggregateAndProof(s *attestation.MinimalSignedAggregateAndProof) *electra.SignedAggregateAndProof {
	return &electra.SignedAggregateAndProof{Message: eth2MinimalAggregateAndProof(s.Message), Signature: s.Signature}
}

func eth2Phase0SignedAggregateAndProof(s *attestation.Phase0SignedAggregateAndProof) *phase0.SignedAggregateAndProof {
	return &phase0.SignedAggregateAndProof{Message: eth2Phase0AggregateAndProof(s.Message), Signature: s.Signature}
}

func eth2PayloadAttestationData(d *attestation.PayloadAttestationData) *gloas.PayloadAttestationData {
	return &gloas.PayloadAttestationData{
		BeaconBlockRoot: d.BeaconBlockRoot, Slot: phase0.Slot(d.Slot),
		PayloadPresent: d.PayloadPresent, BlobDataAvailable: d.BlobDataAvailable,
	}
}

func eth2PayloadAttestationMessage(m *attestation.PayloadAttestationMessage) *gloas.PayloadAttestationMessage {
	return &gloas.PayloadAttestationMessage{
		ValidatorIndex: phase0.ValidatorIndex(m.ValidatorIndex), Data: eth2PayloadAttestationData(m.Data), Signature: m.Signature,
	}
}

func eth2PayloadAttestation(a *attestation.PayloadAttestation) *gloas.PayloadAttestation {
	return &gloas.PayloadAttestation{
		AggregationBits: bytes.Clone(a.AggregationBits), Data: eth2PayloadAttestationData(a.Data), Signature: a.Signature,
	}
}

// The Gloas attestation containers of go-eth2-client, from the same fields:
// their encoding is the Electra one, their hashing is not (EIP-7688).

func gloasAttestation(a *attestation.Attestation) *gloas.Attestation {
	return &gloas.Attestation{
		AggregationBits: eth2Bits(a.AggregationBits), Data: eth2Data(a.Data), Signature: a.Signature,
		CommitteeBits: bytes.Clone(a.CommitteeBits),
	}
}

func gloasIndexedAttestation(i *attestation.IndexedAttestation) *gloas.IndexedAttestation {
	return &gloas.IndexedAttestation{AttestingIndices: cloneIndices(i.AttestingIndices), Data: eth2Data(i.Data), Signature: i.Signature}
}

func gloasAggregateAndProof(a *attestation.AggregateAndProof) *gloas.AggregateAndProof {
	return &gloas.AggregateAndProof{
		AggregatorIndex: phase0.ValidatorIndex(a.AggregatorIndex), Aggregate: gloasAttestation(a.Aggregate), SelectionProof: a.SelectionProof,
	}
}

func gloasSignedAggregateAndProof(s *attestation.SignedAggregateAndProof) *gloas.SignedAggregateAndProof {
	return &gloas.SignedAggregateAndProof{Message: gloasAggregateAndProof(s.Message), Signature: s.Signature}
}
