// Package pooltest simulates the gossip traffic of a beacon chain for tests,
// benchmarks and examples of package pool: an in-memory node (ManualClock,
// InteropKeys, ShuffledCommittees, CommitteePTC, MemChain, ForkList; a
// Network holds one with a linear chain), the signed
// SingleAttestations of whole slots (Network.SlotMessages) and their
// SignedAggregateAndProof traffic as mainnet has it (AggregateTraffic), with
// faults injected on demand, each with the verdict the pool must give it,
// and an aggregate's signature sets built without the pool
// (Network.AggregateSets).
package pooltest

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/ssz"
)

// Genesis is the genesis time of simulated networks.
var Genesis = time.Unix(1_700_000_000, 0)

// Network is a simulated chain of Validators validators with one valid block
// per slot up to Head.
type Network struct {
	Validators    uint64
	SlotsPerEpoch uint64
	Head          uint64
	Keys          *InteropKeys
	Committees    *ShuffledCommittees
	Chain         *MemChain
	Forks         *ForkList
	Clock         *ManualClock
	// Gloas, when set, is where the chain reaches Gloas: Node gives it to
	// the pool, and the aggregates of epochs from its ForkEpoch on are
	// signed over the Gloas AggregateAndProof's root (EIP-7688). nil: the
	// chain stays in Electra.
	Gloas *pool.GloasNode
}

// BlockRoot is the root of the simulated block of slot.
func BlockRoot(slot uint64) [32]byte {
	var r [32]byte
	binary.LittleEndian.PutUint64(r[:], slot+1)
	r[31] = 0xb1
	return r
}

// NewNetwork returns a network of n validators (mainnet: 32 slots an epoch)
// whose chain has a block at every slot up to head, with the clock at the
// start of slot head.
func NewNetwork(n, head uint64) *Network {
	const spe = 32
	net := &Network{
		Validators: n, SlotsPerEpoch: spe, Head: head,
		Keys:       NewInteropKeys(n),
		Committees: NewShuffledCommittees(n, spe),
		Chain:      NewMemChain(spe),
		Forks:      SingleFork(ssz.Version{5, 0, 0, 0}, ssz.Root{0x42}),
		Clock:      NewManualClock(Genesis),
	}
	for s := uint64(0); s <= head; s++ {
		var parent [32]byte
		if s > 0 {
			parent = BlockRoot(s - 1)
		}
		net.Chain.AddBlock(BlockRoot(s), parent, s, true)
	}
	net.Chain.SetFinalized(attestation.Checkpoint{Root: BlockRoot(0)})
	net.SetSlot(head, 0)
	return net
}

// Node returns the pool's view of the network.
func (n *Network) Node() pool.Node {
	return pool.Node{GenesisTime: Genesis, Clock: n.Clock, Keys: n.Keys, Committees: n.Committees, Forks: n.Forks, Chain: n.Chain, Gloas: n.Gloas}
}

// aggregateAndProofRoot is the root the aggregator of aap signs: the
// Electra AggregateAndProof's, or from the Gloas fork on the Gloas one's.
func (n *Network) aggregateAndProofRoot(aap *attestation.AggregateAndProof) ([32]byte, error) {
	if n.Gloas != nil && aap.Aggregate != nil && aap.Aggregate.Data != nil && aap.Aggregate.Data.Slot/n.SlotsPerEpoch >= n.Gloas.ForkEpoch {
		return aap.Gloas().HashTreeRoot()
	}
	return aap.HashTreeRoot()
}

// SetSlot sets the clock to offset after the start of slot.
func (n *Network) SetSlot(slot uint64, offset time.Duration) {
	n.Clock.Set(Genesis.Add(time.Duration(slot)*12*time.Second + offset))
}

// Data returns the AttestationData of slot, voting for its block.
func (n *Network) Data(slot uint64) *attestation.AttestationData {
	epoch := slot / n.SlotsPerEpoch
	return &attestation.AttestationData{
		Slot:            slot,
		BeaconBlockRoot: BlockRoot(slot),
		Source:          &attestation.Checkpoint{Root: BlockRoot(0)},
		Target:          &attestation.Checkpoint{Epoch: epoch, Root: BlockRoot(epoch * n.SlotsPerEpoch)},
	}
}

// Message is a simulated gossip attestation and whether its signature is
// valid.
type Message struct {
	Att    *attestation.SingleAttestation
	Subnet uint64
	Valid  bool
}

// Attesters returns the validators of every committee of slot.
func (n *Network) Attesters(slot uint64) []uint64 {
	cps, _ := n.Committees.CommitteeCountPerSlot(slot / n.SlotsPerEpoch)
	var out []uint64
	for ci := range cps {
		c, _ := n.Committees.BeaconCommittee(slot, ci)
		out = append(out, c...)
	}
	return out
}

