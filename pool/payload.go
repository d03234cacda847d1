package pool

import (
	"bytes"
	"slices"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/internal/curve"
)

// The payload attestations the pool keeps for blocks (Gloas, EIP-7732): the
// proposer of slot N+1 includes the PTC's votes on block N, aggregated per
// PayloadAttestationData (specs/gloas/validator.md, "Payload
// attestations"), which process_payload_attestation checks.

// payloadEntry is the aggregate of the accepted votes on one
// PayloadAttestationData checked against one PTC of data.Slot (the node's
// answer; entries of other answers are kept apart, so that each aggregate
// is over the PTC its bits index). agg.bits has one bit per position of the
// PTC (a Bitlist of the PTC's length), set at every position of each
// validator whose vote it holds; agg.sig is the sum of their signatures,
// each counted once per position: get_indexed_payload_attestation lists a
// validator once per set bit, and is_valid_indexed_payload_attestation
// verifies the signature against the sum of those keys, a validator's key
// as many times as it is listed.
type payloadEntry struct {
	data attestation.PayloadAttestationData
	root [32]byte // hash_tree_root(data)
	agg  aggregate
}

// payloadKey names an entry: the data's root, the PTC's ptcFingerprint.
type payloadKey struct {
	root   [32]byte
	ptcSum uint64
}

// payloadStore is the pool's index of payload attestation aggregates. It is
// guarded by the pool's mutex. It needs no bound of its own: an entry holds
// at least one vote, a validator's vote is accepted once a slot (the
// first-seen rule), and only the slots a block may still include are kept
// (a vote drops the slots before its previous one, the clock those before
// the previous slot), so it holds at most one entry per PTC member of each
// of those two slots (and of a slot whose late votes were still being
// verified, until the clock's next prune).
type payloadStore struct {
	byKey map[payloadKey]*payloadEntry
}

func newPayloadStore() *payloadStore {
	return &payloadStore{byKey: make(map[payloadKey]*payloadEntry)}
}

// place returns the aggregate that g's accepted vote joins, made if there is
// none of its data and PTC. None of g's positions is set there: the
// validator's vote is accepted once a slot, and its positions are those of
// the same PTC.
func (s *payloadStore) place(g *group) *aggregate {
	k := payloadKey{g.msgRoot, g.ptcSum}
	e := s.byKey[k]
	if e == nil {
		e = &payloadEntry{data: g.ptcData, root: g.msgRoot, agg: aggregate{bits: bitfield.NewBitlist(g.size), sig: curve.G2Infinity()}}
		s.byKey[k] = e
	}
	return &e.agg
}

// prune drops the aggregates of slots before minSlot.
func (s *payloadStore) prune(minSlot uint64) {
	for k, e := range s.byKey {
		if e.data.Slot < minSlot {
			delete(s.byKey, k)
		}
	}
}

// payloadAggregate is a copy of a payloadEntry, read outside the lock.
type payloadAggregate struct {
	data attestation.PayloadAttestationData
	bits bitfield.Bitlist
	sig  curve.G2
}

// forBlock returns copies of the aggregates a block of slot with parent
// parentRoot may include, over the PTC ptc of slot-1 if it has size
// members, best first (the most positions), at most
// MAX_PAYLOAD_ATTESTATIONS.
func (s *payloadStore) forBlock(slot uint64, parentRoot [32]byte, ptc []uint64, size uint64) []payloadAggregate {
	if slot == 0 || uint64(len(ptc)) != size {
		return nil
	}
	sum := ptcFingerprint(ptc)
	var es []*payloadEntry
	for k, e := range s.byKey {
		// Check that the attestation is for the parent beacon block
		// Check that the attestation is for the previous slot
		// (process_payload_attestation; and over the PTC of that slot)
		if e.data.BeaconBlockRoot == parentRoot && e.data.Slot == slot-1 && k.ptcSum == sum {
			es = append(es, e)
		}
	}
	slices.SortFunc(es, func(a, b *payloadEntry) int {
		if pa, pb := a.agg.participants(), b.agg.participants(); pa != pb {
			return pb - pa
		}
		return bytes.Compare(a.root[:], b.root[:])
	})
	out := make([]payloadAggregate, 0, min(len(es), attestation.MaxPayloadAttestations))
	for _, e := range es[:min(len(es), attestation.MaxPayloadAttestations)] {
		out = append(out, payloadAggregate{data: e.data, bits: slices.Clone(e.agg.bits), sig: e.agg.sig})
	}
	return out
}

// PayloadAttestationsForBlock returns the payload attestations for a block
// of slot whose parent is the block parentRoot: at most
// MAX_PAYLOAD_ATTESTATIONS, one per PayloadAttestationData the pool holds
// votes on with data.slot + 1 == slot and data.beacon_block_root ==
// parentRoot (the checks of process_payload_attestation), best first (the
// most PTC positions covered; equal ones by data root). Each aggregates
// every vote the pool accepted on its data: aggregation_bits are set at the
// positions, in the PTC of data.slot that Node.Gloas.PTC gave, of the
// validators that voted (all the positions of a validator the PTC names more
// than once), and the signature is the sum of their signatures, a
// validator's counted once per position, so that the indexed attestation is
// valid (is_valid_indexed_payload_attestation). They are the mainnet
// preset's containers; on a chain of the minimal preset (a PTC of 16) only
// the first 16 bits can be set, and
// [attestation.ToMinimalPayloadAttestation] gives that preset's container.
// Votes checked against another PTC than the one Node.Gloas.PTC gives for
// data.slot now are left out. It returns nil for a pool whose Node has no
// Gloas part.
func (p *Pool) PayloadAttestationsForBlock(slot uint64, parentRoot [32]byte) []*attestation.PayloadAttestation {
	if p.node.Gloas == nil || slot == 0 {
		return nil
	}
	ptc, ok := p.node.Gloas.PTC.PTC(slot - 1)
	if !ok || (len(ptc) != attestation.PTCSize && len(ptc) != attestation.MinimalPTCSize) {
		return nil
	}
	p.mu.Lock()
	aggs := p.payloads.forBlock(slot, parentRoot, ptc, uint64(len(ptc)))
	p.mu.Unlock()
	if len(aggs) == 0 {
		return nil
	}
	out := make([]*attestation.PayloadAttestation, len(aggs))
	for i := range aggs {
		a := &aggs[i]
		bits := make([]byte, attestation.PTCSize/8)
		for _, pos := range a.bits.BitIndices() {
			bits[pos/8] |= 1 << (pos % 8)
		}
		sig := a.sig.Affine()
		out[i] = &attestation.PayloadAttestation{AggregationBits: bits, Data: &a.data, Signature: sig.Bytes()}
	}
	return out
}
