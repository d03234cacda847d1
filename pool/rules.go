package pool

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"slices"
	"time"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/ssz"
	"github.com/attpool/attpool/verifier"
)

// The gossip rules of beacon_attestation_{subnet_id} and
// beacon_aggregate_and_proof, as the consensus specs state them
// (specs/electra/p2p-interface.md, modified by specs/gloas/p2p-interface.md
// for messages of Gloas epochs). Each check sits under the rule it
// implements, quoted from the specs. The specs run the rules in order and
// stop at the first that fails; the pool does the same, except where a
// lookup through the node cannot be answered: the rules that follow and need
// no lookup are still run, so that one of them that REJECTs is not turned
// into an IGNORE by the node's failure.

// Group kinds.
const (
	kindAttestation = iota
	kindAggregate
	kindPayloadAttestation
)

// group is one message's signature work: one set for an attestation or a
// payload attestation, three for an aggregate (selection proof, aggregator
// signature, aggregate signature). Identical copies of a message that arrive
// while it is being verified join its group instead of being verified again.
// reqs, remaining and ok are guarded by the pool's mutex.
//
// A group holds no reference to its callers' messages: it is answered after
// the first caller may have had its verdict (a cancelled context), so what it
// keeps is the pool's own copy (data is the root cache's, bits a clone).
type group struct {
	kind      int
	reqs      []*request
	remaining int
	ok        [aggregateSets]bool
	key       epochKey // (target epoch or slot, attester or aggregator)

	data *attestation.AttestationData // the pool's copy
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
	bits      bitfield.Bitlist // the pool's copy
	attesters []uint64         // the validators of bits, in increasing index order
	msgRoot   [32]byte         // hash_tree_root(aggregate_and_proof)
	outer     [96]byte         // signed_aggregate_and_proof.signature
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
	return p.run(ctx, topicAttestation, func(r *request) (Result, bool) { return p.submitAttestation(r, from, att, subnet) })
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
	return p.run(ctx, topicAggregate, func(r *request) (Result, bool) { return p.submitAggregate(r, from, sap) })
}

// run makes the request of a new message and submits it; submit returns
// queued false when its Result is the verdict.
func (p *Pool) run(ctx context.Context, t topic, submit func(r *request) (Result, bool)) <-chan Result {
	r := p.start(ctx, t)
	if r.state.Load() == 0 {
		if res, queued := submit(r); !queued {
			r.resolve(res)
		}
	}
	return r.done
}

