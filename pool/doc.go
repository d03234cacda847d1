// Package pool is attpool's attestation pool: it validates the attestations
// and aggregates a beacon node receives by gossip, batching their signatures
// for package verifier, and keeps the accepted ones aggregated for block
// proposals.
//
// # Using it
//
// The node supplies what the pool cannot know through the small interfaces
// of a Node (validator keys, committees, the clock, the fork schedule, the
// fork-choice checks); MemChain, ShuffledCommittees, InteropKeys, ManualClock
// and ForkList are in-memory versions for tests and simulations, and package
// pooltest simulates whole slots of traffic. New starts a pool (its
// goroutines), Close stops it.
//
//	p, err := pool.New(pool.Config{Logger: log, Registerer: reg}, node)
//	...
//	res := p.ValidateAttestation(ctx, att, subnet) // blocks until the verdict
//	ch := p.ValidateAggregateAsync(ctx, sap)       // or not
//	atts := p.AttestationsForBlock(slot)
//
// # Verdicts
//
// A Result carries a Verdict (Reject, the zero value, Ignore or Accept) and,
// unless Accept, an error wrapping the sentinel of the rule that decided it
// (errors.Is(res, pool.ErrAlreadySeen)). The rules are those of the consensus
// specs' Electra (and Fulu) gossip topics beacon_attestation_{subnet_id} and
// beacon_aggregate_and_proof, in the specs' order, and, for messages of
// epochs from Node.Gloas.ForkEpoch on, the Gloas ones (data.index 0 or 1,
// the payload status through ForkChoice.BlockPayload);
// ValidatePayloadAttestation takes the Gloas payload_attestation_message
// topic. Each rule is quoted where it is checked (rules.go, ptc.go). When
// the node cannot answer a lookup, the verdict is Ignore, unless a later
// rule that needs no lookup rejects. The rules that need no signature run
// first, on the caller's goroutine; the signatures are then queued; the
// chain-dependent rules (through Node.Chain) and the first-seen rules run
// again once the signatures are verified, as in the specs (on the payload
// attestation topic the chain rules come before the signature). A message whose context ends
// first is answered Ignore (ErrCancelled); a message submitted after Close,
// Ignore (ErrClosed); a bound of the pool hit, Ignore (ErrQueueFull,
// ErrPoolFull) at once. Every message gets exactly one verdict.
//
// # Batching
//
// Config.Policy chooses how signature sets are gathered into the batches
// handed to the verifier. BatchAdaptive (the default) is work-conserving: a
// verify worker that is free takes what is queued at once, so batches are
// small under light traffic and grow with the backlog under load; queued
// sets are grouped by signing root (the verifier's same-root check pays for
// it), roots take turns so that a root with few sets is not held up by one
// with many, and Config.BatchDelay bounds the verification time of one
// batch. BatchFixed is the clients' way: one FIFO for all roots, a batch when
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
// # Aggregation and blocks
//
// An accepted attestation's signature, decoded once when it arrived, is
// added to the aggregate of its (data root, committee) at once; large merges
// are summed in parallel with batch-affine additions. Aggregates that overlap
// are kept apart; one that contains another replaces it. AttestationsForBlock
// joins, per AttestationData, one aggregate per committee into an on-chain
// Electra attestation (compute_on_chain_aggregate) and picks at most
// MAX_ATTESTATIONS_ELECTRA of them greedily by new attesters. Each slot the
// pool drops everything older than the previous epoch.
package pool
