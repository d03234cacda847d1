package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/golang/snappy"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/pool"
)

// This file is the gossip side: the shapes of go-libp2p-pubsub's topic
// validators, defined locally so that the example needs no libp2p, and the
// two validators that feed the pool.

// ValidationResult is what a topic validator tells the router, as
// go-libp2p-pubsub's pubsub.ValidationResult.
type ValidationResult int

const (
	// ValidationAccept: deliver the message and forward it to the mesh.
	ValidationAccept ValidationResult = iota
	// ValidationReject: drop the message and penalise the peer that sent it.
	ValidationReject
	// ValidationIgnore: drop the message without penalty.
	ValidationIgnore
)

func (r ValidationResult) String() string {
	switch r {
	case ValidationAccept:
		return "accept"
	case ValidationReject:
		return "reject"
	case ValidationIgnore:
		return "ignore"
	}
	return fmt.Sprintf("ValidationResult(%d)", int(r))
}

// peerID stands for libp2p's peer.ID.
type peerID string

// Message is the part of a pubsub.Message a validator reads: the topic and
// the payload as it came off the wire (SSZ, snappy-compressed).
type Message struct {
	Topic string
	Data  []byte
}

// TopicValidator is the shape of a pubsub validator
// (pubsub.ValidatorEx): one per topic, called concurrently for every
// message before it is delivered or forwarded.
type TopicValidator func(ctx context.Context, from peerID, msg *Message) ValidationResult

// fromVerdict maps the pool's verdict to the router's: the pool's Verdict
// follows the same three outcomes, named after the specs' [REJECT] and
// [IGNORE] rules.
func fromVerdict(v pool.Verdict) ValidationResult {
	switch v {
	case pool.Accept:
		return ValidationAccept
	case pool.Ignore:
		return ValidationIgnore
	default:
		return ValidationReject
	}
}

// Topic names: /eth2/{fork_digest}/{name}/ssz_snappy.
const (
	attestationTopicFormat = "/eth2/%x/beacon_attestation_%d/ssz_snappy"
	aggregateTopicFormat   = "/eth2/%x/beacon_aggregate_and_proof/ssz_snappy"
)

func attestationTopic(digest [4]byte, subnet uint64) string {
	return fmt.Sprintf(attestationTopicFormat, digest, subnet)
}

func aggregateTopic(digest [4]byte) string { return fmt.Sprintf(aggregateTopicFormat, digest) }

// maxPayloadSize is MAX_PAYLOAD_SIZE: the largest uncompressed gossip
// payload a node accepts.
const maxPayloadSize = 10 << 20

var errPayloadTooLarge = errors.New("payload too large")

// sszUnmarshaler is what the attestation containers implement.
type sszUnmarshaler interface{ UnmarshalSSZ([]byte) error }

// decodeGossip decompresses a gossip payload (snappy block format) and
// decodes its SSZ into v. The decoded length is checked before any
// allocation.
func decodeGossip(data []byte, v sszUnmarshaler) error {
	n, err := snappy.DecodedLen(data)
	if err != nil {
		return err
	}
	if n > maxPayloadSize {
		return fmt.Errorf("%w: %d bytes", errPayloadTooLarge, n)
	}
	raw, err := snappy.Decode(make([]byte, n), data)
	if err != nil {
		return err
	}
	return v.UnmarshalSSZ(raw)
}

// encodeGossip is decodeGossip's inverse, for the simulated peers.
func encodeGossip(v interface{ MarshalSSZ() ([]byte, error) }) ([]byte, error) {
	raw, err := v.MarshalSSZ()
	if err != nil {
		return nil, err
	}
	return encodeRaw(raw), nil
}

// encodeRaw compresses a payload as gossip does (snappy block format).
func encodeRaw(raw []byte) []byte { return snappy.Encode(nil, raw) }

// gossipHandlers builds the node's topic validators over the pool.
type gossipHandlers struct {
	pool *pool.Pool
	log  logrus.FieldLogger
	// validations counts the validators' results by topic kind, a metric of
	// the node's own beside the pool's, on the same registry.
	validations *prometheus.CounterVec
}

// attestationValidator is the validator of beacon_attestation_{subnet}.
func (h *gossipHandlers) attestationValidator(subnet uint64) TopicValidator {
	return func(ctx context.Context, from peerID, msg *Message) ValidationResult {
		att := new(attestation.SingleAttestation)
		if err := decodeGossip(msg.Data, att); err != nil {
			return h.done("beacon_attestation", from, msg, ValidationReject, "decode", err)
		}
		// Blocks until the pool's verdict: the signature waits a few
		// milliseconds for a batch. ctx is the router's validation
		// deadline; if it ends first the pool answers Ignore.
		res := h.pool.ValidateAttestation(ctx, att, subnet)
		// On Accept a real node would also hand the attestation to fork
		// choice (on_attestation); the pool has already aggregated it.
		return h.done("beacon_attestation", from, msg, fromVerdict(res.Verdict), res.Rule(), res.Err)
	}
}

// aggregateValidator is the validator of beacon_aggregate_and_proof.
func (h *gossipHandlers) aggregateValidator() TopicValidator {
	return func(ctx context.Context, from peerID, msg *Message) ValidationResult {
		sap := new(attestation.SignedAggregateAndProof)
		if err := decodeGossip(msg.Data, sap); err != nil {
			return h.done("beacon_aggregate_and_proof", from, msg, ValidationReject, "decode", err)
		}
		res := h.pool.ValidateAggregate(ctx, sap)
		return h.done("beacon_aggregate_and_proof", from, msg, fromVerdict(res.Verdict), res.Rule(), res.Err)
	}
}

// done counts and logs a validation result.
func (h *gossipHandlers) done(kind string, from peerID, msg *Message, r ValidationResult, rule string, err error) ValidationResult {
	h.validations.WithLabelValues(kind, r.String()).Inc()
	if r != ValidationAccept {
		h.log.WithFields(logrus.Fields{
			"topic": msg.Topic, "peer": from, "result": r, "rule": rule, "err": err,
		}).Debug("gossip message not accepted")
	}
	return r
}

// router stands for the pubsub router: it holds a validator per topic
// (pubsub.RegisterTopicValidator) and runs it, with a deadline, on every
// message a peer sends. Forwarding, meshes and peer scoring are left out.
type router struct {
	timeout time.Duration

	mu         sync.RWMutex
	validators map[string]TopicValidator
}

func newRouter(timeout time.Duration) *router {
	return &router{timeout: timeout, validators: make(map[string]TopicValidator)}
}

// registerTopicValidator is pubsub.RegisterTopicValidator.
func (r *router) registerTopicValidator(topic string, v TopicValidator) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.validators[topic]; dup {
		return fmt.Errorf("duplicate validator for topic %s", topic)
	}
	r.validators[topic] = v
	return nil
}

// handle validates a message received from a peer. A message on a topic the
// node is not subscribed to is ignored.
func (r *router) handle(ctx context.Context, from peerID, msg *Message) ValidationResult {
	r.mu.RLock()
	v := r.validators[msg.Topic]
	r.mu.RUnlock()
	if v == nil {
		return ValidationIgnore
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	return v(ctx, from, msg)
}
