package pool

import (
	"github.com/attpool/attpool/attestation"
)

// The verdict of a message once its signatures are checked: the signature
// rules' in the specs' order, then the chain rules both attestation topics
// run after them (complete.go applies them).

// attestationSigVerdict is the verdict of an attestation's signature
// (topic.signatures).
func attestationSigVerdict(ok [aggregateSets]bool) Result {
	if !ok[0] {
		// [REJECT] The attestation signature is valid
		return reject(ErrInvalidSignature)
	}
	return accepted
}

// aggregateSigVerdict is the verdict of an aggregate's three signatures, in
// the order of the specs' rules (quoted in aggregateJobs).
func aggregateSigVerdict(ok [aggregateSets]bool) Result {
	switch {
	case !ok[0]:
		return reject(ErrInvalidSelectionProof)
	case !ok[1]:
		return reject(ErrInvalidAggregatorSignature)
	case !ok[2]:
		return reject(ErrInvalidAggregateSignature)
	}
	return accepted
}

// payloadAttestationSigVerdict is the verdict of a payload attestation's
// signature.
func payloadAttestationSigVerdict(ok [aggregateSets]bool) Result {
	if !ok[0] {
		// [REJECT] The signature is valid with respect to the validator's public key
		return reject(ErrInvalidPayloadAttestationSignature)
	}
	return accepted
}

// checkBlockSeen is the block rule of both topics taken before the
// signatures, as Prysm and Lighthouse take it. A message whose block the
// node has not seen is IGNOREd before any signature work (its key sum, its
// decompression, its verification). So a message sent again and again
// while its block is unknown costs a lookup each time, and the verifier
// nothing. The specs list the rule after the signatures. It is an IGNORE,
// whose message gossip may send again once the block is known. So taking
// it first changes only one verdict: that of a message both voting for an
// unknown block and badly signed, which is IGNOREd instead of REJECTed.
// chainChecks runs it again after the signatures: the node may have
// dropped the block meanwhile.
func (p *Pool) checkBlockSeen(d *attestation.AttestationData) (Result, bool) {
	// [IGNORE] The block being voted for has been seen (via gossip or non-gossip sources)
	// (MAY be queued until block is retrieved)
	if seen, _ := p.node.Chain.Block(d.BeaconBlockRoot); !seen {
		return ignore(ErrBlockUnknown), false
	}
	return Result{}, true
}

// chainChecks runs the chain-dependent rules common to both topics, after
// the signatures as in the specs. A lookup the node cannot answer (the
// target's checkpoint block) does not keep a later rule from REJECTing.
func (p *Pool) chainChecks(d *attestation.AttestationData) Result {
	root := d.BeaconBlockRoot
	// [IGNORE] The block being voted for has been seen (via gossip or non-gossip sources)
	// (MAY be queued until block is retrieved)
	seen, valid := p.node.Chain.Block(root)
	if !seen {
		return ignore(ErrBlockUnknown)
	}
	// [REJECT] The block being voted for passes validation
	if !valid {
		return reject(ErrBlockInvalid)
	}
	ancestry := p.checkTargetAncestor(d)
	if ancestry.Verdict == Reject {
		return ancestry
	}
	if res := p.checkFinalizedAncestor(root); res.Err != nil {
		return res
	}
	payload := p.checkPayloadStatus(d)
	if payload.Verdict == Reject || ancestry.Err == nil {
		return payload
	}
	return ancestry
}

// checkTargetAncestor is the target ancestry rule: accepted, a REJECT, or
// an IGNORE when the node cannot tell.
func (p *Pool) checkTargetAncestor(d *attestation.AttestationData) Result {
	target := targetOf(d)
	// [REJECT] The attestation's target block is an ancestor of the LMD vote block
	// (aggregates: The target block is an ancestor of the LMD vote block)
	cp, ok := p.node.Chain.CheckpointBlock(d.BeaconBlockRoot, target.Epoch)
	if !ok {
		return ignoref(ErrBlockUnknown, "no checkpoint block of epoch %d", target.Epoch)
	}
	if cp != target.Root {
		return reject(ErrTargetNotAncestor)
	}
	return accepted
}

// checkFinalizedAncestor is the finalized ancestry rule.
func (p *Pool) checkFinalizedAncestor(root [32]byte) Result {
	// [IGNORE] The current finalized_checkpoint is an ancestor of the block
	// (Gloas: The current finalized checkpoint is an ancestor of the block;
	// aggregates: The finalized checkpoint is an ancestor of the block)
	fin := p.node.Chain.FinalizedCheckpoint()
	if fb, ok := p.node.Chain.CheckpointBlock(root, fin.Epoch); !ok || fb != fin.Root {
		return ignore(ErrFinalizedNotAncestor)
	}
	return accepted
}

// checkPayloadStatus is the specs' verify_attestation_payload_status, run
// for the messages of Gloas epochs.
func (p *Pool) checkPayloadStatus(d *attestation.AttestationData) Result {
	if !p.isGloas(p.epochOf(d.Slot)) {
		return accepted
	}
	// [New in Gloas:EIP7732]
	// The attested payload status is consistent with the block's execution payload
	blockSlot, status, ok := p.node.Chain.BlockPayload(d.BeaconBlockRoot)
	if !ok {
		return ignoref(ErrBlockUnknown, "no payload status")
	}
	// [REJECT] For same-slot attestations, the payload cannot yet be present
	if blockSlot == d.Slot && d.Index != 0 {
		return reject(ErrSameSlotPayload)
	}
	if d.Index != 1 {
		return accepted
	}
	return checkPresentPayload(status)
}

// checkPresentPayload runs the rules of verify_attestation_payload_status
// for an attestation that says the payload is present (data.index 1).
func checkPresentPayload(status PayloadStatus) Result {
	// [IGNORE] The corresponding execution payload envelope has been seen and verified
	// (MAY queue attestations for processing once the payload is retrieved and
	// SHOULD request the payload envelope via ExecutionPayloadEnvelopesByRoot
	// using data.beacon_block_root)
	if status == PayloadUnverified {
		return ignore(ErrPayloadUnverified)
	}
	// [IGNORE] The attested execution payload is optimistic
	if status == PayloadOptimistic {
		return ignore(ErrPayloadOptimistic)
	}
	// [REJECT] The attested execution payload is processed and invalid
	if status == PayloadInvalidated {
		return reject(ErrPayloadInvalid)
	}
	return accepted
}

// isGloas reports whether messages of epoch follow the Gloas rules.
func (p *Pool) isGloas(epoch uint64) bool {
	return p.node.Gloas != nil && epoch >= p.node.Gloas.ForkEpoch
}
