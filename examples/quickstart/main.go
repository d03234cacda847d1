// Command quickstart wires an attpool pool to a node, validates an
// attestation a peer forwarded and reads the verdict. pooltest's in-memory
// network stands in for the node's state: 1024 validators, a block at every
// slot up to slot 8, the clock at the start of slot 8.
package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

func main() {
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
}
