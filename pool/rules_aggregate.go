package pool

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"slices"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/ssz"
	"github.com/attpool/attpool/verifier"
	"github.com/prysmaticlabs/go-bitfield"
)

// The rules of beacon_aggregate_and_proof before its signatures, in the
// order the intake takes them (the shared steps are in rules.go).

// ValidateAggregate validates a SignedAggregateAndProof received on
// beacon_aggregate_and_proof, forwarded by peer from (NoPeer for none; see
// ValidateAttestation), and, if it is accepted, adds its aggregate to the
// pool. It blocks until the verdict or until ctx ends. The pool reads sap
// until the verdict and keeps no reference to it.
func (p *Pool) ValidateAggregate(ctx context.Context, from Peer, sap *attestation.SignedAggregateAndProof) Result {
	return <-p.run(ctx, p.aggregates, func(r *request) (Result, bool) { return p.submitAggregate(r, from, sap) })
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
	if res, joined := p.checkSeen(g, r, from); joined || res.Err != nil {
		return res, joined
	}
	if res, ok := p.checkAggregator(m, sap.Message); !ok {
		return res, false
	}
	if res, ok := p.checkBlockSeen(m.d); !ok {
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
	msgRoot, err := p.aggregateAndProofRoot(aap, m.info.data)
	if err != nil {
		return nil, rejectf(ErrMalformed, "%w", err), false
	}
	g := m.newGroup(p.aggregates, r, aap.AggregatorIndex, aggregate.Signature)
	g.bits, g.msgRoot, g.outer = bytes.Clone(aggregate.AggregationBits), msgRoot, sap.Signature
	return g, Result{}, true
}

// aggregateAndProofRoot is hash_tree_root(aggregate_and_proof), the root
// the aggregator signs, over the pool's copy of the data. From the Gloas
// fork on, the AggregateAndProof holds the Gloas Attestation, a progressive
// container (EIP-7688) with the same encoding and another root.
func (p *Pool) aggregateAndProofRoot(aap *attestation.AggregateAndProof, data *attestation.AttestationData) ([32]byte, error) {
	aggregate := *aap.Aggregate
	aggregate.Data = data
	msg := *aap
	msg.Aggregate = &aggregate
	if p.isGloas(p.epochOf(data.Slot)) {
		return msg.Gloas().HashTreeRoot()
	}
	return msg.HashTreeRoot()
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

// queueAggregate queues the three signatures of an aggregate.
func (p *Pool) queueAggregate(g *group, m *intake, from Peer, sap *attestation.SignedAggregateAndProof) (Result, bool) {
	aap := sap.Message
	// [REJECT] The aggregate signature is valid (it does not decode).
	aggregator, res := p.signerKey(g, ErrInvalidAggregateSignature, aap.AggregatorIndex)
	if aggregator == nil {
		return res, false
	}
	// An isolated peer's aggregate has its participants' key summed by the
	// isolated peers' goroutine, after its other two sets and only if they
	// are valid (resolveKeys): a crafted aggregate that passes
	// is_aggregator costs no key sum at intake.
	participants, slot, index, committee, bits := (*crypto.PublicKey)(nil), m.d.Slot, m.index, m.committee, g.bits
	later := p.batch.isolatedPeer(from)
	if !later {
		if participants, res = p.participantsKey(slot, index, committee, bits); participants == nil {
			return res, false
		}
	}
	g.attesters = p.sortedAttesters(m.d.Slot, m.index, m.committee, g.bits)
	jobs, err := p.aggregateJobs(g, m, from, aggregator, participants, aap.SelectionProof)
	if err != nil {
		return rejectf(ErrMalformed, "%w", err), false
	}
	if later {
		jobs[2].key = func() (*crypto.PublicKey, Result) { return p.participantsKey(slot, index, committee, bits) }
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
