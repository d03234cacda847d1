package pool_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// A verdict names the gossip rule it applies, so that a node can penalise
// the peer for a Reject and tell the rules apart in its metrics. The quick
// start (examples/quickstart) wires a pool to a node's state; here
// pooltest's in-memory network hands it over whole.
func Example() {
	net := pooltest.NewNetwork(1024, 8) // the clock at the start of slot 8
	p, err := pool.New(pool.Config{}, net.Node())
	if err != nil {
		panic(err)
	}
	defer p.Close()
	ctx, peer := context.Background(), pool.Peer("peer-a")
	msgs := net.SlotMessages(8, 0, 1)

	// Another attester's signature: the signature is checked, and fails.
	forged := *msgs[0].Att
	forged.Signature = msgs[1].Att.Signature
	res := p.ValidateAttestation(ctx, peer, &forged, msgs[0].Subnet)
	fmt.Println(res.Verdict, res.Rule(), errors.Is(res, pool.ErrInvalidSignature))

	// A valid attestation on a subnet that is not its committee's: refused
	// before any signature is checked.
	res = p.ValidateAttestation(ctx, peer, msgs[2].Att, (msgs[2].Subnet+1)%pool.AttestationSubnetCount)
	fmt.Println(res.Verdict, res.Rule(), errors.Is(res, pool.ErrWrongSubnet))
	// Output:
	// reject invalid_signature true
	// reject wrong_subnet true
}

// The pool aggregates what it accepts: validate one slot's attestations,
// then pack them for the next block.
func ExamplePool_AttestationsForBlock() {
	net := pooltest.NewNetwork(4096, 40) // 1 committee of 128 per slot
	msgs := net.SlotMessages(40, 0, 1)

	p, err := pool.New(pool.Config{BatchTime: time.Millisecond}, net.Node())
	if err != nil {
		panic(err)
	}
	defer p.Close()
	net.SetSlot(40, 4*time.Second)

	accepted := 0
	for _, m := range msgs[:8] {
		if res := p.ValidateAttestation(context.Background(), pool.NoPeer, m.Att, m.Subnet); res.Verdict == pool.Accept {
			accepted++
		}
	}
	net.SetSlot(41, 0)
	atts := p.AttestationsForBlock(41, pool.BlockFilter{}).Electra
	fmt.Println(accepted, len(atts), atts[0].AggregationBits.Count(), atts[0].CommitteeBits.Count())
	// Output:
	// 8 1 8 1
}
