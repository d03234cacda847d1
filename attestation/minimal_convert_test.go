package attestation

import (
	"bytes"
	"errors"
	"testing"
)

// TestToMinimalPayloadAttestation: the bits of a PTC of 16 carry over, with
// the data and the signature, and the container encodes to the minimal
// preset's bytes; a bit past the 16 is refused.
func TestToMinimalPayloadAttestation(t *testing.T) {
	a := &PayloadAttestation{AggregationBits: make([]byte, PTCSize/8), Data: testPayloadAttestationData(), Signature: sig(5)}
	a.AggregationBits[0], a.AggregationBits[1] = 0x81, 0x40
	m, err := ToMinimalPayloadAttestation(a)
	if err != nil {
		t.Fatal(err)
	}
	if m.AggregationBits != [2]byte{0x81, 0x40} || m.Data != a.Data || m.Signature != a.Signature {
		t.Fatalf("converted to %+v", m)
	}
	want, err := (&MinimalPayloadAttestation{AggregationBits: [2]byte{0x81, 0x40}, Data: a.Data, Signature: a.Signature}).MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := m.MarshalSSZ(); !bytes.Equal(got, want) {
		t.Fatal("encoding differs")
	}
	a.AggregationBits[MinimalPTCSize/8] = 1
	if _, err := ToMinimalPayloadAttestation(a); !errors.Is(err, ErrNotMinimal) {
		t.Fatalf("bit 16 set: %v, want ErrNotMinimal", err)
	}
	if _, err := ToMinimalPayloadAttestation(nil); !errors.Is(err, ErrInvalidAggregationBits) {
		t.Fatalf("nil: %v", err)
	}
}
