package gossipsub_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/golang/snappy"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/gossipsub"
)

// declaring returns a payload whose snappy header declares n decompressed
// bytes, followed by body.
func declaring(n uint64, body ...byte) []byte {
	return append(binary.AppendUvarint(nil, n), body...)
}

// bytesPerCall is the heap allocated per call of f: the least average over
// three windows of runs calls each (runtime.MemStats.TotalAlloc counts
// every allocation of the process, so a window that another goroutine
// allocated in, such as the fuzzing engine's, reads high).
func bytesPerCall(runs int, f func()) float64 {
	f()
	least := math.Inf(1)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			f()
		}
		runtime.ReadMemStats(&after)
		least = min(least, float64(after.TotalAlloc-before.TotalAlloc)/float64(runs))
	}
	return least
}

// Topics the message-id function meets, with the largest valid message of
// each of the adapter's topics.
var (
	attTopic = gossipsub.AttestationTopic(gossipsub.ForkDigest{1, 2, 3, 4}, 7)
	aggTopic = gossipsub.AggregateTopic(gossipsub.ForkDigest{1, 2, 3, 4})
	ptcTopic = gossipsub.PayloadAttestationTopic(gossipsub.ForkDigest{1, 2, 3, 4})
	blkTopic = "/eth2/01020304/beacon_block/ssz_snappy"
)

// declaredSizes are the decompressed lengths the oversized payloads
// declare: past every topic's largest message, up to MAX_PAYLOAD_SIZE and
// past it, to the header's largest value.
var declaredSizes = []uint64{
	241, 486, 16830, 100_000, 1 << 20, gossipsub.MaxPayloadSize, gossipsub.MaxPayloadSize + 1, 1<<32 - 1,
}

// A payload that declares a large decompressed length but holds a few
// bytes costs the message-id function and the decoders no more than a
// small multiple of its own size: the declared length is checked against
// the topic's largest message and against what the payload's bytes can
// hold before anything is allocated for it.
func TestOversizedPayloadCost(t *testing.T) {
	bodies := [][]byte{nil, {0}, {0x00, 0x41}, {0xfe, 0xff, 0xff, 0xff, 0xff}, make([]byte, 40)}
	for _, n := range declaredSizes {
		for _, body := range bodies {
			data := declaring(n, body...)
			for _, topic := range []string{attTopic, aggTopic, ptcTopic, blkTopic} {
				m := &pb.Message{Topic: &topic, Data: data}
				if got, limit := bytesPerCall(20, func() { gossipsub.MessageID(m) }), idCostBound(len(data)); got > limit {
					t.Errorf("MessageID on %s, %d bytes declaring %d: %.0f bytes allocated a call, bound %.0f", topic, len(data), n, got, limit)
				}
			}
			for name, decode := range map[string]func([]byte) error{
				"DecodeAttestation": func(b []byte) error { _, err := gossipsub.DecodeAttestation(b); return err },
				"DecodeAggregate":   func(b []byte) error { _, err := gossipsub.DecodeAggregate(b); return err },
				"DecodePayloadAttestation": func(b []byte) error {
					_, err := gossipsub.DecodePayloadAttestation(b)
					return err
				},
			} {
				if err := decode(data); !errors.Is(err, gossipsub.ErrUndecodable) {
					t.Errorf("%s, %d bytes declaring %d: %v, want ErrUndecodable", name, len(data), n, err)
				}
				if got, limit := bytesPerCall(20, func() { _ = decode(data) }), decodeCostBound(len(data)); got > limit {
					t.Errorf("%s, %d bytes declaring %d: %.0f bytes allocated a call, bound %.0f", name, len(data), n, got, limit)
				}
			}
		}
	}
}

// maxAggregate is a SignedAggregateAndProof of the largest encoding: every
// bit of MAX_VALIDATORS_PER_COMMITTEE * MAX_COMMITTEES_PER_SLOT set.
func maxAggregate() *attestation.SignedAggregateAndProof {
	bits := fullBits(attestation.MaxValidatorsPerCommittee * attestation.MaxCommitteesPerSlot)
	cb := bytes.Repeat([]byte{0xff}, attestation.MaxCommitteesPerSlot/8)
	return &attestation.SignedAggregateAndProof{Message: &attestation.AggregateAndProof{
		Aggregate: &attestation.Attestation{
			AggregationBits: bits, CommitteeBits: cb,
			Data: &attestation.AttestationData{Source: &attestation.Checkpoint{}, Target: &attestation.Checkpoint{}},
		},
	}}
}

