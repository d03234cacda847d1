package pool

// The places of MaxPending. A message's signature sets hold places from
// their queueing to their verdict. Each set gives its place back exactly
// once. That is when its verdict is answered (complete), or when it leaves
// its queue because every caller of its message went before the verdict
// (cancelled). It is also when a closed pool refuses it (answerClosed). The
// places a peer's messages hold are bounded by MaxPendingPerPeer. So one
// peer's flood cannot take every place and refuse the others' messages.

// reserveLocked reserves the places of n sets of a message forwarded by
// from: within MaxPending, and within MaxPendingPerPeer for from. NoPeer's
// messages count as one peer's once a named peer's message has come; until
// then (a node that passes no peers) only MaxPending bounds them.
func (p *Pool) reserveLocked(from Peer, n int) bool {
	if from != NoPeer {
		p.peersNamed = true
	}
	held := p.peerPending[from]
	if (from != NoPeer || p.peersNamed) && (held+n > p.cfg.MaxPendingPerPeer || !p.fairShare(held, n)) {
		p.hit(boundPeer)
		return false
	}
	if !p.reservePending(int64(n)) {
		p.hit(boundPending)
		return false
	}
	p.peerPending[from] = held + n
	return true
}

// fairShare reports whether a peer that holds held places may take n more
// beside the other peers' messages. While it then holds at most its
// reserve (peerReserve), it always may. Beyond it, it may only while the
// places taken stay out of the reserved share of MaxPending
// (reservedShare). However many peers flood, up to MaxPeers of them, their
// messages beyond their reserves hold at most the other places. A peer
// whose messages hold no more than its reserve, as an honest peer's do, is
// never refused.
func (p *Pool) fairShare(held, n int) bool {
	if held+n <= p.peerReserve {
		return true
	}
	return p.pending.Load()+int64(n) <= int64(p.cfg.MaxPending-p.cfg.MaxPending/reservedShare)
}

// reservedShare: 1/reservedShare of MaxPending is the peers' reserves.
// The messages of a peer beyond its reserve never take them. It is a
// quarter, so that floods beyond their reserves take at most the three
// quarters three peers at MaxPendingPerPeer hold.
const reservedShare = 4

// peerReserveOf is the places each peer's messages may take whatever the
// others hold. It is the reserved share of MaxPending split between
// MaxPeers peers (the default's where peers are not isolated). It is at
// least one aggregate's sets. That is 16 sets at the defaults, what a peer
// forwards first in a few milliseconds of the arrival peak.
func peerReserveOf(cfg Config) int {
	peers := cfg.MaxPeers
	if peers <= 0 {
		peers = DefaultConfig().MaxPeers
	}
	return max(aggregateSets, cfg.MaxPending/reservedShare/peers)
}

// releasePeerLocked gives back n places of from's messages in the per-peer
// count (the caller gives them back in the pending count).
func (p *Pool) releasePeerLocked(from Peer, n int) {
	if left := p.peerPending[from] - n; left > 0 {
		p.peerPending[from] = left
	} else {
		delete(p.peerPending, from)
	}
}

// liveLocked reports whether a caller of g's message still waits for its
// verdict.
func (g *group) liveLocked() bool {
	for _, r := range g.reqs {
		if r.state.Load() == 0 {
			return true
		}
	}
	return false
}

// cancelled follows r's answer on its context's end. It acts when no other
// caller of r's message waits (a live copy shares its sets and keeps them).
// Then the message leaves flight, so that a copy that comes later is
// verified anew. Its sets still queued leave their queues and give back
// their places.
// A set already taken into a batch is verified with it; its verdict answers
// no one.
func (p *Pool) cancelled(r *request) {
	p.mu.Lock()
	g := r.g
	if g == nil || g.left || g.liveLocked() {
		p.mu.Unlock()
		return
	}
	g.dropped.Store(true)
	p.leaveInflightLocked(g)
	g.reqs = nil
	p.mu.Unlock()
	p.dropQueued(g)
}

// dropQueued takes the sets of g, dropped, that are still queued out of the
// queues and gives back their places. enqueue calls it too, after queueing
// a group that was dropped meanwhile. Whichever of the two finds the sets
// queued takes them out.
func (p *Pool) dropQueued(g *group) {
	n := p.batch.drop(g.jobs)
	if n == 0 {
		return
	}
	p.mu.Lock()
	p.releasePeerLocked(g.owner, n)
	g.remaining -= n
	p.mu.Unlock()
	p.pending.Add(-int64(n))
}
