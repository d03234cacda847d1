package gossipsub

import (
	"context"
	"errors"
	"fmt"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/sirupsen/logrus"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/pool"
)

// ErrConfig reports an invalid Config or a nil Intake given to NewValidators.
var ErrConfig = errors.New("attpool/gossipsub: invalid config")

// Intake is what the validators need of a pool: its intake with the
// forwarding peer. *pool.Pool implements it.
type Intake interface {
	ValidateAttestation(ctx context.Context, from pool.Peer, att *attestation.SingleAttestation, subnet uint64) pool.Result
	ValidateAggregate(ctx context.Context, from pool.Peer, sap *attestation.SignedAggregateAndProof) pool.Result
}

// ValidationOf maps the pool's verdict to the router's, by name: the two
// enums are ordered differently (pool: Reject, Ignore, Accept; pubsub:
// Accept, Reject, Ignore), so a cast would swap them. A value that is none
// of the three is Reject, the safe side.
func ValidationOf(v pool.Verdict) pubsub.ValidationResult {
	switch v {
	case pool.Accept:
		return pubsub.ValidationAccept
	case pool.Ignore:
		return pubsub.ValidationIgnore
	default:
		return pubsub.ValidationReject
	}
}

// Outcome is one validated message, given to Config.Observe.
type Outcome struct {
	Topic string
	// From is the peer that forwarded the message (msg.ReceivedFrom).
	From peer.ID
	// ID is the message-id (MessageID).
	ID string
	// Result is the pool's verdict; an undecodable payload is a Reject
	// wrapping ErrUndecodable, not seen by the pool.
	Result pool.Result
	// Validation is what the router was told.
	Validation pubsub.ValidationResult
	// Took is the time from the validator's start to the verdict.
	Took time.Duration
}

// Config configures Validators. Zero fields take the defaults of
// DefaultConfig().
type Config struct {
	// Digest is the fork digest of the topics.
	Digest ForkDigest
	// Self is the host's own peer ID: a message it publishes itself reaches
	// the pool as pool.NoPeer, so it gets no peer state.
	Self peer.ID
	// Timeout bounds one validation (pubsub.WithValidatorTimeout); when it
	// ends the pool answers Ignore (pool.ErrCancelled).
	Timeout time.Duration
	// Concurrency bounds the validations running at once per topic
	// (pubsub.WithValidatorConcurrency); past it the router drops messages
	// ("validation throttled") without penalty. A peer holds at most a
	// quarter of them, or its reserve (1/64 of them) when the others hold
	// three quarters: past that its messages are answered Ignore at once
	// (ErrPeerBusy).
	Concurrency int
	// Logger receives a debug line per message not accepted; nil discards.
	Logger logrus.FieldLogger
	// Observe, when not nil, is called once per validated message with its
	// outcome, on the validator's goroutine: it must not block.
	Observe func(Outcome)
}

// DefaultConfig returns the values the zero fields of a Config stand for,
// a new Config each call (nothing a caller does to one changes the
// defaults).
func DefaultConfig() Config {
	return Config{
		// A third of a slot: an attestation validated later is too late
		// for the aggregation duty of its slot, and the router's goroutine
		// is freed; the pool itself answers within its BatchTime plus a
		// batch.
		Timeout: 4 * time.Second,
		// The validators block until the pool's batched verdict, so the
		// concurrency is the number of messages a batch can gather: the
		// pool's default BatchSize (1024) per topic is also pubsub's
		// default.
		Concurrency: 1024,
	}
}

func (c Config) sanitize() (Config, error) {
	if c.Timeout < 0 || c.Concurrency < 0 {
		return c, fmt.Errorf("%w: negative Timeout or Concurrency", ErrConfig)
	}
	d := DefaultConfig()
	if c.Timeout == 0 {
		c.Timeout = d.Timeout
	}
	if c.Concurrency == 0 {
		c.Concurrency = d.Concurrency
	}
	if c.Logger == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		c.Logger = l
	}
	return c, nil
}

// Validators are the topic validators of one pool.
type Validators struct {
	in    Intake
	cfg   Config
	admit *admission
}

// NewValidators returns the validators of the pool in.
func NewValidators(in Intake, cfg Config) (*Validators, error) {
	if in == nil {
		return nil, fmt.Errorf("%w: nil Intake", ErrConfig)
	}
	cfg, err := cfg.sanitize()
	if err != nil {
		return nil, err
	}
	return &Validators{in: in, cfg: cfg, admit: newAdmission(cfg.Concurrency)}, nil
}

