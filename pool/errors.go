package pool

import (
	"errors"
	"fmt"

	"github.com/attpool/attpool/attestation"
)

// Verdict is the gossip validation outcome of a message, as libp2p gossipsub
// understands it: Reject (the zero value) penalises the sender, Ignore drops
// the message without penalty, Accept forwards it.
type Verdict uint8

const (
	// Reject: the message is invalid; do not forward it, penalise the peer.
	Reject Verdict = iota
	// Ignore: do not forward the message, do not penalise the peer.
	Ignore
	// Accept: the message is valid; forward it.
	Accept
)

// String returns "reject", "ignore" or "accept".
func (v Verdict) String() string {
	switch v {
	case Reject:
		return "reject"
	case Ignore:
		return "ignore"
	case Accept:
		return "accept"
	default:
		return fmt.Sprintf("verdict(%d)", uint8(v))
	}
}

// Result is the verdict on one message and, unless it is Accept, the reason:
// an error wrapping one of the sentinel errors of this package, one per
// validation rule. The pool's Results have Err nil exactly when the verdict
// is Accept. The zero Result is a Reject (with no reason).
//
// A Result also implements error, so that errors.Is(res, pool.ErrAlreadySeen)
// works: Error returns the verdict and the reason, Unwrap returns Err. On
// Accept it is not an error: Err is nil, Error returns "accept", Unwrap
// returns nil and errors.Is(res, e) is false for every sentinel e. As it is
// a struct, a Result stored in an error variable is not nil even on Accept:
// decide on res.Verdict (or res.Err), and return res.Err, not res, where an
// error is wanted.
type Result struct {
	Verdict Verdict
	Err     error
	// Indexed is, when an attestation or an aggregate is accepted, what
	// fork choice needs of it. It holds its attesting indices (sorted) and
	// its data, so that the node need not compute committees again. Its
	// Data may be shared with other Results: do not modify it. nil
	// otherwise.
	Indexed *attestation.IndexedAttestation
	// Payload is, when a payload attestation message is accepted, what fork
	// choice needs of it (on_payload_attestation_message): its validator,
	// its data and the validator's positions in the slot's PTC. nil
	// otherwise.
	Payload *PayloadVote
}

// Error returns the verdict and its reason.
func (r Result) Error() string {
	if r.Err == nil {
		return r.Verdict.String()
	}
	return r.Verdict.String() + ": " + r.Err.Error()
}

// Unwrap returns r.Err.
func (r Result) Unwrap() error { return r.Err }

// Rule returns the short name of the rule that decided r ("accept" for an
// accepted message, "unknown" for an error that names no rule). It is the
// label of the verdict metric.
func (r Result) Rule() string {
	if r.Verdict == Accept && r.Err == nil {
		return "accept"
	}
	var re *ruleError
	if errors.As(r.Err, &re) {
		return re.name
	}
	return "unknown"
}

// ruleError is the type of the sentinel errors: a message and the short rule
// name used as a metric label.
type ruleError struct {
	name string
	msg  string
}

func (e *ruleError) Error() string { return "attpool/pool: " + e.msg }

func newRule(name, msg string) error { return &ruleError{name: name, msg: msg} }

