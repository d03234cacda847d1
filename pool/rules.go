package pool

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/ssz"
	"github.com/attpool/attpool/verifier"
)

// Group kinds.
const (
	kindAttestation = iota
	kindAggregate
)

// group is one message's signature work: one set for an attestation, three
// for an aggregate (selection proof, aggregator signature, aggregate
// signature). Identical copies of a message that arrive while it is being
// verified join its group instead of being verified again. reqs, remaining
// and ok are guarded by the pool's mutex.
type group struct {
	kind      int
	reqs      []*request
	remaining int
	ok        [3]bool
	key       epochKey // (target epoch, attester or aggregator)

	data *attestation.AttestationData // the caller's: read, never kept
	info *dataInfo
	agg  aggKey // (data root, committee)
	sig  [96]byte
	// point is sig decoded (curve checked) once at intake, for aggregation
	// if the verifier accepts sig: the same bytes, so the same point, which
	// the verifier found in G2.
	point crypto.Signature

	// attestation
	pos, size uint64

	// aggregate
	bits    bitfield.Bitlist
	msgRoot [32]byte // hash_tree_root(aggregate_and_proof)
	outer   [96]byte // signed_aggregate_and_proof.signature
}

// ValidateAttestation validates a SingleAttestation received on subnet
// beacon_attestation_{subnet} and, if it is accepted, adds it to its
// aggregate. It blocks until the verdict or until ctx ends (then the verdict
// is Ignore with ErrCancelled). The pool reads att until the verdict and
// keeps no reference to it.
func (p *Pool) ValidateAttestation(ctx context.Context, att *attestation.SingleAttestation, subnet uint64) Result {
	return <-p.ValidateAttestationFromAsync(ctx, NoPeer, att, subnet)
}

// ValidateAttestationAsync is ValidateAttestation without the wait: the
// verdict is sent once on the returned channel.
func (p *Pool) ValidateAttestationAsync(ctx context.Context, att *attestation.SingleAttestation, subnet uint64) <-chan Result {
	return p.ValidateAttestationFromAsync(ctx, NoPeer, att, subnet)
}

// ValidateAttestationFrom is ValidateAttestation for a message forwarded by
// peer from, which the pool uses to keep one peer's invalid signatures from
// failing the batches of others.
func (p *Pool) ValidateAttestationFrom(ctx context.Context, from Peer, att *attestation.SingleAttestation, subnet uint64) Result {
	return <-p.ValidateAttestationFromAsync(ctx, from, att, subnet)
}

// ValidateAttestationFromAsync is ValidateAttestationFrom without the wait:
// the verdict is sent once on the returned channel.
func (p *Pool) ValidateAttestationFromAsync(ctx context.Context, from Peer, att *attestation.SingleAttestation, subnet uint64) <-chan Result {
	r := p.start(ctx)
	if r.state.Load() == 0 {
		if res, queued := p.submitAttestation(r, from, att, subnet); !queued {
			r.resolve(res)
		}
	}
	return r.done
}

// ValidateAggregate validates a SignedAggregateAndProof received on
// beacon_aggregate_and_proof and, if it is accepted, adds its aggregate to
// the pool. It blocks until the verdict or until ctx ends. The pool reads
// sap until the verdict and keeps no reference to it.
func (p *Pool) ValidateAggregate(ctx context.Context, sap *attestation.SignedAggregateAndProof) Result {
	return <-p.ValidateAggregateFromAsync(ctx, NoPeer, sap)
}

// ValidateAggregateAsync is ValidateAggregate without the wait: the verdict
// is sent once on the returned channel.
func (p *Pool) ValidateAggregateAsync(ctx context.Context, sap *attestation.SignedAggregateAndProof) <-chan Result {
	return p.ValidateAggregateFromAsync(ctx, NoPeer, sap)
}

// ValidateAggregateFrom is ValidateAggregate for a message forwarded by peer
// from (see ValidateAttestationFrom).
func (p *Pool) ValidateAggregateFrom(ctx context.Context, from Peer, sap *attestation.SignedAggregateAndProof) Result {
	return <-p.ValidateAggregateFromAsync(ctx, from, sap)
}

// ValidateAggregateFromAsync is ValidateAggregateFrom without the wait: the
// verdict is sent once on the returned channel.
func (p *Pool) ValidateAggregateFromAsync(ctx context.Context, from Peer, sap *attestation.SignedAggregateAndProof) <-chan Result {
	r := p.start(ctx)
	if r.state.Load() == 0 {
		if res, queued := p.submitAggregate(r, from, sap); !queued {
			r.resolve(res)
		}
	}
	return r.done
}

