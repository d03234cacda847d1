package main

// The payload_attestation_message topic of the main job (-ptc): the Gloas
// payload timeliness committee's votes on the slot's block.

import (
	"errors"
	"math/rand/v2"
	"slices"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
	"github.com/attpool/attpool/ssz"
)

// ptcMsg is one payload attestation and whether its signature is valid.
type ptcMsg struct {
	msg   *attestation.PayloadAttestationMessage
	valid bool
}

// ok reports whether r is the verdict m must get: Accept, with the vote
// fork choice takes, or Reject for its signature.
func (m *ptcMsg) ok(r pool.Result) bool {
	if m.valid {
		return r.Verdict == pool.Accept && r.Err == nil && r.Payload != nil && r.Payload.ValidatorIndex == m.msg.ValidatorIndex
	}
	return r.Verdict == pool.Reject && errors.Is(r, pool.ErrInvalidPayloadAttestationSignature)
}

// gloasNode is the Gloas part of the node of -ptc: the Gloas rules from the
// first simulated epoch on, the PTC drawn from the slot's committees.
func (e *env) gloasNode() *pool.GloasNode {
	return &pool.GloasNode{
		ForkEpoch: firstSlot / e.net.SlotsPerEpoch,
		PTC:       pooltest.CommitteePTC{Committees: e.net.Committees, SlotsPerEpoch: e.net.SlotsPerEpoch},
	}
}

// node is the pool's view of the network (with Gloas under -ptc).
func (e *env) node() pool.Node { return e.net.Node() }

// ptcMembers lists the distinct validators of the PTC of slot (a validator
// the PTC names twice votes once).
func (e *env) ptcMembers(slot uint64) []uint64 {
	ptc, ok := e.gloasNode().PTC.PTC(slot)
	if !ok {
		return nil
	}
	seen := map[uint64]bool{}
	return slices.DeleteFunc(slices.Clone(ptc), func(v uint64) bool {
		dup := seen[v]
		seen[v] = true
		return dup
	})
}

// signPTC returns the payload attestation of every member of slot's PTC on
// the slot's block, two thirds with the payload present and one third
// without (two signing roots), clean; and the same with an invalid share
// of them carrying the next member's signature (chosen with seed).
func (s signer) signPTC(slot uint64, members []uint64, invalid float64, seed uint64) (clean, gossip []ptcMsg, err error) {
	var hashes [2]*crypto.HashedMessage
	var datas [2]*attestation.PayloadAttestationData
	for i, present := range []bool{false, true} {
		datas[i] = &attestation.PayloadAttestationData{BeaconBlockRoot: s.net.Data(slot).BeaconBlockRoot, Slot: slot, PayloadPresent: present}
		root, err := s.signingRoot(ssz.DomainPTCAttester, slot, datas[i])
		if err != nil {
			return nil, nil, err
		}
		hashes[i] = crypto.HashMessage(root[:])
	}
	clean = make([]ptcMsg, len(members))
	signAll(len(members), func(i int) {
		d := min(i%3, 1) // a third vote "payload absent"
		clean[i] = ptcMsg{valid: true, msg: &attestation.PayloadAttestationMessage{
			ValidatorIndex: members[i], Data: datas[d], Signature: mulSign(s.net.Keys.SecretKey(members[i]), hashes[d]),
		}}
	})
	gossip = slices.Clone(clean)
	if len(gossip) < 2 {
		return clean, gossip, nil
	}
	rng := rand.New(rand.NewPCG(seed^0x97c, slot))
	for _, i := range rng.Perm(len(gossip))[:familyCount(invalid, len(gossip), 1)] {
		m := *gossip[i].msg
		m.Signature = clean[(i+3)%len(clean)].msg.Signature // another member's vote on the same data
		gossip[i] = ptcMsg{msg: &m}
	}
	return clean, gossip, nil
}

// ptcBlock is what the blocks of the slots after the simulated ones would
// carry of the PTC's votes (-ptc), summed over the slots: their payload
// attestations, those process_payload_attestation accepts, the PTC
// positions they cover, and the positions of the votes the pool accepted.
type ptcBlock struct {
	attestations, verified, positions, accepted int
}

// packPayload asks for the payload attestations of the block of slot+1 on
// the block of slot, and checks each as process_payload_attestation does.
func (e *env) packPayload(out *outcome, p *pool.Pool, slot uint64) {
	parent := e.net.Data(slot).BeaconBlockRoot
	for _, pa := range p.PayloadAttestationsForBlock(slot+1, parent) {
		out.ptcBlock.attestations++
		out.ptcBlock.positions += int(pa.AggregationBits.Count())
		if e.validPayloadAttestation(pa, slot+1, parent) {
			out.ptcBlock.verified++
		}
	}
}

// validPayloadAttestation runs the checks of process_payload_attestation on
// pa for a block of slot on parent: the slot and the root, then
// get_indexed_payload_attestation over the node's PTC and
// is_valid_indexed_payload_attestation (FastAggregateVerify over the keys
// of its attesting indices, a validator's once per position).
func (e *env) validPayloadAttestation(pa *attestation.PayloadAttestation, slot uint64, parent [32]byte) bool {
	if pa.Data.Slot+1 != slot || pa.Data.BeaconBlockRoot != parent {
		return false
	}
	ptc, ok := e.gloasNode().PTC.PTC(pa.Data.Slot)
	if !ok || uint64(len(ptc)) != pa.AggregationBits.Len() {
		return false
	}
	var pks []*crypto.PublicKey
	for i, v := range ptc {
		if pa.AggregationBits.BitAt(uint64(i)) {
			pks = append(pks, e.net.Keys.PublicKey(v))
		}
	}
	root, err := signer{net: e.net}.signingRoot(ssz.DomainPTCAttester, pa.Data.Slot, pa.Data)
	if err != nil {
		return false
	}
	sig, err := crypto.SignatureFromBytes(pa.Signature[:])
	return err == nil && crypto.FastAggregateVerify(pks, root[:], sig)
}
