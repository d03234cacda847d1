package gossipsub_test

import (
	"strings"
	"testing"

	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/gossipsub/p2psim"
	"github.com/attpool/attpool/pool/pooltest"
)

// subnetFlood is the number of attestations with invalid signatures the
// attacker of TestLoopbackSubnetFlood sends at once on one subnet: more
// than a topic's validator concurrency (gossipsub.DefaultConfig's 1024).
const subnetFlood = 3000

// TestLoopbackSubnetFlood: three hosts in a line at the default bounds of
// the pool and the validators, the honest sources at both ends publishing a
// slot over 400 ms, and an attacker at the middle host, the path of every
// honest message, that sends subnetFlood attestations with invalid
// signatures at once on one of the slot's subnets, a quarter into the
// phase. Every honest message, of that subnet too, is validated and
// accepted at all three hosts (none dropped by a throttled router), and no
// hostile message is accepted or forwarded.
func TestLoopbackSubnetFlood(t *testing.T) {
	net := pooltest.NewNetwork(8192, attackSlot+1)
	digest, err := gossipsub.ComputeForkDigest(net.Forks.ForkVersion(attackSlot/32), net.Forks.Root)
	if err != nil {
		t.Fatal(err)
	}
	phases, subnets, err := p2psim.Traffic(net, digest, p2psim.TrafficConfig{
		Slot: attackSlot, Spread: attackSpread, Honest: []int{attackHonestA, attackHonestB}, Faulty: evil, Seed: 7,
	})
	if err != nil {
		t.Fatal(err)
	}
	flood, err := oneSubnetFlood(net, digest, subnetFlood)
	if err != nil {
		t.Fatal(err)
	}
	phases[0].Msgs = append(phases[0].Msgs, flood...)
	res := loopback(t, p2psim.Config{
		Sources: []int{attackHonestA: 0, attackHonestB: 2, evil: 1},
		Network: net,
		Subnets: subnets,
		Digest:  digest,
		Score:   p2psim.PermissiveScore(digest, subnets),
	}, phases)
	t.Logf("hostile %v; router drops of honest messages %v; honest p50/p99 %v/%v", res.Hostile, res.RouterDropped, res.Honest.P50, res.Honest.P99)
	if err := res.Check(); err != nil {
		t.Fatal(err)
	}
	for why, n := range res.RouterDropped {
		if strings.Contains(why, "throttle") && n > 0 {
			t.Errorf("%d honest validations throttled by a router (%s)", n, why)
		}
	}
}

// oneSubnetFlood is n attestations with invalid signatures on the subnet
// of the slot's first attestation, from the attacker: attester a with the
// valid signature of attester b != a of the same subnet, distinct for each
// pair.
func oneSubnetFlood(net *pooltest.Network, digest gossipsub.ForkDigest, n int) ([]p2psim.Msg, error) {
	sim := net.SlotMessages(attackSlot, 0, 0)
	var same []pooltest.Message
	for _, m := range sim {
		if m.Subnet == sim[0].Subnet {
			same = append(same, m)
		}
	}
	k := len(same)
	var out []p2psim.Msg
	for i := range n {
		a, b := i%k, (i%k+1+i/k%(k-1))%k
		att := *same[a].Att
		att.Signature = same[b].Att.Signature
		data, err := gossipsub.Encode(&att)
		if err != nil {
			return nil, err
		}
		out = append(out, p2psim.Msg{Kind: "attestation", Label: "subnet_flood", Topic: gossipsub.AttestationTopic(digest, same[a].Subnet),
			Data: data, Source: evil, Want: p2psim.Expect{Hostile: true}, At: attackSpread / 4})
	}
	return out, nil
}