// start makes the request of a new message and answers it at once if the
// context is already done or the pool closed.
func (p *Pool) start(ctx context.Context) *request {
	if err := ctx.Err(); err != nil {
		r := &request{done: make(chan Result, 1), p: p}
		r.resolve(ignoref(ErrCancelled, "%w", context.Cause(ctx)))
		return r
	}
	r := p.newRequest(ctx)
	if p.closed.Load() {
		r.resolve(ignore(ErrClosed))
	}
	return r
}

func targetOf(d *attestation.AttestationData) attestation.Checkpoint {
	if d.Target == nil {
		return attestation.Checkpoint{}
	}
	return *d.Target
}

// submitAttestation runs the rules of beacon_attestation_{subnet_id} that
// come before the signature and queues the signature. queued is false when
// res is the verdict.
func (p *Pool) submitAttestation(r *request, from Peer, att *attestation.SingleAttestation, subnet uint64) (res Result, queued bool) {
	if att == nil || att.Data == nil {
		return reject(ErrMalformed), false
	}
	d := att.Data
	target := targetOf(d)
	committeeIndex := att.CommitteeIndex

	// [REJECT] The attestation's data index is zero -- i.e. attestation.data.index == 0
	if d.Index != 0 {
		return rejectf(ErrDataIndexNonZero, "index %d", d.Index), false
	}

	// [REJECT] The committee index is within the expected range -- i.e.
	// index < get_committee_count_per_slot(state, attestation.data.target.epoch).
	committeesPerSlot, ok := p.node.Committees.CommitteeCountPerSlot(target.Epoch)
	if !ok {
		return ignoref(ErrShufflingUnavailable, "epoch %d", target.Epoch), false
	}
	if committeeIndex >= committeesPerSlot {
		return rejectf(ErrCommitteeIndex, "%d of %d", committeeIndex, committeesPerSlot), false
	}

	// [REJECT] The attestation is for the correct subnet -- i.e.
	// compute_subnet_for_attestation(committees_per_slot, attestation.data.slot, index) == subnet_id.
	if want := p.computeSubnet(committeesPerSlot, d.Slot, committeeIndex); want != subnet {
		return rejectf(ErrWrongSubnet, "subnet %d, want %d", subnet, want), false
	}

	now := p.nowMs()
	// [IGNORE] The attestation's slot is not from a future slot (with a
	// MAXIMUM_GOSSIP_CLOCK_DISPARITY allowance) -- i.e. attestation.data.slot <= current_slot.
	if p.isFutureSlot(d.Slot, now) {
		return ignoref(ErrFutureSlot, "slot %d", d.Slot), false
	}

	// [IGNORE] The attestation's epoch is either the current or previous epoch
	// (with a MAXIMUM_GOSSIP_CLOCK_DISPARITY allowance) -- i.e.
	// compute_epoch_at_slot(attestation.data.slot) in (get_previous_epoch(state), get_current_epoch(state)).
	epoch := p.epochOf(d.Slot)
	if !p.isCurrentOrPreviousEpoch(epoch, now) {
		return ignoref(ErrEpochWindow, "epoch %d", epoch), false
	}

	// [REJECT] The attestation's epoch matches its target -- i.e.
	// attestation.data.target.epoch == compute_epoch_at_slot(attestation.data.slot).
	if target.Epoch != epoch {
		return rejectf(ErrTargetEpoch, "target epoch %d, slot epoch %d", target.Epoch, epoch), false
	}

	// [REJECT] The attester is a member of the committee -- i.e.
	// attestation.attester_index in get_beacon_committee(state, attestation.data.slot, index).
	committee, ok := p.node.Committees.BeaconCommittee(d.Slot, committeeIndex)
	if !ok {
		return ignoref(ErrShufflingUnavailable, "slot %d committee %d", d.Slot, committeeIndex), false
	}
	pos := slices.Index(committee, att.AttesterIndex)
	if pos < 0 {
		return rejectf(ErrNotInCommittee, "validator %d, slot %d, committee %d", att.AttesterIndex, d.Slot, committeeIndex), false
	}
	if att.AttesterIndex >= p.cfg.MaxValidators {
		return ignoref(ErrPoolFull, "validator index %d past MaxValidators", att.AttesterIndex), false
	}

	info, err := p.roots.get(d, target.Epoch)
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}
	key := epochKey{target.Epoch, att.AttesterIndex}
	agg := aggKey{info.root, committeeIndex}

	p.mu.Lock()
	// [IGNORE] There has been no other valid attestation seen on an attestation
	// subnet that has an identical attestation.data.target.epoch and
	// participating validator index.
	if p.attSeen.has(key.epoch, key.index) {
		p.mu.Unlock()
		return ignore(ErrAlreadySeen), false
	}
	lead := p.attInflight[key]
	if lead != nil && lead.agg == agg && lead.sig == att.Signature {
		// The same attestation is being verified: share its verdict.
		if p.followers >= p.cfg.MaxPending {
			p.mu.Unlock()
			return ignore(ErrQueueFull), false
		}
		p.followers++
		lead.reqs = append(lead.reqs, r)
		p.mu.Unlock()
		return Result{}, true
	}
	p.mu.Unlock()

	pk := p.node.Keys.PublicKey(att.AttesterIndex)
	if pk == nil {
		return ignoref(ErrUnknownValidator, "validator %d", att.AttesterIndex), false
	}
	g := &group{
		kind: kindAttestation, reqs: []*request{r}, remaining: 1, key: key,
		data: d, info: info, agg: agg, sig: att.Signature,
		pos: uint64(pos), size: uint64(len(committee)),
	}
	if _, err := g.point.SetBytesNoSubgroupCheck(att.Signature[:]); err != nil {
		// [REJECT] The signature of attestation is valid (it does not decode).
		return rejectf(ErrInvalidSignature, "%w", err), false
	}
	j := &job{set: verifier.Set{Root: info.signingRoot, PublicKey: pk, Signature: att.Signature, Decoded: &g.point}, g: g, from: from}
	return p.enqueue(g, p.attInflight, j)
}

