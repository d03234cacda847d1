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

// ptcOK reports whether r is the verdict m must get: Accept, or Reject for
// its signature.
func (m *ptcMsg) ok(r pool.Result) bool {
	if m.valid {
		return r.Verdict == pool.Accept && r.Err == nil
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
	domain, err := ssz.ComputeDomain(ssz.DomainPTCAttester, s.net.Forks.ForkVersion(slot/s.net.SlotsPerEpoch), s.net.Forks.GenesisValidatorsRoot())
	if err != nil {
		return nil, nil, err
	}
	var hashes [2]*crypto.HashedMessage
	var datas [2]*attestation.PayloadAttestationData
	for i, present := range []bool{false, true} {
		datas[i] = &attestation.PayloadAttestationData{BeaconBlockRoot: s.net.Data(slot).BeaconBlockRoot, Slot: slot, PayloadPresent: present}
		root, err := ssz.ComputeSigningRoot(datas[i], domain)
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
