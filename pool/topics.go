package pool

import "slices"

// topic is one gossip topic of the intake: what differs between the topics
// from a message's submission to its verdict. A pool has one of each
// (newTopics), and each group points to its own, so that the intake's shared
// steps (rules.go) and the completion (complete.go) read the same for every
// topic. The rules of each topic are in its file: rules.go
// (beacon_attestation_{subnet_id}), rules_aggregate.go
// (beacon_aggregate_and_proof), ptc.go (payload_attestation_message); the
// signature and chain rules the two attestation topics run after the
// signatures are in rules_chain.go.
type topic struct {
	// name is the topic label of the verdict metrics.
	name string
	// inflight indexes the groups being verified by key, so that an
	// identical copy that arrives meanwhile joins its group. Guarded by the
	// pool's mutex.
	inflight map[epochKey]*group
	// stored says that accepted messages go into the aggregate store: one
	// the store has no room for is IGNOREd at intake (ErrPoolFull).
	stored bool
	// signatures is the verdict of a group's signatures (ok[i]: its set i
	// is valid), in the order of the specs' rules.
	signatures func(ok [aggregateSets]bool) Result
	// chainRules says that the chain rules (chainChecks) run once the
	// signatures pass, as the attestation topics have them; the payload
	// attestation topic runs its own before the signature.
	chainRules bool
	// seen runs the topic's first-seen rules, at intake and again once the
	// message is found valid (another copy may have won meanwhile). The
	// pool's mutex is held.
	seen func(g *group) Result
	// commit applies the first-seen rules to a valid message and records
	// it (seen marks, the store; accepted attestations join c to be merged
	// together). The pool's mutex is held.
	commit func(c *commitment, g *group) Result
	// copySeen is the sentinel of the IGNORE an identical copy of an
	// accepted message gets: the first-seen rule it then breaks.
	copySeen error
	// attesters, when not nil, gives the attesting indices of an accepted
	// message for Result.Indexed, sorted and not shared.
	attesters func(g *group) []uint64
}

// newTopics makes the pool's topics.
func (p *Pool) newTopics() {
	p.attestations = &topic{
		name:       "attestation",
		inflight:   make(map[epochKey]*group),
		stored:     true,
		signatures: attestationSigVerdict,
		chainRules: true,
		seen:       p.checkAttestationSeenLocked,
		commit:     p.commitAttestationLocked,
		copySeen:   ErrAlreadySeen,
		attesters:  func(g *group) []uint64 { return []uint64{g.key.index} },
	}
	p.aggregates = &topic{
		name:       "aggregate",
		inflight:   make(map[epochKey]*group),
		stored:     true,
		signatures: aggregateSigVerdict,
		chainRules: true,
		seen:       p.checkAggregateSeenLocked,
		commit:     p.commitAggregateLocked,
		copySeen:   ErrAggregatorSeen,
		attesters:  func(g *group) []uint64 { return slices.Clone(g.attesters) },
	}
	p.payloadAttestations = &topic{
		name:       "payload_attestation",
		inflight:   make(map[epochKey]*group),
		signatures: payloadAttestationSigVerdict,
		seen:       p.checkPayloadAttestationSeenLocked,
		commit:     p.commitPayloadAttestationLocked,
		copySeen:   ErrPayloadAttestationSeen,
	}
}