// enqueue registers g as in flight and queues its jobs, unless a bound is
// hit or the pool is closed.
func (p *Pool) enqueue(g *group, inflight map[epochKey]*group, jobs ...*job) (Result, bool) {
	n := int64(len(jobs))
	p.mu.Lock()
	if !p.store.canStore(g.agg) {
		p.mu.Unlock()
		return ignore(ErrPoolFull), false
	}
	if p.pending.Add(n) > int64(p.cfg.MaxPending) {
		p.pending.Add(-n)
		p.mu.Unlock()
		return ignore(ErrQueueFull), false
	}
	if inflight[g.key] == nil {
		inflight[g.key] = g
	}
	p.mu.Unlock()
	if p.batch.add(jobs...) {
		p.metrics.queueDepth.Set(float64(p.pending.Load()))
		return Result{}, true
	}
	// Closed meanwhile: answer the group (copies may have joined it).
	p.pending.Add(-n)
	p.mu.Lock()
	if inflight[g.key] == g {
		delete(inflight, g.key)
	}
	reqs := g.reqs
	g.reqs = nil
	p.followers -= max(0, len(reqs)-1)
	p.mu.Unlock()
	for _, r := range reqs {
		r.resolve(ignore(ErrClosed))
	}
	return Result{}, true
}

// isAggregator is the specs' is_aggregator.
func isAggregator(committeeLen int, slotSignature [96]byte) bool {
	modulo := max(1, uint64(committeeLen)/TargetAggregatorsPerCommittee)
	h := sha256.Sum256(slotSignature[:])
	return binary.LittleEndian.Uint64(h[:8])%modulo == 0
}

