package gossipsub_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/pool"
)

// heldIntake holds every validation until release is closed, and counts
// those it holds by peer.
type heldIntake struct {
	release chan struct{}
	mu      sync.Mutex
	held    map[pool.Peer]int
}

func (in *heldIntake) ValidateAttestation(ctx context.Context, from pool.Peer, _ *attestation.SingleAttestation, _ uint64) pool.Result {
	in.mu.Lock()
	in.held[from]++
	in.mu.Unlock()
	<-in.release
	return pool.Result{Verdict: pool.Accept}
}

func (in *heldIntake) ValidateAggregate(context.Context, pool.Peer, *attestation.SignedAggregateAndProof) pool.Result {
	<-in.release
	return pool.Result{Verdict: pool.Accept}
}

func (in *heldIntake) count(from pool.Peer) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.held[from]
}

// TestPeersShareValidations: at the default Concurrency, flooding peers
// whose validations the pool holds (as many messages each as the topic's
// concurrency, sent at once) hold at most a quarter of the topic's places
// each and three quarters together, their reserves (1/64 each) aside:
// their other messages are answered
// Ignore at once (ErrPeerBusy), so the router never throttles the topic,
// and an honest peer's messages, up to its reserve, all reach the pool.
func TestPeersShareValidations(t *testing.T) {
	for _, flooders := range []int{1, 8} {
		t.Run(fmt.Sprint(flooders, "_flooders"), func(t *testing.T) {
			conc := gossipsub.DefaultConfig().Concurrency
			in := &heldIntake{release: make(chan struct{}), held: map[pool.Peer]int{}}
			v, err := gossipsub.NewValidators(in, gossipsub.Config{})
			if err != nil {
				t.Fatal(err)
			}
			validate := v.Attestation(5)
			att := &attestation.SingleAttestation{Data: &attestation.AttestationData{Source: &attestation.Checkpoint{}, Target: &attestation.Checkpoint{}}}
			data := mustEncode(t, att)
			topic := "beacon_attestation_5"
			var wg sync.WaitGroup
			var busy, entered atomic.Int64
			send := func(from peer.ID) {
				msg := &pubsub.Message{Message: &pb.Message{Topic: &topic, Data: data}, ReceivedFrom: from}
				wg.Go(func() {
					if validate(context.Background(), from, msg) == pubsub.ValidationIgnore {
						busy.Add(1)
					}
				})
			}
			for f := range flooders {
				for range conc {
					send(peer.ID(fmt.Sprint("flooder", f)))
				}
			}
			// Every flood message is either held by the pool or answered.
			total := int64(flooders * conc)
			for {
				held := int64(0)
				for f := range flooders {
					held += int64(in.count(pool.Peer(fmt.Sprint("flooder", f))))
				}
				if entered.Store(held); held+busy.Load() == total {
					break
				}
			}
			reserve := conc / 64
			for range reserve {
				send("honest")
			}
			for in.count("honest") < reserve && busy.Load()+entered.Load() == total {
			}
			close(in.release)
			wg.Wait()
			for f := range flooders {
				if n := in.count(pool.Peer(fmt.Sprint("flooder", f))); n > conc/4 {
					t.Errorf("flooder %d holds %d of the topic's %d validations, over a quarter", f, n, conc)
				}
			}
			if held, most := entered.Load(), int64(conc-conc/4+flooders*reserve); held > most {
				t.Errorf("the flooders hold %d of the topic's %d validations, over three quarters and their reserves (%d)", held, conc, most)
			}
			if n := in.count("honest"); n != reserve {
				t.Errorf("%d of the honest peer's %d messages reached the pool", n, reserve)
			}
			if busy.Load() != total-entered.Load() {
				t.Errorf("%d flood messages answered Ignore, want %d", busy.Load(), total-entered.Load())
			}
		})
	}
}