// start makes the request of a new message and answers it at once if the
// context is already done or the pool closed.
func (p *Pool) start(ctx context.Context, t topic) *request {
	if err := ctx.Err(); err != nil {
		r := &request{done: make(chan Result, 1), p: p, topic: t, start: time.Now()}
		r.resolve(ignoref(ErrCancelled, "%w", context.Cause(ctx)))
		return r
	}
	r := p.newRequest(ctx, t)
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

// intake is what the rules before the signatures learn of an attestation or
// an aggregate: the prologue the two topics share fills it.
type intake struct {
	d         *attestation.AttestationData // the caller's: read, never kept
	target    attestation.Checkpoint
	index     uint64  // the committee index
	subnet    *uint64 // the subnet an attestation came on; nil for aggregates
	committee []uint64
	info      *dataInfo
}

// checkPrologue runs the rules the two topics share after the data index
// (and an aggregate's committee bits), in the specs' order, from the
// committee index to the epoch of the target, and looks up the committee.
// ok is false when res is the verdict.
func (p *Pool) checkPrologue(m *intake) (res Result, ok bool) {
	countRes, counted := p.checkCommitteeIndex(m)
	if !counted && countRes.Verdict == Reject {
		return countRes, false
	}
	// When the node cannot count the committees of the target epoch (a
	// target far from the head), the clock and target rules below, which
	// need no lookup, still decide: a bogus target epoch is REJECTed.
	if res, ok := p.checkSlotAndTarget(m.d, m.target); !ok {
		return res, false
	}
	if !counted {
		return countRes, false
	}
	committee, found := p.node.Committees.BeaconCommittee(m.d.Slot, m.index)
	if !found {
		return ignoref(ErrShufflingUnavailable, "slot %d committee %d", m.d.Slot, m.index), false
	}
	m.committee = committee
	return Result{}, true
}

// checkDataIndex is the first rule of both topics, which Gloas changes.
func (p *Pool) checkDataIndex(d *attestation.AttestationData) (Result, bool) {
	if p.isGloas(p.epochOf(d.Slot)) {
		// [New in Gloas:EIP7732]
		// [REJECT] The attestation's data index is 0 or 1
		// (aggregates: The aggregate attestation's data index is 0 or 1)
		if d.Index > 1 {
			return rejectf(ErrDataIndexRange, "index %d", d.Index), false
		}
		return Result{}, true
	}
	// [New in Electra:EIP7549]
	// [REJECT] The attestation's data index is zero
	// (aggregates: The aggregate attestation's data index is zero)
	if d.Index != 0 {
		return rejectf(ErrDataIndexNonZero, "index %d", d.Index), false
	}
	return Result{}, true
}

// checkCommitteeIndex runs the rules that need the committee count. When
// the node cannot give it, res is an IGNORE with ErrShufflingUnavailable.
func (p *Pool) checkCommitteeIndex(m *intake) (res Result, ok bool) {
	committeesPerSlot, found := p.node.Committees.CommitteeCountPerSlot(m.target.Epoch)
	if !found {
		return ignoref(ErrShufflingUnavailable, "epoch %d", m.target.Epoch), false
	}
	// [REJECT] The committee index is within the expected range
	if m.index >= committeesPerSlot {
		return rejectf(ErrCommitteeIndex, "%d of %d", m.index, committeesPerSlot), false
	}
	if m.subnet == nil {
		return Result{}, true
	}
	// [REJECT] The attestation is for the correct subnet
	if want := p.computeSubnet(committeesPerSlot, m.d.Slot, m.index); want != *m.subnet {
		return rejectf(ErrWrongSubnet, "subnet %d, want %d", *m.subnet, want), false
	}
	return Result{}, true
}

// checkSlotAndTarget runs the clock rules and the target epoch rule.
func (p *Pool) checkSlotAndTarget(d *attestation.AttestationData, target attestation.Checkpoint) (Result, bool) {
	now := p.nowMs()
	// [IGNORE] The attestation's slot is not from a future slot
	// (MAY be queued for processing at the appropriate slot)
	// (aggregates: The aggregate attestation's slot is not from a future slot)
	if p.isFutureSlot(d.Slot, now) {
		return ignoref(ErrFutureSlot, "slot %d", d.Slot), false
	}
	// [IGNORE] The attestation's epoch is either the current or previous epoch
	// (aggregates: The aggregate attestation's epoch is either the current or previous epoch)
	epoch := p.epochOf(d.Slot)
	if !p.isCurrentOrPreviousEpoch(epoch, now) {
		return ignoref(ErrEpochWindow, "epoch %d", epoch), false
	}
	// [REJECT] The attestation's epoch matches its target
	// (aggregates: The aggregate attestation's epoch matches its target)
	if target.Epoch != epoch {
		return rejectf(ErrTargetEpoch, "target epoch %d, slot epoch %d", target.Epoch, epoch), false
	}
	return Result{}, true
}

// checkValidatorBound keeps the pool's seen indexes bounded: a validator
// index past Config.MaxValidators is IGNOREd (not a rule of the specs).
func (p *Pool) checkValidatorBound(index uint64) (Result, bool) {
	if index >= p.cfg.MaxValidators {
		return ignoref(ErrPoolFull, "validator index %d past MaxValidators", index), false
	}
	return Result{}, true
}

// hashData fills m.info: the data's roots, and the pool's copy of it.
func (p *Pool) hashData(m *intake) (Result, bool) {
	info, err := p.roots.get(m.d, m.target.Epoch)
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}
	m.info = info
	return Result{}, true
}

// publicKey is the validator's key, or an IGNORE when the node has none.
func (p *Pool) publicKey(index uint64) (*crypto.PublicKey, Result) {
	pk := p.node.Keys.PublicKey(index)
	if pk == nil {
		return nil, ignoref(ErrUnknownValidator, "validator %d", index)
	}
	return pk, Result{}
}

