package verifier

import (
	"sync"
	"sync/atomic"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
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
	// recent is the invalid share of the recent calls' sets, the locate
	// step's guess at how many invalid sets a failing call holds; suspect
	// is the same over the VerifySuspect calls alone, which do not feed
	// recent.
	recent, suspect invalidShare
	// scratch holds *curve.PairRoundScratch buffers for the digit rounds.
	scratch sync.Pool

	negG1       curve.G1
	negG1Affine curve.G1Affine
}

// New returns a Verifier for cfg (the zero Config means DefaultConfig).
func New(cfg Config) (*Verifier, error) {
	cfg, err := cfg.sanitize()
	if err != nil {
		return nil, err
	}
	v := &Verifier{cfg: cfg, w: newWorkers(cfg.Workers), hashes: newHashCache(cfg.HashCacheSize)}
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

// Verify returns one verdict per set, in order: verdicts[i] is what verifying
// sets[i] alone would say (the specs' Verify: the signature decodes to a
// point of G2 and pairs with the key and the root). A nil PublicKey gives
// false. Sets sharing a Root are checked together; see the package doc for
// the method and its soundness.
func (v *Verifier) Verify(sets []Set) []bool {
	v.stats.calls.Add(1)
	v.stats.sets.Add(int64(len(sets)))
	if v.cfg.Individual {
		return v.verifyEach(sets)
	}
	return v.verify(sets, &v.recent, nil, nil)
}

// VerifyStream is Verify that reports each verdict through report instead
// of returning them: report(i, valid) is called exactly once for every index
// of sets, never concurrently with itself, and all calls have returned when
// VerifyStream does. A verdict is reported as soon as a check has decided
// it, before the rest of the call is resolved (the sets of a passing half
// or part of a failing call, the call less the ranges still searched), so a
// caller can answer those sets early. report runs on the goroutine that
// called VerifyStream, between the call's steps: a slow report delays the
// call's own search (not other calls'). The verdicts are those Verify would
// return.
func (v *Verifier) VerifyStream(sets []Set, report func(i int, valid bool)) {
	v.VerifyStreamSearch(sets, report, nil)
}

// VerifyStreamSearch is VerifyStream that also calls searching (when not
// nil), at most once and on the calling goroutine, as soon as the call's
// check of its sets together has failed and it goes on to find the invalid
// ones: from then on the call takes longer than a passing one, so a caller
// that would queue more work behind it can hand that work to another
// goroutine instead. A call that passes, or whose only invalid sets are
// those that do not decode, never calls it; with Config.Individual no call
// does.
func (v *Verifier) VerifyStreamSearch(sets []Set, report func(i int, valid bool), searching func()) {
	v.stream(sets, &v.recent, report, searching)
}

// VerifySuspect is VerifyStream for sets the caller already suspects of
// holding invalid signatures, such as those of a peer that recently sent
// some: the invalid share of the recent calls, which decides how a failing
// call searches for its invalid sets (when it is high, a failing call checks
// every set alone), is kept apart for these calls, and their signing roots
// never enter the cache of roots hashed to G2 (Config.HashCacheSize): they
// use a root cached by the other calls, but one they miss is hashed for
// the call alone. A caller that verifies a
// suspect source's sets this way cannot make the failing calls of the
// Verifier's other users, which trust their sources more, check every set
// alone; and the suspect calls' searches follow the suspect calls' share.
// The verdicts are those Verify would return.
func (v *Verifier) VerifySuspect(sets []Set, report func(i int, valid bool)) {
	v.stream(sets, &v.suspect, report, nil)
}

// stream is the streaming calls' common part: share is the recent invalid
// share the call reads and feeds.
func (v *Verifier) stream(sets []Set, share *invalidShare, report func(i int, valid bool), searching func()) {
	v.stats.calls.Add(1)
	v.stats.sets.Add(int64(len(sets)))
	if v.cfg.Individual {
		for i, ok := range v.verifyEach(sets) {
			report(i, ok)
		}
		return
	}
	v.verify(sets, share, report, searching)
}

// verifyEach checks every set alone, in parallel (Config.Individual).
func (v *Verifier) verifyEach(sets []Set) []bool {
	out := make([]bool, len(sets))
	v.w.forEach(v.cfg.Workers, len(sets), 1, func(i int) {
		s := &sets[i]
		if s.Decoded != nil { // Verify checks the subgroup
			out[i] = crypto.Verify(s.PublicKey, s.Root[:], s.Decoded)
			return
		}
		var sig crypto.Signature
		if _, err := sig.SetBytes(s.Signature[:]); err == nil {
			out[i] = crypto.Verify(s.PublicKey, s.Root[:], &sig)
		}
	})
	v.stats.individual.Add(int64(len(sets)))
	return out
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

// hashCache keeps the hashes to G2 of recent signing roots (a slot's
// attestations share one or two): two generations of at most size entries
// each, the older dropped when the newer fills. A root found again (one
// that many calls meet) also keeps its hash's Miller-loop lines, made on
// its second call, for at most hashLinesMax roots over both generations.
type hashCache struct {
	mu        sync.RWMutex
	size      int
	cur, prev map[[32]byte]*hashEntry
	lines     int // entries of cur and prev with lines
	hits      atomic.Int64
}

type hashEntry struct {
	h     curve.G2Affine
	lines *curve.Lines // nil until the root is found again
}

// hashLinesMax bounds the roots whose lines the cache keeps: 64 of 19,584
// bytes, 1.25 MB. A node meets a few roots in many calls (a slot's
// attestation data, the slot's selection-proof root); the aggregate topic's
// own roots, one per aggregator, are met once and get none.
const hashLinesMax = 64

func newHashCache(size int) *hashCache {
	return &hashCache{size: size, cur: make(map[[32]byte]*hashEntry)}
}

// get returns root's hash to G2 and, when kept, its lines (else nil).
func (h *hashCache) get(root [32]byte) (curve.G2Affine, *curve.Lines) {
	if h.size <= 0 {
		return *blspoint.Message(crypto.HashMessage(root[:])), nil
	}
	h.mu.RLock()
	e, ok := h.cur[root]
	if !ok {
		e, ok = h.prev[root]
	}
	var p curve.G2Affine
	var lines *curve.Lines
	wantLines := false
	if ok {
		p, lines = e.h, e.lines
		wantLines = lines == nil && h.lines < hashLinesMax
	}
	h.mu.RUnlock()
	if ok {
		h.hits.Add(1)
		if wantLines {
			lines = curve.NewLines(&p)
			h.keepLines(root, e, lines)
		}
		return p, lines
	}
	return h.insert(root, *blspoint.Message(crypto.HashMessage(root[:])))
}

// peek is get for the calls of VerifySuspect: a root found is used as
// get would (its lines if kept), but a root missed is hashed without being
// inserted, and a root found makes no lines: a suspect source's roots,
// which an attacker chooses, take none of the places that the trusted
// calls' roots (the next slot's attestation data) need.
func (h *hashCache) peek(root [32]byte) (curve.G2Affine, *curve.Lines) {
	if h.size > 0 {
		h.mu.RLock()
		e, ok := h.cur[root]
		if !ok {
			e, ok = h.prev[root]
		}
		var p curve.G2Affine
		var lines *curve.Lines
		if ok {
			p, lines = e.h, e.lines
		}
		h.mu.RUnlock()
		if ok {
			h.hits.Add(1)
			return p, lines
		}
	}
	return *blspoint.Message(crypto.HashMessage(root[:])), nil
}

// insert adds root's hash p after a miss and returns the entry's hash and
// lines. A call that missed root at the same time may have inserted it
// first, perhaps with lines since: that entry is kept (replacing it would
// drop its lines while h.lines still counted them).
func (h *hashCache) insert(root [32]byte, p curve.G2Affine) (curve.G2Affine, *curve.Lines) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.cur[root]
	if !ok {
		e, ok = h.prev[root]
	}
	if ok {
		return e.h, e.lines
	}
	if len(h.cur) >= h.size {
		h.lines -= h.countLines(h.prev)
		h.prev, h.cur = h.cur, make(map[[32]byte]*hashEntry, h.size)
	}
	h.cur[root] = &hashEntry{h: p}
	return p, nil
}

// keepLines stores lines in e, root's entry, when e is still in the cache
// and has none (another call may have made them meanwhile).
func (h *hashCache) keepLines(root [32]byte, e *hashEntry, lines *curve.Lines) {
	if lines == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if e.lines != nil || h.lines >= hashLinesMax || (h.cur[root] != e && h.prev[root] != e) {
		return
	}
	e.lines = lines
	h.lines++
}

// countLines is the number of m's entries with lines.
func (h *hashCache) countLines(m map[[32]byte]*hashEntry) int {
	n := 0
	for _, e := range m {
		if e.lines != nil {
			n++
		}
	}
	return n
}
