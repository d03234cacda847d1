// Package ssz computes the signing roots and domains that Ethereum consensus
// signatures are made over, as defined by the consensus specifications
// (compute_fork_data_root, compute_domain and compute_signing_root in
// phase0/beacon-chain.md).
//
// It is meant for code that must produce or check the message a BLS
// signature covers: the attestation pool uses it to derive the signing root
// of an AttestationData, of an aggregator's selection proof (which signs the
// slot) and of an AggregateAndProof. It does not sign or verify anything
// itself, and it does not know about forks: callers pick the fork version
// (for example from the state's Fork at the message's epoch) and the
// genesis validators root.
//
// The containers SigningData and ForkData have the SSZ methods of fastssz
// (hand-written, codec.go); their HashTreeRoot methods give the same
// results as the helper functions.
package ssz
