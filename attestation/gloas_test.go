package attestation

import (
	"bytes"
	"errors"
	"testing"

	"github.com/prysmaticlabs/go-bitfield"
)

// The roots below are computed with the SSZ spec's merkleization rules as
// merkle_test.go writes them out with crypto/sha256, independently of
// fastssz and of the hand-written hashing in gloas_codec.go.

func boolChunk(v bool) (c chunk) {
	if v {
		c[0] = 1
	}
	return c
}

func specPayloadAttestationDataRoot(t testing.TB, d *PayloadAttestationData) chunk {
	return merkleize(t, []chunk{d.BeaconBlockRoot, uintChunk(d.Slot), boolChunk(d.PayloadPresent), boolChunk(d.BlobDataAvailable)}, 0)
}

func testPayloadAttestationData() *PayloadAttestationData {
	d := &PayloadAttestationData{Slot: 0x0102030405060708, PayloadPresent: true}
	for i := range d.BeaconBlockRoot {
		d.BeaconBlockRoot[i] = byte(i + 1)
	}
	return d
}

func testPayloadAttestation() *PayloadAttestation {
	a := &PayloadAttestation{AggregationBits: bitfield.NewBitvector512(), Data: testPayloadAttestationData()}
	for _, i := range []uint64{0, 7, 100, 511} {
		a.AggregationBits.SetBitAt(i, true)
	}
	for i := range a.Signature {
		a.Signature[i] = byte(0xa0 ^ i)
	}
	return a
}

func TestPayloadAttestationDataEncoding(t *testing.T) {
	d := testPayloadAttestationData()
	enc, err := d.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	want := append(append(append([]byte{}, d.BeaconBlockRoot[:]...), 8, 7, 6, 5, 4, 3, 2, 1), 1, 0)
	if !bytes.Equal(enc, want) || d.SizeSSZ() != len(want) {
		t.Fatalf("encoding %x (size %d), want %x", enc, d.SizeSSZ(), want)
	}
	var back PayloadAttestationData
	if err := back.UnmarshalSSZ(enc); err != nil || back != *d {
		t.Fatalf("decode: %v, %+v", err, back)
	}
	root, err := d.HashTreeRoot()
	if err != nil || root != specPayloadAttestationDataRoot(t, d) {
		t.Fatalf("root %x, %v; want %x", root, err, specPayloadAttestationDataRoot(t, d))
	}
	for _, pos := range []int{40, 41} {
		for _, b := range []byte{2, 0x80, 0xff} {
			bad := bytes.Clone(enc)
			bad[pos] = b
			before := back
			if err := back.UnmarshalSSZ(bad); !errors.Is(err, ErrInvalidBoolean) {
				t.Fatalf("boolean byte %#x at %d: %v, want ErrInvalidBoolean", b, pos, err)
			}
			if back != before {
				t.Fatal("receiver changed on error")
			}
		}
	}
	for _, n := range []int{0, 41, 43} {
		if err := back.UnmarshalSSZ(make([]byte, n)); err == nil {
			t.Fatalf("%d bytes decoded", n)
		}
	}
}

func TestPayloadAttestationMessageEncoding(t *testing.T) {
	m := &PayloadAttestationMessage{ValidatorIndex: 77, Data: testPayloadAttestationData()}
	m.Signature[0], m.Signature[95] = 0xb0, 0x01
	enc, err := m.MarshalSSZ()
	if err != nil || len(enc) != 146 || m.SizeSSZ() != 146 {
		t.Fatalf("encoding: %v, %d bytes", err, len(enc))
	}
	var back PayloadAttestationMessage
	if err := back.UnmarshalSSZ(enc); err != nil || back.ValidatorIndex != 77 || *back.Data != *m.Data || back.Signature != m.Signature {
		t.Fatalf("decode: %v, %+v", err, back)
	}
	sig := pack(m.Signature[:])
	want := merkleize(t, [][32]byte{uintChunk(77), specPayloadAttestationDataRoot(t, m.Data), merkleize(t, sig, 0)}, 0)
	if root, err := m.HashTreeRoot(); err != nil || root != want {
		t.Fatalf("root %x, %v; want %x", root, err, want)
	}
	enc[8+40] = 3
	if err := back.UnmarshalSSZ(enc); !errors.Is(err, ErrInvalidBoolean) {
		t.Fatalf("bad boolean in data: %v", err)
	}
}

