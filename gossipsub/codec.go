package gossipsub

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"strings"
	"sync"

	"github.com/golang/snappy"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"

	"github.com/attpool/attpool/attestation"
)

// MaxPayloadSize is MAX_PAYLOAD_SIZE: the largest uncompressed gossip payload.
const MaxPayloadSize = 10 << 20

// MaxMessageSize is the specs' max_message_size(): the largest gossip
// message, max_compressed_len(MAX_PAYLOAD_SIZE) + 1024 for framing.
const MaxMessageSize = 32 + MaxPayloadSize + MaxPayloadSize/6 + 1024

// The message-id domains of the specs (phase0 p2p-interface.md).
var (
	MessageDomainInvalidSnappy = [4]byte{0x00, 0x00, 0x00, 0x00}
	MessageDomainValidSnappy   = [4]byte{0x01, 0x00, 0x00, 0x00}
)

var (
	// ErrUndecodable: the payload is not snappy block compression of an SSZ
	// encoding of the topic's type. The specs: "Clients MUST reject (fail
	// validation) messages containing an incorrect type, or invalid
	// payload."
	ErrUndecodable = errors.New("attpool/gossipsub: undecodable payload")
	// ErrPayloadTooLarge: the payload would decompress to more than the
	// largest message of its topic (the specs: "The size of the
	// uncompressed payload must not exceed MAX_PAYLOAD_SIZE or the
	// type-specific SSZ bound, whichever is lower"). It is refused before
	// decompression. It wraps ErrUndecodable.
	ErrPayloadTooLarge = fmt.Errorf("%w: larger than its topic's largest message", ErrUndecodable)

	// errOverExpansion: the payload declares more than its bytes can hold
	// (expansionNum/expansionDen of them), so it is not valid snappy.
	errOverExpansion = fmt.Errorf("%w: snappy: declared length past what the payload can hold", ErrUndecodable)
)

// The largest SSZ encodings of the messages of the adapter's topics, the
// specs' type-specific bounds on the uncompressed payload.
var (
	// maxSingleAttestation: SingleAttestation is fixed-size (240 bytes).
	maxSingleAttestation = (&attestation.SingleAttestation{}).SizeSSZ()
	// maxAggregate: SignedAggregateAndProof's fixed part and the
	// aggregation bitlist of MAX_VALIDATORS_PER_COMMITTEE *
	// MAX_COMMITTEES_PER_SLOT bits with its length bit (16,829 bytes).
	maxAggregate = (&attestation.SignedAggregateAndProof{Message: &attestation.AggregateAndProof{
		Aggregate: &attestation.Attestation{},
	}}).SizeSSZ() + bitlistBytes(attestation.MaxValidatorsPerCommittee*attestation.MaxCommitteesPerSlot)
	// maxPayloadAttestation: PayloadAttestationMessage is fixed-size (146
	// bytes).
	maxPayloadAttestation = (&attestation.PayloadAttestationMessage{}).SizeSSZ()
	// maxPhase0Attestation: beacon_attestation_{subnet_id} carried the
	// phase0 Attestation before Electra (485 bytes at most), and the
	// message-id function serves every fork digest the router is on.
	maxPhase0Attestation = (&attestation.Phase0Attestation{}).SizeSSZ() + bitlistBytes(attestation.MaxValidatorsPerCommittee)
)

// bitlistBytes is the encoded size of a full Bitlist[n]: n bits and the
// length bit.
func bitlistBytes(n int) int { return n/8 + 1 }

// A block of snappy's format expands at most 64/3 times: its densest
// element, a copy with a two-byte offset, takes 3 bytes for at most 64
// bytes of output. A payload declaring more than 64/3 of its own size is not
// valid snappy, and is refused without decompressing.
const expansionNum, expansionDen = 64, 3

// inflate undoes snappy block compression into dst when it has room (a
// new buffer otherwise), refusing before any allocation a payload that
// declares more than limit bytes or more than its bytes can hold, so a
// payload of c bytes costs at most 64c/3 bytes. It returns the declared
// length, and an unformatted error (ErrPayloadTooLarge, errOverExpansion or
// snappy's), which allocates nothing.
func inflate(dst, data []byte, limit int) (raw []byte, n int, err error) {
	n, err = snappy.DecodedLen(data)
	switch {
	case err != nil:
		return nil, 0, err
	case n > limit:
		return nil, n, ErrPayloadTooLarge
	case expansionDen*n > expansionNum*len(data):
		return nil, n, errOverExpansion
	}
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	raw, err = snappy.Decode(dst[:n], data)
	return raw, n, err
}

type sszUnmarshaler interface{ UnmarshalSSZ([]byte) error }

// decode decodes data into v, whose encoding is at most limit bytes.
func decode(data []byte, v sszUnmarshaler, limit int) error {
	raw, n, err := inflate(nil, data, limit)
	switch {
	case errors.Is(err, ErrUndecodable): // ErrPayloadTooLarge, errOverExpansion
		return fmt.Errorf("%w (%d bytes declared in %d, limit %d)", err, n, len(data), limit)
	case err != nil:
		return fmt.Errorf("%w: snappy: %w", ErrUndecodable, err)
	}
	if err := v.UnmarshalSSZ(raw); err != nil {
		return fmt.Errorf("%w: ssz: %w", ErrUndecodable, err)
	}
	return nil
}

