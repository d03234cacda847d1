package verifier

import (
	"sync"
	"sync/atomic"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// hashCache keeps the hashes to G2 of recent signing roots (a slot's
// attestations share one or two). It has two generations of at most size
// entries each. The older is dropped when the newer fills. A root found
// again (one that many calls meet) also keeps its hash's Miller-loop lines,
// made on its second call. At most hashLinesMax roots over both generations
// keep lines.
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

// hashLinesMax bounds the roots whose Miller-loop lines the cache keeps, 1.25
// MB in all. A node meets a few roots in many calls; an aggregator's own root
// is met once.
const hashLinesMax = 64

func newHashCache(size int) *hashCache {
	return &hashCache{size: size, cur: make(map[[32]byte]*hashEntry)}
}

// get returns root's hash to G2 and, when kept, its lines (else nil).
func (h *hashCache) get(root [32]byte) (curve.G2Affine, *curve.Lines) {
	if h.size <= 0 {
		return hashRoot(root), nil
	}
	e, p, lines, wantLines, ok := h.lookup(root)
	if !ok {
		return h.insert(root, hashRoot(root))
	}
	if wantLines {
		lines = curve.NewLines(&p)
		h.keepLines(root, e, lines)
	}
	return p, lines
}

// peek is get for the calls of VerifySuspect. A root found is used as get
// would use it, but makes no lines; a root missed is hashed without being
// inserted. So a suspect source's roots, which an attacker chooses, take no
// place the trusted calls' roots need.
func (h *hashCache) peek(root [32]byte) (curve.G2Affine, *curve.Lines) {
	if h.size > 0 {
		if _, p, lines, _, ok := h.lookup(root); ok {
			return p, lines
		}
	}
	return hashRoot(root), nil
}

// lookup finds root in either generation and counts the hit. It returns its
// entry, hash and lines, and whether lines should be made for it. They
// should when it has none and the cache keeps fewer than hashLinesMax.
func (h *hashCache) lookup(root [32]byte) (e *hashEntry, p curve.G2Affine, lines *curve.Lines, wantLines, ok bool) {
	h.mu.RLock()
	e, ok = h.cur[root]
	if !ok {
		e, ok = h.prev[root]
	}
	if ok {
		p, lines = e.h, e.lines
		wantLines = lines == nil && h.lines < hashLinesMax
	}
	h.mu.RUnlock()
	if ok {
		h.hits.Add(1)
	}
	return e, p, lines, wantLines, ok
}

// hashRoot hashes root to G2.
func hashRoot(root [32]byte) curve.G2Affine { return *blspoint.Message(crypto.HashMessage(root[:])) }

// insert adds root's hash p after a miss and returns the entry's hash and
// lines. A call that missed root at the same time may have inserted it
// first, perhaps with lines since. That entry is kept: replacing it would
// drop its lines while h.lines still counted them.
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

func (c *call) hashRoots() {
	get := c.v.hashes.get
	if c.share == &c.v.suspect {
		get = c.v.hashes.peek // VerifySuspect: the cache is the trusted calls'
	}
	c.each(len(c.groups), 1, func(g int) {
		c.groups[g].h, c.groups[g].lines = get(c.groups[g].root)
	})
}

// searchLinesGroups is the most roots of a call whose hashes' lines
// searchLines makes. A search's checks then mostly meet one or two roots
// each, so each root's lines serve several checks. Over more roots (the
// aggregate topic's calls) a check meets a few of them. Its lines would
// then serve it alone.
const searchLinesGroups = 8

// searchLines makes the missing lines of the groups' hashes when a call over
// at most searchLinesGroups roots begins a search. Making them costs about as
// much as one Miller loop spends on them. Each of the search's checks then
// pairs a key sum with those hashes.
func (c *call) searchLines() {
	if len(c.groups) > searchLinesGroups {
		return
	}
	c.each(len(c.groups), 1, func(g int) {
		if c.groups[g].lines == nil {
			c.groups[g].lines = curve.NewLines(&c.groups[g].h)
		}
	})
}
