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
// with a nil key, the zero-value key (the point at infinity, which no valid
// key is), a signature that does not decode, or the infinity signature gets
// false, and takes no part in any sum. [Verifier.VerifyStream] is Verify
// that reports each verdict as soon as a check has settled it: the sets of
// a passing half of a failing call are reported while the search for the
// invalid ones goes on; [Verifier.VerifyStreamSearch] also says when that
// search begins, so a caller can send the work it would queue behind the
// call elsewhere; [Verifier.VerifySuspect] is VerifyStream for sets from a
// source the caller already suspects (a peer that sent invalid signatures),
// whose verdicts are kept out of the recent invalid share that steers the
// other calls' search. [Verifier.Close] stops the Verifier's goroutines.
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
//     the hashes of recent roots across calls, and for a root found again,
//     at most 64 of them, its hash's Miller-loop lines: every later check
//     pairing a key sum with that hash reuses them, a fifth of a one-root
//     check's Miller loop; a failing call over at most 8 roots makes the
//     lines its roots lack when its search begins).
//  2. Checks subgroup membership and draws the blinding scalars together, in
//     the fused check: for R rounds, every signature s_k gets a secret
//     random digit c_kj in [0, 13) and the round sum H_j = sum_k c_kj s_k
//     must be in G2, one subgroup test per round instead of one per
//     signature. The rounds are computed two at a time from a 13x13 grid of
//     buckets, spread over the workers. The same digits then form the
//     blinding scalars r_k = sum_j c_kj 13^j, and the blinded signature sum
//     S = sum_k r_k s_k = sum_j 13^j H_j costs R-1 steps of Horner's rule
//     instead of a multi-scalar multiplication. R is 18 for 64 bits and 36
//     for 128 bits, extended to 21 and 38 (the margin rounds) before a
//     call makes more than four checks under its scalars (see Soundness;
//     a call over 64 roots or more, fewer than 6 sets a root on average,
//     starts on 20 and 38 rounds, extended to 22 at 64 bits; at 128 bits
//     its 38 rounds are the margin's already, and none are drawn).
//     Each group's key sum P_g = sum r_k pk_k
//     comes from the same digit rounds in G1 for groups of 192 sets or more,
//     and from a multi-scalar multiplication for the others. When a round
//     sum is outside G2, the round is followed down to the point that makes
//     it fail (the round's sum over the left half of a range, the right
//     half's by subtraction; one of them fails), a point outside G2 found by
//     its own subgroup check is rejected and its terms leave the rounds, and
//     the rest of the call keeps the fused path.
//  3. Checks prod_g e(P_g, H(m_g)) * e(-g1, S) == 1: one Miller loop per
//     signing root plus one, computed as a multi-Miller loop whose parts are
//     spread over the workers, and one final exponentiation for the whole
//     call. If it holds, every set is accepted.
//  4. Otherwise finds the invalid sets. A failing call of at least 8
//     candidates runs the locate step, on plain values (unweighted sums,
//     batch-affine, one pairing each) and public weights: first, when the
//     invalid share of the recent calls makes a single invalid set in the
//     call likely enough for it to pay (by expected cost: at 1% invalid,
//     for calls of up to about 160 sets), the exponentiation method of
//     Law and Matt on the whole call (weights 1..m, one more pairing;
//     B = A^j names the set when it is the only invalid one), and when it
//     does not settle the call, the whole call with these two values is the
//     search's one failing range, halved as below; otherwise the call is cut into at least 4 parts of about
//     64 (over a root or two: about one per expected invalid set, when that
//     is fewer) whose plain values show which hold invalid sets, and each
//     failing range names a suspect the same way, or is halved when no
//     weight matches (its left half's plain value computed, the right
//     half's by division;
//     the left half's weighted value only when both halves fail and, in a
//     range of at most 128 sets, the two plain values do not name a suspect
//     in each half by themselves). Each
//     suspect's own one-set check decides it; an invalid one's term is
//     divided out of its range's values, so a range with several invalid
//     sets gives them up one by one. The call less the invalid sets found
//     is then checked under the call's secret scalars (its value is the
//     call's over the found sets' terms, no new pairing) and accepts every
//     other set; in a streaming call, when the search needs a second
//     level and the ranges still searched hold at most a quarter of the
//     call, the call less those ranges is checked the same way first, so
//     most valid sets are answered early (past a quarter, as at 5%
//     invalid, those ranges' sums cost more than answering the few sets
//     outside them early is worth; Verify, which answers every set
//     together, skips that check).
//     If that final check fails (crafted
//     signatures can fool the public weights), the call is bisected with
//     the secret scalars: a large call is split into parts of about 64 at
//     once, then level by level every failing range is halved, the left
//     halves' sums computed with the same scalars and checked in parallel,
//     and each right half's sums are its parent's less its left half's. A
//     passing half is accepted whole at once; a failing range likely to
//     hold a single invalid set tries the exponentiation method with the
//     secret scalars, its suspect decided by its one-set check. Ranges of
//     at most 4 sets are checked one by one, in parallel; so is everything
//     left once bisection has spent, from the whole call's failed check,
//     15% of what checking every set alone would cost (the locate step:
//     50%, or as soon as its first two levels of parts' size name no
//     invalid set), which happens when invalid sets are many; and
//     when the recent share puts an invalid set in every four, a failing
//     call checks every set alone at once (the share of the VerifySuspect
//     calls is kept apart from the others'). A call over 64 roots or more
//     with fewer than 6 sets a root on average (the aggregate topic's: a
//     root per aggregator) keeps the Miller loops of its whole check in chunks of 8
//     roots (a multi-Miller loop each, a few percent dearer than one over
//     all of them), as the parts' checks would pay a Miller loop per root
//     again. When it fails, ranges of chunks are checked under the call's
//     secret scalars from the kept loops (their signature sums, one Miller
//     loop and one final exponentiation each), halving the failing ones
//     (the right half's value by division) down to single chunks; the sets
//     outside the failing chunks are then accepted by one check (the
//     call's value over the failing chunks' own values), each failing chunk
//     is searched as above, and the call's final check accepts the rest.
//
// A planner compares estimated costs: a small call (by its cost model,
// fewer than 20 signatures at 64 bits or 27 at 128) skips the fused
// rounds and checks each point's subgroup on its own, in parallel, then
// blinds with fresh random scalars of SecurityBits+9 bits, with the same
// pairing check and bisection. So does a call whose points outside G2 are
// too many for the descent of step 2 to pay (Stats.SubgroupFallbacks counts
// calls whose rounds failed, Stats.OutsideG2 the points the descent found).
//
// # Verdicts
//
// A set is rejected only by a check of that set alone: its key or signature
// does not decode or is the point at infinity; its point fails its own
// subgroup check; or its one-set check fails, either unblinded,
// e(pk, H(m)) * e(-g1, s) != 1, or blinded with its own scalar,
// e(r pk, H(m)) * e(-g1, r s) != 1 (r is not zero modulo the group order, so
// this is the same test). Values that a range inherits (its parent's less
// its sibling's, a part's plain value, a public-weight match) only choose
// what to check next: no rejection rests on them, so neither an arithmetic
// fault nor an unexpected input (a key and its negation, whose sums reach
// infinity) can reject a valid set. A set is accepted by a check whose value
// is one and that covers it: the pairing product of its range's sums under
// the call's scalars, computed directly or as a quotient of such products
// (the value of a node less its suspect is A/V_k, equal by bilinearity to
// the product over the node's other sets).
//
// # Soundness
//
// A point outside G2 has a component whose order is a prime factor of G2's
// cofactor, the least of which is 13, so it passes a round with probability
// at most 1/13 and all R rounds with probability at most 13^-R. The scalars
// r_k are uniform over the 13^R - 1 nonzero values, so a check of a range
// holding an invalid signature passes with probability at most about 13^-R.
// A call makes many checks with one draw of scalars, and the chance that
// any of them errs is bounded by the union bound: their number times 13^-R.
// (The search picks later ranges from earlier outcomes; a failing check is
// always truthful, and the bound takes each check's 13^-R as holding given
// the earlier outcomes, the usual argument for bisection under shared
// blinding.) The bound is made to hold per call, not only per check. A
// fused call starts on R0 rounds, the least with 4 * 13^-R0 <=
// 2^-SecurityBits (18 for 64 bits, 36 for 128), enough for four shared
// checks that can accept: the rounds' and the whole call's, which is all a
// passing call makes, and the locate step's final check and early
// acceptance, which is all a failing call it settles makes. A call over 64
// roots or more with fewer than 6 sets a root on average (the one a
// failing whole check sends to the chunk search, decided when the call
// starts) starts on the least R0 with 1024 * 13^-R0 <=
// 2^-SecurityBits instead (20 for 64 bits, 38 for 128; margin rounds to 22
// at 64 bits): its failing whole check's chunk search makes up to two range
// checks per chunk under the first scalars, and a range check that erred
// would hide its range's invalid sets from the search and from the final
// check, so they count. Before any
// further one (its rounds fail and are checked again as points outside G2
// are dropped, or it goes on to bisection), the call draws the margin
// rounds: fresh digits for rounds R0 to R, their sums checked in G2, the
// scalars extended to r_k + 13^R0 (c_kR0 + 13 c_kR0+1 + ...) and the whole
// call's value computed again under them (a failing check accepts nothing,
// so the checks before it cost no margin). Where R0 is R already (a call
// over many roots at 128 bits: 38 rounds) there are no digits to draw: the
// call goes on under its first scalars and the failing value it has, and
// its first checks and the later ones share one bound, 1024 * 13^-38 +
// 512 * 13^-38 = 2^-130.0. The checks under the extended
// scalars are capped at 512, past which sets are checked one by one, and R
// is the least with 4 * 13^-R0 + 512 * 13^-R <= 2^-SecurityBits: 21 for 64
// bits (2^-64.6 + 2^-68.7 = 2^-64.5), 38 for 128 (2^-131.2 + 2^-131.6 =
// 2^-130.4). Verifier.BatchInG2 makes one test with R0 rounds. The
// small-call path checks every
// point's subgroup exactly, and its nonzero scalars of SecurityBits+9 bits
// bound each check by 2^-(SecurityBits+9), the 512 checks by
// 2^-SecurityBits. One-set checks cannot err (a nonzero scalar does not hide
// an invalid set), so they need no margin. The digits and scalars come from
// a ChaCha8 generator seeded from crypto/rand on every call, and no
// signature's scalar is zero.
//
// # Goroutines and concurrency
//
// New starts Config.Workers goroutines (GOMAXPROCS by default), owned by
// the Verifier; Close stops them and waits for them. The goroutine that
// calls Verify or BatchInG2 takes part in its own work, so a call never
// waits on a worker busy with another call; the workers serve the open
// parallel steps of all calls in turn, one chunk at a time, so a call's long
// search for invalid sets cannot keep them from another call. Close leaves
// no work queued: a call running at Close finishes its steps on its own
// goroutine, and calls after Close answer there, without the workers.
// Inside a call, blst's multi-scalar multiplications spread large inputs
// over short-lived goroutines of their own, which they join before
// returning, so no goroutine started for a call outlives it.
//
// A Verifier is safe for concurrent use: concurrent calls share its workers
// and its hash cache, and Stats may be read at any time.
//
// # Zero values
//
// The zero Config means DefaultConfig. The zero Verifier is not usable:
// build one with New.
package verifier