// submitAttestation runs the rules of beacon_attestation_{subnet_id} that
// come before the signature and queues the signature. queued is false when
// res is the verdict.
func (p *Pool) submitAttestation(r *request, from Peer, att *attestation.SingleAttestation, subnet uint64) (res Result, queued bool) {
	if att == nil || att.Data == nil {
		return reject(ErrMalformed), false
	}
	m := &intake{d: att.Data, target: targetOf(att.Data), index: att.CommitteeIndex, subnet: &subnet}
	if res, ok := p.checkDataIndex(m.d); !ok {
		return res, false
	}
	if res, ok := p.checkPrologue(m); !ok {
		return res, false
	}
	pos, res, ok := p.checkAttester(m, att.AttesterIndex)
	if !ok {
		return res, false
	}
	if res, ok := p.hashData(m); !ok {
		return res, false
	}
	g := m.newGroup(kindAttestation, r, att.AttesterIndex, att.Signature)
	g.pos, g.size = uint64(pos), uint64(len(m.committee))
	if res, joined := p.checkSeen(g, r); joined || res.Err != nil {
		return res, joined
	}
	return p.queueAttestation(g, from, att)
}

// newGroup is the group of the message of validator (the attester or the
// aggregator) with signature sig, for the data m hashed.
func (m *intake) newGroup(kind int, r *request, validator uint64, sig [96]byte) *group {
	return &group{
		kind: kind, reqs: []*request{r},
		key:  epochKey{m.target.Epoch, validator},
		data: m.info.data, info: m.info, agg: aggKey{m.info.root, m.index}, sig: sig,
	}
}

// checkAttester is the committee membership rule; pos is the attester's
// position in its committee.
func (p *Pool) checkAttester(m *intake, attester uint64) (pos int, res Result, ok bool) {
	// [New in Electra:EIP7549]
	// [REJECT] The attester is a member of the committee
	pos = slices.Index(m.committee, attester)
	if pos < 0 {
		return 0, rejectf(ErrNotInCommittee, "validator %d, slot %d, committee %d", attester, m.d.Slot, m.index), false
	}
	res, ok = p.checkValidatorBound(attester)
	return pos, res, ok
}

// checkSeen runs the first-seen rules of g's topic; an identical copy of a
// message being verified joins its group (joined true).
func (p *Pool) checkSeen(g *group, r *request) (res Result, joined bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if res := p.checkSeenLocked(g); res.Err != nil {
		return res, false
	}
	lead := p.inflight(g.kind)[g.key]
	if lead == nil || !g.isCopyOf(lead) {
		return Result{}, false
	}
	return p.joinLocked(lead, r)
}

// checkSeenLocked runs the first-seen rules of g's topic, at intake and
// again when g is found valid (another copy may have won meanwhile).
func (p *Pool) checkSeenLocked(g *group) Result {
	switch g.kind {
	case kindAggregate:
		return p.checkAggregateSeenLocked(g)
	case kindPayloadAttestation:
		return p.checkPayloadAttestationSeenLocked(g)
	}
	return p.checkAttestationSeenLocked(g)
}

// isCopyOf reports whether g's message is an identical copy of lead's, of
// the same kind and key: the fields that name a message are equal (those its
// kind does not set are zero in both).
func (g *group) isCopyOf(lead *group) bool {
	return lead.agg == g.agg && lead.msgRoot == g.msgRoot && lead.sig == g.sig && lead.outer == g.outer
}

// checkAttestationSeenLocked is the first-seen rule of attestations.
func (p *Pool) checkAttestationSeenLocked(g *group) Result {
	// [Modified in Electra:EIP7549]
	// [IGNORE] No other valid attestation seen for this target epoch and validator
	if p.attSeen.has(g.key.epoch, g.key.index) {
		return ignore(ErrAlreadySeen)
	}
	return Result{}
}

// joinLocked adds r to the group of an identical message in flight, so that
// it shares its verdict.
func (p *Pool) joinLocked(lead *group, r *request) (Result, bool) {
	if p.followers >= p.cfg.MaxPending {
		return ignore(ErrQueueFull), false
	}
	p.followers++
	lead.reqs = append(lead.reqs, r)
	return Result{}, true
}