// submitAggregate runs the rules of beacon_aggregate_and_proof that come
// before the signatures and queues the three signatures.
func (p *Pool) submitAggregate(r *request, from Peer, sap *attestation.SignedAggregateAndProof) (res Result, queued bool) {
	if sap == nil || sap.Message == nil || sap.Message.Aggregate == nil || sap.Message.Aggregate.Data == nil {
		return reject(ErrMalformed), false
	}
	aap := sap.Message
	aggregate := aap.Aggregate
	d := aggregate.Data
	bits := aggregate.AggregationBits
	if len(bits) == 0 || bits[len(bits)-1] == 0 || bits.Len() > attestation.MaxValidatorsPerCommittee*MaxCommitteesPerSlot {
		return rejectf(ErrMalformed, "aggregation bits"), false
	}
	if len(aggregate.CommitteeBits) != 8 {
		return rejectf(ErrMalformed, "committee bits"), false
	}
	target := targetOf(d)

	// [REJECT] aggregate.data.index == 0
	if d.Index != 0 {
		return rejectf(ErrDataIndexNonZero, "index %d", d.Index), false
	}

	// [REJECT] len(committee_indices) == 1, where
	// committee_indices = get_committee_indices(aggregate.committee_bits).
	if n := aggregate.CommitteeBits.Count(); n != 1 {
		return rejectf(ErrCommitteeBits, "%d committees", n), false
	}
	index := uint64(aggregate.CommitteeBits.BitIndices()[0])

	// [REJECT] The committee index is within the expected range -- i.e.
	// index < get_committee_count_per_slot(state, aggregate.data.target.epoch).
	committeesPerSlot, ok := p.node.Committees.CommitteeCountPerSlot(target.Epoch)
	if !ok {
		return ignoref(ErrShufflingUnavailable, "epoch %d", target.Epoch), false
	}
	if index >= committeesPerSlot {
		return rejectf(ErrCommitteeIndex, "%d of %d", index, committeesPerSlot), false
	}

	now := p.nowMs()
	// [IGNORE] aggregate.data.slot is equal to or earlier than the current_slot
	// (with a MAXIMUM_GOSSIP_CLOCK_DISPARITY allowance) -- i.e. aggregate.data.slot <= current_slot.
	if p.isFutureSlot(d.Slot, now) {
		return ignoref(ErrFutureSlot, "slot %d", d.Slot), false
	}

	// [IGNORE] the epoch of aggregate.data.slot is either the current or
	// previous epoch (with a MAXIMUM_GOSSIP_CLOCK_DISPARITY allowance).
	epoch := p.epochOf(d.Slot)
	if !p.isCurrentOrPreviousEpoch(epoch, now) {
		return ignoref(ErrEpochWindow, "epoch %d", epoch), false
	}

	// [REJECT] The aggregate attestation's epoch matches its target -- i.e.
	// aggregate.data.target.epoch == compute_epoch_at_slot(aggregate.data.slot).
	if target.Epoch != epoch {
		return rejectf(ErrTargetEpoch, "target epoch %d, slot epoch %d", target.Epoch, epoch), false
	}

	// [REJECT] The number of aggregation bits matches the committee size --
	// i.e. len(aggregation_bits) == len(get_beacon_committee(state, aggregate.data.slot, index)).
	committee, ok := p.node.Committees.BeaconCommittee(d.Slot, index)
	if !ok {
		return ignoref(ErrShufflingUnavailable, "slot %d committee %d", d.Slot, index), false
	}
	if bits.Len() != uint64(len(committee)) {
		return rejectf(ErrAggregationBitsLength, "%d bits, committee of %d", bits.Len(), len(committee)), false
	}

	// [REJECT] The aggregate attestation has participants -- that is,
	// len(get_attesting_indices(state, aggregate)) >= 1.
	if bits.Count() == 0 {
		return reject(ErrNoParticipants), false
	}

	info, err := p.roots.get(d, target.Epoch)
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}
	agg := aggKey{info.root, index}
	key := epochKey{target.Epoch, aap.AggregatorIndex}
	msg := *aap
	msgAgg := *aggregate
	msgAgg.Data = d.Copy()
	msg.Aggregate = &msgAgg
	msgRoot, err := msg.HashTreeRoot()
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}

	p.mu.Lock()
	// [IGNORE] A valid aggregate attestation defined by
	// hash_tree_root(aggregate.data) whose aggregation_bits is a non-strict
	// superset has not already been seen (keyed by (data root, committee
	// index) from Electra; an aggregate built locally counts as seen).
	if p.aggSeen.covered(agg, bits) || p.store.covered(agg, bits) {
		p.mu.Unlock()
		return ignore(ErrAggregateSeen), false
	}
	// [IGNORE] The aggregate is the first valid aggregate received for the
	// aggregator with index aggregate_and_proof.aggregator_index for the
	// epoch aggregate.data.target.epoch.
	if p.aggrSeen.has(key.epoch, key.index) {
		p.mu.Unlock()
		return ignore(ErrAggregatorSeen), false
	}
	lead := p.aggInflight[key]
	if lead != nil && lead.msgRoot == msgRoot && lead.outer == sap.Signature {
		if p.followers >= p.cfg.MaxPending {
			p.mu.Unlock()
			return ignore(ErrQueueFull), false
		}
		p.followers++
		lead.reqs = append(lead.reqs, r)
		p.mu.Unlock()
		return Result{}, true
	}
	p.mu.Unlock()

	// [REJECT] aggregate_and_proof.selection_proof selects the validator as an
	// aggregator for the slot -- i.e. is_aggregator(state, aggregate.data.slot,
	// index, aggregate_and_proof.selection_proof) returns True.
	if !isAggregator(len(committee), aap.SelectionProof) {
		return reject(ErrNotAggregator), false
	}

	// [REJECT] The aggregator's validator index is within the committee --
	// i.e. aggregate_and_proof.aggregator_index in get_beacon_committee(state,
	// aggregate.data.slot, index).
	if !slices.Contains(committee, aap.AggregatorIndex) {
		return rejectf(ErrAggregatorNotInCommittee, "validator %d", aap.AggregatorIndex), false
	}
	if aap.AggregatorIndex >= p.cfg.MaxValidators {
		return ignoref(ErrPoolFull, "validator index %d past MaxValidators", aap.AggregatorIndex), false
	}

	aggregator := p.node.Keys.PublicKey(aap.AggregatorIndex)
	if aggregator == nil {
		return ignoref(ErrUnknownValidator, "validator %d", aap.AggregatorIndex), false
	}
	participantsKey, res := p.participantsKey(committee, bits)
	if participantsKey == nil {
		return res, false
	}
	selDomain, err := p.domains.get(ssz.DomainSelectionProof, target.Epoch)
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}
	aapDomain, err := p.domains.get(ssz.DomainAggregateAndProof, target.Epoch)
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}

	g := &group{
		kind: kindAggregate, reqs: []*request{r}, remaining: 3, key: key,
		data: d, info: info, agg: agg, sig: aggregate.Signature,
		bits: bits, msgRoot: msgRoot, outer: sap.Signature,
	}
	if _, err := g.point.SetBytesNoSubgroupCheck(aggregate.Signature[:]); err != nil {
		// [REJECT] The signature of aggregate is valid (it does not decode).
		return rejectf(ErrInvalidAggregateSignature, "%w", err), false
	}
	jobs := []*job{
		// [REJECT] The aggregate_and_proof.selection_proof is a valid signature
		// of the aggregate.data.slot by the validator with index
		// aggregate_and_proof.aggregator_index.
		{g: g, idx: 0, from: from, set: verifier.Set{
			Root:      ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(d.Slot), selDomain),
			PublicKey: aggregator, Signature: aap.SelectionProof,
		}},
		// [REJECT] The aggregator signature, signed_aggregate_and_proof.signature, is valid.
		{g: g, idx: 1, from: from, set: verifier.Set{
			Root:      ssz.ComputeSigningRootFromRoot(msgRoot, aapDomain),
			PublicKey: aggregator, Signature: sap.Signature,
		}},
		// [REJECT] The signature of aggregate is valid.
		{g: g, idx: 2, from: from, set: verifier.Set{
			Root: info.signingRoot, PublicKey: participantsKey, Signature: aggregate.Signature,
			Decoded: &g.point,
		}},
	}
	return p.enqueue(g, p.aggInflight, jobs...)
}

