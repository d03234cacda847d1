package attestation

import "testing"

// The encode, decode and hash costs of the containers the pool handles on
// every gossip message (SingleAttestation, AttestationData) and on every
// aggregate (SignedAggregateAndProof, Attestation).

func BenchmarkAttestationDataHashTreeRoot(b *testing.B) {
	d := sampleData()
	for b.Loop() {
		if _, err := d.HashTreeRoot(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSingleAttestationUnmarshal(b *testing.B) {
	buf := encode(b, &SingleAttestation{CommitteeIndex: 3, AttesterIndex: 9, Data: sampleData(), Signature: sig(1)})
	var s SingleAttestation
	for b.Loop() {
		if err := s.UnmarshalSSZ(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSignedAggregateAndProofUnmarshal(b *testing.B) {
	buf := encode(b, &SignedAggregateAndProof{Message: &AggregateAndProof{Aggregate: sampleAttestation()}})
	for b.Loop() {
		var s SignedAggregateAndProof
		if err := s.UnmarshalSSZ(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSignedAggregateAndProofMarshal(b *testing.B) {
	s := &SignedAggregateAndProof{Message: &AggregateAndProof{Aggregate: sampleAttestation()}}
	buf := make([]byte, 0, s.SizeSSZ())
	for b.Loop() {
		if _, err := s.MarshalSSZTo(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAttestationHashTreeRoot(b *testing.B) {
	a := sampleAttestation()
	for b.Loop() {
		if _, err := a.HashTreeRoot(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIndexedAttestationHashTreeRoot(b *testing.B) {
	idx := make([]uint64, 512)
	for i := range idx {
		idx[i] = uint64(3 * i)
	}
	a := &IndexedAttestation{AttestingIndices: idx, Data: sampleData()}
	for b.Loop() {
		if _, err := a.HashTreeRoot(); err != nil {
			b.Fatal(err)
		}
	}
}
