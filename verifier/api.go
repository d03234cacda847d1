package verifier

import (
	"sync"
	"sync/atomic"

	"github.com/attpool/attpool/internal/curve"
)

// Verifier verifies batches of signature sets. It owns Config.Workers
// goroutines, started by New and stopped by Close. It is safe for concurrent
// use; concurrent calls share the goroutines.
type Verifier struct {
	cfg    Config
	w      *workers
	hashes *hashCache
	stats  counters
	// recent is the invalid share of the recent calls' sets. It is the
	// locate step's guess at how many invalid sets a failing call holds.
	// suspect is the same over the VerifySuspect calls alone, which do not
	// feed recent.
	recent, suspect invalidShare
	// scratch holds *curve.PairRoundScratch buffers for the digit rounds.
	scratch sync.Pool

	negG1       curve.G1
	negG1Affine curve.G1Affine
	// sparse holds the sparse scalars' forms for SecurityBits+marginBits.
	sparse []sparseForm
}

// New returns a Verifier for cfg (the zero Config means DefaultConfig).
func New(cfg Config) (*Verifier, error) {
	cfg, err := cfg.sanitize()
	if err != nil {
		return nil, err
	}
	v := &Verifier{cfg: cfg, w: newWorkers(cfg.Workers), hashes: newHashCache(cfg.HashCacheSize),
		sparse: sparseForms(cfg.SecurityBits + marginBits)}
	v.scratch.New = func() any { return new(curve.PairRoundScratch) }
	g := curve.G1Generator()
	v.negG1 = g.Jacobian()
	v.negG1.Neg()
	v.negG1Affine = v.negG1.Affine()
	return v, nil
}

// Close stops the Verifier's goroutines and waits for them. Verify still
// answers after Close, on the calling goroutine alone.
func (v *Verifier) Close() { v.w.close() }

// Verify returns one verdict per set, in order. verdicts[i] is what verifying
// sets[i] alone would say. That is the specs' Verify: the signature decodes
// to a point of G2 and pairs with the key and the root. A nil PublicKey gives
// false. Sets sharing a Root are checked together; see docs/DESIGN.md for
// the method and its soundness.
func (v *Verifier) Verify(sets []Set) []bool {
	v.stats.calls.Add(1)
	v.stats.sets.Add(int64(len(sets)))
	return v.verify(sets, &v.recent, nil, nil)
}

// VerifyStream is Verify that reports each verdict through report instead of
// returning them. report(i, valid) is called exactly once for every index of
// sets, never concurrently with itself. All calls have returned when
// VerifyStream does.
//
// A verdict is reported as soon as a check has decided it, before the rest of
// the call is resolved. So a caller can answer early the sets of a passing
// part of a failing call. report runs on the calling goroutine, between the
// call's steps. A slow report delays this call's search, not other calls'. The
// verdicts are those Verify would return.
func (v *Verifier) VerifyStream(sets []Set, report func(i int, valid bool)) {
	v.VerifyStreamSearch(sets, report, nil)
}

// VerifyStreamSearch is VerifyStream that also calls searching, when not nil,
// at most once. It runs on the calling goroutine as soon as the check of all
// sets together has failed. From then on the call takes longer than a passing
// one, so a caller can hand the work it would queue behind it to another
// goroutine. A call that passes, or whose only invalid sets do not decode,
// never calls it.
func (v *Verifier) VerifyStreamSearch(sets []Set, report func(i int, valid bool), searching func()) {
	v.stream(sets, &v.recent, report, searching)
}

// VerifySuspect is VerifyStream for sets the caller already suspects, such as
// those of a peer that recently sent invalid signatures. These calls keep
// their own recent invalid share, which decides how a failing call searches.
// When that share is high, a failing call checks every set alone.
//
// Their signing roots never enter the cache of roots hashed to G2
// (Config.HashCacheSize). They use a root the other calls cached, but a root
// they miss is hashed for the call alone. So a suspect source cannot make the
// other users' failing calls check every set alone, nor evict their roots. The
// verdicts are those Verify would return.
func (v *Verifier) VerifySuspect(sets []Set, report func(i int, valid bool)) {
	v.stream(sets, &v.suspect, report, nil)
}

// stream is the streaming calls' common part: share is the recent invalid
// share the call reads and feeds.
func (v *Verifier) stream(sets []Set, share *invalidShare, report func(i int, valid bool), searching func()) {
	v.stats.calls.Add(1)
	v.stats.sets.Add(int64(len(sets)))
	v.verify(sets, share, report, searching)
}

// Stats are cumulative counters of a Verifier's work.
type Stats struct {
	Calls             int64 // Verify calls
	Sets              int64 // sets submitted
	Checks            int64 // blinded batch pairing checks
	Bisections        int64 // failing ranges split in two
	Individual        int64 // sets checked alone
	SubgroupFallbacks int64 // calls whose fused subgroup rounds failed
	MarginRounds      int64 // fused calls that drew the margin rounds (rounds failed, or bisection)
	OutsideG2         int64 // points found outside G2 by splitting failed rounds
	ExpMethod         int64 // failing ranges resolved by the exponentiation method
	Located           int64 // invalid sets named by the locate step of a failing call
	HashCacheHits     int64 // roots found in the hash-to-G2 cache
}

type counters struct {
	calls, sets, checks, bisections, individual, subgroupFallbacks, marginRounds, outsideG2, expMethod, located atomic.Int64

	chunkChecks atomic.Int64 // checks of ranges of kept Miller loops (locateChunks), for tests
}

// Stats returns the counters so far.
func (v *Verifier) Stats() Stats {
	return Stats{
		Calls:             v.stats.calls.Load(),
		Sets:              v.stats.sets.Load(),
		Checks:            v.stats.checks.Load(),
		Bisections:        v.stats.bisections.Load(),
		Individual:        v.stats.individual.Load(),
		SubgroupFallbacks: v.stats.subgroupFallbacks.Load(),
		MarginRounds:      v.stats.marginRounds.Load(),
		OutsideG2:         v.stats.outsideG2.Load(),
		ExpMethod:         v.stats.expMethod.Load(),
		Located:           v.stats.located.Load(),
		HashCacheHits:     v.hashes.hits.Load(),
	}
}
