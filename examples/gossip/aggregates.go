package main

// The beacon_aggregate_and_proof topic of the main job: every aggregate of
// the slot (pooltest's mainnet-shaped traffic), with faults of the same
// shares as the attestations'.

import (
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
// 64 committees. pooltest's faults follow the Electra rules: under the Gloas
// rules (gloas) a data index of 1 is not rejected for itself, so that fault
// is left out.
func aggregateFaults(sh shares, n int, cps uint64, gloas bool) map[pooltest.AggregateFault]int {
	out := map[pooltest.AggregateFault]int{}
	if sh.Invalid > 0 {
		out = pooltest.SignatureFaults(familyCount(sh.Invalid, n, 1))
	}
	for fam, share := range map[family]float64{famMalformed: sh.Malformed, famWindow: sh.Window, famDuplicate: sh.Duplicates} {
		kinds := aggregateFamilies[fam]
		kinds = slices.DeleteFunc(slices.Clone(kinds), func(f pooltest.AggregateFault) bool {
			return (f == pooltest.AggCommitteeIndex && cps >= pool.MaxCommitteesPerSlot) || (f == pooltest.AggDataIndex && gloas)
		})
		for _, f := range kinds {
			if c := familyCount(share, n, len(kinds)); c > 0 {
				out[f] = c
			}
		}
	}
	return out
}

// countFaults is the number of aggregates faults asks for.
func countFaults(faults map[pooltest.AggregateFault]int) int {
	n := 0
	for _, c := range faults {
		n += c
	}
	return n
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
