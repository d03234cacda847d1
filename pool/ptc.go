package pool

import (
	"context"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/ssz"
	"github.com/attpool/attpool/verifier"
)

// The gossip rules of payload_attestation_message (Gloas, EIP-7732;
// specs/gloas/p2p-interface.md, validate_payload_attestation_message_gossip):
// the votes of a slot's payload timeliness committee (PTC_SIZE members, most
// signing one of a few PayloadAttestationData), verified through the same
// batches as attestations, so that the many signatures of one message share
// the verifier's work. The accepted votes are aggregated for the next block
// in payload.go.

// ValidatePayloadAttestation validates a PayloadAttestationMessage received
// on payload_attestation_message, forwarded by peer from (NoPeer for none;
// see ValidateAttestation). It blocks until the verdict or until ctx ends
// (then the verdict is Ignore with ErrCancelled). The pool reads msg until
// the verdict and keeps no reference to it. It needs Node.Gloas. An
// accepted vote is merged into the aggregate of its data, for the block of
// the next slot (Pool.PayloadAttestationsForBlock), and its Result carries
// what fork choice needs of it (Result.Payload).
func (p *Pool) ValidatePayloadAttestation(ctx context.Context, from Peer, msg *attestation.PayloadAttestationMessage) Result {
	return <-p.run(ctx, p.payloadAttestations, func(r *request) (Result, bool) { return p.submitPayloadAttestation(r, from, msg) })
}

// submitPayloadAttestation runs the rules of payload_attestation_message
// that come before the signature, all but the signature rule, and queues
// the signature.
func (p *Pool) submitPayloadAttestation(r *request, from Peer, msg *attestation.PayloadAttestationMessage) (Result, bool) {
	if msg == nil || msg.Data == nil {
		return reject(ErrMalformed), false
	}
	d := *msg.Data
	if res, ok := p.checkPayloadAttestationTime(&d); !ok {
		return res, false
	}
	root, err := d.HashTreeRoot()
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}
	g := &group{
		t: p.payloadAttestations, reqs: []*request{r},
		key: epochKey{d.Slot, msg.ValidatorIndex}, msgRoot: root, sig: msg.Signature,
		ptcData: d,
	}
	if res, joined := p.checkSeen(g, r, from); joined || res.Err != nil {
		return res, joined
	}
	if res, ok := p.checkPayloadAttestationBlock(&d); !ok {
		return res, false
	}
	if res, ok := p.checkPTCMember(g, msg.ValidatorIndex); !ok {
		return res, false
	}
	return p.queuePayloadAttestation(g, from, msg)
}

// checkPayloadAttestationTime is the slot rule, and the fork: the topic
// exists from Gloas on.
func (p *Pool) checkPayloadAttestationTime(d *attestation.PayloadAttestationData) (Result, bool) {
	// [IGNORE] The payload attestation's slot is the current slot
	if !p.isWithinSlotRange(d.Slot, 0, p.nowMs()) {
		return ignoref(ErrNotCurrentSlot, "slot %d", d.Slot), false
	}
	if !p.isGloas(p.epochOf(d.Slot)) {
		return ignoref(ErrNotGloas, "slot %d", d.Slot), false
	}
	return Result{}, true
}

// checkPayloadAttestationSeenLocked is the first-seen rule of payload
// attestations (checkSeen runs it at intake).
func (p *Pool) checkPayloadAttestationSeenLocked(g *group) Result {
	// [IGNORE] This is the first valid payload attestation from this validator index
	if p.ptcSeen.has(g.key.epoch, g.key.index) {
		return ignore(ErrPayloadAttestationSeen)
	}
	return Result{}
}

// checkPayloadAttestationBlock runs the rules on the block attested to,
// which come before the signature on this topic.
func (p *Pool) checkPayloadAttestationBlock(d *attestation.PayloadAttestationData) (Result, bool) {
	// [IGNORE] The payload attestation's block has been seen (via gossip or non-gossip sources)
	// (MAY be queued until block is retrieved)
	seen, valid := p.node.Chain.Block(d.BeaconBlockRoot)
	if !seen {
		return ignore(ErrBlockUnknown), false
	}
	// [REJECT] The payload attestation's block passes validation
	if !valid {
		return reject(ErrBlockInvalid), false
	}
	// [IGNORE] The payload attestation's block is at the assigned slot
	slot, _, ok := p.node.Chain.BlockPayload(d.BeaconBlockRoot)
	if !ok {
		return ignoref(ErrBlockUnknown, "no slot for the block"), false
	}
	if slot != d.Slot {
		return ignoref(ErrBlockSlot, "block at slot %d, attestation for %d", slot, d.Slot), false
	}
	return Result{}, true
}

