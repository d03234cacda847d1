package pool

import (
	"time"
)

// The batcher's side of peer isolation (peers.go): a peer found out, a copy
// promoted out of an isolated lane, and the suspects of a failing batch
// while it is searched.

// taint records that from forwarded an invalid signature; if that isolates
// it, its queued sets move to its lane, as many as the lane has room for
// (laneRoomLocked): the others are returned, taken out of the queues, for
// the caller to answer at once (Pool.taint).
func (b *batcher) taint(from Peer) (refused []*job) {
	if b.peers == nil || from == NoPeer {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if !b.peers.taint(from, now) {
		return nil
	}
	kept := b.turn[:0]
	for _, q := range b.turn {
		for _, j := range q.extract(func(j *job) bool { return j.from == from }) {
			b.queued--
			if b.laneRoomLocked([]*job{j}, now) {
				b.apart.push(j)
			} else {
				refused = append(refused, j)
			}
		}
		if q.len() == 0 {
			delete(b.roots, q.root)
		} else {
			kept = append(kept, q)
		}
	}
	clear(b.turn[len(kept):])
	b.turn = kept
	if b.apart.len() > 0 {
		signal(b.wakeApart)
	}
	return refused
}

// promote moves g's sets still queued in an isolated peer's lane to the
// other sets' queues when from, the peer of a copy that joined g, is not
// isolated; the copy's peer then answers for them (tainted if they are
// invalid).
func (b *batcher) promote(g *group, from Peer) {
	if b.peers == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.apart.len() == 0 || b.peers.isolated(from, time.Now()) {
		return
	}
	wasEmpty := b.queuedLocked() == 0
	moved := b.apart.extract(func(j *job) bool { return j.g == g })
	for _, j := range moved {
		j.from = from
		b.queueLocked(j)
	}
	b.wakeLocked(wasEmpty)
}

// isolatedPeers is the number of peers isolated now.
func (b *batcher) isolatedPeers() int {
	if b.peers == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peers.countIsolated(time.Now())
}

// vouch records that a set of isolated peer from was valid.
func (b *batcher) vouch(from Peer) {
	if b.peers == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.peers.vouch(from, time.Now())
}

// searchStarted records that a batch of other than isolated peers' sets,
// forwarded by peers, failed its check and is being searched, and wakes a
// backup: the sets queued behind it need not wait for the search. While it
// lasts, the peers are suspects (when peers are isolated).
func (b *batcher) searchStarted(peers []Peer) {
	b.mu.Lock()
	b.searching++
	if b.peers != nil {
		for _, p := range peers {
			b.suspects[p]++
		}
	}
	b.mu.Unlock()
	signal(b.wakeBackup)
}

// searchEnded records that a search searchStarted recorded, of a batch
// forwarded by peers, is over.
func (b *batcher) searchEnded(peers []Peer) {
	b.mu.Lock()
	b.searching--
	if b.peers != nil {
		for _, p := range peers {
			if b.suspects[p]--; b.suspects[p] <= 0 {
				delete(b.suspects, p)
			}
		}
	}
	b.mu.Unlock()
}
