// Command soak runs an attpool pool through many epochs of mainnet-shaped
// gossip on a manual clock and checks that it does not grow: per slot, every
// committee's validators send their SingleAttestations (one AttestationData
// per slot; -invalid of them with a wrong signature; -withheld of them reach
// the node only inside aggregates), then -aggregators aggregators per
// committee send a SignedAggregateAndProof, and a block is packed. After each
// epoch it prints the heap in use (after a GC), the goroutines, the verdicts
// and the pool's sizes; at the end it checks that heap and goroutines are
// flat after the first two epochs run (#3 and later within -growth of #2
// plus -slack-mib, goroutines within 2 of #2) and that no
// verdict was wrong, and exits 1 if not. With -hostile the invalid
// attestations come from that many hostile peers (isolated by the pool) and
// the others from 64 honest peers.
//
//	go run ./examples/soak -epochs 10
//	go run ./examples/soak -epochs 10 -invalid 0.01 -hostile 8
package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/prysmaticlabs/go-bitfield"
	"golang.org/x/sync/errgroup"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/examples/internal/cli"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
	"github.com/attpool/attpool/ssz"
)

const firstSlot = 64 // epoch 2

type counts struct{ accept, ignore, reject int }

func (c *counts) add(v pool.Verdict) {
	switch v {
	case pool.Accept:
		c.accept++
	case pool.Ignore:
		c.ignore++
	default:
		c.reject++
	}
}

func (c counts) String() string { return fmt.Sprintf("%d/%d/%d", c.accept, c.ignore, c.reject) }

// row is what the soak prints per epoch.
type row struct {
	epoch      uint64
	wall       time.Duration
	heapInuse  uint64
	heapAlloc  uint64
	goroutines int
	atts, aggs counts
	blockAtts  int
	stats      pool.Stats
}

// options are the program's flags.
type options struct {
	perSlot                 uint64
	epochs                  int
	invalid, withheld       float64
	aggregators, goroutines int
	hostile                 int
	growth, slackMiB        float64
}

// parseFlags parses the program's flags from args into fs and checks them.
func parseFlags(fs *flag.FlagSet, args []string) (options, error) {
	var o options
	f := cli.NewFlags(fs)
	cli.Bounded(f, &o.perSlot, "validators-per-slot", 512, 1, pool.DefaultConfig().MaxValidators/32, "attesters per slot (committees of 128; the network has 32 times as many validators)")
	cli.Floor(f, &o.epochs, "epochs", 10, 1, "epochs to run")
	cli.Bounded(f, &o.invalid, "invalid", 0.02, 0, 1, "share of SingleAttestations with an invalid signature")
	cli.Bounded(f, &o.withheld, "withheld", 0.1, 0, 1, "share of attesters whose attestation arrives only inside aggregates")
	cli.Floor(f, &o.aggregators, "aggregators", 2, 0, "aggregates sent per committee and slot")
	cli.Floor(f, &o.goroutines, "goroutines", 16, 1, "submitting goroutines")
	cli.Floor(f, &o.hostile, "hostile", 0, 0, "forward the invalid SingleAttestations from this many hostile peers and the others from 64 honest peers (0: no peers)")
	cli.Floor(f, &o.growth, "growth", 1.25, 1, "allowed heap growth of epochs 3+ over epoch 2")
	cli.Floor(f, &o.slackMiB, "slack-mib", 4, 0, "heap slack added to the allowed growth, MiB")
	return o, f.Parse(args)
}

