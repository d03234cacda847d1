package pooltest

import (
	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/ssz"
	"github.com/attpool/attpool/verifier"
)

// AggregateSets returns the three signature sets of sap (selection proof,
// aggregator signature, aggregate signature against the participants' key
// sum), built from the network without the pool: the reference a test or a
// baseline checks sap's signatures against. ok is false when sap cannot
// have them.
func (n *Network) AggregateSets(sap *attestation.SignedAggregateAndProof) (sets [3]verifier.Set, ok bool) {
	if sap == nil || sap.Message == nil || sap.Message.Aggregate == nil || sap.Message.Aggregate.Data == nil {
		return sets, false
	}
	aap := sap.Message
	agg := aap.Aggregate
	d := agg.Data
	committees := agg.CommitteeBits.BitIndices()
	if len(committees) != 1 || d.Target == nil {
		return sets, false
	}
	committee, found := n.Committees.BeaconCommittee(d.Slot, uint64(committees[0]))
	if !found || agg.AggregationBits.Len() != uint64(len(committee)) {
		return sets, false
	}
	var pks []*crypto.PublicKey
	for _, pos := range agg.AggregationBits.BitIndices() {
		pks = append(pks, n.Keys.PublicKey(committee[pos]))
	}
	participants, err := crypto.AggregatePublicKeys(pks)
	aggregator := n.Keys.PublicKey(aap.AggregatorIndex)
	if err != nil || aggregator == nil {
		return sets, false
	}
	fork, gvr := n.Forks.ForkVersion(d.Target.Epoch), n.Forks.GenesisValidatorsRoot()
	selDomain, err1 := ssz.ComputeDomain(ssz.DomainSelectionProof, fork, gvr)
	aapDomain, err2 := ssz.ComputeDomain(ssz.DomainAggregateAndProof, fork, gvr)
	attDomain, err3 := ssz.ComputeDomain(ssz.DomainBeaconAttester, fork, gvr)
	msgRoot, err4 := n.aggregateAndProofRoot(aap)
	attRoot, err5 := ssz.ComputeSigningRoot(d, attDomain)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || err5 != nil {
		return sets, false
	}
	sets[0] = verifier.Set{Root: ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(d.Slot), selDomain), PublicKey: aggregator, Signature: aap.SelectionProof}
	sets[1] = verifier.Set{Root: ssz.ComputeSigningRootFromRoot(msgRoot, aapDomain), PublicKey: aggregator, Signature: sap.Signature}
	sets[2] = verifier.Set{Root: attRoot, PublicKey: participants, Signature: agg.Signature}
	return sets, true
}
