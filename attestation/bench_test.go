package attestation

import "testing"

// The encode, decode and hash costs of the containers the pool handles on
// every gossip message (SingleAttestation, AttestationData) and on every
// aggregate (SignedAggregateAndProof, Attestation; from Gloas on, the
// progressive GloasAggregateAndProof).

func BenchmarkHashTreeRoot(b *testing.B) {
	idx := make([]uint64, 512)
	for i := range idx {
		idx[i] = uint64(3 * i)
	}
	for _, c := range []struct {
		name string
		v    codec
	}{
		{"AttestationData", sampleData()},
		{"Attestation", sampleAttestation()},
		{"IndexedAttestation512", &IndexedAttestation{AttestingIndices: idx, Data: sampleData()}},
		{"AggregateAndProof", &AggregateAndProof{Aggregate: sampleAttestation()}},
		{"GloasAttestation", (*GloasAttestation)(sampleAttestation())},
		{"GloasIndexedAttestation512", &GloasIndexedAttestation{AttestingIndices: idx, Data: sampleData()}},
		{"GloasAggregateAndProof", &GloasAggregateAndProof{Aggregate: (*GloasAttestation)(sampleAttestation())}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.v.HashTreeRoot(); err != nil {
					b.Fatal(err)
				}
			}
		})
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
