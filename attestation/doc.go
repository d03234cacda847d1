// Package attestation defines the Ethereum consensus containers that an
// attestation pool receives, stores and produces, with their SSZ encodings
// and hash tree roots.
//
// It is meant for code that decodes attestations and aggregates from the
// network or from tests, builds aggregates, and needs the hash tree roots
// that signatures are made over (see package
// github.com/attpool/attpool/ssz for signing roots and domains). It does not
// check signatures or validate attestations against a beacon state.
//
// # Types and the specs
//
// Each type is the container of the same name in the consensus specs, with
// the same fields in the same order; byte vectors are arrays (roots
// [32]byte, BLS signatures [96]byte, versions [4]byte) and bitfields are
// github.com/prysmaticlabs/go-bitfield values.
//
//   - Checkpoint, AttestationData and Fork are the phase0 containers, used
//     unchanged by every later fork and both presets.
//   - Attestation, SingleAttestation, IndexedAttestation, AggregateAndProof
//     and SignedAggregateAndProof are the Electra containers in the mainnet
//     preset (unchanged in Fulu). These are the types the pool works with.
//   - MinimalAttestation, MinimalIndexedAttestation,
//     MinimalAggregateAndProof and MinimalSignedAggregateAndProof are the
//     Electra containers in the minimal preset, whose limits are smaller
//     (MAX_COMMITTEES_PER_SLOT is 4). SingleAttestation is the same in both
//     presets.
//   - Phase0Attestation, Phase0IndexedAttestation, Phase0AggregateAndProof
//     and Phase0SignedAggregateAndProof are the phase0 containers (both
//     presets), used until Deneb.
//   - GloasAttestation, MinimalGloasAttestation, GloasIndexedAttestation
//     (both presets), GloasAggregateAndProof,
//     MinimalGloasAggregateAndProof, GloasSignedAggregateAndProof and
//     MinimalGloasSignedAggregateAndProof are the containers from the Gloas
//     fork on (EIP-7688): Attestation and IndexedAttestation become
//     progressive containers (EIP-7495) over a ProgressiveBitList and a
//     ProgressiveList (EIP-7916) without limit, and AggregateAndProof, still
//     a plain container, holds the Gloas Attestation. They encode to the
//     same bytes as their Electra counterparts but hash differently, so
//     the root an aggregator signs, and a block's, depends on the fork. A
//     pointer to an Electra Attestation, MinimalAttestation or
//     IndexedAttestation converts to its Gloas type and back, as the
//     fields are the same: (*attestation.GloasAttestation)(att).
//   - PayloadAttestationData, PayloadAttestationMessage, PayloadAttestation
//     and MinimalPayloadAttestation are the Gloas (EIP-7732) containers of
//     the payload timeliness committee (PTC_SIZE is 512 in the mainnet
//     preset, 16 in the minimal one: PayloadAttestation and
//     MinimalPayloadAttestation). The payload attestations are progressive
//     containers too.
//
// # Encoding
//
// Every type has MarshalSSZ, MarshalSSZTo, UnmarshalSSZ, SizeSSZ,
// HashTreeRoot, HashTreeRootWith and GetTree, so it satisfies the
// interfaces of github.com/ferranbt/fastssz. The encodings are written by
// hand over fastssz's primitives, one codec per container shape (the
// presets' and forks' Attestation, IndexedAttestation, AggregateAndProof
// and SignedAggregateAndProof share theirs), and checked against the
// official ssz_static vectors; the progressive merkleization of the Gloas
// containers follows ssz/simple-serialize.md on fastssz's HashWalker.
//
// UnmarshalSSZ returns an error, and never panics, for any input that is
// not the encoding of a value: a wrong size, a bad offset, a bitlist
// without its length bit or longer than its limit, too many list elements,
// or committee bits set past the end of a Bitvector[4] (the Gloas
// containers' bits and indices have no limit). A value that
// decodes re-encodes to the same bytes (so a boolean byte other than 0 or
// 1 is rejected with ErrInvalidBoolean). The attestations,
// PayloadAttestationData and the payload attestations leave the receiver
// unchanged when decoding fails;
// other types may be partly overwritten.
//
// Encoding or hashing an attestation whose bitfields are not valid (such
// as the zero Attestation, which has no length bit) returns an error
// wrapping ErrInvalidAggregationBits or ErrInvalidCommitteeBits. Nil
// pointer fields encode and hash as zero values (they are left nil),
// except that an
// AggregateAndProof's Aggregate and a SignedAggregateAndProof's Message
// must not be nil.
package attestation
