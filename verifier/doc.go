// Package verifier checks many BLS signatures of Ethereum's consensus layer
// at once and returns a verdict for each.
//
// # Who should use it
//
// A beacon node's gossip pipeline, which collects attestations (and other
// signed messages) for a few milliseconds and verifies them together, and
// block import, which verifies the signatures of a block's attestations
// before applying it. Both have many signatures, most of them over a few
// signing roots: a slot's attesters mostly vote for the same head. Code that
// checks a single signature or aggregate should call package crypto
// directly.
//
// # How the pieces fit
//
// A [Set] is one signature to check: the signing root, the signer's public
// key (already validated, typically from the node's key cache; it may be an
// aggregate key) and the 96-byte compressed signature exactly as received.
//
// [New] builds a [Verifier] from a [Config]; the zero Config stands for
// [DefaultConfig] (64-bit soundness, one worker per GOMAXPROCS, a hash cache
// of 1024 roots per generation). [Verifier.Verify] takes a slice of sets and
// returns one verdict per set, in order: verdicts[i] is what verifying
// sets[i] alone would say, so one bad set never rejects the others. A set
// with a nil key, a signature that does not decode, or the point at infinity
// gets false. [Verifier.Close] stops the Verifier's goroutines.
// [Verifier.BatchInG2] is the batch subgroup check on its own, for points
// decoded without one. [Verifier.Stats] returns cumulative counters of the
// work done ([Stats]). Package verifier/baseline holds the methods of other
// clients, for side-by-side benchmarks.
//
// # The method
//
// A call to Verify:
//
//  1. Decompresses every signature once, in parallel, without the subgroup
//     check, and groups the sets by signing root. Each distinct root is
//     hashed to G2 once per call (or found in the hash cache, which keeps
//     the hashes of recent roots across calls).
//  2. Checks subgroup membership and draws the blinding scalars together, in
//     the fused check: for R rounds, every signature s_k gets a secret
//     random digit c_kj in [0, 13) and the round sum H_j = sum_k c_kj s_k
//     must be in G2, one subgroup test per round instead of one per
//     signature. The rounds are computed two at a time from a 13x13 grid of
//     buckets, spread over the workers. The same digits then form the
//     blinding scalars r_k = sum_j c_kj 13^j, and the blinded signature sum
//     S = sum_k r_k s_k = sum_j 13^j H_j costs R-1 steps of Horner's rule
//     instead of a multi-scalar multiplication. R is 18 for 64 bits and 35
//     for 128 bits. Each group's key sum P_g = sum_k r_k pk_k comes from the
//     same digit rounds in G1 for groups of 192 sets or more, and from a
//     multi-scalar multiplication for the others.
//  3. Checks prod_g e(P_g, H(m_g)) * e(-g1, S) == 1: one Miller loop per
//     signing root plus one, computed as a multi-Miller loop whose parts are
//     spread over the workers, and one final exponentiation for the whole
//     call. If it holds, every set is accepted.
//  4. Otherwise finds the invalid sets. A failing call of at least 256
//     candidates first tries the locate step: it is cut into parts of about
//     64 whose unweighted values (plain sums, batch-affine) show which parts
//     hold invalid sets; in each failing part the exponentiation method of
//     Law and Matt (weights 1..s, one more pairing, then comparing A^j with
//     the weighted value) names the set when it is the only invalid one; and
//     one check of the call less the named sets, under the call's secret
//     scalars (sums by subtraction), proves the answer: if it passes, every
//     other set is valid and every named set, the only suspect of a part
//     known to fail, is invalid. If the proof fails (crafted signatures can
//     fool the public weights) or a part holds several invalid sets, the
//     call, or the part, is bisected: a large call is split into parts of
//     about 64 at once, then level by level every failing range is halved,
//     the left halves' sums computed with the same scalars and checked in
//     parallel, and each right half's sums are its parent's less its left
//     half's. A passing half is accepted whole; when the left half passes
//     the right half is known to fail and is not checked; a failing range
//     likely to hold a single invalid set tries the exponentiation method
//     with the secret scalars, the candidates of a level confirmed by one
//     check of their ranges less them; a failing single set is invalid (its
//     r_k is not zero modulo the group order). Ranges of at most 4 sets are
//     checked one by one, in parallel; so is everything left once bisection
//     has spent 15% of what checking every set alone would cost, which
//     happens when invalid sets are many.
//
// A planner compares estimated costs: a small call (by its cost model,
// fewer than about 40 signatures at 64 bits or 80 at 128) skips the fused
// rounds and checks each point's subgroup on its own, in parallel, then
// blinds with fresh random scalars of SecurityBits bits, with the same
// pairing check and bisection. So does a call whose fused rounds find a round sum outside G2
// (Stats.SubgroupFallbacks): the per-point checks then find and reject the
// points outside G2, and the rest are checked as usual. With
// Config.Individual every set is checked alone instead, as a baseline.
//
// # Soundness
//
// A point outside G2 has a component whose order is a prime factor of G2's
// cofactor, the least of which is 13, so it passes a round with probability
// at most 1/13 and all R rounds with probability at most 13^-R. The scalars
// r_k are uniform over the 13^R - 1 nonzero values, so a batch holding an
// invalid signature passes the pairing check with probability at most about
// 13^-R. A call's batch check therefore accepts an invalid set with
// probability at most 2*13^-R, below 2^-SecurityBits (2*13^-18 < 2^-64,
// 2*13^-35 < 2^-128). The small-call path checks every point's subgroup
// exactly, and its nonzero SecurityBits-bit scalars bound its pairing check
// by about 2^-SecurityBits. Bisection's checks and the locate step's
// proof reuse the call's scalars; each can pass a range holding two or more
// invalid sets with probability at most about 13^-R as well, and never one
// holding exactly one. Every acceptance rests on such a check; the
// unweighted part values and public weights of the locate step only choose
// which sets to exclude from the proof, and a set is rejected only when a
// check shows it is the one invalid set of a failing range. The digits
// and scalars come from a ChaCha8 generator seeded from crypto/rand on every
// call, and no signature's scalar is zero.
//
// # Goroutines and concurrency
//
// New starts Config.Workers goroutines (GOMAXPROCS by default), owned by
// the Verifier; Close stops them and waits for them. The goroutine that
// calls Verify or BatchInG2 takes part in its own work, so a call never
// waits on a worker busy with another call; after Close, calls still
// answer, on the calling goroutine without the workers. Inside a call, blst's
// multi-scalar multiplications spread large inputs over short-lived
// goroutines of their own, which they join before returning, so no goroutine
// started for a call outlives it.
//
// A Verifier is safe for concurrent use: concurrent calls share its workers
// and its hash cache, and Stats may be read at any time.
//
// # Zero values
//
// The zero Config means DefaultConfig. The zero Verifier is not usable:
// build one with New.
package verifier