// queueAttestation queues the signature of a SingleAttestation.
func (p *Pool) queueAttestation(g *group, from Peer, att *attestation.SingleAttestation) (Result, bool) {
	// [REJECT] The attestation signature is valid (it does not decode).
	if res, ok := g.decodeSignature(ErrInvalidSignature); !ok {
		return res, false
	}
	pk, res := p.publicKey(att.AttesterIndex)
	if pk == nil {
		return res, false
	}
	// [Modified in Electra:EIP7549]
	// [REJECT] The attestation signature is valid
	j := &job{set: verifier.Set{Root: g.info.signingRoot, PublicKey: pk, Signature: att.Signature, Decoded: &g.point}, g: g, from: from}
	return p.enqueue(g, j)
}

// decodeSignature decodes g.sig into g.point, once, for the verifier and
// for aggregation; a signature that does not decode is invalid, a REJECT
// with sentinel that needs no lookup, so it is decided before the keys are
// looked up.
func (g *group) decodeSignature(sentinel error) (Result, bool) {
	if _, err := g.point.SetBytesNoSubgroupCheck(g.sig[:]); err != nil {
		return rejectf(sentinel, "%w", err), false
	}
	return Result{}, true
}

// enqueue registers g as in flight and queues its jobs, one per signature
// of g, unless a bound is hit or the pool is closed.
func (p *Pool) enqueue(g *group, jobs ...*job) (Result, bool) {
	g.remaining = len(jobs)
	n := int64(len(jobs))
	inflight := p.inflight(g.kind)
	p.mu.Lock()
	if g.kind != kindPayloadAttestation && !p.store.canStore(g.agg) {
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
		return Result{}, true
	}
	p.pending.Add(-n)
	p.answerClosed(g)
	return Result{}, true
}

// answerClosed answers a group the batcher refused, closed meanwhile
// (copies may have joined it).
func (p *Pool) answerClosed(g *group) {
	p.mu.Lock()
	p.leaveInflightLocked(g)
	reqs := g.reqs
	g.reqs = nil
	p.mu.Unlock()
	for _, r := range reqs {
		r.resolve(ignore(ErrClosed))
	}
}

// leaveInflightLocked forgets g as the in-flight copy of its message: no
// copy joins it any more, and those that did stop counting as followers.
func (p *Pool) leaveInflightLocked(g *group) {
	m := p.inflight(g.kind)
	if m[g.key] == g {
		delete(m, g.key)
	}
	p.followers -= max(0, len(g.reqs)-1)
}

// inflight is the index of the groups of kind in flight, by key.
func (p *Pool) inflight(kind int) map[epochKey]*group {
	switch kind {
	case kindAggregate:
		return p.aggInflight
	case kindPayloadAttestation:
		return p.ptcInflight
	}
	return p.attInflight
}

// committeeBitsBytes is the size of committee_bits, a
// Bitvector[MAX_COMMITTEES_PER_SLOT].
const committeeBitsBytes = MaxCommitteesPerSlot / 8

// isAggregator is the specs' is_aggregator:
// bytes_to_uint64(hash(slot_signature)[0:8]) % modulo == 0.
func isAggregator(committeeLen int, slotSignature [96]byte) bool {
	modulo := max(1, uint64(committeeLen)/TargetAggregatorsPerCommittee)
	h := sha256.Sum256(slotSignature[:])
	return binary.LittleEndian.Uint64(h[:8])%modulo == 0
}

// submitAggregate runs the rules of beacon_aggregate_and_proof that come
// before the signatures and queues the three signatures.
func (p *Pool) submitAggregate(r *request, from Peer, sap *attestation.SignedAggregateAndProof) (res Result, queued bool) {
	if res, ok := checkAggregateEncoding(sap); !ok {
		return res, false
	}
	aggregate := sap.Message.Aggregate
	m := &intake{d: aggregate.Data, target: targetOf(aggregate.Data)}
	if res, ok := p.checkCommitteeBits(m, aggregate); !ok {
		return res, false
	}
	if res, ok := p.checkAggregatePrologue(m, aggregate.AggregationBits); !ok {
		return res, false
	}
	if res, ok := p.hashData(m); !ok {
		return res, false
	}
	g, res, ok := p.newAggregateGroup(r, m, sap)
	if !ok {
		return res, false
	}
	if res, joined := p.checkSeen(g, r); joined || res.Err != nil {
		return res, joined
	}
	if res, ok := p.checkAggregator(m, sap.Message); !ok {
		return res, false
	}
	return p.queueAggregate(g, m, from, sap)
}

