package attestation

import (
	"bytes"
	"testing"
)

// fuzzDecode is the body of every fuzz target: decoding must not panic, and
// a value that decodes must re-encode to the same bytes, hash, and decode
// again into an equal value.
func fuzzDecode[T any, P interface {
	*T
	codec
}](f *testing.F, seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		v := P(new(T))
		if err := v.UnmarshalSSZ(b); err != nil {
			return
		}
		out, err := v.MarshalSSZ()
		if err != nil {
			t.Fatalf("decoded value does not encode: %v", err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("re-encoding differs:\n  in %x\n out %x", b, out)
		}
		if v.SizeSSZ() != len(b) {
			t.Fatalf("SizeSSZ() = %d, want %d", v.SizeSSZ(), len(b))
		}
		if _, err := v.HashTreeRoot(); err != nil {
			t.Fatalf("decoded value does not hash: %v", err)
		}
		// Decoding again into the used value gives the same encoding.
		if err := v.UnmarshalSSZ(b); err != nil {
			t.Fatalf("second decode: %v", err)
		}
		if out2, err := v.MarshalSSZ(); err != nil || !bytes.Equal(out2, b) {
			t.Fatalf("second decode re-encodes differently: %v", err)
		}
	})
}

func seedOf(f *testing.F, v codec) []byte {
	b, err := v.MarshalSSZ()
	if err != nil {
		f.Fatal(err)
	}
	return b
}

func FuzzCheckpoint(f *testing.F) {
	fuzzDecode[Checkpoint](f, seedOf(f, sampleData().Source), make([]byte, 41))
}

func FuzzAttestationData(f *testing.F) {
	fuzzDecode[AttestationData](f, seedOf(f, sampleData()), make([]byte, 127))
}

func FuzzFork(f *testing.F) {
	fuzzDecode[Fork](f, seedOf(f, &Fork{Epoch: 9}), make([]byte, 15))
}

func FuzzSingleAttestation(f *testing.F) {
	fuzzDecode[SingleAttestation](f, seedOf(f, &SingleAttestation{CommitteeIndex: 3, Data: sampleData()}), make([]byte, 239))
}

func FuzzAttestation(f *testing.F) {
	b := seedOf(f, sampleAttestation())
	fuzzDecode[Attestation](f, b, withBits(b, 236, []byte{0}), withBits(b, 236, []byte{1}), b[:236])
}

func FuzzMinimalAttestation(f *testing.F) {
	b := seedOf(f, sampleMinimalAttestation())
	fuzzDecode[MinimalAttestation](f, b, with(b, func(b []byte) []byte { b[228] = 0x1f; return b }))
}

func FuzzPhase0Attestation(f *testing.F) {
	b := seedOf(f, samplePhase0Attestation())
	fuzzDecode[Phase0Attestation](f, b, withBits(b, 228, bitlistBytes(2048)), withBits(b, 228, bitlistBytes(2049)))
}

func FuzzIndexedAttestation(f *testing.F) {
	b := seedOf(f, &IndexedAttestation{AttestingIndices: []uint64{1, 2, 3}, Data: sampleData()})
	fuzzDecode[IndexedAttestation](f, b, b[:len(b)-1])
}

func FuzzMinimalIndexedAttestation(f *testing.F) {
	fuzzDecode[MinimalIndexedAttestation](f, seedOf(f, &MinimalIndexedAttestation{AttestingIndices: []uint64{7}}))
}

func FuzzPhase0IndexedAttestation(f *testing.F) {
	fuzzDecode[Phase0IndexedAttestation](f, seedOf(f, &Phase0IndexedAttestation{AttestingIndices: []uint64{1, 1 << 63}}))
}

func FuzzAggregateAndProof(f *testing.F) {
	b := seedOf(f, &AggregateAndProof{AggregatorIndex: 1, Aggregate: sampleAttestation()})
	fuzzDecode[AggregateAndProof](f, b, b[:108])
}

func FuzzMinimalAggregateAndProof(f *testing.F) {
	fuzzDecode[MinimalAggregateAndProof](f, seedOf(f, &MinimalAggregateAndProof{Aggregate: sampleMinimalAttestation()}))
}

func FuzzPhase0AggregateAndProof(f *testing.F) {
	fuzzDecode[Phase0AggregateAndProof](f, seedOf(f, &Phase0AggregateAndProof{Aggregate: samplePhase0Attestation()}))
}

func FuzzSignedAggregateAndProof(f *testing.F) {
	b := seedOf(f, &SignedAggregateAndProof{Message: &AggregateAndProof{Aggregate: sampleAttestation()}})
	fuzzDecode[SignedAggregateAndProof](f, b, b[:208])
}

func FuzzMinimalSignedAggregateAndProof(f *testing.F) {
	fuzzDecode[MinimalSignedAggregateAndProof](f, seedOf(f, &MinimalSignedAggregateAndProof{
		Message: &MinimalAggregateAndProof{Aggregate: sampleMinimalAttestation()},
	}))
}

func FuzzPhase0SignedAggregateAndProof(f *testing.F) {
	fuzzDecode[Phase0SignedAggregateAndProof](f, seedOf(f, &Phase0SignedAggregateAndProof{
		Message: &Phase0AggregateAndProof{Aggregate: samplePhase0Attestation()},
	}))
}

func FuzzPayloadAttestationData(f *testing.F) {
	b := seedOf(f, testPayloadAttestationData())
	fuzzDecode[PayloadAttestationData](f, b, with(b, func(b []byte) []byte { b[41] = 2; return b }))
}

func FuzzPayloadAttestationMessage(f *testing.F) {
	fuzzDecode[PayloadAttestationMessage](f, seedOf(f, &PayloadAttestationMessage{ValidatorIndex: 5, Data: testPayloadAttestationData()}))
}

func FuzzPayloadAttestation(f *testing.F) {
	b := seedOf(f, testPayloadAttestation())
	fuzzDecode[PayloadAttestation](f, b, b[:201])
}

func FuzzGloasAttestation(f *testing.F) {
	fuzzDecode[GloasAttestation](f, seedOf(f, (*GloasAttestation)(sampleAttestation())))
}

func FuzzMinimalGloasAttestation(f *testing.F) {
	fuzzDecode[MinimalGloasAttestation](f, seedOf(f, (*MinimalGloasAttestation)(sampleMinimalAttestation())))
}

func FuzzGloasIndexedAttestation(f *testing.F) {
	fuzzDecode[GloasIndexedAttestation](f, seedOf(f, &GloasIndexedAttestation{AttestingIndices: []uint64{1, 2, 3}, Data: sampleData()}))
}

func FuzzGloasSignedAggregateAndProof(f *testing.F) {
	fuzzDecode[GloasSignedAggregateAndProof](f, seedOf(f, &GloasSignedAggregateAndProof{
		Message: &GloasAggregateAndProof{AggregatorIndex: 1, Aggregate: (*GloasAttestation)(sampleAttestation())}}))
}

func FuzzMinimalGloasSignedAggregateAndProof(f *testing.F) {
	fuzzDecode[MinimalGloasSignedAggregateAndProof](f, seedOf(f, &MinimalGloasSignedAggregateAndProof{
		Message: &MinimalGloasAggregateAndProof{AggregatorIndex: 1, Aggregate: (*MinimalGloasAttestation)(sampleMinimalAttestation())}}))
}

func FuzzMinimalPayloadAttestation(f *testing.F) {
	fuzzDecode[MinimalPayloadAttestation](f, seedOf(f, &MinimalPayloadAttestation{AggregationBits: [2]byte{1, 2}, Data: testPayloadAttestationData()}))
}