// checkPTCMember runs the rules on the validator, and notes in g its
// positions in the PTC, the PTC's size and its fingerprint, for
// aggregation.
func (p *Pool) checkPTCMember(g *group, validator uint64) (Result, bool) {
	slot := g.ptcData.Slot
	ptc, ok := p.node.Gloas.PTC.PTC(slot)
	if !ok {
		return ignoref(ErrShufflingUnavailable, "no PTC for slot %d", slot), false
	}
	// [REJECT] The validator index is valid
	// [REJECT] The validator is a member of the payload timeliness committee
	// (The PTC is drawn from the state's validators, so an index that is not
	// valid is not a member: one check decides both rules.)
	g.positions = ptcPositions(ptc, validator)
	if len(g.positions) == 0 {
		return rejectf(ErrNotInPTC, "validator %d, slot %d", validator, slot), false
	}
	g.size, g.ptcSum = uint64(len(ptc)), ptcFingerprint(ptc)
	return p.checkValidatorBound(validator)
}

// ptcFingerprint is a 64-bit digest of a PTC (FNV-1a over its members'
// indices, and its length), so that the votes checked against one answer
// of the node for a slot are aggregated apart from those checked against
// another. The PTC comes from the node, not from peers: it needs no
// resistance to chosen collisions.
func ptcFingerprint(ptc []uint64) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, v := range ptc {
		h = (h ^ v) * prime
	}
	return (h ^ uint64(len(ptc))) * prime
}

// ptcPositions lists the positions of validator in ptc, in increasing
// order: a PTC is drawn with possible duplicates (compute_ptc), and fork
// choice (on_payload_attestation_message) counts a member's vote at each of
// its positions.
func ptcPositions(ptc []uint64, validator uint64) []uint64 {
	var positions []uint64
	for i, v := range ptc {
		if v == validator {
			positions = append(positions, uint64(i))
		}
	}
	return positions
}

// queuePayloadAttestation queues the signature of a payload attestation.
func (p *Pool) queuePayloadAttestation(g *group, from Peer, msg *attestation.PayloadAttestationMessage) (Result, bool) {
	// [REJECT] The signature is valid with respect to the validator's public key
	// (it does not decode).
	pk, res := p.signerKey(g, ErrInvalidPayloadAttestationSignature, msg.ValidatorIndex)
	if pk == nil {
		return res, false
	}
	slot := g.key.epoch // a payload attestation's key is (slot, validator)
	domain, err := p.domains.get(ssz.DomainPTCAttester, p.epochOf(slot))
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}
	// [REJECT] The signature is valid with respect to the validator's public key
	j := &job{g: g, from: from, set: verifier.Set{
		Root: ssz.ComputeSigningRootFromRoot(g.msgRoot, domain), PublicKey: pk, Signature: g.sig, Decoded: &g.point,
	}}
	return p.enqueue(g, j)
}

// commitPayloadAttestationLocked applies the first-seen rule to a valid
// payload attestation, marks it seen and merges it into the aggregate of
// its data (topic.commit): its bits now, its signature point, once for
// each of its positions, with the others of c (commit's mergeAll). Only
// the current slot's messages are accepted, so what is kept of slots
// before the previous one, which no block may include any more, is dropped
// here.
func (p *Pool) commitPayloadAttestationLocked(c *commitment, g *group) Result {
	if res := p.checkPayloadAttestationSeenLocked(g); res.Err != nil {
		return res
	}
	slot := g.key.epoch // a payload attestation's key is (slot, validator)
	p.prunePayloadsLocked(max(slot, 1) - 1)
	p.ptcSeen.add(slot, g.key.index)
	a := p.payloads.place(g)
	t := c.payloads.taskFor(a, int(g.size))
	for _, pos := range g.positions {
		a.bits.SetBitAt(pos, true)
		c.payloads.tasks[t].points = append(c.payloads.tasks[t].points, blspoint.Signature(&g.point))
	}
	d := g.ptcData
	// g is done with once answered: its positions go to the vote.
	return Result{Verdict: Accept, Payload: &PayloadVote{ValidatorIndex: g.key.index, Data: &d, Positions: g.positions}}
}

// prunePayloadsLocked drops the first-seen marks and the aggregates of the
// payload attestations of slots before minSlot.
func (p *Pool) prunePayloadsLocked(minSlot uint64) {
	p.ptcSeen.prune(minSlot)
	p.payloads.prune(minSlot)
}

// PayloadVote is what fork choice needs of an accepted payload attestation
// message for the specs' on_payload_attestation_message (is_from_block
// false): its validator and its data, whose checks in that handler the pool
// has made (the block is known and at the data's slot, the validator is in
// its PTC, the signature is valid, the slot is the current one: with the
// gossip rule's MAXIMUM_GOSSIP_CLOCK_DISPARITY allowance, which the
// handler's check of the store's current slot does not have), and
// the validator's positions in the PTC of Data.Slot (the handler's
// ptc_indices, found with get_ptc): at
// each of them, the payload_timeliness_vote and
// payload_data_availability_vote of Data.BeaconBlockRoot take
// Data.PayloadPresent and Data.BlobDataAvailable. Each Result has its own:
// the caller may keep and modify it.
type PayloadVote struct {
	ValidatorIndex uint64
	Data           *attestation.PayloadAttestationData
	// Positions are the validator's positions in the PTC, increasing: more
	// than one when the PTC names it more than once.
	Positions []uint64
}
