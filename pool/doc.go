// Package pool is the attestation pool of a beacon node. It validates the
// attestations, aggregates and payload attestations the node receives by
// gossip, verifies their signatures in batches, and keeps the accepted ones
// aggregated for block proposals. A node embeds one Pool for all three
// topics.
//
// The node implements Node: validator keys, committees, the clock, the fork
// schedule and fork choice. New starts a pool; Close stops it. Each topic has
// one method. It takes the Peer that forwarded the message (NoPeer for the
// node's own) and blocks until the verdict:
//
//	p, err := pool.New(pool.Config{Logger: log, Registerer: reg}, node)
//	...
//	defer p.Close()
//	res := p.ValidateAttestation(ctx, from, att, subnet)
//	atts := p.AttestationsForBlock(slot, pool.BlockFilter{})
//
// A Result holds a Verdict (Reject, the zero value, Ignore or Accept) and,
// unless Accept, an error that wraps the sentinel of the deciding rule:
// errors.Is(res, pool.ErrAlreadySeen). The rules are the consensus specs'
// gossip rules, in the specs' order, each quoted where it is checked;
// from Node.Gloas.ForkEpoch on they are the Gloas ones. Every message gets
// exactly one verdict. A cancelled context gives Ignore (ErrCancelled), a
// message after Close Ignore (ErrClosed), a full bound Ignore (ErrQueueFull).
//
// The zero Config means DefaultConfig, sized for mainnet. To share one
// verifier with block import, pass a *verifier.Verifier as
// Config.SignatureVerifier and close it after the pool. Config.Registerer
// receives the pool's metrics (docs/INTEGRATION.md lists them). Package
// pooltest has in-memory Node doubles and a slot's traffic for tests.
//
// docs/DESIGN.md explains the batching, peer isolation, the verdicts and
// block packing.
package pool
