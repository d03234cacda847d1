package pool

import "time"

// The bounds of the isolated peers' lanes. An isolated peer's sets are
// verified by one goroutine, within isolatedShare of a core. So a lane
// drains at a few hundred sets a second. What it cannot verify soon would
// only wait for its callers' deadlines, holding places of MaxPending that
// other peers' messages need. So the lanes hold few sets. Each isolated
// peer holds a few of its batches' worth, and all of them together a small
// share of MaxPending. A set they have no room for is answered at once,
// Ignore with ErrQueueFull, as gossip lets a node do with what it cannot
// validate. Its peer may send it again. An honest copy from another peer
// is verified with the other peers' sets.

// isolatedPeerSets is the most sets of one isolated peer its lane holds:
// four of its largest batches (isolatedBatch).
const isolatedPeerSets = 4 * isolatedBatch

// isolatedLaneShare is the share of MaxPending the lanes of all isolated
// peers hold together at most. That is 256 sets at the default MaxPending,
// about a second of the lanes' verification of invalid sets alone. It holds
// however many peers are isolated (up to MaxPeers).
const isolatedLaneShare = 256

// laneBound is the most sets one isolated peer's lane (peer) and all the
// lanes together (total) hold.
type laneBound struct{ peer, total int }

func newLaneBound(cfg Config) laneBound {
	total := max(isolatedPeerSets, cfg.MaxPending/isolatedLaneShare)
	return laneBound{peer: min(isolatedPeerSets, cfg.MaxPendingPerPeer), total: min(total, cfg.MaxPending)}
}

// admission is what admit did with a message's sets.
type admission int

const (
	admitted      admission = iota
	admitClosed             // the batcher is closed
	admitLaneFull           // an isolated peer's lane has no room for them
)

// laneRoomLocked reports whether jobs, the sets of one message, may be
// queued at now. It is true unless their peer is isolated and its lane, or
// the lanes together, would then hold more than their bound.
func (b *batcher) laneRoomLocked(jobs []*job, now time.Time) bool {
	if b.peers == nil || len(jobs) == 0 {
		return true
	}
	from := jobs[0].from
	if !b.peers.isolated(from, now) {
		return true
	}
	held := 0
	if q := b.apart.byPeer[from]; q != nil {
		held = q.len()
	}
	return held+len(jobs) <= b.laneBound.peer && b.apart.sets+len(jobs) <= b.laneBound.total
}

// taint records that from forwarded an invalid signature (batcher.taint)
// and answers at once the sets its lane had no room for.
func (p *Pool) taint(from Peer) {
	for _, j := range p.batch.taint(from) {
		p.hit(boundLane)
		p.done.report(verdict{j: j, ok: true, skip: ignoref(ErrQueueFull, "isolated peer's lane full")})
	}
}

// resolveKeys prepares a batch. A set whose message already has an invalid
// set is answered unverified (its message's verdict is that set's Reject).
// The key left to the verify goroutines is computed now, within the lanes'
// share of a core. That is job.key: the isolated peers' goroutine, or
// another if an honest copy took the set out of its lane. A key that
// cannot be had answers its set with the verdict that says why. It returns
// the sets still to verify.
func (p *Pool) resolveKeys(batch []*job) []*job {
	kept := batch[:0:0]
	for _, j := range batch {
		if j.g.failed.Load() {
			p.done.report(verdict{j: j, ok: true})
			continue
		}
		if j.key != nil {
			pk, res := j.key()
			j.key = nil
			if pk == nil {
				p.done.report(verdict{j: j, ok: true, skip: res})
				continue
			}
			j.set.PublicKey = pk
		}
		kept = append(kept, j)
	}
	return kept
}
