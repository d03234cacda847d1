package gossipsub_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/golang/snappy"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/gossipsub"
)

// fuzzTopics are the topics the fuzz targets pick from, with the largest
// payload each allows in the message-id function (the specs' type bounds;
// beacon_attestation_{subnet_id} the phase0 Attestation's, which covers
// SingleAttestation's).
var fuzzTopics = []struct {
	topic string
	limit int
}{
	{attTopic, 485}, {aggTopic, 16829}, {ptcTopic, 146}, {blkTopic, gossipsub.MaxPayloadSize},
}

// referenceCap bounds the declared lengths the fuzz targets decompress
// themselves (snappy.Decode allocates the declared length first).
const referenceCap = 1 << 16

// seedDeclared adds the fuzz targets' seeds: oversized headers over a few
// bytes, and valid messages of every topic's type with their own lengths.
func seedDeclared(f *testing.F) {
	for _, n := range declaredSizes {
		for sel := range uint8(len(fuzzTopics)) {
			f.Add(n, []byte{0x00, 0x41}, sel)
		}
	}
	att, _ := (&attestation.SingleAttestation{Data: &attestation.AttestationData{Source: &attestation.Checkpoint{}, Target: &attestation.Checkpoint{}}}).MarshalSSZ()
	agg, _ := maxAggregate().MarshalSSZ()
	ptc, _ := (&attestation.PayloadAttestationMessage{Data: &attestation.PayloadAttestationData{}}).MarshalSSZ()
	for sel, raw := range [][]byte{att, agg, ptc, make([]byte, 300)} {
		body := snappy.Encode(nil, raw)[len(declaring(uint64(len(raw)))):] // the block after its header
		f.Add(uint64(len(raw)), body, uint8(sel))
		f.Add(uint64(len(raw)+1), body, uint8(sel))
	}
}

// idCostBound is what the message-id function may allocate for a payload
// of size bytes: its decompression (at most 64/3 of its size, rounded up
// to the allocator's size class) and a hash state.
func idCostBound(size int) float64 { return float64(24*size + 1024) }

// decodeCostBound is what a decoder may allocate for a payload of size
// bytes: its decompression and the decoded value, which holds no more,
// plus an error value.
func decodeCostBound(size int) float64 { return float64(48*size + 2048) }

// FuzzMessageIDDeclared: for a payload declaring any length, the
// message-id is the specs' valid-snappy id exactly when the payload
// decompresses within its topic's bound, the invalid-snappy id otherwise,
// and it allocates no more than a small multiple of the payload.
func FuzzMessageIDDeclared(f *testing.F) {
	seedDeclared(f)
	f.Fuzz(func(t *testing.T, declared uint64, body []byte, sel uint8) {
		tp := fuzzTopics[int(sel)%len(fuzzTopics)]
		data := declaring(declared, body...)
		m := &pb.Message{Topic: &tp.topic, Data: data}
		id := gossipsub.MessageID(m)
		if len(id) != 20 {
			t.Fatalf("message-id of %d bytes", len(id))
		}
		if declared <= referenceCap {
			want := specID(0, tp.topic, data)
			if raw, err := snappy.Decode(nil, data); err == nil && len(raw) <= tp.limit {
				want = specID(1, tp.topic, raw)
			}
			if id != want {
				t.Fatalf("%s, %d bytes declaring %d: not the specs' id", tp.topic, len(data), declared)
			}
		} else if id != specID(0, tp.topic, data) {
			t.Fatalf("%s, %d bytes declaring %d: not the invalid-snappy id", tp.topic, len(data), declared)
		}
		if got := bytesPerCall(8, func() { gossipsub.MessageID(m) }); got > idCostBound(len(data)) {
			t.Fatalf("%s, %d bytes declaring %d: %.0f bytes allocated a call, bound %.0f", tp.topic, len(data), declared, got, idCostBound(len(data)))
		}
	})
}

// sszValue is a decoded message.
type sszValue interface {
	MarshalSSZ() ([]byte, error)
	UnmarshalSSZ([]byte) error
}

// decoders are the topics' decoders, with their types' largest encodings.
var decoders = []struct {
	limit  int
	decode func([]byte) (sszValue, error)
	zero   func() sszValue
}{
	{240, func(b []byte) (sszValue, error) { return gossipsub.DecodeAttestation(b) },
		func() sszValue { return new(attestation.SingleAttestation) }},
	{16829, func(b []byte) (sszValue, error) { return gossipsub.DecodeAggregate(b) },
		func() sszValue { return new(attestation.SignedAggregateAndProof) }},
	{146, func(b []byte) (sszValue, error) { return gossipsub.DecodePayloadAttestation(b) },
		func() sszValue { return new(attestation.PayloadAttestationMessage) }},
}

// FuzzDecodeDeclared: for a payload declaring any length, each decoder
// refuses with ErrPayloadTooLarge one declaring more than its type's
// largest encoding, fails only with ErrUndecodable, decodes exactly the
// payloads whose decompression is an encoding of its type, and allocates
// no more than a small multiple of the payload.
func FuzzDecodeDeclared(f *testing.F) {
	seedDeclared(f)
	f.Fuzz(func(t *testing.T, declared uint64, body []byte, sel uint8) {
		d := decoders[int(sel)%len(decoders)]
		data := declaring(declared, body...)
		v, err := d.decode(data)
		if err != nil && !errors.Is(err, gossipsub.ErrUndecodable) {
			t.Fatalf("%d bytes declaring %d: %v, not ErrUndecodable", len(data), declared, err)
		}
		if declared > uint64(d.limit) && declared < 1<<32 && !errors.Is(err, gossipsub.ErrPayloadTooLarge) {
			t.Fatalf("%d bytes declaring %d, past %d: %v, want ErrPayloadTooLarge", len(data), declared, d.limit, err)
		}
		if declared <= uint64(d.limit) {
			// The reference: snappy, then the type's own decoder.
			want := d.zero()
			raw, rerr := snappy.Decode(nil, data)
			if rerr == nil {
				rerr = want.UnmarshalSSZ(raw)
			}
			if (err == nil) != (rerr == nil) {
				t.Fatalf("%d bytes declaring %d: decoder says %v, snappy and SSZ say %v", len(data), declared, err, rerr)
			}
			if err == nil {
				if enc, merr := v.MarshalSSZ(); merr != nil || !bytes.Equal(enc, raw) {
					t.Fatalf("%d bytes declaring %d: decoded to a value encoding to other bytes (%v)", len(data), declared, merr)
				}
			}
		}
		if got := bytesPerCall(8, func() { _, _ = d.decode(data) }); got > decodeCostBound(len(data)) {
			t.Fatalf("%d bytes declaring %d: %.0f bytes allocated a call, bound %.0f", len(data), declared, got, decodeCostBound(len(data)))
		}
	})
}
