package pool

import (
	"math"
	"slices"
	"time"
)

// Peer isolation. A peer that forwarded a message with an invalid signature
// gets a score of 1 more per invalid signature; the score halves every slot
// (the span in which a slot's attestations arrive). While its score is above
// isolationScore the peer is isolated. Its signature sets wait in a lane of
// their own. They are verified in small batches of its sets alone, by a
// verify goroutine of their own. So its invalid signatures fail no batch of
// other peers' sets, and their search holds up no other batch. One invalid
// signature isolates a peer for one half-life; a peer that keeps sending
// them stays isolated. NoPeer is never isolated.

const (
	// isolationScore is the score above which a peer is isolated: one
	// invalid signature (1) isolates for one half-life.
	isolationScore = 0.5
	// forgetScore is the score under which a peer's entry may be dropped:
	// five half-lives after its last invalid signature, if it sent one.
	forgetScore = 1.0 / 32
	// isolatedBatch is the most sets of one isolated peer verified in one
	// call. It is small, so that a failing call costs little to search. It
	// is a few sets more than an aggregate's three. A peer whose sets
	// verified apart were often invalid gets smaller batches
	// (peerTable.batch).
	isolatedBatch = 8
)

// peerTable is the scores of the peers that sent invalid signatures, at
// most size of them. A new peer takes the place of the lowest score when
// the table is full. Not safe for concurrent use (the batcher's lock guards
// it).
type peerTable struct {
	size     int
	halfLife time.Duration
	peers    map[Peer]*peerScore
}

// peerScore is a score as of at, and valid, the peer's sets found valid
// while it was isolated, decaying as the score does.
type peerScore struct {
	score, valid float64
	at           time.Time
}

func newPeerTable(size int, halfLife time.Duration) *peerTable {
	return &peerTable{size: size, halfLife: halfLife, peers: make(map[Peer]*peerScore)}
}

// decay is what a score as of s.at keeps at now: it halves every
// half-life (1 for a now before s.at).
func (t *peerTable) decay(s *peerScore, now time.Time) float64 {
	age := now.Sub(s.at)
	if age <= 0 {
		return 1
	}
	return math.Exp2(-float64(age) / float64(t.halfLife))
}

// decayed is s's score at now.
func (t *peerTable) decayed(s *peerScore, now time.Time) float64 {
	return s.score * t.decay(s, now)
}

// isolated reports whether p's sets are to be verified apart at now.
func (t *peerTable) isolated(p Peer, now time.Time) bool {
	s := t.peers[p]
	return s != nil && t.decayed(s, now) > isolationScore
}

// taint records an invalid signature forwarded by p at now and reports
// whether that made p isolated (it was not before).
func (t *peerTable) taint(p Peer, now time.Time) (newly bool) {
	if p == NoPeer || t.size <= 0 {
		return false
	}
	s := t.peers[p]
	if s == nil {
		t.makeRoom(now)
		s = &peerScore{at: now}
		t.peers[p] = s
	}
	t.age(s, now)
	before := s.score
	s.score++
	return before <= isolationScore && s.score > isolationScore
}

// age brings s's score and valid count to now.
func (t *peerTable) age(s *peerScore, now time.Time) {
	if now.After(s.at) {
		f := t.decay(s, now)
		s.score, s.valid, s.at = s.score*f, s.valid*f, now
	}
}

// vouch records that one of p's sets verified apart was valid.
func (t *peerTable) vouch(p Peer, now time.Time) {
	if s := t.peers[p]; s != nil {
		t.age(s, now)
		s.valid++
	}
}

// batch is the most sets of isolated peer p verified in one call. It is
// about 1/(2q), where q is the invalid share of its recent sets (its score
// over score and valid count: both decay alike). So a batch holds one half
// of an invalid set on average. It is 1 for a peer that sends as many
// invalid sets as valid ones (each is checked alone, at once: a batch would
// fail and be searched). It is isolatedBatch for one whose invalid
// signature was an accident (its valid sets soon bring q down).
func (t *peerTable) batch(p Peer) int {
	s := t.peers[p]
	if s == nil || s.score <= 0 {
		return isolatedBatch
	}
	k := (s.score + s.valid) / (2 * s.score)
	return max(1, min(isolatedBatch, int(k)))
}

// makeRoom drops the forgotten entries, or else the lowest score, when the
// table is full.
func (t *peerTable) makeRoom(now time.Time) {
	if len(t.peers) < t.size {
		return
	}
	var lowest Peer
	low := math.Inf(1)
	for p, s := range t.peers {
		d := t.decayed(s, now)
		if d < forgetScore {
			delete(t.peers, p)
			continue
		}
		if d < low {
			lowest, low = p, d
		}
	}
	if len(t.peers) >= t.size {
		delete(t.peers, lowest)
	}
}

// isolatedPeer reports whether from's sets go to the isolated peers' lane
// now (false when peers are not isolated).
func (b *batcher) isolatedPeer(from Peer) bool {
	if b.peers == nil || from == NoPeer {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peers.isolated(from, time.Now())
}

// countIsolated is the number of peers isolated at now.
func (t *peerTable) countIsolated(now time.Time) int {
	n := 0
	for _, s := range t.peers {
		if t.decayed(s, now) > isolationScore {
			n++
		}
	}
	return n
}

// lanes are the queues of the isolated peers' sets, taken in turn.
type lanes struct {
	byPeer map[Peer]*jobQueue
	turn   []Peer
	// sets is the number of sets in every lane (bounded: laneBound).
	sets int
}

func (l *lanes) push(j *job) {
	q := l.byPeer[j.from]
	if q == nil {
		if l.byPeer == nil {
			l.byPeer = make(map[Peer]*jobQueue)
		}
		q = &jobQueue{}
		l.byPeer[j.from] = q
		l.turn = append(l.turn, j.from)
	}
	q.push(j)
	l.sets++
}

func (l *lanes) len() int { return len(l.turn) }

// extract removes the sets for which match is true and returns them.
func (l *lanes) extract(match func(*job) bool) []*job {
	var out []*job
	kept := l.turn[:0]
	for _, p := range l.turn {
		q := l.byPeer[p]
		got := q.extract(match)
		l.sets -= len(got)
		out = append(out, got...)
		if q.len() == 0 {
			delete(l.byPeer, p)
		} else {
			kept = append(kept, p)
		}
	}
	clear(l.turn[len(kept):])
	l.turn = kept
	return out
}

// forget drops the lane of p, emptied.
func (l *lanes) forget(p Peer) {
	delete(l.byPeer, p)
	if i := slices.Index(l.turn, p); i >= 0 {
		l.turn = slices.Delete(l.turn, i, i+1)
	}
}

// take returns up to size(p) sets of p, the next peer in turn.
func (l *lanes) take(size func(Peer) int) []*job {
	if len(l.turn) == 0 {
		return nil
	}
	p := l.turn[0]
	l.turn = l.turn[1:]
	q := l.byPeer[p]
	batch := q.take(min(q.len(), size(p)))
	l.sets -= len(batch)
	if q.len() == 0 {
		delete(l.byPeer, p)
	} else {
		l.turn = append(l.turn, p)
	}
	return batch
}
