package pooltest

import (
	"time"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/ssz"
	"github.com/attpool/attpool/verifier"
	"github.com/attpool/attpool/verifier/baseline"
)

// BaselineAggregates verifies the signatures of msgs as Prysm and Lighthouse
// do, the baseline of the aggregate benchmarks: per message, the sum of its
// participants' keys and its three sets (selection proof, aggregator
// signature, aggregate signature) in one distinct-message batch
// (baseline.DistinctMessages), each set alone (baseline.Individual) if the
// batch fails: baseline.Lighthouse's Verify. The messages are spread over goroutines goroutines, as a
// node's gossip validators run. valid[i] reports whether all three
// signatures of msgs[i] are valid (false for a message too malformed to
// have them); wall runs from the start to the last verdict.
func (n *Network) BaselineAggregates(msgs []AggregateMsg, goroutines int) (valid []bool, wall time.Duration) {
	valid = make([]bool, len(msgs))
	t0 := time.Now()
	par.ForOn(max(1, goroutines), len(msgs), 1, func(i int) {
		if sets, have := n.aggregateSets(msgs[i].Msg); have {
			ok := baseline.Lighthouse{}.Verify(sets[:])
			valid[i] = ok[0] && ok[1] && ok[2]
		}
	})
	return valid, time.Since(t0)
}

// aggregateSets returns the three signature sets of sap, the participants'
// key summed; ok is false when sap cannot have them.
func (n *Network) aggregateSets(sap *attestation.SignedAggregateAndProof) (sets [3]verifier.Set, ok bool) {
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