func main() {
	o, err := parseFlags(flag.CommandLine, os.Args[1:])
	if err != nil {
		log.Fatal(err)
	}
	n := o.perSlot * 32
	last := firstSlot + uint64(o.epochs)*32
	net := pooltest.NewNetwork(n, last)
	t0 := time.Now()
	all := make([]uint64, n)
	for i := range all {
		all[i] = uint64(i)
	}
	net.DeriveKeys(all)
	cps, _ := net.Committees.CommitteeCountPerSlot(firstSlot / 32)
	log.Printf("%d validators (%d committees of %d per slot), keys derived in %v", n, cps, n/32/cps, time.Since(t0).Round(time.Millisecond))

	p, err := pool.New(pool.Config{}, net.Node())
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()

	fmt.Printf("%3s %5s %8s %10s %10s %5s %16s %12s %6s %6s %5s %8s %7s\n",
		"#", "epoch", "wall", "heapInuse", "heapAlloc", "gor", "att acc/ign/rej", "agg a/i/r", "block", "aggs", "data", "seen", "pending")
	var rows []row
	wrong := 0
	for e := range uint64(o.epochs) {
		start := time.Now()
		r := row{epoch: firstSlot/32 + e}
		for s := range uint64(32) {
			slot := firstSlot + e*32 + s
			wrong += runSlot(p, net, slot, o, &r)
		}
		r.wall = time.Since(start)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		r.heapInuse, r.heapAlloc = ms.HeapInuse, ms.HeapAlloc
		r.goroutines = runtime.NumGoroutine()
		r.stats = p.Stats()
		rows = append(rows, r)
		fmt.Printf("%3d %5d %8v %10s %10s %5d %16v %12v %6d %6d %5d %8d %7d\n",
			e+1, r.epoch, r.wall.Round(time.Millisecond), mib(r.heapInuse), mib(r.heapAlloc), r.goroutines, r.atts, r.aggs,
			r.blockAtts, r.stats.Aggregates, r.stats.Data, r.stats.SeenAttesters, r.stats.Pending)
	}
	p.Close()

	ok := true
	if wrong > 0 {
		fmt.Printf("FAIL: %d wrong verdicts\n", wrong)
		ok = false
	}
	if len(rows) < 3 {
		fmt.Println("fewer than 3 epochs: flatness not checked")
	} else {
		base := rows[1]
		heapLimit := uint64(float64(base.heapInuse)*o.growth + o.slackMiB*(1<<20))
		var maxHeap uint64
		maxG := 0
		for _, r := range rows[2:] {
			maxHeap = max(maxHeap, r.heapInuse)
			maxG = max(maxG, r.goroutines)
		}
		fmt.Printf("heap in use: #2 %s, max of #3-#%d %s, limit %s\n", mib(base.heapInuse), len(rows), mib(maxHeap), mib(heapLimit))
		fmt.Printf("goroutines: #2 %d, max of #3-#%d %d, limit %d\n", base.goroutines, len(rows), maxG, base.goroutines+2)
		if maxHeap > heapLimit {
			fmt.Println("FAIL: heap grows")
			ok = false
		}
		if maxG > base.goroutines+2 {
			fmt.Println("FAIL: goroutines grow")
			ok = false
		}
	}
	if !ok {
		os.Exit(1)
	}
	fmt.Println("ok: flat")
}

func mib(b uint64) string { return fmt.Sprintf("%.1fMiB", float64(b)/(1<<20)) }

// runSlot plays one slot and returns the number of wrong verdicts.
func runSlot(p *pool.Pool, net *pooltest.Network, slot uint64, o options, r *row) int {
	invalid, withheld, aggregators, goroutines := o.invalid, o.withheld, o.aggregators, o.goroutines
	// A proposer at the start of the slot packs the previous slots.
	net.SetSlot(slot, 0)
	r.blockAtts += p.AttestationsForBlock(slot, pool.BlockFilter{}).Len()

	msgs := net.SlotMessages(slot, invalid, slot)
	// The attestations of a share of the attesters come only in aggregates;
	// the invalid ones always come alone.
	var singles []pooltest.Message
	for _, m := range msgs {
		if m.Valid && hashShare(m.Att.AttesterIndex, slot) < withheld {
			continue
		}
		singles = append(singles, m)
	}
	net.SetSlot(slot, 4*time.Second)
	results := submit(p, singles, goroutines, o.hostile)
	tally := pooltest.Check(singles, results)
	for _, res := range results {
		r.atts.add(res.Verdict)
	}
	wrong := len(tally.Wrong)

	// Aggregates at 8 s: the first of a committee is accepted (it holds
	// the withheld attesters), the others are covered by it.
	net.SetSlot(slot, 8*time.Second)
	saps := aggregates(net, slot, msgs, aggregators)
	chans := make([]<-chan pool.Result, len(saps))
	for i, sap := range saps {
		chans[i] = pooltest.Async(func() pool.Result { return p.ValidateAggregate(context.Background(), pool.NoPeer, sap) })
	}
	for i, c := range chans {
		res := <-c
		r.aggs.add(res.Verdict)
		if res.Verdict == pool.Reject {
			log.Printf("slot %d: aggregate %d rejected: %v", slot, i, res)
			wrong++
		}
	}
	return wrong
}

