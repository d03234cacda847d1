package gossipsub

import (
	"errors"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"
)

// ErrPeerBusy is the error of the Ignore a message gets, before it is
// decoded, when its peer already holds its share of the topic's
// validations in flight (see Config.Concurrency).
var ErrPeerBusy = errors.New("attpool/gossipsub: the peer's validations in flight are at their bound")

// The router validates at most Config.Concurrency messages of a topic at
// once and drops the others unvalidated ("validation throttled"), having
// marked them seen: a message dropped so reaches neither the pool nor any
// host downstream, whichever peer forwards it next. So no peer may hold the
// topic's places: a peer's validations in flight on a topic are bounded,
// and past the bound its messages are answered Ignore at once (ErrPeerBusy),
// freeing their place. A quarter of the places are the peers' reserves,
// reserveShare of the concurrency each: a peer that holds no more than its
// reserve, as an honest peer does while the pool keeps up, is always
// admitted; beyond it, a peer shares the other three quarters, at most a
// quarter of the topic's places its own: the places a topic's validations
// take stay within its concurrency for up to reserveShare/4 peers (16 at
// the default) holding their reserves. The node's own messages (Self) are
// not bounded.

// reserveShare: each peer's reserve is 1/reserveShare of a topic's
// concurrency (16 validations at the default 1024), so that the reserves
// of the 16 peers a topic's mesh holds at most (D_high 12, and a few more
// that forward) take a quarter of it.
const reserveShare = 64

// admission counts the validations in flight per peer and topic, and per
// topic those of peers beyond their reserves (shared).
type admission struct {
	concurrency int
	mu          sync.Mutex
	shared      map[string]int
	peer        map[peerTopic]int
}

type peerTopic struct {
	p     peer.ID
	topic string
}

func newAdmission(concurrency int) *admission {
	return &admission{concurrency: concurrency, shared: make(map[string]int), peer: make(map[peerTopic]int)}
}

// enter admits a validation of a message of topic forwarded by p, or
// reports false when p holds its share of topic's validations in flight.
// An admitted validation is ended by leave.
func (a *admission) enter(p peer.ID, topic string) bool {
	k := peerTopic{p, topic}
	a.mu.Lock()
	defer a.mu.Unlock()
	held := a.peer[k]
	if held >= a.reserve() {
		if held >= a.concurrency/4 || a.shared[topic] >= a.concurrency-a.concurrency/4 {
			return false
		}
		a.shared[topic]++
	}
	a.peer[k] = held + 1
	return true
}

// reserve is the validations a peer may hold whatever the others hold.
func (a *admission) reserve() int { return max(1, a.concurrency/reserveShare) }

// leave ends a validation enter admitted.
func (a *admission) leave(p peer.ID, topic string) {
	k := peerTopic{p, topic}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.peer[k]--; a.peer[k] <= 0 {
		delete(a.peer, k)
	}
	if a.peer[k] >= a.reserve() {
		if a.shared[topic]--; a.shared[topic] <= 0 {
			delete(a.shared, topic)
		}
	}
}