// sigVerdict is the verdict of g's signatures, in the order of the specs.
func (g *group) sigVerdict() Result {
	if g.kind == kindAttestation {
		if !g.ok[0] {
			// [REJECT] The signature of attestation is valid.
			return reject(ErrInvalidSignature)
		}
		return accepted
	}
	switch {
	case !g.ok[0]:
		return reject(ErrInvalidSelectionProof)
	case !g.ok[1]:
		return reject(ErrInvalidAggregatorSignature)
	case !g.ok[2]:
		return reject(ErrInvalidAggregateSignature)
	}
	return accepted
}

// chainChecks runs the chain-dependent rules common to both topics, after
// the signatures as in the specs.
func (p *Pool) chainChecks(d *attestation.AttestationData) Result {
	root := d.BeaconBlockRoot
	target := targetOf(d)
	// [IGNORE] The block being voted for (attestation.data.beacon_block_root)
	// has been seen (via gossip or non-gossip sources).
	seen, valid := p.node.Chain.Block(root)
	if !seen {
		return ignore(ErrBlockUnknown)
	}
	// [REJECT] The block being voted for (attestation.data.beacon_block_root)
	// passes validation.
	if !valid {
		return reject(ErrBlockInvalid)
	}
	// [REJECT] The attestation's target block is an ancestor of the block
	// named in the LMD vote -- i.e. get_checkpoint_block(store,
	// attestation.data.beacon_block_root, attestation.data.target.epoch) ==
	// attestation.data.target.root.
	cp, ok := p.node.Chain.CheckpointBlock(root, target.Epoch)
	if !ok {
		return ignore(ErrBlockUnknown)
	}
	if cp != target.Root {
		return reject(ErrTargetNotAncestor)
	}
	// [IGNORE] The current finalized_checkpoint is an ancestor of the block
	// defined by attestation.data.beacon_block_root -- i.e.
	// get_checkpoint_block(store, attestation.data.beacon_block_root,
	// store.finalized_checkpoint.epoch) == store.finalized_checkpoint.root.
	fin := p.node.Chain.FinalizedCheckpoint()
	if fb, ok := p.node.Chain.CheckpointBlock(root, fin.Epoch); !ok || fb != fin.Root {
		return ignore(ErrFinalizedNotAncestor)
	}
	return accepted
}
