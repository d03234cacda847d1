package pool_test

import (
	"context"
	"fmt"
	"time"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// A pool over a simulated network: validate one slot's attestations, then
// pack them for the next block.
func Example() {
	net := pooltest.NewNetwork(4096, 40) // 1 committee of 128 per slot
	msgs := net.SlotMessages(40, 0, 1)

	p, err := pool.New(pool.Config{BatchDelay: time.Millisecond}, net.Node())
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
	// A copy is ignored: the validator was already seen this epoch.
	res := p.ValidateAttestation(context.Background(), pool.NoPeer, msgs[0].Att, msgs[0].Subnet)
	fmt.Println(accepted, res.Verdict, res.Rule())

	net.SetSlot(41, 0)
	atts := p.AttestationsForBlock(41)
	fmt.Println(len(atts), atts[0].AggregationBits.Count(), atts[0].CommitteeBits.Count())
	// Output:
	// 8 ignore already_seen
	// 1 8 1
}