// checkAggregateEncoding rejects what would not have decoded: nil parts and
// bitfields that are not valid SSZ.
func checkAggregateEncoding(sap *attestation.SignedAggregateAndProof) (Result, bool) {
	if sap == nil || sap.Message == nil || sap.Message.Aggregate == nil || sap.Message.Aggregate.Data == nil {
		return reject(ErrMalformed), false
	}
	aggregate := sap.Message.Aggregate
	bits := aggregate.AggregationBits
	if len(bits) == 0 || bits[len(bits)-1] == 0 || bits.Len() > attestation.MaxValidatorsPerCommittee*MaxCommitteesPerSlot {
		return rejectf(ErrMalformed, "aggregation bits"), false
	}
	if len(aggregate.CommitteeBits) != committeeBitsBytes {
		return rejectf(ErrMalformed, "committee bits"), false
	}
	return Result{}, true
}

// checkCommitteeBits runs the data index rule and the committee bits rule,
// which comes before the prologue's committee rules, and sets m.index.
func (p *Pool) checkCommitteeBits(m *intake, aggregate *attestation.Attestation) (Result, bool) {
	if res, ok := p.checkDataIndex(m.d); !ok {
		return res, false
	}
	// [New in Electra:EIP7549]
	// [REJECT] Exactly one committee is specified by the committee bits
	if n := aggregate.CommitteeBits.Count(); n != 1 {
		return rejectf(ErrCommitteeBits, "%d committees", n), false
	}
	m.index = uint64(aggregate.CommitteeBits.BitIndices()[0])
	return Result{}, true
}

// checkAggregatePrologue is the prologue and the rules on the aggregation
// bits. When the node cannot give the committee, the participants rule,
// which needs no lookup, still decides.
func (p *Pool) checkAggregatePrologue(m *intake, bits bitfield.Bitlist) (Result, bool) {
	res, ok := p.checkPrologue(m)
	if !ok && !errorIsShuffling(res) {
		return res, false
	}
	if ok {
		// [REJECT] The number of aggregation bits matches the committee size
		if bits.Len() != uint64(len(m.committee)) {
			return rejectf(ErrAggregationBitsLength, "%d bits, committee of %d", bits.Len(), len(m.committee)), false
		}
	}
	// [REJECT] The aggregate attestation has participants
	if bits.Count() == 0 {
		return reject(ErrNoParticipants), false
	}
	return res, ok
}

// errorIsShuffling reports whether res is the IGNORE of a committee lookup
// the node could not answer (the committee count or the committee).
func errorIsShuffling(res Result) bool {
	return res.Verdict == Ignore && errors.Is(res.Err, ErrShufflingUnavailable)
}

// newAggregateGroup makes the group of an aggregate: its keys, the pool's
// copy of its bits, and the root its aggregator signs.
func (p *Pool) newAggregateGroup(r *request, m *intake, sap *attestation.SignedAggregateAndProof) (*group, Result, bool) {
	aap := sap.Message
	aggregate := aap.Aggregate
	msg := *aap
	msgAgg := *aggregate
	msgAgg.Data = m.info.data
	msg.Aggregate = &msgAgg
	msgRoot, err := msg.HashTreeRoot()
	if err != nil {
		return nil, rejectf(ErrMalformed, "%w", err), false
	}
	g := m.newGroup(kindAggregate, r, aap.AggregatorIndex, aggregate.Signature)
	g.bits, g.msgRoot, g.outer = bytes.Clone(aggregate.AggregationBits), msgRoot, sap.Signature
	return g, Result{}, true
}

// checkAggregateSeenLocked runs the two first-seen rules of aggregates, at
// intake and again when the aggregate is found valid.
func (p *Pool) checkAggregateSeenLocked(g *group) Result {
	// [Modified in Electra:EIP7549]
	// [IGNORE] A valid aggregate with a superset of aggregation bits has not already been seen
	// (seen.aggregate_data_roots holds the bits of the valid gossip
	// aggregates only: neither the pool's own aggregates nor aggregates not
	// yet verified count.)
	if p.aggSeen.covered(g.agg, g.bits) {
		return ignore(ErrAggregateSeen)
	}
	// [IGNORE] This is the first valid aggregate for this epoch and aggregator
	if p.aggrSeen.has(g.key.epoch, g.key.index) {
		return ignore(ErrAggregatorSeen)
	}
	return Result{}
}