// DecodeAttestation decodes the payload of beacon_attestation_{subnet_id}.
// A payload declaring more than a SingleAttestation's 240 bytes is refused
// with ErrPayloadTooLarge before decompression.
func DecodeAttestation(data []byte) (*attestation.SingleAttestation, error) {
	att := new(attestation.SingleAttestation)
	if err := decode(data, att, maxSingleAttestation); err != nil {
		return nil, err
	}
	return att, nil
}

// DecodeAggregate decodes the payload of beacon_aggregate_and_proof. A
// payload declaring more than the largest SignedAggregateAndProof (16,829
// bytes) is refused with ErrPayloadTooLarge before decompression.
func DecodeAggregate(data []byte) (*attestation.SignedAggregateAndProof, error) {
	sap := new(attestation.SignedAggregateAndProof)
	if err := decode(data, sap, maxAggregate); err != nil {
		return nil, err
	}
	return sap, nil
}

// DecodePayloadAttestation decodes the payload of
// payload_attestation_message (Gloas). A payload declaring more than a
// PayloadAttestationMessage's 146 bytes is refused with ErrPayloadTooLarge
// before decompression.
func DecodePayloadAttestation(data []byte) (*attestation.PayloadAttestationMessage, error) {
	m := new(attestation.PayloadAttestationMessage)
	if err := decode(data, m, maxPayloadAttestation); err != nil {
		return nil, err
	}
	return m, nil
}

// Encode is the ssz_snappy encoding of a message: SSZ, then snappy block
// compression.
func Encode(v interface{ MarshalSSZ() ([]byte, error) }) ([]byte, error) {
	raw, err := v.MarshalSSZ()
	if err != nil {
		return nil, fmt.Errorf("attpool/gossipsub: encode: %w", err)
	}
	return snappy.Encode(nil, raw), nil
}

// MessageID is the specs' message-id function from Altair on (a
// pubsub.MsgIdFunction): if message.data has a valid snappy decompression,
// SHA256(MESSAGE_DOMAIN_VALID_SNAPPY + uint_to_bytes(uint64(len(topic))) +
// topic + snappy_decompress(data))[:20]; otherwise the same over
// MESSAGE_DOMAIN_INVALID_SNAPPY and the raw data.
//
// The router computes it for every copy of a message it receives, before
// any validator runs, so a payload is decompressed only when the length its
// header declares could be a valid message: at most the largest message of
// its topic (beacon_attestation_{subnet_id}, beacon_aggregate_and_proof and
// payload_attestation_message; MAX_PAYLOAD_SIZE on other topics), and at
// most what the payload's bytes can hold (64/3 of them). Any other payload
// counts as invalid snappy, as Prysm does for one declaring more than
// MAX_PAYLOAD_SIZE: it is not a valid message of the topic, and every
// client rejects it. So a message costs at most about 21 times its own size
// in allocation.
func MessageID(m *pb.Message) string {
	topic, data := m.GetTopic(), m.GetData()
	st := idStates.Get().(*idState)
	defer idStates.Put(st)
	domain, body := MessageDomainValidSnappy, data
	if raw, _, err := inflate(st.body[:0], data, topicLimit(topic)); err == nil {
		body = raw
		if cap(raw) <= idBodySize {
			st.body = raw[:0]
		}
	} else {
		domain = MessageDomainInvalidSnappy
	}
	head := append(st.head[:0], domain[:]...)
	head = binary.LittleEndian.AppendUint64(head, uint64(len(topic)))
	head = append(head, topic...)
	if cap(head) <= idHeadSize {
		st.head = head[:0]
	}
	st.h.Reset()
	st.h.Write(head)
	st.h.Write(body)
	st.sum = st.h.Sum(st.sum[:0])
	return string(st.sum[:20])
}

// idState is MessageID's reused state (idStates), so that the message-id
// of an attestation or an aggregate, computed for every copy received,
// allocates only the id once the state has served one: the hash, and
// buffers for the decompressed payload (kept up to idBodySize: the largest
// aggregate is 16,829 bytes), the rest of the hashed input (up to
// idHeadSize) and the sum. A new state costs what the call needs, so a
// call costs no more than one without reuse.
type idState struct {
	h               hash.Hash
	head, body, sum []byte
}

var idStates = sync.Pool{New: func() any { return &idState{h: sha256.New()} }}

const idBodySize, idHeadSize = 32 << 10, 256

// topicLimit is the largest uncompressed payload of topic: its message
// type's largest encoding for the topics of attestations, aggregates and
// PTC votes, MAX_PAYLOAD_SIZE for any other.
func topicLimit(topic string) int {
	// /eth2/{fork_digest}/{name}/ssz_snappy
	rest, ok1 := strings.CutPrefix(topic, "/eth2/")
	_, rest, ok2 := strings.Cut(rest, "/")
	name, ok3 := strings.CutSuffix(rest, "/ssz_snappy")
	if !ok1 || !ok2 || !ok3 {
		return MaxPayloadSize
	}
	switch {
	case name == "beacon_aggregate_and_proof":
		return maxAggregate
	case name == "payload_attestation_message":
		return maxPayloadAttestation
	case isSubnetTopic(name, "beacon_attestation_"):
		return max(maxSingleAttestation, maxPhase0Attestation)
	}
	return MaxPayloadSize
}

// isSubnetTopic reports whether name is prefix followed by a decimal
// subnet number.
func isSubnetTopic(name, prefix string) bool {
	id, ok := strings.CutPrefix(name, prefix)
	if !ok || id == "" {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
