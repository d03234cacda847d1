package main

// The beacon_aggregate_and_proof topic of the main job: every aggregate of
// the slot (pooltest's mainnet-shaped traffic), with faults of the same
// shares as the attestations'.

import (
	"errors"
	"slices"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// aggregateFamilies sorts the topic's faults into the flags' families. The
// signature faults come from pooltest.SignatureFaults.
var aggregateFamilies = map[family][]pooltest.AggregateFault{
	famMalformed: {pooltest.AggNilMessage, pooltest.AggBadBits, pooltest.AggDataIndex, pooltest.AggCommitteeBits,
		pooltest.AggCommitteeIndex, pooltest.AggTargetEpoch, pooltest.AggBitsLength, pooltest.AggNoParticipants,
		pooltest.AggNotAggregator, pooltest.AggAggregatorNotInCommittee, pooltest.AggBlockUnknown,
		pooltest.AggBlockInvalid, pooltest.AggTargetNotAncestor, pooltest.AggFinalizedNotAncestor},
	famWindow:    {pooltest.AggFutureSlot, pooltest.AggStaleEpoch},
	famDuplicate: {pooltest.AggDuplicate, pooltest.AggAggregatorSeen},
}

// aggregateFaults is how many of each fault the gossip load of a slot with
// n aggregates and cps committees gets: the invalid share spread over the
// three signatures, every other family's share over its kinds (at least one
// each when the share is not zero). An index out of range needs fewer than
// 64 committees.
func aggregateFaults(sh shares, n int, cps uint64) map[pooltest.AggregateFault]int {
	out := map[pooltest.AggregateFault]int{}
	if sh.Invalid > 0 {
		out = pooltest.SignatureFaults(familyCount(sh.Invalid, n, 1))
	}
	for fam, share := range map[family]float64{famMalformed: sh.Malformed, famWindow: sh.Window, famDuplicate: sh.Duplicates} {
		kinds := aggregateFamilies[fam]
		if cps >= pool.MaxCommitteesPerSlot {
			kinds = slices.DeleteFunc(slices.Clone(kinds), func(f pooltest.AggregateFault) bool { return f == pooltest.AggCommitteeIndex })
		}
		for _, f := range kinds {
			if c := familyCount(share, n, len(kinds)); c > 0 {
				out[f] = c
			}
		}
	}
	return out
}

// beforeSuperset are the faults whose rule the specs list before the
// superset rule of beacon_aggregate_and_proof ("[IGNORE] A valid aggregate
// attestation defined by hash_tree_root(aggregate.data) whose
// aggregation_bits is a non-strict superset has not already been seen (via
// aggregate gossip, within a verified block, or through the creation of an
// equivalent aggregate locally)").
var beforeSuperset = []pooltest.AggregateFault{
	pooltest.AggNilMessage, pooltest.AggBadBits, pooltest.AggCommitteeIndex, pooltest.AggFutureSlot,
	pooltest.AggStaleEpoch, pooltest.AggTargetEpoch, pooltest.AggDataIndex, pooltest.AggCommitteeBits,
	pooltest.AggBitsLength, pooltest.AggNoParticipants,
}

// aggregateOK reports whether r is a verdict m may get. pooltest's expected
// verdicts assume a pool that saw no single attestation of the data; a node
// on m's subnet also aggregated the committee's single attestations, and the
// superset rule lets it ignore an aggregate its own aggregate contains, as
// the rules after that one do not run: for such a message, Ignore with
// pool.ErrAggregateSeen is right too.
func aggregateOK(m *pooltest.AggregateMsg, subscribed bool, r pool.Result) bool {
	if m.Matches(r) {
		return true
	}
	return subscribed && r.Verdict == pool.Ignore && errors.Is(r, pool.ErrAggregateSeen) &&
		!slices.Contains(beforeSuperset, m.Fault)
}

// participants lists the validators an accepted aggregate of slot covers.
func (e *env) participants(slot uint64, m *pooltest.AggregateMsg) []uint64 {
	a := m.Msg.Message.Aggregate
	members, ok := e.net.Committees.BeaconCommittee(slot, m.Committee)
	if !ok {
		return nil
	}
	var out []uint64
	for _, i := range a.AggregationBits.BitIndices() {
		if i < len(members) {
			out = append(out, members[i])
		}
	}
	return out
}
