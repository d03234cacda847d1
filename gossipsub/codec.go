package gossipsub

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

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
	// ErrPayloadTooLarge: the payload would decompress to more than
	// MAX_PAYLOAD_SIZE bytes (it is refused before decompression). It
	// wraps ErrUndecodable.
	ErrPayloadTooLarge = fmt.Errorf("%w: larger than MAX_PAYLOAD_SIZE", ErrUndecodable)
)

// decompress undoes snappy block compression, refusing a payload that
// would decompress past MAX_PAYLOAD_SIZE before allocating for it.
func decompress(data []byte) ([]byte, error) {
	n, err := snappy.DecodedLen(data)
	if err != nil {
		return nil, fmt.Errorf("%w: snappy: %w", ErrUndecodable, err)
	}
	if n > MaxPayloadSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrPayloadTooLarge, n)
	}
	raw, err := snappy.Decode(make([]byte, n), data)
	if err != nil {
		return nil, fmt.Errorf("%w: snappy: %w", ErrUndecodable, err)
	}
	return raw, nil
}

type sszUnmarshaler interface{ UnmarshalSSZ([]byte) error }

func decode(data []byte, v sszUnmarshaler) error {
	raw, err := decompress(data)
	if err != nil {
		return err
	}
	if err := v.UnmarshalSSZ(raw); err != nil {
		return fmt.Errorf("%w: ssz: %w", ErrUndecodable, err)
	}
	return nil
}

// DecodeAttestation decodes the payload of beacon_attestation_{subnet_id}.
func DecodeAttestation(data []byte) (*attestation.SingleAttestation, error) {
	att := new(attestation.SingleAttestation)
	if err := decode(data, att); err != nil {
		return nil, err
	}
	return att, nil
}

// DecodeAggregate decodes the payload of beacon_aggregate_and_proof.
func DecodeAggregate(data []byte) (*attestation.SignedAggregateAndProof, error) {
	sap := new(attestation.SignedAggregateAndProof)
	if err := decode(data, sap); err != nil {
		return nil, err
	}
	return sap, nil
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
// MESSAGE_DOMAIN_INVALID_SNAPPY and the raw data. A payload that would
// decompress past MAX_PAYLOAD_SIZE counts as invalid snappy (it is never
// decompressed).
func MessageID(m *pb.Message) string {
	topic := m.GetTopic()
	domain, body := MessageDomainValidSnappy, m.GetData()
	if raw, err := decompress(body); err == nil {
		body = raw
	} else {
		domain = MessageDomainInvalidSnappy
	}
	h := sha256.New()
	h.Write(domain[:])
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(topic)))
	h.Write(n[:])
	h.Write([]byte(topic))
	h.Write(body)
	return string(h.Sum(nil)[:20])
}
