package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/attpool/attpool/gossipsub"
)

// This file is the gossip side: the router the gossipsub adapter's topic
// validators are registered on, simulated in process, and the node's own
// count of their results.

// resultName is the label of a router outcome in the node's metric and
// report (pubsub.ValidationResult has no String method).
func resultName(r pubsub.ValidationResult) string {
	switch r {
	case pubsub.ValidationAccept:
		return "accept"
	case pubsub.ValidationReject:
		return "reject"
	case pubsub.ValidationIgnore:
		return "ignore"
	}
	return fmt.Sprintf("ValidationResult(%d)", int(r))
}

// Topic kinds: the names of the report's rows and of the metric's topic
// label (the 64 attestation subnets count as one kind).
const (
	attestationKind = "beacon_attestation"
	aggregateKind   = "beacon_aggregate_and_proof"
)

// topicKind is the kind of a topic name (gossipsub.AttestationTopic or
// gossipsub.AggregateTopic).
func topicKind(topic string) string {
	if strings.Contains(topic, "/"+aggregateKind+"/") {
		return aggregateKind
	}
	return attestationKind
}

// countValidations is the adapter's Config.Observe: it counts the
// validators' results by topic kind, a metric of the node's own beside the
// pool's, on the same registry. It does not block.
func countValidations(validations *prometheus.CounterVec) func(gossipsub.Outcome) {
	return func(o gossipsub.Outcome) {
		validations.WithLabelValues(topicKind(o.Topic), resultName(o.Validation)).Inc()
	}
}

// newMessage is a gossip message as the router hands it to a validator:
// the topic and the payload as it came off the wire (SSZ, snappy-compressed)
// and the peer that forwarded it.
func newMessage(topic string, data []byte, from peer.ID) pubsub.Message {
	return pubsub.Message{Message: &pb.Message{Topic: &topic, Data: data}, ReceivedFrom: from}
}

// router stands for the pubsub router in process: it holds a validator per
// topic (as pubsub.RegisterTopicValidator) and runs it, with a deadline (as
// pubsub.WithValidatorTimeout), on every message a peer sends. Forwarding,
// meshes and peer scoring are left out; examples/p2p runs the same
// validators behind real go-libp2p hosts.
type router struct {
	timeout time.Duration

	mu         sync.RWMutex
	validators map[string]pubsub.ValidatorEx
}

func newRouter(timeout time.Duration) *router {
	return &router{timeout: timeout, validators: make(map[string]pubsub.ValidatorEx)}
}

// registerTopicValidator is pubsub.RegisterTopicValidator.
func (r *router) registerTopicValidator(topic string, v pubsub.ValidatorEx) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.validators[topic]; dup {
		return fmt.Errorf("duplicate validator for topic %s", topic)
	}
	r.validators[topic] = v
	return nil
}

// handle validates a message received from msg.ReceivedFrom. A message on a
// topic the node is not subscribed to is ignored.
func (r *router) handle(ctx context.Context, msg *pubsub.Message) pubsub.ValidationResult {
	r.mu.RLock()
	v := r.validators[msg.GetTopic()]
	r.mu.RUnlock()
	if v == nil {
		return pubsub.ValidationIgnore
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	return v(ctx, msg.ReceivedFrom, msg)
}