// submit submits msgs from goroutines goroutines and returns their
// verdicts: without peers (hostile 0) as pooltest.Submit does; else the
// invalid ones forwarded by one of hostile peers, the valid ones by one of
// 64 honest peers.
func submit(p *pool.Pool, msgs []pooltest.Message, goroutines, hostile int) []pool.Result {
	if hostile == 0 {
		results, _ := pooltest.Submit(p, msgs, goroutines)
		return results
	}
	results := make([]pool.Result, len(msgs))
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			var chans []<-chan pool.Result
			for i := g; i < len(msgs); i += goroutines {
				from := pool.Peer(fmt.Sprint("honest-", i%64))
				if !msgs[i].Valid {
					from = pool.Peer(fmt.Sprint("hostile-", i%hostile))
				}
				att, subnet := msgs[i].Att, msgs[i].Subnet
				chans = append(chans, pooltest.Async(func() pool.Result { return p.ValidateAttestation(context.Background(), from, att, subnet) }))
			}
			for k, c := range chans {
				results[g+k*goroutines] = <-c
			}
		})
	}
	wg.Wait()
	return results
}

// hashShare maps (validator, slot) to [0, 1).
func hashShare(v, slot uint64) float64 {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:], v)
	binary.LittleEndian.PutUint64(b[8:], slot)
	h := sha256.Sum256(b[:])
	return float64(binary.LittleEndian.Uint64(h[:8])>>11) / (1 << 53)
}

// isAggregator is the specs' is_aggregator.
func isAggregator(committeeLen int, proof [96]byte) bool {
	modulo := max(1, uint64(committeeLen)/pool.TargetAggregatorsPerCommittee)
	h := sha256.Sum256(proof[:])
	return binary.LittleEndian.Uint64(h[:8])%modulo == 0
}

func domain(net *pooltest.Network, typ ssz.DomainType, epoch uint64) ssz.Domain {
	d, err := ssz.ComputeDomain(typ, net.Forks.ForkVersion(epoch), net.Forks.Root)
	if err != nil {
		log.Fatal(err)
	}
	return d
}

// aggregates returns, per committee of slot, the SignedAggregateAndProofs
// of its first count aggregators over every valid attestation of msgs.
func aggregates(net *pooltest.Network, slot uint64, msgs []pooltest.Message, count int) []*attestation.SignedAggregateAndProof {
	epoch := slot / net.SlotsPerEpoch
	byValidator := make(map[uint64]pooltest.Message, len(msgs))
	for _, m := range msgs {
		byValidator[m.Att.AttesterIndex] = m
	}
	selRoot := ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(slot), domain(net, ssz.DomainSelectionProof, epoch))
	aapDomain := domain(net, ssz.DomainAggregateAndProof, epoch)
	cps, _ := net.Committees.CommitteeCountPerSlot(epoch)
	out := make([]*attestation.SignedAggregateAndProof, 0, int(cps)*count)
	var mu sync.Mutex
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for ci := range cps {
		g.Go(func() error {
			committee, _ := net.Committees.BeaconCommittee(slot, ci)
			bits := bitfield.NewBitlist(uint64(len(committee)))
			var sigs []*crypto.Signature
			for pos, v := range committee {
				m, ok := byValidator[v]
				if !ok || !m.Valid {
					continue
				}
				s, err := crypto.SignatureFromBytes(m.Att.Signature[:])
				if err != nil {
					log.Fatal(err)
				}
				bits.SetBitAt(uint64(pos), true)
				sigs = append(sigs, s)
			}
			if len(sigs) == 0 {
				return nil
			}
			sum, err := crypto.AggregateSignatures(sigs)
			if err != nil {
				log.Fatal(err)
			}
			made := 0
			for _, v := range committee {
				if made == count {
					break
				}
				sk := net.Keys.SecretKey(v)
				proof := crypto.Sign(sk, selRoot[:]).Bytes()
				if !isAggregator(len(committee), proof) {
					continue
				}
				cb := bitfield.NewBitvector64()
				cb.SetBitAt(ci, true)
				aap := &attestation.AggregateAndProof{
					AggregatorIndex: v,
					Aggregate:       &attestation.Attestation{AggregationBits: append(bitfield.Bitlist(nil), bits...), Data: net.Data(slot), Signature: sum.Bytes(), CommitteeBits: cb},
					SelectionProof:  proof,
				}
				root, err := ssz.ComputeSigningRoot(aap, aapDomain)
				if err != nil {
					log.Fatal(err)
				}
				sap := &attestation.SignedAggregateAndProof{Message: aap, Signature: crypto.Sign(sk, root[:]).Bytes()}
				mu.Lock()
				out = append(out, sap)
				mu.Unlock()
				made++
			}
			return nil
		})
	}
	_ = g.Wait() // the committees' work returns no error (it exits on one)
	return out
}
