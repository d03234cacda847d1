package p2psim

import (
	"sync"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/attpool/attpool/gossipsub"
)

// msgEvents is what the validating hosts saw of one message, by host index.
type msgEvents struct {
	received  []int                // copies received in RPCs
	outcome   []*gossipsub.Outcome // the validator's outcome, if it ran
	validated []int                // times the validator ran
	delivered []time.Time          // when the router delivered it (accepted)
	dropped   []string             // the router's reason for dropping it before or after validation
}

// recorder collects the router events of every validating host. Its
// methods are called from the routers' goroutines.
type recorder struct {
	hosts int

	mu     sync.Mutex
	msgs   map[string]*msgEvents // by message-id; only the planned messages
	mesh   []map[string]map[peer.ID]bool
	score  []map[peer.ID]float64
	events int // outcomes and drops recorded (for the idle wait)
}

func newRecorder(hosts int) *recorder {
	r := &recorder{hosts: hosts, msgs: make(map[string]*msgEvents)}
	r.mesh = make([]map[string]map[peer.ID]bool, hosts)
	r.score = make([]map[peer.ID]float64, hosts)
	for i := range r.mesh {
		r.mesh[i] = make(map[string]map[peer.ID]bool)
	}
	return r
}

// expect makes the recorder track message id.
func (r *recorder) expect(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.msgs[id] == nil {
		r.msgs[id] = &msgEvents{
			received:  make([]int, r.hosts),
			outcome:   make([]*gossipsub.Outcome, r.hosts),
			validated: make([]int, r.hosts),
			delivered: make([]time.Time, r.hosts),
			dropped:   make([]string, r.hosts),
		}
	}
}

// with runs f on the events of message id under the lock, if it is tracked.
func (r *recorder) with(id string, f func(*msgEvents)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.msgs[id]; e != nil {
		f(e)
	}
}

func (r *recorder) validated(host int, o gossipsub.Outcome) {
	r.with(o.ID, func(e *msgEvents) {
		e.outcome[host] = &o
		e.validated[host]++
		r.events++
	})
}

func (r *recorder) scores(host int, s map[peer.ID]float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.score[host] = s
}

func (r *recorder) grafted(host int, p peer.ID, topic string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mesh[host][topic][p]
}

func (r *recorder) eventCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.events
}

// tracer is a validating host's pubsub.RawTracer.
type tracer struct {
	host int
	rec  *recorder
}

func (t *tracer) RecvRPC(rpc *pubsub.RPC) {
	for _, m := range rpc.GetPublish() {
		t.rec.with(gossipsub.MessageID(m), func(e *msgEvents) { e.received[t.host]++ })
	}
}

func (t *tracer) DeliverMessage(msg *pubsub.Message) {
	now := time.Now()
	t.rec.with(msg.ID, func(e *msgEvents) { e.delivered[t.host] = now })
}

func (t *tracer) RejectMessage(msg *pubsub.Message, reason string) {
	switch reason {
	case pubsub.RejectValidationFailed, pubsub.RejectValidationIgnored:
		return // the validator's own verdicts, recorded by Observe
	}
	t.rec.with(msg.ID, func(e *msgEvents) { e.dropped[t.host] = reason; t.rec.events++ })
}

func (t *tracer) Graft(p peer.ID, topic string) { t.setMesh(p, topic, true) }
func (t *tracer) Prune(p peer.ID, topic string) { t.setMesh(p, topic, false) }

func (t *tracer) setMesh(p peer.ID, topic string, in bool) {
	t.rec.mu.Lock()
	defer t.rec.mu.Unlock()
	m := t.rec.mesh[t.host]
	if m[topic] == nil {
		m[topic] = make(map[peer.ID]bool)
	}
	m[topic][p] = in
}

func (t *tracer) OnNewOutboundStream(peer.ID, protocol.ID)             {}
func (t *tracer) OnClosedOutboundStream(peer.ID)                       {}
func (t *tracer) Join(string)                                          {}
func (t *tracer) Leave(string)                                         {}
func (t *tracer) ValidateMessage(*pubsub.Message)                      {}
func (t *tracer) DuplicateMessage(*pubsub.Message)                     {}
func (t *tracer) ThrottlePeer(peer.ID)                                 {}
func (t *tracer) SendRPC(*pubsub.RPC, peer.ID)                         {}
func (t *tracer) SendRPCCompleted(*pubsub.RPC, peer.ID, time.Duration) {}
func (t *tracer) DropRPC(*pubsub.RPC, peer.ID)                         {}
func (t *tracer) UndeliverableMessage(*pubsub.Message)                 {}