// checkAggregator runs the rules on the aggregator before its signatures.
func (p *Pool) checkAggregator(m *intake, aap *attestation.AggregateAndProof) (Result, bool) {
	// [REJECT] The selection proof selects the validator as an aggregator
	if !isAggregator(len(m.committee), aap.SelectionProof) {
		return reject(ErrNotAggregator), false
	}
	// [REJECT] The aggregator's validator index is within the committee
	if !slices.Contains(m.committee, aap.AggregatorIndex) {
		return rejectf(ErrAggregatorNotInCommittee, "validator %d", aap.AggregatorIndex), false
	}
	return p.checkValidatorBound(aap.AggregatorIndex)
}

// queueAggregate queues the three signatures of an aggregate.
func (p *Pool) queueAggregate(g *group, m *intake, from Peer, sap *attestation.SignedAggregateAndProof) (Result, bool) {
	aap := sap.Message
	// [REJECT] The aggregate signature is valid (it does not decode).
	if res, ok := g.decodeSignature(ErrInvalidAggregateSignature); !ok {
		return res, false
	}
	aggregator, res := p.publicKey(aap.AggregatorIndex)
	if aggregator == nil {
		return res, false
	}
	participantsKey, res := p.participantsKey(m.d.Slot, m.index, m.committee, g.bits)
	if participantsKey == nil {
		return res, false
	}
	g.attesters = p.sortedAttesters(m.d.Slot, m.index, m.committee, g.bits)
	jobs, err := p.aggregateJobs(g, m, from, aggregator, participantsKey, aap.SelectionProof)
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}
	return p.enqueue(g, jobs...)
}

// aggregateJobs are the three signature sets of an aggregate, in the order
// of the specs' rules.
func (p *Pool) aggregateJobs(g *group, m *intake, from Peer, aggregator, participants *crypto.PublicKey, selectionProof [96]byte) ([]*job, error) {
	selDomain, aapDomain, err := p.aggregateDomains(m.target.Epoch)
	if err != nil {
		return nil, err
	}
	return []*job{
		// [REJECT] The selection proof signature is valid
		{g: g, idx: 0, from: from, set: verifier.Set{
			Root:      ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(m.d.Slot), selDomain),
			PublicKey: aggregator, Signature: selectionProof,
		}},
		// [REJECT] The aggregator signature is valid
		{g: g, idx: 1, from: from, set: verifier.Set{
			Root:      ssz.ComputeSigningRootFromRoot(g.msgRoot, aapDomain),
			PublicKey: aggregator, Signature: g.outer,
		}},
		// [REJECT] The aggregate signature is valid
		{g: g, idx: 2, from: from, set: verifier.Set{
			Root: g.info.signingRoot, PublicKey: participants, Signature: g.sig, Decoded: &g.point,
		}},
	}, nil
}

// aggregateDomains are the domains of the selection proof and of the
// aggregator's signature at epoch.
func (p *Pool) aggregateDomains(epoch uint64) (sel, aap ssz.Domain, err error) {
	if sel, err = p.domains.get(ssz.DomainSelectionProof, epoch); err != nil {
		return sel, aap, err
	}
	aap, err = p.domains.get(ssz.DomainAggregateAndProof, epoch)
	return sel, aap, err
}

// sigVerdict is the verdict of g's signatures, in the order of the specs.
func (g *group) sigVerdict() Result {
	switch g.kind {
	case kindAttestation:
		if !g.ok[0] {
			// [REJECT] The attestation signature is valid
			return reject(ErrInvalidSignature)
		}
	case kindPayloadAttestation:
		if !g.ok[0] {
			// [REJECT] The signature is valid with respect to the validator's public key
			return reject(ErrInvalidPayloadAttestationSignature)
		}
	default:
		switch {
		case !g.ok[0]:
			return reject(ErrInvalidSelectionProof)
		case !g.ok[1]:
			return reject(ErrInvalidAggregatorSignature)
		case !g.ok[2]:
			return reject(ErrInvalidAggregateSignature)
		}
	}
	return accepted
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