// The largest valid message of each topic decodes and gets the
// valid-snappy message-id; one byte more is refused by the decoder before
// decompression, and its message-id is the invalid-snappy one over the raw
// data (the specs: the uncompressed payload "must not exceed
// MAX_PAYLOAD_SIZE or the type-specific SSZ bound, whichever is lower").
// The message-id of beacon_attestation_{subnet_id} allows the phase0
// Attestation the topic carried before Electra (485 bytes), a router being
// on both forks' topics around the fork.
func TestLargestMessages(t *testing.T) {
	encode := func(v interface{ MarshalSSZ() ([]byte, error) }) []byte {
		raw, err := v.MarshalSSZ()
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	data := &attestation.AttestationData{Source: &attestation.Checkpoint{}, Target: &attestation.Checkpoint{}}
	phase0 := encode(&attestation.Phase0Attestation{AggregationBits: fullBits(attestation.MaxValidatorsPerCommittee), Data: data})
	for _, c := range []struct {
		topic  string
		raw    []byte // the largest message, for the decoder
		idRaw  []byte // the largest message of any fork, for the message-id
		size   int
		decode func([]byte) error
	}{
		{aggTopic, encode(maxAggregate()), nil, 16829, func(b []byte) error { _, err := gossipsub.DecodeAggregate(b); return err }},
		{attTopic, encode(&attestation.SingleAttestation{Data: data}), phase0, 240, func(b []byte) error { _, err := gossipsub.DecodeAttestation(b); return err }},
		{ptcTopic, encode(&attestation.PayloadAttestationMessage{Data: &attestation.PayloadAttestationData{}}), nil, 146,
			func(b []byte) error { _, err := gossipsub.DecodePayloadAttestation(b); return err }},
	} {
		if len(c.raw) != c.size {
			t.Fatalf("%s: largest message of %d bytes, want %d", c.topic, len(c.raw), c.size)
		}
		if err := c.decode(snappy.Encode(nil, c.raw)); err != nil {
			t.Errorf("%s: largest message (%d bytes): %v", c.topic, len(c.raw), err)
		}
		if err := c.decode(snappy.Encode(nil, append(c.raw, 0))); !errors.Is(err, gossipsub.ErrPayloadTooLarge) {
			t.Errorf("%s: a message of %d bytes: %v, want ErrPayloadTooLarge", c.topic, len(c.raw)+1, err)
		}
		idRaw := c.raw
		if c.idRaw != nil {
			idRaw = c.idRaw
		}
		valid := &pb.Message{Topic: &c.topic, Data: snappy.Encode(nil, idRaw)}
		if id := gossipsub.MessageID(valid); id != specID(1, c.topic, idRaw) {
			t.Errorf("%s: a valid message of %d bytes without the valid-snappy id", c.topic, len(idRaw))
		}
		// The router computes it for every copy received: it allocates
		// only the id (the race detector empties sync.Pools at random).
		if n := testing.AllocsPerRun(20, func() { gossipsub.MessageID(valid) }); n > 1 && !raceEnabled {
			t.Errorf("%s: MessageID of a valid message of %d bytes: %.0f allocations, want 1 (the id)", c.topic, len(idRaw), n)
		}
		over := snappy.Encode(nil, append(idRaw, 0))
		if id := gossipsub.MessageID(&pb.Message{Topic: &c.topic, Data: over}); id != specID(0, c.topic, over) {
			t.Errorf("%s: a message of %d bytes, past the topic's largest: not the invalid-snappy id", c.topic, len(idRaw)+1)
		}
	}
	if len(phase0) != 485 {
		t.Errorf("largest phase0 Attestation: %d bytes, want 485", len(phase0))
	}
	// Other topics (blocks) keep MAX_PAYLOAD_SIZE: a valid payload past the
	// attestation topics' bounds gets the valid-snappy id there, as does one
	// on a topic name that is not the specs' form.
	big := make([]byte, 100_000)
	for _, topic := range []string{
		blkTopic, "/eth2/01020304/beacon_attestation_x/ssz_snappy", "/eth2/01020304/beacon_attestation_/ssz_snappy",
		"beacon_aggregate_and_proof", "/eth2/01020304/beacon_aggregate_and_proof/ssz", "/eth2/beacon_aggregate_and_proof/ssz_snappy",
	} {
		if id := gossipsub.MessageID(&pb.Message{Topic: &topic, Data: snappy.Encode(nil, big)}); id != specID(1, topic, big) {
			t.Errorf("a valid 100 kB payload on %s: not the valid-snappy id", topic)
		}
	}
}

// fullBits is the encoding of a Bitlist[n] (n a multiple of 8) with every
// bit set: n/8 bytes of ones and the length bit.
func fullBits(n int) []byte {
	return append(bytes.Repeat([]byte{0xff}, n/8), 0x01)
}

// BenchmarkOversizedPayload is the cost of a payload of a few bytes
// declaring MAX_PAYLOAD_SIZE in the message-id function (which
// go-libp2p-pubsub runs for every copy received, before any validator) and
// in each decoder: B/op and allocs/op.
func BenchmarkOversizedPayload(b *testing.B) {
	data := declaring(gossipsub.MaxPayloadSize, 0x00, 0x41)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"MessageID/attestation", func() { gossipsub.MessageID(&pb.Message{Topic: &attTopic, Data: data}) }},
		{"MessageID/aggregate", func() { gossipsub.MessageID(&pb.Message{Topic: &aggTopic, Data: data}) }},
		{"MessageID/block", func() { gossipsub.MessageID(&pb.Message{Topic: &blkTopic, Data: data}) }},
		{"DecodeAttestation", func() { _, _ = gossipsub.DecodeAttestation(data) }},
		{"DecodeAggregate", func() { _, _ = gossipsub.DecodeAggregate(data) }},
		{"DecodePayloadAttestation", func() { _, _ = gossipsub.DecodePayloadAttestation(data) }},
	} {
		b.Run(fmt.Sprintf("%s/%dB", c.name, len(data)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.f()
			}
		})
	}
}