// SlotMessages returns the attestations of every validator of slot, all to
// one AttestationData, signed in parallel. A faults fraction of them carry a
// wrong signature (a valid point: another validator's signature), chosen
// with seed.
func (n *Network) SlotMessages(slot uint64, faults float64, seed uint64) []Message {
	d := n.Data(slot)
	epoch := slot / n.SlotsPerEpoch
	domain, err := ssz.ComputeDomain(ssz.DomainBeaconAttester, n.Forks.ForkVersion(epoch), n.Forks.Root)
	if err != nil {
		panic(err)
	}
	root, err := ssz.ComputeSigningRoot(d.Copy(), domain)
	if err != nil {
		panic(err)
	}
	h := *blspoint.Message(crypto.HashMessage(root[:]))
	fb := newFixedBase(&h)
	cps, _ := n.Committees.CommitteeCountPerSlot(epoch)
	var msgs []Message
	for ci := range cps {
		c, _ := n.Committees.BeaconCommittee(slot, ci)
		subnet := pool.ComputeSubnetForAttestation(n.SlotsPerEpoch, cps, slot, ci)
		for _, v := range c {
			msgs = append(msgs, Message{
				Att:    &attestation.SingleAttestation{CommitteeIndex: ci, AttesterIndex: v, Data: d},
				Subnet: subnet, Valid: true,
			})
		}
	}
	// Signing one message many times: hash it once, multiply per key.
	par.For(len(msgs), 64, func(i int) {
		sk := n.Keys.SecretKey(msgs[i].Att.AttesterIndex)
		msgs[i].Att.Signature = fb.mul(sk.Bytes())
	})
	rng := rand.New(rand.NewPCG(seed, slot))
	for i := range msgs {
		if rng.Float64() < faults {
			msgs[i].Valid = false
			msgs[i].Att.Signature = fb.mul(n.Keys.SecretKey((msgs[i].Att.AttesterIndex + 1) % n.Validators).Bytes())
		}
	}
	return msgs
}

// DeriveKeys derives the keys of the validators in parallel.
func (n *Network) DeriveKeys(validators []uint64) { n.Keys.Derive(validators) }

// Submit sends msgs to p through ValidateAttestation, each from a goroutine
// of its own (Async) started by one of goroutines goroutines (message i by
// goroutine i%goroutines), and waits for every verdict. wall runs from the
// first submission to the last verdict.
func Submit(p *pool.Pool, msgs []Message, goroutines int) (results []pool.Result, wall time.Duration) {
	results = make([]pool.Result, len(msgs))
	wall = spread(len(msgs), goroutines,
		func(i int) <-chan pool.Result {
			return Async(func() pool.Result {
				return p.ValidateAttestation(context.Background(), pool.NoPeer, msgs[i].Att, msgs[i].Subnet)
			})
		},
		func(i int, r pool.Result) { results[i] = r })
	return results, wall
}

// Async runs validate on a goroutine of its own and sends its Result on the
// returned channel (buffered): how a load generator submits many messages
// without waiting for each, as a gossip layer validates each message on a
// goroutine of its own.
func Async(validate func() pool.Result) <-chan pool.Result {
	ch := make(chan pool.Result, 1)
	go func() { ch <- validate() }()
	return ch
}

// spread submits messages 0 to n-1 from goroutines goroutines (message k
// from goroutine k%goroutines, all released at once), hands each verdict to
// put, and returns the time from the release to the last verdict.
func spread(n, goroutines int, submit func(k int) <-chan pool.Result, put func(k int, r pool.Result)) time.Duration {
	goroutines = max(1, goroutines)
	var wg sync.WaitGroup
	start := make(chan struct{})
	var mu sync.Mutex
	var last time.Time
	for w := range goroutines {
		wg.Go(func() {
			<-start
			var chans []<-chan pool.Result
			for k := w; k < n; k += goroutines {
				chans = append(chans, submit(k))
			}
			for m, c := range chans {
				put(w+m*goroutines, <-c)
			}
			t := time.Now()
			mu.Lock()
			if t.After(last) {
				last = t
			}
			mu.Unlock()
		})
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	return last.Sub(t0)
}

// Tally counts verdicts, the faulty messages injected and those that got
// their expected verdict; Wrong lists the messages whose verdict is not the
// expected one. Check fills it for attestations (Accept for valid ones,
// Reject with ErrInvalidSignature for faulty ones), CheckAggregates for
// aggregates (each message's WantVerdict and WantErr).
type Tally struct {
	Accept, Ignore, Reject int
	FaultsInjected         int
	FaultsFound            int
	Wrong                  []int
}

// Check tallies results against msgs.
func Check(msgs []Message, results []pool.Result) Tally {
	return tally(results, func(i int) bool { return !msgs[i].Valid }, func(i int, r pool.Result) bool {
		if msgs[i].Valid {
			return r.Verdict == pool.Accept
		}
		return r.Verdict == pool.Reject && errors.Is(r, pool.ErrInvalidSignature)
	})
}

// tally counts results by verdict; faulty says which messages carry a
// fault, matches whether a result is its message's expected one.
func tally(results []pool.Result, faulty func(i int) bool, matches func(i int, r pool.Result) bool) Tally {
	var t Tally
	for i, r := range results {
		switch r.Verdict {
		case pool.Accept:
			t.Accept++
		case pool.Ignore:
			t.Ignore++
		default:
			t.Reject++
		}
		ok := matches(i, r)
		if faulty(i) {
			t.FaultsInjected++
			if ok {
				t.FaultsFound++
			}
		}
		if !ok {
			t.Wrong = append(t.Wrong, i)
		}
	}
	return t
}
