// Package pool is attpool's attestation pool: it validates the attestations
// and aggregates a beacon node receives by gossip, batching their signatures
// for package verifier, and keeps the accepted ones aggregated for block
// proposals.
//
// # Using it
//
// The node supplies what the pool cannot know through the small interfaces
// of a Node (validator keys, committees, the clock, the fork schedule, the
// fork-choice checks); package pooltest has in-memory versions of them for
// tests and simulations, and simulates whole slots of traffic. New starts a
// pool (its goroutines), Close stops it. Each gossip topic has one entry
// point, which takes the Peer that forwarded the message (NoPeer for one the
// node made itself) and blocks until the verdict:
//
//	p, err := pool.New(pool.Config{Logger: log, Registerer: reg}, node)
//	...
//	res := p.ValidateAttestation(ctx, from, att, subnet) // blocks until the verdict
//	atts := p.AttestationsForBlock(slot, pool.BlockFilter{})
//
// # Verdicts
//
// A Result carries a Verdict (Reject, the zero value, Ignore or Accept) and,
// unless Accept, an error wrapping the sentinel of the rule that decided it
// (errors.Is(res, pool.ErrAlreadySeen)). The rules are those of the consensus
// specs' Electra (and Fulu) gossip topics beacon_attestation_{subnet_id} and
// beacon_aggregate_and_proof, in the specs' order, and, for messages of
// epochs from Node.Gloas.ForkEpoch on, the Gloas ones (data.index 0 or 1,
// the payload status through ForkChoice.BlockPayload, and the aggregator's
// signature over the root of the Gloas AggregateAndProof, whose Attestation
// is a progressive container);
// ValidatePayloadAttestation takes the Gloas payload_attestation_message
// topic. Each rule is quoted where it is checked (rules.go,
// rules_aggregate.go, rules_chain.go, ptc.go, complete.go). When
// the node cannot answer a lookup, the verdict is Ignore, unless a later
// rule that needs no lookup rejects. The rules that need no signature run
// first, on the caller's goroutine; the signatures are then queued; the
// chain-dependent rules (through Node.Chain) and the first-seen rules run
// again once the signatures are verified, as in the specs (on the payload
// attestation topic the chain rules come before the signature). A message whose context ends
// first is answered Ignore (ErrCancelled); a message submitted after Close,
// Ignore (ErrClosed); a bound of the pool hit, Ignore (ErrQueueFull,
// ErrPoolFull) at once. Every message gets exactly one verdict. An
// accepted message's Result carries what fork choice needs of it: Indexed
// (on_attestation) for an attestation or an aggregate, Payload
// (on_payload_attestation_message) for a payload attestation.
//
// # Batching
//
// Config.Policy chooses how signature sets are gathered into the batches
// handed to the verifier. Under BatchAdaptive (the default) a verify worker
// that is free takes what is queued at once, or waits for more sets within
// Config.LatencyBudget when, by the cost of its recent batches (a fixed
// cost per batch, a cost per signing root and per set, measured as it runs)
// and the recent arrival rate of each root, a larger batch costs less CPU
// per set: batches grow when waiting is cheap, nobody waits when nothing
// is coming, and no set waits for companions past the budget (a negative
// budget: never wait, the work-conserving rule). Batches
// grow with the backlog under load; queued sets are grouped by signing root
// (the verifier's same-root check pays for it), roots take turns so that a
// root with few sets is not held up by one with many, and Config.BatchDelay
// bounds the verification time of one batch. BatchFixed is the clients' way: one FIFO for all roots, a batch when
// Config.MinBatch sets are queued or the oldest has waited
// Config.BatchDelay, at most Config.BatchSize sets; the benchmarks configure
// it as Prysm (1000 sets or 5 ms), Lighthouse (no wait, 64), Lodestar (32
// sets or 50 ms, 128) and Teku (no wait, 250) do. Queued sets are verified on
// Close. An aggregate's three signatures (selection
// proof, aggregator signature, aggregate signature against the sum of its
// participants' keys) are queued like any others; it is accepted when all
// three pass. A copy of a message that is being verified shares its
// verification; a copy of one already accepted is dropped before any
// signature work. AttestationData roots are cached by the data's encoding.
//
// # Verdicts as soon as they are known
//
// The verify goroutines hand every set's verdict to one completing
// goroutine as soon as the verifier has decided it: with a verifier that
// also has VerifyStream (*verifier.Verifier does), the sets of a passing
// half of a failing batch are answered while the verifier still searches
// the other half, and a message (an aggregate has three sets, perhaps in
// different batches) is answered once all its sets are decided. Meanwhile
// the verify goroutines take the next batches, so one batch's search holds
// up only the goroutine in it. Under BatchAdaptive the first of the
// Config.VerifyWorkers goroutines (GOMAXPROCS by default) takes every batch
// as soon as it is free, and the verifier spreads each over the cores; the
// others are backups that take a batch only while another verify goroutine
// searches a failing batch (the verifier says when a search begins, with
// VerifyStreamSearch), once a queued set has waited BatchDelay (the
// pool is behind), or, on a machine of 8 cores or more, once a few hundred
// sets are queued and the batches being verified leave cores free (a
// verifier sizes each call's parallelism to its work: two calls side by
// side use many cores better than one spread over all of them), so that
// batches stay large enough to be cheap and no set waits behind a search.
// The sets count against
// MaxPending until their message is answered, and a peer's messages (those
// of its Peer; NoPeer's count as one peer's once a named peer's have come)
// hold at most Config.MaxPendingPerPeer of them. A quarter of MaxPending is
// kept as the peers' reserves, split between Config.MaxPeers peers: a peer
// whose messages hold no more than its reserve is never refused, and the
// floods of any number of peers, up to MaxPeers, take only the other
// places, so that no peer's flood refuses another peer's message. An
// isolated peer's lane holds a few of its batches, and all the lanes
// together a small share of MaxPending: what they have no room for is
// answered at once (Ignore, ErrQueueFull) rather than held until its
// callers' deadlines. When every caller of a message has gone
// before its verdict (their contexts ended, as behind a gossip validator's
// timeout), its sets still queued leave the queues and their places are
// free at once; a set already in a batch is verified with it.
//
// # Peer isolation
//
// Under BatchAdaptive, a message is verified apart from the others while its
// forwarding peer (the from of the Validate methods) recently forwarded an
// invalid signature: each invalid signature adds 1 to the peer's score, the
// score halves every Config.PeerHalfLife (a slot by default), and the peer is
// isolated while its score is above one half, so one invalid signature by accident isolates an honest peer for
// one half-life, while a peer that keeps sending them stays isolated. An
// isolated peer's sets, including those already queued when it is found
// out, are verified in batches of at most 8 of its own sets (fewer while
// its recent sets were often invalid: about 1/(2q) for an invalid share
// q, one at a time for a peer that sends as many invalid signatures as
// valid ones, whose batches would fail and be searched), by a verify
// goroutine of their own and no other: they fail no other peer's batch and
// their search delays no other batch. That goroutine spends at most a
// quarter of a core verifying (it rests three times as long as each call
// took), so an isolated attacker's flood takes little from the others'
// batches: what its lane cannot verify before the callers' contexts end
// leaves the queues. An identical copy of a message that
// waits in an isolated peer's lane, forwarded by a peer that is not
// isolated, takes it out to the others' queues and answers for it, so an
// attacker that forwards valid messages first cannot hold up their honest
// copies. Before a peer is found out, its first invalid signature fails a
// batch of other peers' sets; while that batch is searched, the sets queued
// from the peers that forwarded its sets (suspects: one of them sent the
// invalid signature) are taken after every other peer's, so that the
// backup's batch holds none of the attacker's next invalid signatures and
// does not fail too; when only suspects' sets are queued, one suspect's
// are taken at a time (no worker idles while sets wait). The scores are
// kept for at most Config.MaxPeers peers (1024 by default, a few dozen
// bytes and the peer's ID each); when the table is full, a new peer takes
// the place of the lowest score. NoPeer is never isolated; BatchFixed, the
// clients' way, isolates no one.
//
// # Metrics
//
// With Config.Registerer, the pool registers (and Close unregisters):
//
//	attpool_verdicts_total{topic,verdict,rule}  verdicts; topic is attestation, aggregate or payload_attestation
//	attpool_verdict_seconds{topic}             histogram: submission to verdict
//	attpool_queue_wait_seconds                 histogram: a set's wait before its batch is verified
//	attpool_batch_sets                         histogram: sets per batch
//	attpool_batch_seconds                      histogram: time to verify one batch
//	attpool_isolated_sets_total                sets verified apart (peer isolation)
//	attpool_dropped_total                      accepted messages a bound kept out
//	attpool_bound_hits_total{bound}            bounds hit: max_pending, max_pending_per_peer,
//	                                           isolated_lane, store, store_evicted,
//	                                           max_seen_aggregates, max_validators
//
// The bounds hit are also logged, once a slot: one warning with the hits of
// each bound since the last one, never a line per message.
//
// and gauges read at scrape time:
//
//	attpool_pending_sets                       sets queued, being verified or awaiting their verdict
//	attpool_aggregates                         aggregates kept for block packing
//	attpool_attestation_data                   distinct AttestationData of those aggregates
//	attpool_seen_attesters                     entries of the attesters' first-seen cache
//	attpool_isolated_peers                     peers isolated now
//
// and, when the verifier has Stats (*verifier.Verifier does), its counters,
// read at scrape time:
//
//	attpool_verifier_calls_total               Verify calls
//	attpool_verifier_sets_total                signature sets submitted
//	attpool_verifier_checks_total              blinded batch pairing checks
//	attpool_verifier_bisections_total          failing ranges split in two
//	attpool_verifier_individual_sets_total     sets checked alone
//	attpool_verifier_subgroup_fallbacks_total  calls whose fused subgroup rounds failed
//	attpool_verifier_margin_rounds_total       fused calls that drew the margin rounds
//	attpool_verifier_exp_method_total          failing ranges resolved by the exponentiation method
//	attpool_verifier_located_total             invalid sets named by the locate step
//	attpool_verifier_hash_cache_hits_total     signing roots found in the hash-to-G2 cache
//
// To prefix or label them as a node names its metrics, wrap the registerer:
//
//	reg := prometheus.WrapRegistererWithPrefix("beacon_", prometheus.DefaultRegisterer)
//	p, err := pool.New(pool.Config{Registerer: reg}, node)
//
// # One verifier for a node
//
// One Pool serves all its gossip topics (attestations, aggregates, payload
// attestations): their sets share its batches and its verifier. To share a
// verifier with other users as well (block or sync-committee signatures), a
// node builds one verifier.Verifier, passes it as Config.SignatureVerifier
// (the pool neither closes it nor builds its own; anything with
// Verify([]verifier.Set) []bool will do, and VerifyStream,
// VerifyStreamSearch, VerifySuspect and Stats are used when present) and
// closes it after the pool. The isolated peers' sets go to VerifySuspect,
// so that their invalid signatures do not steer the search of the other
// users' failing calls. The verifier's counters then
// count all its users' work; two pools that register on one registry need
// prometheus.WrapRegistererWith(prometheus.Labels{...}) to keep their names
// apart. A node whose key cache holds blst points turns them into keys with
// crypto.PublicKeyFromBlst, without decompressing them again.
//
// # Aggregation and blocks
//
// An accepted attestation's signature, decoded once for its verification, is
// added to the aggregate of its (data root, committee) at once; large merges
// are summed in parallel with batch-affine additions. Aggregates that overlap
// are kept apart; one that contains another replaces it. AttestationsForBlock
// joins, per AttestationData, one aggregate per committee into an on-chain
// Electra attestation (compute_on_chain_aggregate) and picks at most
// MAX_ATTESTATIONS_ELECTRA of them to include the most attesters not yet on
// chain, exactly: the best set of each committee's aggregates for the
// attestations a data gets, and the best split of the block between data;
// for a Gloas slot it gives the same choice as the Gloas containers
// (EIP-7688), which a block of a Gloas slot holds. Each slot the pool drops
// everything older than the previous epoch.
//
// An accepted payload attestation is merged at once into the aggregate of
// its PayloadAttestationData: its bits at every position of its validator
// in the slot's PTC, its signature point, decoded once, added once per
// position. PayloadAttestationsForBlock gives the next block's, at most
// MAX_PAYLOAD_ATTESTATIONS, the most positions first; they are dropped once
// the slot after theirs is over.
package pool