// Sentinel errors. There is one per validation rule of the consensus specs'
// gossip topics beacon_attestation_{subnet_id} and
// beacon_aggregate_and_proof (Electra, and the rules Gloas adds) and
// payload_attestation_message (Gloas). There is also one per condition of
// the pool itself. A Result's Err wraps exactly one of them.
var (
	// ErrMalformed: a nil message, nil data, or bitfields that are not valid
	// SSZ (the message would not have decoded). REJECT.
	ErrMalformed = newRule("malformed", "malformed message")
	// ErrDataIndexNonZero: [REJECT] attestation.data.index == 0.
	ErrDataIndexNonZero = newRule("data_index_nonzero", "data index is not zero")
	// ErrCommitteeBits: [REJECT] len(committee_indices) == 1 (aggregates).
	ErrCommitteeBits = newRule("committee_bits", "committee bits do not name exactly one committee")
	// ErrCommitteeIndex: [REJECT] the committee index is within the expected
	// range.
	ErrCommitteeIndex = newRule("committee_index", "committee index out of range")
	// ErrWrongSubnet: [REJECT] the attestation is for the correct subnet.
	ErrWrongSubnet = newRule("wrong_subnet", "attestation is for another subnet")
	// ErrFutureSlot: [IGNORE] the slot is not from a future slot (with a
	// MAXIMUM_GOSSIP_CLOCK_DISPARITY allowance).
	ErrFutureSlot = newRule("future_slot", "slot is in the future")
	// ErrEpochWindow: [IGNORE] the epoch of data.slot is the current or the
	// previous epoch (with a MAXIMUM_GOSSIP_CLOCK_DISPARITY allowance).
	ErrEpochWindow = newRule("epoch_window", "epoch is neither current nor previous")
	// ErrTargetEpoch: [REJECT] the attestation's epoch matches its target.
	ErrTargetEpoch = newRule("target_epoch", "target epoch does not match slot")
	// ErrNotInCommittee: [REJECT] the attester is a member of the committee.
	ErrNotInCommittee = newRule("not_in_committee", "attester is not in the committee")
	// ErrAlreadySeen: [IGNORE] no other valid attestation seen for this
	// target epoch and validator.
	ErrAlreadySeen = newRule("already_seen", "attestation already seen for this epoch and validator")
	// ErrInvalidSignature: [REJECT] the attestation signature is valid.
	ErrInvalidSignature = newRule("invalid_signature", "invalid attestation signature")
	// ErrBlockUnknown: [IGNORE] the block being voted for has been seen.
	ErrBlockUnknown = newRule("block_unknown", "block voted for has not been seen")
	// ErrBlockInvalid: [REJECT] the block being voted for passes validation.
	ErrBlockInvalid = newRule("block_invalid", "block voted for failed validation")
	// ErrTargetNotAncestor: [REJECT] the target block is an ancestor of the
	// LMD vote block.
	ErrTargetNotAncestor = newRule("target_not_ancestor", "target block is not an ancestor of the voted block")
	// ErrFinalizedNotAncestor: [IGNORE] the finalized checkpoint is an
	// ancestor of the block.
	ErrFinalizedNotAncestor = newRule("finalized_not_ancestor", "finalized checkpoint is not an ancestor of the voted block")

	// ErrDataIndexRange: [REJECT] the attestation's data index is 0 or 1
	// (Gloas).
	ErrDataIndexRange = newRule("data_index_range", "data index is neither 0 nor 1")
	// ErrSameSlotPayload: [REJECT] for same-slot attestations, the payload
	// cannot yet be present (Gloas).
	ErrSameSlotPayload = newRule("same_slot_payload", "same-slot attestation says the payload is present")
	// ErrPayloadUnverified: [IGNORE] the corresponding execution payload
	// envelope has been seen and verified (Gloas, data index 1).
	ErrPayloadUnverified = newRule("payload_unverified", "payload envelope not seen and verified")
	// ErrPayloadOptimistic: [IGNORE] the attested execution payload is
	// optimistic (Gloas, data index 1).
	ErrPayloadOptimistic = newRule("payload_optimistic", "attested payload is optimistic")
	// ErrPayloadInvalid: [REJECT] the attested execution payload is
	// processed and invalid (Gloas, data index 1).
	ErrPayloadInvalid = newRule("payload_invalid", "attested payload is invalid")

	// ErrAggregationBitsLength: [REJECT] the number of aggregation bits
	// matches the committee size.
	ErrAggregationBitsLength = newRule("aggregation_bits_length", "aggregation bits length does not match committee size")
	// ErrNoParticipants: [REJECT] the aggregate attestation has participants.
	ErrNoParticipants = newRule("no_participants", "aggregate has no participants")
	// ErrAggregateSeen: [IGNORE] a valid aggregate with a superset of
	// aggregation bits has not already been seen.
	ErrAggregateSeen = newRule("aggregate_seen", "a superset of the aggregate was already seen")
	// ErrAggregatorSeen: [IGNORE] this is the first valid aggregate for this
	// epoch and aggregator.
	ErrAggregatorSeen = newRule("aggregator_seen", "aggregate already seen for this epoch and aggregator")
	// ErrNotAggregator: [REJECT] the selection proof selects the validator as
	// an aggregator.
	ErrNotAggregator = newRule("not_aggregator", "selection proof does not select an aggregator")
	// ErrAggregatorNotInCommittee: [REJECT] the aggregator's validator index
	// is within the committee.
	ErrAggregatorNotInCommittee = newRule("aggregator_not_in_committee", "aggregator is not in the committee")
	// ErrInvalidSelectionProof: [REJECT] the selection proof signature is
	// valid.
	ErrInvalidSelectionProof = newRule("invalid_selection_proof", "invalid selection proof signature")
	// ErrInvalidAggregatorSignature: [REJECT] the aggregator signature is
	// valid.
	ErrInvalidAggregatorSignature = newRule("invalid_aggregator_signature", "invalid aggregator signature")
	// ErrInvalidAggregateSignature: [REJECT] the aggregate signature is valid.
	ErrInvalidAggregateSignature = newRule("invalid_aggregate_signature", "invalid aggregate signature")

	// ErrNotCurrentSlot: [IGNORE] the payload attestation's slot is the
	// current slot.
	ErrNotCurrentSlot = newRule("not_current_slot", "payload attestation's slot is not the current slot")
	// ErrPayloadAttestationSeen: [IGNORE] this is the first valid payload
	// attestation from this validator index (for the slot).
	ErrPayloadAttestationSeen = newRule("payload_attestation_seen", "payload attestation already seen for this slot and validator")
	// ErrBlockSlot: [IGNORE] the payload attestation's block is at the
	// assigned slot.
	ErrBlockSlot = newRule("block_slot", "payload attestation's block is not at its slot")
	// ErrNotInPTC: [REJECT] the validator is a member of the payload
	// timeliness committee (and [REJECT] the validator index is valid,
	// which it implies).
	ErrNotInPTC = newRule("not_in_ptc", "validator is not in the payload timeliness committee")
	// ErrInvalidPayloadAttestationSignature: [REJECT] the signature is
	// valid with respect to the validator's public key.
	ErrInvalidPayloadAttestationSignature = newRule("invalid_payload_attestation_signature", "invalid payload attestation signature")
	// ErrNotGloas: a payload attestation of an epoch before the Gloas fork,
	// or given to a pool whose Node has no Gloas part. IGNORE.
	ErrNotGloas = newRule("not_gloas", "payload attestation before the Gloas fork")

	// ErrShufflingUnavailable: the node could not give the committees of the
	// message's epoch. IGNORE.
	ErrShufflingUnavailable = newRule("shuffling_unavailable", "committees unavailable")
	// ErrUnknownValidator: the node has no public key for a validator of the
	// message. IGNORE.
	ErrUnknownValidator = newRule("unknown_validator", "no public key for validator")
	// ErrQueueFull: the signature queue is at its bound (MaxPending, or
	// MaxPendingPerPeer for the forwarding peer). IGNORE.
	ErrQueueFull = newRule("queue_full", "signature queue full")
	// ErrPoolFull: a bound of the pool's indexes is hit. IGNORE.
	ErrPoolFull = newRule("pool_full", "pool full")
	// ErrClosed: the pool is closed. IGNORE.
	ErrClosed = newRule("closed", "pool closed")
	// ErrCancelled: the caller's context ended before the verdict; the error
	// also wraps the context's error. IGNORE.
	ErrCancelled = newRule("cancelled", "cancelled")
)

// ErrConfig reports an invalid Config or Node given to New.
var ErrConfig = errors.New("attpool/pool: invalid config")

var accepted = Result{Verdict: Accept}

func reject(err error) Result { return Result{Verdict: Reject, Err: err} }
func ignore(err error) Result { return Result{Verdict: Ignore, Err: err} }

func rejectf(sentinel error, format string, args ...any) Result {
	return Result{Verdict: Reject, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}

func ignoref(sentinel error, format string, args ...any) Result {
	return Result{Verdict: Ignore, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}