// Attestation is the validator of beacon_attestation_{subnet}.
func (v *Validators) Attestation(subnet uint64) pubsub.ValidatorEx {
	return func(ctx context.Context, from peer.ID, msg *pubsub.Message) pubsub.ValidationResult {
		start := time.Now()
		if !v.enter(from, msg) {
			return v.done(msg, from, start, busy)
		}
		defer v.leave(from, msg)
		att, err := DecodeAttestation(msg.GetData())
		if err != nil {
			return v.done(msg, from, start, pool.Result{Verdict: pool.Reject, Err: err})
		}
		res := v.in.ValidateAttestation(ctx, v.peer(from), att, subnet)
		if res.Verdict == pool.Accept {
			msg.ValidatorData = att
		}
		return v.done(msg, from, start, res)
	}
}

// Aggregate is the validator of beacon_aggregate_and_proof.
func (v *Validators) Aggregate() pubsub.ValidatorEx {
	return func(ctx context.Context, from peer.ID, msg *pubsub.Message) pubsub.ValidationResult {
		start := time.Now()
		if !v.enter(from, msg) {
			return v.done(msg, from, start, busy)
		}
		defer v.leave(from, msg)
		sap, err := DecodeAggregate(msg.GetData())
		if err != nil {
			return v.done(msg, from, start, pool.Result{Verdict: pool.Reject, Err: err})
		}
		res := v.in.ValidateAggregate(ctx, v.peer(from), sap)
		if res.Verdict == pool.Accept {
			msg.ValidatorData = sap
		}
		return v.done(msg, from, start, res)
	}
}

// busy is the verdict of a message whose peer holds its share of its
// topic's validations (admission).
var busy = pool.Result{Verdict: pool.Ignore, Err: ErrPeerBusy}

// enter admits msg's validation (admission.enter); the node's own messages
// always.
func (v *Validators) enter(from peer.ID, msg *pubsub.Message) bool {
	return from == v.cfg.Self || v.admit.enter(from, msg.GetTopic())
}

// leave ends a validation enter admitted.
func (v *Validators) leave(from peer.ID, msg *pubsub.Message) {
	if from != v.cfg.Self {
		v.admit.leave(from, msg.GetTopic())
	}
}

// peer is the pool's name for the forwarding peer.
func (v *Validators) peer(from peer.ID) pool.Peer {
	if from == v.cfg.Self {
		return pool.NoPeer
	}
	return pool.Peer(from)
}

// done reports and returns the router's verdict for res.
func (v *Validators) done(msg *pubsub.Message, from peer.ID, start time.Time, res pool.Result) pubsub.ValidationResult {
	r := ValidationOf(res.Verdict)
	if r != pubsub.ValidationAccept && debugEnabled(v.cfg.Logger) {
		v.cfg.Logger.WithFields(logrus.Fields{
			"topic": msg.GetTopic(), "peer": from, "verdict": res.Verdict, "rule": res.Rule(), "err": res.Err,
		}).Debug("gossip message not accepted")
	}
	if v.cfg.Observe != nil {
		v.cfg.Observe(Outcome{Topic: msg.GetTopic(), From: from, ID: msg.ID, Result: res, Validation: r, Took: time.Since(start)})
	}
	return r
}

// debugEnabled reports whether l may log at debug level: false only for a
// logrus Logger or Entry whose level is above it, so that a flood of
// messages not accepted costs no log fields nobody reads.
func debugEnabled(l logrus.FieldLogger) bool {
	switch l := l.(type) {
	case *logrus.Logger:
		return l.IsLevelEnabled(logrus.DebugLevel)
	case *logrus.Entry:
		return l.Logger.IsLevelEnabled(logrus.DebugLevel)
	}
	return true
}

// Register registers the validators of the aggregate topic and of the given
// attestation subnets on ps, with Config.Timeout and Config.Concurrency.
// On an error the validators registered so far stay registered.
func (v *Validators) Register(ps *pubsub.PubSub, subnets ...uint64) error {
	opts := []pubsub.ValidatorOpt{
		pubsub.WithValidatorTimeout(v.cfg.Timeout),
		pubsub.WithValidatorConcurrency(v.cfg.Concurrency),
	}
	if err := ps.RegisterTopicValidator(AggregateTopic(v.cfg.Digest), v.Aggregate(), opts...); err != nil {
		return fmt.Errorf("attpool/gossipsub: %w", err)
	}
	for _, s := range subnets {
		if s >= pool.AttestationSubnetCount {
			return fmt.Errorf("%w: subnet %d >= %d", ErrConfig, s, pool.AttestationSubnetCount)
		}
		if err := ps.RegisterTopicValidator(AttestationTopic(v.cfg.Digest, s), v.Attestation(s), opts...); err != nil {
			return fmt.Errorf("attpool/gossipsub: %w", err)
		}
	}
	return nil
}
