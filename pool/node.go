package pool

import (
	"fmt"
	"time"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/ssz"
	"github.com/attpool/attpool/verifier"
)

// The pool asks the beacon node for what it cannot know itself through the
// small interfaces below, gathered in a Node. Their methods are called from
// many goroutines at once and must be safe for that; they should be cheap
// (cached by the node), as they are called on the hot path.

// PublicKeys gives validators' public keys.
type PublicKeys interface {
	// PublicKey returns the validated public key of the validator, or nil
	// if the node does not know it.
	PublicKey(index uint64) *crypto.PublicKey
}

// Committees gives the beacon committees (the shuffling).
type Committees interface {
	// CommitteeCountPerSlot is get_committee_count_per_slot for epoch; ok
	// is false when the node cannot compute it.
	CommitteeCountPerSlot(epoch uint64) (count uint64, ok bool)
	// BeaconCommittee is get_beacon_committee(state, slot, index): the
	// validator indices in committee order. The pool does not modify or
	// keep the slice. ok is false when the node cannot compute it.
	BeaconCommittee(slot, index uint64) (committee []uint64, ok bool)
}

// Clock gives the wall-clock time. Tests inject a clock they control.
type Clock interface {
	Now() time.Time
}

// ForkSchedule gives what signature domains are computed from.
type ForkSchedule interface {
	// ForkVersion is the fork version that signs messages of epoch.
	ForkVersion(epoch uint64) ssz.Version
	// GenesisValidatorsRoot is the chain's genesis validators root.
	GenesisValidatorsRoot() ssz.Root
}

// ForkChoice answers the chain-dependent rules of the gossip topics.
type ForkChoice interface {
	// Block reports whether the block with root has been seen (via gossip
	// or otherwise) and whether it passed validation.
	Block(root [32]byte) (seen, valid bool)
	// CheckpointBlock is the specs' get_checkpoint_block(store, root,
	// epoch): the root of the ancestor of block root at the first slot of
	// epoch (or the latest block before it). ok is false when the node
	// cannot tell.
	CheckpointBlock(root [32]byte, epoch uint64) (checkpoint [32]byte, ok bool)
	// FinalizedCheckpoint is the store's finalized checkpoint.
	FinalizedCheckpoint() attestation.Checkpoint
	// BlockPayload is what the Gloas (EIP-7732) rules read of block root:
	// its slot (store.blocks[root].slot) and the status of its execution
	// payload (is_payload_verified and block_payload_statuses). ok is false
	// when the node does not know the block. The pool calls it only for
	// messages of Gloas epochs, after Block reported root seen; a node
	// whose chain never reaches Gloas may return ok false.
	BlockPayload(root [32]byte) (slot uint64, status PayloadStatus, ok bool)
}

// PayloadStatus is what the node knows of the execution payload of a Gloas
// block. The zero value, PayloadUnverified, is the status of a block whose
// payload envelope has not been seen and verified.
type PayloadStatus uint8

const (
	// PayloadUnverified: is_payload_verified(store, root) is false, the
	// payload envelope has not been seen and verified.
	PayloadUnverified PayloadStatus = iota
	// PayloadOptimistic: the envelope was verified, but the execution
	// engine has not validated the payload (PAYLOAD_STATUS_NOT_VALIDATED,
	// also the status of a block missing from block_payload_statuses).
	PayloadOptimistic
	// PayloadValid: the envelope was verified and the payload is valid
	// (PAYLOAD_STATUS_VALID).
	PayloadValid
	// PayloadInvalidated: the envelope was verified and the payload was
	// processed and found invalid (PAYLOAD_STATUS_INVALIDATED).
	PayloadInvalidated
)

// PTCs gives the payload timeliness committees (Gloas).
type PTCs interface {
	// PTC is get_ptc(state, slot): the PTC_SIZE validator indices of the
	// slot's payload timeliness committee, in committee order (an index may
	// appear more than once). The pool does not modify or keep the slice.
	// ok is false when the node cannot compute it.
	PTC(slot uint64) (ptc []uint64, ok bool)
}

