// Package spectest runs the Ethereum consensus-spec test vectors
// (ethereum/consensus-spec-tests layout) against attpool's own packages:
// the handlers of the "bls" runner against package crypto, the
// "ssz_static" runner against the SSZ containers of packages ssz and
// attestation, and the gossip-validation cases of the "networking" runner
// against package pool.
//
// Who should use it: attpool developers and CI, to show that crypto, ssz and
// attestation agree with the specs byte for byte. Application code has no
// reason to import it. Most people run it either as a Go test
//
//	CONSENSUS_SPEC_TESTS=../consensus-spec-tests/tests go test ./spectest/
//
// (a relative path is taken from the repository root, so this folder beside
// the repository works from every package; without the variable the vector
// test skips itself and says so, and a variable naming a folder that does
// not exist, or a file, fails it), or as a command that prints per-handler
// counts and fails when no case ran:
//
//	go run ./spectest/cmd/spectest ../consensus-spec-tests/tests
//
// The folder given is a "tests" folder laid out as
// <preset>/<fork>/<runner>/<handler>/<suite>/<case>/, for example
// general/phase0/bls/verify/bls/verify_valid_case_2ea479adf8c40300/data.yaml
// or mainnet/electra/ssz_static/Attestation/ssz_random/case_0/. [Discover]
// lists the cases, [RunCase] runs one, and [Run] does both. A case whose
// runner or handler this package does not implement (a whole release holds
// operations, fork_choice, sanity and many more) is reported as not covered
// with the reason: never a failure, never counted as passed. A malformed case
// of a handler it implements is a failure, never a panic.
//
// BLS handlers: verify, aggregate, aggregate_verify, fast_aggregate_verify,
// eth_aggregate_pubkeys, eth_fast_aggregate_verify, sign, batch_verify,
// deserialization_G1, deserialization_G2 and hash_to_G2 (the last four in
// the format of ethereum/bls12-381-tests). They follow the specs: an input
// that does not decode makes a verification false, and an output of null
// means the operation must fail. Hex inputs are accepted with or without
// the 0x prefix. deserialization_G1 and deserialization_G2 follow the specs'
// deserialization ([crypto.DeserializeG1], [crypto.DeserializeG2]): the
// point at infinity deserializes in both groups, although KeyValidate
// rejects it as a public key. hash_to_G2 uses the case's own DST when it gives one
// (input key "dst"), and otherwise the RFC 9380 test DST
// "QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_".
//
// networking: the gossip_validation format of consensus-specs
// (tests/formats/networking/gossip_validation.md), handlers
// gossip_beacon_attestation and gossip_beacon_aggregate_and_proof of
// Electra, Fulu and Gloas, and gossip_payload_attestation_message of Gloas
// (the PTC read from the state's ptc_window). meta.yaml is decoded strictly (a key the format
// does not have fails the case); state.ssz_snappy and the blocks are decoded
// with go-eth2-client's containers sized for the preset by dynamic-ssz; the
// node given to a new pool has the state's validator keys and fork, beacon
// committees shuffled from the state's RANDAO mixes (followed through the
// imported blocks), the blocks in a pooltest.MemChain (failed and pending ones
// as seen but not valid; for Gloas, the payload envelope and payload_status
// as a pool.PayloadStatus), and the store's finalized checkpoint (the
// anchor, as get_forkchoice_store makes it, or meta's finalized_checkpoint).
// Each message is validated in order at current_time_ms + offset_ms (or at
// its own current_time_ms, as the Gloas generators write it) and its verdict
// compared with expected. Aggregates of the minimal preset are not covered: the
// pool's SignedAggregateAndProof is the mainnet preset's.
//
// ssz_static: for every registered container (see [SSZTypes]) a case's
// serialized.ssz_snappy (snappy block format) must decode, re-encode to the
// same bytes, hash to roots.yaml's root, and equal value.yaml field by field.
package spectest
