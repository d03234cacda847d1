package pool

// The places of MaxPending. A message's signature sets hold places from
// their queueing to their verdict: each set gives its place back exactly
// once, when its verdict is answered (complete), when it leaves its queue
// because every caller of its message went before the verdict (cancelled),
// or when a closed pool refuses it (answerClosed). The places a peer's
// messages hold are bounded by MaxPendingPerPeer, so that one peer's flood
// cannot take every place and refuse the others' messages.

// reserveLocked reserves the places of n sets of a message forwarded by
// from: within MaxPending, and within MaxPendingPerPeer for from. NoPeer's
// messages count as one peer's once a named peer's message has come; until
// then (a node that passes no peers) only MaxPending bounds them.
func (p *Pool) reserveLocked(from Peer, n int) bool {
	if from != NoPeer {
		p.peersNamed = true
	}
	held := p.peerPending[from]
	if (from != NoPeer || p.peersNamed) && held+n > p.cfg.MaxPendingPerPeer {
		return false
	}
	if !p.reservePending(int64(n)) {
		return false
	}
	p.peerPending[from] = held + n
	return true
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

// cancelled follows r's answer on its context's end: when no other caller
// of r's message waits (a live copy shares its sets and keeps them), the
// message leaves flight, so that a copy that comes later is verified anew,
// and its sets still queued leave their queues and give back their places.
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
// a group that was dropped meanwhile: whichever of the two finds the sets
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
