package pool_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// A node wires the pool to what it knows, validates an attestation a peer
// forwarded and reads the verdict. pooltest's in-memory network stands in
// for the node's state here: 1024 validators, a block at every slot up to
// slot 8, the clock at the start of slot 8.
func Example() {
	net := pooltest.NewNetwork(1024, 8)
	node := pool.Node{
		GenesisTime: pooltest.Genesis,
		Clock:       net.Clock,      // nil: the system clock
		Keys:        net.Keys,       // the validators' public keys
		Committees:  net.Committees, // the beacon committees of an epoch
		Forks:       net.Forks,      // fork versions and genesis validators root
		Chain:       net.Chain,      // fork choice: blocks, checkpoints
	}
	p, err := pool.New(pool.Config{}, node) // the zero Config: the defaults
	if err != nil {
		panic(err)
	}
	defer p.Close()

	// An attestation of slot 8 as gossip brings it: the message, the subnet
	// it came on and the peer that forwarded it (a libp2p node passes
	// pool.Peer(id) of its peer.ID).
	m := net.SlotMessages(8, 0, 1)[0]
	res := p.ValidateAttestation(context.Background(), pool.Peer("peer-a"), m.Att, m.Subnet)
	fmt.Println(res.Verdict, res.Err, res.Indexed.AttestingIndices)

	// Another peer forwards the same attestation: Ignore, no penalty.
	res = p.ValidateAttestation(context.Background(), pool.Peer("peer-b"), m.Att, m.Subnet)
	fmt.Println(res.Verdict, res.Rule(), errors.Is(res, pool.ErrAlreadySeen))
	// Output:
	// accept <nil> [256]
	// ignore already_seen true
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
