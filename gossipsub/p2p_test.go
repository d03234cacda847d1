package gossipsub_test

import (
	"context"
	"testing"
	"time"

	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/gossipsub/p2psim"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// Three hosts on loopback in a line (0 - 1 - 2), each with its own pool
// behind real gossipsub routers; an honest source at each end and a faulty
// one in the middle. A slot of traffic (about 300 messages: attestations
// with invalid signatures, wrong subnets and undecodable payloads;
// aggregates with every fault of pooltest, late ones and a byte-for-byte
// duplicate) must give every message its exact verdict: accepted messages
// validated and delivered at all three hosts, the others answered at their
// entry host only and never forwarded, the duplicate dropped by message-id.
// The waits are bounded (a minute at most) and do not depend on speed.
func TestLoopbackSlot(t *testing.T) {
	const slot = 70
	net := pooltest.NewNetwork(8192, slot+1)
	digest, err := gossipsub.ComputeForkDigest(net.Forks.ForkVersion(slot/32), net.Forks.Root)
	if err != nil {
		t.Fatal(err)
	}
	const honestA, honestB, faulty = 0, 1, 2
	phases, subnets, err := p2psim.Traffic(net, digest, p2psim.TrafficConfig{
		Slot: slot, InvalidSignatures: 0.02, Undecodable: 4, WrongSubnet: 2, AggregateFaults: 1,
		Honest: []int{honestA, honestB}, Faulty: faulty, Seed: 7,
	})
	if err != nil {
		t.Fatal(err)
	}
	sim, err := p2psim.Start(p2psim.Config{
		Hosts:      3,
		Sources:    []int{honestA: 0, honestB: 2, faulty: 1},
		Network:    net,
		Subnets:    subnets,
		Digest:     digest,
		Validators: gossipsub.Config{Timeout: 30 * time.Second},
		Score:      p2psim.PermissiveScore(digest, subnets),
		Setup:      30 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := sim.Run(ctx, phases, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d messages, verdicts per host %v, %d deduplicated, hops %+v, source scores %v",
		res.Messages, res.Verdicts, res.Deduplicated, res.Hops, res.SourceScores)

	// Every kind of message was there, and answered as planned.
	want := map[string]int{"accept": 0, "invalid_signature": 0, "wrong_subnet": 0, "undecodable": 0}
	for _, p := range phases {
		for _, m := range p.Msgs {
			switch {
			case m.Want.Dedup:
			case m.Want.Verdict == pool.Accept:
				want["accept"]++
			case m.Label == "invalid_signature" || m.Label == "wrong_subnet":
				want[m.Label]++
			}
		}
	}
	for k, n := range want {
		if k != "undecodable" && n == 0 {
			t.Errorf("no %s message planned", k)
		}
	}
	for h := range 3 {
		if got := res.Verdicts[h]["accept"]; got != want["accept"] {
			t.Errorf("host %d accepted %d, want %d", h, got, want["accept"])
		}
	}
	if res.Verdicts[1]["invalid_signature"] != want["invalid_signature"] || res.Verdicts[1]["wrong_subnet"] != want["wrong_subnet"] ||
		res.Verdicts[1]["undecodable"] < 4 {
		t.Errorf("the faulty source's entry host: %v, want %v and at least 4 undecodable", res.Verdicts[1], want)
	}
	if res.Deduplicated != 1 {
		t.Errorf("%d duplicates dropped by message-id, want 1", res.Deduplicated)
	}
	if len(res.Hops) != 3 {
		t.Errorf("deliveries at %d hop distances, want 3", len(res.Hops))
	}
	// The REJECTs cost the faulty source its score at its entry host; the
	// honest sources' first deliveries earned them a positive one.
	if s := res.SourceScores; s[faulty] >= 0 || s[honestA] <= 0 || s[honestB] <= 0 {
		t.Errorf("source scores %v: want the faulty one negative and the honest ones positive", s)
	}
}