// GloasNode is what the Gloas (EIP-7732) rules need from the node besides
// ForkChoice.BlockPayload.
type GloasNode struct {
	// ForkEpoch is GLOAS_FORK_EPOCH: messages whose slot is in this epoch or
	// later follow the Gloas rules.
	ForkEpoch uint64
	// PTC gives the payload timeliness committees; required.
	PTC PTCs
}

// Node is what the beacon node supplies to the pool. Every field but Clock
// is required.
type Node struct {
	// GenesisTime is the start of slot 0; required (the zero time is
	// refused).
	GenesisTime time.Time
	// Clock is the wall clock; nil means the system clock.
	Clock      Clock
	Keys       PublicKeys
	Committees Committees
	Forks      ForkSchedule
	Chain      ForkChoice
	// Gloas turns on the Gloas rules from its fork epoch on, and the
	// payload_attestation_message intake. nil: the chain does not reach
	// Gloas; every message follows the Electra rules, and
	// ValidatePayloadAttestation ignores every message with ErrNotGloas.
	Gloas *GloasNode
}

func (n Node) check() (Node, error) {
	if n.Clock == nil {
		n.Clock = SystemClock{}
	}
	switch {
	case n.GenesisTime.IsZero():
		// The zero time would put the clock billions of slots past genesis:
		// every message would be ignored as outside the slot window.
		return n, fmt.Errorf("%w: Node.GenesisTime is the zero time", ErrConfig)
	case n.Keys == nil:
		return n, fmt.Errorf("%w: Node.Keys is nil", ErrConfig)
	case n.Committees == nil:
		return n, fmt.Errorf("%w: Node.Committees is nil", ErrConfig)
	case n.Forks == nil:
		return n, fmt.Errorf("%w: Node.Forks is nil", ErrConfig)
	case n.Chain == nil:
		return n, fmt.Errorf("%w: Node.Chain is nil", ErrConfig)
	case n.Gloas != nil && n.Gloas.PTC == nil:
		return n, fmt.Errorf("%w: Node.Gloas.PTC is nil", ErrConfig)
	}
	return n, nil
}

// SystemClock is the Clock of the operating system.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// Peer identifies the peer that forwarded a message: any comparable key the
// node's network layer has for it. libp2p's peer.ID is a string type, so
// pool.Peer(id) converts it. Two messages are from the same peer exactly
// when their Peers are equal.
type Peer string

// NoPeer is the Peer of a message whose forwarding peer is unknown or that
// the node made itself; the pool gives it no peer state.
const NoPeer Peer = ""

// SignatureVerifier is what the pool needs of a signature verifier:
// Verify(sets)[i] is the verdict sets[i] would get checked alone (the
// contract of verifier.Verifier.Verify). A node can share one
// *verifier.Verifier across pools and topics through
// Config.SignatureVerifier. A verifier that also implements
// StreamVerifier is driven through it.
type SignatureVerifier interface {
	Verify(sets []verifier.Set) []bool
}

// StreamVerifier is a SignatureVerifier that answers each set as soon as it
// is decided, so that a failing call holds up only its invalid sets.
// *verifier.Verifier implements it. Each method keeps the contract of
// Verify: report(i, valid) is called once for each set, with the verdict
// sets[i] would get checked alone, before the method returns.
type StreamVerifier interface {
	SignatureVerifier
	// VerifyStreamSearch verifies sets, calling searching (when not nil)
	// once if the call's check fails, before its search for the invalid
	// sets begins: the pool then takes other batches beside it.
	VerifyStreamSearch(sets []verifier.Set, report func(i int, valid bool), searching func())
	// VerifySuspect verifies sets that are likely invalid (an isolated
	// peer's) without letting them steer the search of other calls.
	VerifySuspect(sets []verifier.Set, report func(i int, valid bool))
	// Stats returns the verifier's counters, exported as the pool's metrics.
	Stats() verifier.Stats
}