func TestPayloadAttestationEncoding(t *testing.T) {
	a := testPayloadAttestation()
	enc, err := a.MarshalSSZ()
	if err != nil || len(enc) != 202 || a.SizeSSZ() != 202 {
		t.Fatalf("encoding: %v, %d bytes", err, len(enc))
	}
	if !bytes.Equal(enc[:64], a.AggregationBits) || enc[0] != 0x81 || enc[63] != 0x80 {
		t.Fatalf("bits encode as %x", enc[:64])
	}
	back := PayloadAttestation{AggregationBits: bitfield.NewBitvector512()}
	back.AggregationBits.SetBitAt(3, true)
	if err := back.UnmarshalSSZ(enc); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.AggregationBits, a.AggregationBits) || *back.Data != *a.Data || back.Signature != a.Signature {
		t.Fatalf("decode into a used value: %+v", back)
	}
	bad := bytes.Clone(enc)
	bad[64+41] = 2
	if err := back.UnmarshalSSZ(bad); !errors.Is(err, ErrInvalidBoolean) {
		t.Fatalf("bad boolean: %v", err)
	}
	if err := back.UnmarshalSSZ(enc[:201]); err == nil {
		t.Fatal("short input decoded")
	}
	if !bytes.Equal(back.AggregationBits, a.AggregationBits) {
		t.Fatal("receiver changed on error")
	}
}

func TestPayloadAttestationProgressiveRoot(t *testing.T) {
	for _, a := range []*PayloadAttestation{
		testPayloadAttestation(),
		{AggregationBits: bitfield.NewBitvector512()},
	} {
		data := a.Data
		if data == nil {
			data = new(PayloadAttestationData)
		}
		fields := [][32]byte{
			merkleize(t, pack(a.AggregationBits), 2),
			specPayloadAttestationDataRoot(t, data),
			merkleize(t, pack(a.Signature[:]), 0),
		}
		var activeFields [32]byte
		activeFields[0] = 0b111
		want := hashPair(merkleizeProgressive(t, fields, 1), activeFields)
		got, err := a.HashTreeRoot()
		if err != nil || got != want {
			t.Fatalf("root %x, %v; want %x", got, err, want)
		}
		if plain := merkleize(t, fields, 0); got == plain {
			t.Fatal("progressive root equals the plain container root")
		}
		tree, err := a.GetTree()
		if err != nil || !bytes.Equal(tree.Hash(), want[:]) {
			t.Fatalf("tree root %x, %v; want %x", tree.Hash(), err, want)
		}
	}
}

func TestPayloadAttestationInvalidBits(t *testing.T) {
	for _, bits := range []bitfield.Bitvector512{nil, make([]byte, 63), make([]byte, 65)} {
		a := &PayloadAttestation{AggregationBits: bits}
		if _, err := a.MarshalSSZ(); !errors.Is(err, ErrInvalidAggregationBits) {
			t.Fatalf("%d bytes: marshal %v", len(bits), err)
		}
		if _, err := a.HashTreeRoot(); !errors.Is(err, ErrInvalidAggregationBits) {
			t.Fatalf("%d bytes: hash %v", len(bits), err)
		}
	}
	var nilAtt *PayloadAttestation
	if _, err := nilAtt.MarshalSSZ(); !errors.Is(err, ErrNilAttestation) {
		t.Fatalf("nil: %v", err)
	}
}
