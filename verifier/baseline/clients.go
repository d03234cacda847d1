package baseline

// The verification methods of four clients as pool.SignatureVerifier
// implementations (Verify(sets) []bool), so that a benchmark can run the same
// gossip load through a pool that verifies as each client does. They give
// exact per-set verdicts only because every failing batch ends in checks of
// single sets; their batch checks are the clients', including where those
// are weaker than attpool's (Prysm's unblinded sums). Each also says how its
// client batches in time (ClientBatching): a pool given one as its
// SignatureVerifier takes batches as that client does.

import (
	"time"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/clientbatch"
	"github.com/attpool/attpool/verifier"
)

// Prysm is the method of Prysm, for benchmarks. Prysm's batch verifier
// (beacon-chain/sync/batch_verifier.go) drops duplicate sets, sums the sets
// of each signing root into one, keys and signatures alike, without blinding
// (AggregateBatch of its crypto/bls), and checks the sums together in one
// blst multi-verify with 64-bit random scalars. When that fails, every
// message is verified alone. The unblinded sum accepts a pair of invalid
// signatures that cancel; only benchmarks should use it.
type Prysm struct{}

// ClientBatching is Prysm's queue: a batch every 5 ms or at 1,000 sets
// (beacon-chain/sync/batch_verifier.go).
func (Prysm) ClientBatching() clientbatch.Batching {
	return clientbatch.Batching{Size: 1000, Min: 1000, Wait: 5 * time.Millisecond}
}

// Verify implements pool.SignatureVerifier with Prysm's method.
func (Prysm) Verify(sets []verifier.Set) []bool {
	if prysmBatch(sets) {
		return allValid(len(sets))
	}
	return Individual(sets)
}

// prysmBatch sums the sets of each root without blinding and checks the sums
// in one distinct-message batch.
func prysmBatch(sets []verifier.Set) bool {
	groups := byRoot(sets)
	summed := make([]verifier.Set, len(groups))
	for k, g := range groups {
		group := g.sets(sets)
		if len(group) == 1 {
			summed[k] = group[0]
			continue
		}
		s, ok := unblindedSum(group)
		if !ok {
			return false
		}
		summed[k] = s
	}
	return DistinctMessages(summed)
}

// unblindedSum is one set for a group of one root: the sum of its keys and of
// its signatures (decoded with their subgroup checks, as Prysm's
// AggregateCompressedSignatures does).
func unblindedSum(group []verifier.Set) (verifier.Set, bool) {
	sigs, ok := signaturesOf(group, true)
	if !ok {
		return verifier.Set{}, false
	}
	pks := make([]*crypto.PublicKey, len(group))
	for i := range group {
		pks[i] = group[i].PublicKey
	}
	pk, err := crypto.AggregatePublicKeys(pks)
	if err != nil {
		return verifier.Set{}, false
	}
	sig, err := crypto.AggregateSignatures(sigs)
	if err != nil {
		return verifier.Set{}, false
	}
	return verifier.Set{Root: group[0].Root, PublicKey: pk, Signature: sig.Bytes(), Decoded: sig}, true
}

// Lighthouse is the method of Lighthouse and Grandine, for benchmarks: the
// batch in one blst multi-verify (verify_signature_sets: 64-bit random
// scalars, a Miller loop per set); when it fails, every set alone.
type Lighthouse struct{}

// ClientBatching is Lighthouse's queue (and Grandine's): what is queued when
// a worker is free, at most 64 (beacon_processor).
func (Lighthouse) ClientBatching() clientbatch.Batching {
	return clientbatch.Batching{Size: 64, Min: 1}
}

// Verify implements pool.SignatureVerifier with Lighthouse's method.
func (Lighthouse) Verify(sets []verifier.Set) []bool {
	if DistinctMessages(sets) {
		return allValid(len(sets))
	}
	return Individual(sets)
}

// Lodestar is the method of Lodestar, for benchmarks: the sets of each
// signing root (Lodestar's gossip queue groups attestations by their data)
// in one same-message check ([SameRoot]: per-signature subgroup checks,
// 64-bit blinding, two Miller loops); a group that fails is verified set by
// set, the other groups keep their verdict.
type Lodestar struct{}

// ClientBatching is Lodestar's queue: 50 ms unless 32 sets are queued, at
// most 128 (network/processor/gossipQueues).
func (Lodestar) ClientBatching() clientbatch.Batching {
	return clientbatch.Batching{Size: 128, Min: 32, Wait: 50 * time.Millisecond}
}

// Verify implements pool.SignatureVerifier with Lodestar's method.
func (Lodestar) Verify(sets []verifier.Set) []bool {
	out := make([]bool, len(sets))
	for _, g := range byRoot(sets) {
		group := g.sets(sets)
		var ok []bool
		if len(group) > 1 && sameRootGroup(group, g.root) {
			ok = allValid(len(group))
		} else {
			ok = Individual(group)
		}
		for k, i := range g.idx {
			out[i] = ok[k]
		}
	}
	return out
}

// Teku is the method of Teku, for benchmarks
// (AggregatingSignatureVerificationService): the batch in one blst
// multi-verify; a failing batch of at least tekuMinBatchToSplit sets is split
// in halves, each checked the same way, and a smaller one is verified set by
// set.
type Teku struct{}

// tekuMinBatchToSplit is Teku's DEFAULT_MIN_BATCH_SIZE_TO_SPLIT.
const tekuMinBatchToSplit = 25

// ClientBatching is Teku's queue: what is queued when a thread is free, at
// most 250 (AggregatingSignatureVerificationService).
func (Teku) ClientBatching() clientbatch.Batching {
	return clientbatch.Batching{Size: 250, Min: 1}
}

// Verify implements pool.SignatureVerifier with Teku's method.
func (Teku) Verify(sets []verifier.Set) []bool {
	out := make([]bool, len(sets))
	tekuBatch(sets, out)
	return out
}

func tekuBatch(sets []verifier.Set, out []bool) {
	switch {
	case len(sets) == 0:
	case DistinctMessages(sets):
		copy(out, allValid(len(sets)))
	case len(sets) == 1:
		out[0] = false
	case len(sets) >= tekuMinBatchToSplit:
		half := (len(sets) + 1) / 2
		tekuBatch(sets[:half], out[:half])
		tekuBatch(sets[half:], out[half:])
	default:
		copy(out, Individual(sets))
	}
}

func allValid(n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = true
	}
	return out
}
