package pool

import (
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
	"github.com/prysmaticlabs/go-bitfield"
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
//
// This file holds the attestation topic, its steps in the order it takes
// them, and the steps the other topics share with it: the prologue, the
// first-seen step and the queueing. rules_aggregate.go holds the aggregate
// topic, rules_chain.go the rules after the signatures, ptc.go the payload
// attestation topic; topics.go says what differs between the three.

// group is one message of topic t and its signature work: one set for an
// attestation or a payload attestation, three for an aggregate (selection
// proof, aggregator signature, aggregate signature). Identical copies of a message that arrive
// while it is being verified join its group instead of being verified again.
// reqs, remaining and ok are guarded by the pool's mutex.
//
// A group holds no reference to its callers' messages: it is answered after
// the first caller may have had its verdict (a cancelled context), so what it
// keeps is the pool's own copy (data is the root cache's, bits a clone).
type group struct {
	t         *topic
	reqs      []*request
	remaining int
	ok        [aggregateSets]bool
	key       epochKey // (target epoch or slot, attester or aggregator)

	data *attestation.AttestationData // the pool's copy
	info *dataInfo
	agg  aggKey // (data root, committee)
	sig  [96]byte
	// point is sig decoded (curve checked) once, for aggregation if the
	// verifier accepts sig: the same bytes, so the same point, which the
	// verifier found in G2. The aggregate and payload topics decode it at
	// intake, the attestation topic at intake or in the verify goroutine
	// (attesterKey, job.undecoded).
	point crypto.Signature

	// attestation: the attester's position in its committee and the
	// committee's size; payload attestation: the PTC's size
	pos, size uint64

	// aggregate
	bits      bitfield.Bitlist // the pool's copy
	attesters []uint64         // the validators of bits, in increasing index order
	msgRoot   [32]byte         // hash_tree_root(aggregate_and_proof)
	outer     [96]byte         // signed_aggregate_and_proof.signature

	// payload attestation
	ptcData   attestation.PayloadAttestationData // the pool's copy
	positions []uint64                           // the validator's positions in the PTC, increasing
	ptcSum    uint64                             // the PTC's ptcFingerprint

	// jobs are the message's signature sets once queued, owner the peer
	// whose places they hold (pending.go).
	jobs  []*job
	owner Peer
	// left is set (under the pool's mutex) once the group is no longer in
	// flight: verified, refused by a closed pool, or dropped, which is set
	// when every caller went before the verdict (cancelled).
	left    bool
	dropped atomic.Bool
	// skip is the verdict of a set answered unverified (verdict.skip),
	// guarded by the pool's mutex; failed is set once a set of the group is
	// found invalid, so that the isolated peers' goroutine skips the others
	// (Pool.resolveKeys).
	skip   Result
	failed atomic.Bool
}

// ValidateAttestation validates a SingleAttestation received on subnet
// beacon_attestation_{subnet}, forwarded by peer from (NoPeer for a message
// the node made itself or whose peer it does not know), and, if it is
// accepted, adds it to its aggregate. The pool uses from to keep one peer's
// invalid signatures from failing the batches of others (see the package
// doc). It blocks until the verdict or until ctx ends (then the verdict is
// Ignore with ErrCancelled). The pool reads att until the verdict and keeps
// no reference to it.
func (p *Pool) ValidateAttestation(ctx context.Context, from Peer, att *attestation.SingleAttestation, subnet uint64) Result {
	return <-p.run(ctx, p.attestations, func(r *request) (Result, bool) { return p.submitAttestation(r, from, att, subnet) })
}

// run makes the request of a new message and submits it; submit returns
// queued false when its Result is the verdict.
func (p *Pool) run(ctx context.Context, t *topic, submit func(r *request) (Result, bool)) <-chan Result {
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
func (p *Pool) start(ctx context.Context, t *topic) *request {
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
	g := m.newGroup(p.attestations, r, att.AttesterIndex, att.Signature)
	g.pos, g.size = uint64(pos), uint64(len(m.committee))
	if res, joined := p.checkSeen(g, r, from); joined || res.Err != nil {
		return res, joined
	}
	if res, ok := p.checkBlockSeen(m.d); !ok {
		return res, false
	}
	return p.queueAttestation(g, from, att)
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

func targetOf(d *attestation.AttestationData) attestation.Checkpoint {
	if d.Target == nil {
		return attestation.Checkpoint{}
	}
	return *d.Target
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
	if want := ComputeSubnetForAttestation(p.cfg.SlotsPerEpoch, committeesPerSlot, m.d.Slot, m.index); want != *m.subnet {
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

// checkValidatorBound keeps the pool's seen indexes bounded: a validator
// index past Config.MaxValidators is IGNOREd (not a rule of the specs).
func (p *Pool) checkValidatorBound(index uint64) (Result, bool) {
	if index >= p.cfg.MaxValidators {
		p.hit(boundValidators)
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

// newGroup is the group of the message of validator (the attester or the
// aggregator) with signature sig, for the data m hashed.
func (m *intake) newGroup(t *topic, r *request, validator uint64, sig [96]byte) *group {
	return &group{
		t: t, reqs: []*request{r},
		key:  epochKey{m.target.Epoch, validator},
		data: m.info.data, info: m.info, agg: aggKey{m.info.root, m.index}, sig: sig,
	}
}

// checkSeen runs the first-seen rules of g's topic; an identical copy of a
// message being verified joins its group (joined true). A copy forwarded by
// a peer that is not isolated takes the message out of an isolated peer's
// lane (batcher.promote): an attacker that forwards valid messages first
// does not hold up the honest copies behind it.
func (p *Pool) checkSeen(g *group, r *request, from Peer) (res Result, joined bool) {
	lead, res, joined := p.joinCopy(g, r)
	if joined {
		p.batch.promote(lead, from)
	}
	return res, joined
}

// joinCopy is checkSeen's part under the pool's lock: the rules, and the
// group in flight that g's request joined, if it did.
func (p *Pool) joinCopy(g *group, r *request) (lead *group, res Result, joined bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if res := g.t.seen(g); res.Err != nil {
		return nil, res, false
	}
	lead = g.t.inflight[g.key]
	if lead == nil || !g.isCopyOf(lead) {
		return nil, Result{}, false
	}
	res, joined = p.joinLocked(lead, r)
	return lead, res, joined
}

// isCopyOf reports whether g's message is an identical copy of lead's, of
// the same topic and key: the fields that name a message are equal (those
// its topic does not set are zero in both).
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
		p.hit(boundPending)
		return ignore(ErrQueueFull), false
	}
	p.followers++
	lead.reqs = append(lead.reqs, r)
	r.g = lead
	return Result{}, true
}

// queueAttestation queues the signature of a SingleAttestation.
func (p *Pool) queueAttestation(g *group, from Peer, att *attestation.SingleAttestation) (Result, bool) {
	pk, undecoded, res := p.attesterKey(g, from, att.AttesterIndex)
	if pk == nil {
		if res.Verdict == Reject { // an invalid signature, as if verified
			p.taint(from)
		}
		return res, false
	}
	// [Modified in Electra:EIP7549]
	// [REJECT] The attestation signature is valid
	j := &job{set: verifier.Set{Root: g.info.signingRoot, PublicKey: pk, Signature: att.Signature, Decoded: &g.point}, g: g, from: from, undecoded: undecoded}
	return p.enqueue(g, j)
}

// signerKey decodes g.sig into g.point, once, for the verifier and for
// aggregation, and returns the public key of validator, its signer. A
// signature that does not decode is invalid, a REJECT with sentinel that
// needs no lookup, so it is decided before the key is looked up; a key the
// node does not have is an IGNORE. The key is nil when res is the verdict.
func (p *Pool) signerKey(g *group, sentinel error, validator uint64) (pk *crypto.PublicKey, res Result) {
	if _, err := g.point.SetBytesNoSubgroupCheck(g.sig[:]); err != nil {
		return nil, rejectf(sentinel, "%w", err)
	}
	return p.publicKey(validator)
}

// attesterKey is signerKey for the attestation topic, which decodes here
// only while fewer than intakeDecodes submitters decode and from is not
// isolated: otherwise it leaves the decoding to the verify goroutine that
// takes the job (undecoded true), in parallel with the rest of its batch.
// On a quiet node the decoding then overlaps the verification of the batch
// before; at the arrival peak, thousands of submitters decompressing on two
// cores no longer keep the verify goroutines waiting for a core. An
// isolated peer's signatures are decoded by the isolated peers' goroutine,
// within its share of a core (isolatedShare): a flood of them costs no
// decompression beyond what that goroutine verifies, none for the sets
// refused at the peer's share of places or cancelled in its lane. A signer
// whose key the node lacks has its signature decoded here whatever the
// count, so that one that does not decode is still a REJECT rather than the
// IGNORE.
func (p *Pool) attesterKey(g *group, from Peer, validator uint64) (pk *crypto.PublicKey, undecoded bool, res Result) {
	if pk, res := p.publicKey(validator); pk != nil {
		if p.batch.isolatedPeer(from) || !reserve(&p.decoding, 1, p.intakeDecodes) {
			return pk, true, res
		}
		defer p.decoding.Add(-1)
	}
	pk, res = p.signerKey(g, ErrInvalidSignature, validator)
	return pk, false, res
}

// publicKey is the validator's key, or an IGNORE when the node has none.
func (p *Pool) publicKey(index uint64) (*crypto.PublicKey, Result) {
	pk := p.node.Keys.PublicKey(index)
	if pk == nil {
		return nil, ignoref(ErrUnknownValidator, "validator %d", index)
	}
	return pk, Result{}
}

// enqueue registers g as in flight and queues its jobs, one per signature
// of g, unless a bound is hit or the pool is closed.
func (p *Pool) enqueue(g *group, jobs ...*job) (Result, bool) {
	g.remaining, g.jobs, g.owner = len(jobs), jobs, jobs[0].from
	inflight := g.t.inflight
	p.mu.Lock()
	if !g.liveLocked() {
		// The caller's context ended during the intake: answered Ignore
		// already, and nothing to verify.
		p.mu.Unlock()
		return Result{}, true
	}
	if g.t.stored && !p.store.canStore(g.agg, max(1, len(g.attesters))) {
		p.mu.Unlock()
		p.hit(boundStore)
		return ignore(ErrPoolFull), false
	}
	if !p.reserveLocked(g.owner, len(jobs)) {
		p.mu.Unlock()
		return ignore(ErrQueueFull), false
	}
	if inflight[g.key] == nil {
		inflight[g.key] = g
	}
	g.reqs[0].g = g
	p.mu.Unlock()
	switch p.batch.admit(jobs...) {
	case admitClosed:
		p.answerClosed(g)
		return Result{}, true
	case admitLaneFull:
		p.hit(boundLane)
		p.answerUnqueued(g, ignoref(ErrQueueFull, "isolated peer's lane full"))
		return Result{}, true
	}
	if g.dropped.Load() { // its caller went while its sets were queued
		p.dropQueued(g)
	}
	return Result{}, true
}

// answerClosed answers a group the batcher refused, closed meanwhile
// (copies may have joined it), and gives back its places.
func (p *Pool) answerClosed(g *group) { p.answerUnqueued(g, ignore(ErrClosed)) }

// answerUnqueued answers res to the callers of a group the batcher refused
// (copies may have joined it), and gives back its places.
func (p *Pool) answerUnqueued(g *group, res Result) {
	p.pending.Add(-int64(len(g.jobs)))
	p.mu.Lock()
	p.releasePeerLocked(g.owner, len(g.jobs))
	p.leaveInflightLocked(g)
	reqs := g.reqs
	g.reqs = nil
	p.mu.Unlock()
	for _, r := range reqs {
		r.resolve(res)
	}
}

// leaveInflightLocked forgets g as the in-flight copy of its message: no
// copy joins it any more, and those that did stop counting as followers.
func (p *Pool) leaveInflightLocked(g *group) {
	if g.left {
		return
	}
	g.left = true
	if g.t.inflight[g.key] == g {
		delete(g.t.inflight, g.key)
	}
	p.followers -= max(0, len(g.reqs)-1)
}
