package pool

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
)

// TestConcurrentCommittees submits every attestation of several slots from
// many goroutines, with copies and some invalid signatures, and checks the
// verdicts, the aggregates and the block.
func TestConcurrentCommittees(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const cps, size = 4, 16
		e := newEnv(t, cps, size, 100)
		e.setSlot(testSlot+2, 0)
		reg := prometheus.NewRegistry()
		logger, hook := logtest.NewNullLogger()
		logger.SetLevel(logrus.DebugLevel)
		p := e.pool(Config{BatchSize: 32, Registerer: reg, Logger: logger})

		type msg struct {
			att    *attestation.SingleAttestation
			subnet uint64
			valid  bool
		}
		var msgs []msg
		for slot := uint64(testSlot); slot < testSlot+2; slot++ {
			d := e.data(slot)
			for ci := range uint64(cps) {
				for pos := range uint64(size) {
					att, subnet := e.single(d, ci, pos)
					valid := (pos+ci+slot)%7 != 0
					if !valid {
						att.Signature = e.sign(att.AttesterIndex, [32]byte{7})
					}
					msgs = append(msgs, msg{att, subnet, valid})
				}
			}
		}
		// Each message three times, from 16 goroutines.
		results := make([][3]Result, len(msgs))
		var wg sync.WaitGroup
		for w := range 16 {
			wg.Go(func() {
				for i := w; i < 3*len(msgs); i += 16 {
					m := msgs[i%len(msgs)]
					results[i%len(msgs)][i/len(msgs)] = p.ValidateAttestation(context.Background(), NoPeer, m.att, m.subnet)
				}
			})
		}
		wg.Wait()
		for i, m := range msgs {
			accepts := 0
			for _, r := range results[i] {
				switch {
				case r.Verdict == Accept:
					accepts++
				case m.valid && !errors.Is(r, ErrAlreadySeen):
					t.Fatalf("valid message %d: %v", i, r)
				case !m.valid && !errors.Is(r, ErrInvalidSignature):
					t.Fatalf("invalid message %d: %v", i, r)
				}
			}
			if m.valid != (accepts == 1) || accepts > 1 {
				t.Fatalf("message %d (valid %v): %d accepts", i, m.valid, accepts)
			}
		}
		checkInvariants(t, p)
		nValid := 0
		for _, m := range msgs {
			if m.valid {
				nValid++
			}
		}

		// A block of slot testSlot+2 takes both slots' data; the aggregates hold
		// exactly the valid attestations.
		atts := p.AttestationsForBlock(testSlot+2, BlockFilter{}).Attestations()
		if len(atts) != 2 {
			t.Fatalf("%d attestations for block, want 2", len(atts))
		}
		for _, a := range atts {
			if a.CommitteeBits.Count() != cps || a.AggregationBits.Len() != cps*size {
				t.Fatalf("on-chain aggregate: %d committees, %d bits", a.CommitteeBits.Count(), a.AggregationBits.Len())
			}
			for ci := range uint64(cps) {
				for pos := range uint64(size) {
					want := (pos+ci+a.Data.Slot)%7 != 0
					if a.AggregationBits.BitAt(ci*size+pos) != want {
						t.Fatalf("slot %d committee %d pos %d: bit %v", a.Data.Slot, ci, pos, !want)
					}
				}
			}
			if !e.verifyOnChain(a) {
				t.Fatal("on-chain aggregate signature does not verify")
			}
		}
		// Not before the inclusion delay.
		if atts := p.AttestationsForBlock(testSlot+1, BlockFilter{}).Attestations(); len(atts) != 1 || atts[0].Data.Slot != testSlot {
			t.Fatalf("block of slot %d: %d attestations", testSlot+1, len(atts))
		}
		// The node's filter decides which data may be packed.
		onlyFirst := func(d *attestation.AttestationData) bool { return d.Slot == testSlot }
		if atts := p.AttestationsForBlock(testSlot+2, BlockFilter{Includable: onlyFirst}).Attestations(); len(atts) != 1 || atts[0].Data.Slot != testSlot {
			t.Fatalf("filtered block of slot %d: %d attestations", testSlot+2, len(atts))
		}
		if atts := p.AttestationsForBlock(testSlot+2, BlockFilter{Includable: func(*attestation.AttestationData) bool { return false }}).Attestations(); len(atts) != 0 {
			t.Fatalf("a filter refusing all data packed %d attestations", len(atts))
		}

		// Metrics and logs went where the config said.
		if n := metricValue(p.metrics.verdicts.WithLabelValues(p.attestations.name, "accept", "accept")); int(n) != nValid {
			t.Errorf("accept metric %v", n)
		}
		if n := scrape(t, reg, "attpool_aggregates", nil); n != 2*cps {
			t.Errorf("aggregates metric %v", n)
		}
		if len(hook.AllEntries()) == 0 {
			t.Error("no log entry")
		}
		func() {
			n := 0
			mfs, _ := reg.Gather()
			for _, mf := range mfs {
				if mf.GetName() == "attpool_batch_sets" {
					n = int(mf.GetMetric()[0].GetHistogram().GetSampleSum())
				}
			}
			// Copies arriving while their message is verified share its
			// signature work; later ones are dropped before it.
			if n == 0 || n > len(msgs)*2 {
				t.Errorf("%d signatures verified for %d messages", n, len(msgs))
			}
		}()
	})
}

// TestIdenticalCopiesShareVerification: copies of a message in flight are
// answered from its one verification.
func TestIdenticalCopiesShareVerification(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 8, 100)
		e.setSlot(testSlot, 1000)
		reg := prometheus.NewRegistry()
		p := e.pool(Config{fixed: fifo(1024, 1024, 50*time.Millisecond), Registerer: reg})
		att, subnet := e.single(e.data(testSlot), 0, 1)
		bad, _ := e.single(e.data(testSlot), 0, 2)
		bad.Signature = e.sign(bad.AttesterIndex, [32]byte{})
		var chans []<-chan Result
		var badChans []<-chan Result
		for range 20 {
			chans = append(chans, p.validateAttestationAsync(context.Background(), NoPeer, att, subnet))
			badChans = append(badChans, p.validateAttestationAsync(context.Background(), NoPeer, bad, subnet))
		}
		accepts := 0
		for _, c := range chans {
			r := <-c
			if r.Verdict == Accept {
				accepts++
			} else {
				wantResult(t, r, Ignore, ErrAlreadySeen)
			}
		}
		if accepts != 1 {
			t.Fatalf("%d accepts", accepts)
		}
		for _, c := range badChans {
			wantResult(t, <-c, Reject, ErrInvalidSignature)
		}
		if sets := histogramSum(t, reg, "attpool_batch_sets"); sets != 2 {
			t.Fatalf("%v signature sets verified, want 2", sets)
		}
	})
}

func histogramSum(t *testing.T, reg *prometheus.Registry, name string) float64 {
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetHistogram().GetSampleSum()
		}
	}
	return -1
}

// TestCancelAndClose: every message gets exactly one verdict, whether its
// context ends or the pool closes first.
func TestCancelAndClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 16, 100)
		e.setSlot(testSlot, 1000)
		p, err := New(Config{fixed: fifo(1024, 1024, time.Hour), pruneEvery: time.Hour}, e.node)
		if err != nil {
			t.Fatal(err)
		}
		d := e.data(testSlot)

		// Already cancelled.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		att, subnet := e.single(d, 0, 0)
		wantResult(t, p.ValidateAttestation(ctx, NoPeer, att, subnet), Ignore, ErrCancelled)
		if r := p.ValidateAttestation(ctx, NoPeer, att, subnet); !errors.Is(r, context.Canceled) {
			t.Fatalf("%v does not wrap context.Canceled", r)
		}

		// Cancelled while waiting for the batch (which waits an hour).
		ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
		att, subnet = e.single(d, 0, 1)
		wantResult(t, p.ValidateAttestation(ctx, NoPeer, att, subnet), Ignore, ErrCancelled)
		cancel()

		// Pending at Close: verified on shutdown.
		var chans []<-chan Result
		for pos := uint64(2); pos < 16; pos++ {
			att, subnet := e.single(d, 0, pos)
			chans = append(chans, p.validateAttestationAsync(context.Background(), NoPeer, att, subnet))
		}
		// A copy of the cancelled one: its verification still answers it.
		att, subnet = e.single(d, 0, 1)
		chans = append(chans, p.validateAttestationAsync(context.Background(), NoPeer, att, subnet))
		time.Sleep(10 * time.Millisecond)
		p.Close()
		for i, c := range chans {
			select {
			case r := <-c:
				wantResult(t, r, Accept, nil)
			default:
				t.Fatalf("message %d has no verdict after Close", i)
			}
			select {
			case r := <-c:
				t.Fatalf("second verdict %v", r)
			default:
			}
		}
		wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), Ignore, ErrClosed)
		checkInvariants(t, p)
		p.Close() // idempotent
	})
}

// TestCloseRace closes the pool while many goroutines submit (real time:
// the deadlines of 0-4 ms fall anywhere; any verdict but Reject is right).
func TestCloseRace(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, 2, 16, 100)
	e.setSlot(testSlot, 1000)
	p, err := New(Config{BatchSize: 4, pruneEvery: time.Hour}, e.node)
	if err != nil {
		t.Fatal(err)
	}
	var atts []*attestation.SingleAttestation
	var subnets []uint64
	for ci := range uint64(2) {
		for pos := range uint64(16) {
			a, s := e.single(e.data(testSlot), ci, pos)
			atts, subnets = append(atts, a), append(subnets, s)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[Verdict]int{}
	for i := range atts {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%5)*time.Millisecond)
			defer cancel()
			r := p.ValidateAttestation(ctx, NoPeer, atts[i], subnets[i])
			if r.Verdict == Reject {
				t.Errorf("valid attestation rejected: %v", r)
			}
			mu.Lock()
			counts[r.Verdict]++
			mu.Unlock()
		})
		if i == len(atts)/2 {
			go p.Close()
		}
	}
	wg.Wait()
	p.Close()
	if counts[Accept]+counts[Ignore] != len(atts) {
		t.Fatalf("verdicts %v for %d messages", counts, len(atts))
	}
	checkInvariants(t, p)
}

// TestAggregatesKeptApart: overlapping aggregates stay apart, a disjoint one
// merges, and the block takes the best combination.
func TestAggregatesKeptApart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 32, 100)
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{})
		d := e.data(testSlot)
		ctx := context.Background()

		// Three aggregates of committee 0 by three aggregators.
		var aggregators []uint64
		for pos := range e.comm.size {
			proof := e.sign(e.comm.validator(testSlot, 0, pos), selectionRoot(e, testSlot))
			if isAggregator(int(e.comm.size), proof) {
				aggregators = append(aggregators, pos)
			}
		}
		if len(aggregators) < 3 {
			t.Skip("not enough aggregators")
		}
		mk := func(aggregatorPos uint64, positions []uint64) *attestation.SignedAggregateAndProof {
			sap := e.aggregate(d, 0, positions)
			v := e.comm.validator(testSlot, 0, aggregatorPos)
			sap.Message.AggregatorIndex = v
			sap.Message.SelectionProof = e.sign(v, selectionRoot(e, testSlot))
			sap.Signature = e.signAggregateAndProof(sap.Message)
			return sap
		}
		wantResult(t, p.ValidateAggregate(ctx, NoPeer, mk(aggregators[0], []uint64{0, 1, 2})), Accept, nil)
		wantResult(t, p.ValidateAggregate(ctx, NoPeer, mk(aggregators[1], []uint64{2, 3, 4, 5})), Accept, nil)
		checkInvariants(t, p)
		p.mu.Lock()
		n := p.store.n
		p.mu.Unlock()
		if n != 2 {
			t.Fatalf("%d aggregates, want 2 kept apart", n)
		}
		// Disjoint from the first: merges into it.
		wantResult(t, p.ValidateAggregate(ctx, NoPeer, mk(aggregators[2], []uint64{10, 11})), Accept, nil)
		// A single attestation joins the first aggregate without its bit.
		att, subnet := e.single(d, 0, 20)
		wantResult(t, p.ValidateAttestation(ctx, NoPeer, att, subnet), Accept, nil)
		// One of committee 1.
		att, subnet = e.single(d, 1, 7)
		wantResult(t, p.ValidateAttestation(ctx, NoPeer, att, subnet), Accept, nil)
		checkInvariants(t, p)

		atts := p.AttestationsForBlock(testSlot+1, BlockFilter{}).Attestations()
		if len(atts) != 2 {
			t.Fatalf("%d attestations, want 2", len(atts))
		}
		// First: {0,1,2,10,11,20} of committee 0 with committee 1's {7}.
		if c := atts[0].AggregationBits.Count(); c != 7 || atts[0].CommitteeBits.Count() != 2 {
			t.Fatalf("first attestation: %d bits, %d committees", c, atts[0].CommitteeBits.Count())
		}
		// Second: the overlapping aggregate brings 3 new attesters.
		if c := atts[1].AggregationBits.Count(); c != 4 || atts[1].CommitteeBits.Count() != 1 {
			t.Fatalf("second attestation: %d bits", c)
		}
		for _, a := range atts {
			if !e.verifyOnChain(a) {
				t.Fatal("bad on-chain signature")
			}
		}
		// A superset replaces what it contains.
		proofs := aggregators[3:]
		if len(proofs) > 0 {
			wantResult(t, p.ValidateAggregate(ctx, NoPeer, mk(proofs[0], []uint64{0, 1, 2, 3, 4, 5, 10, 11, 20, 21})), Accept, nil)
			checkInvariants(t, p)
			p.mu.Lock()
			n := p.store.n
			p.mu.Unlock()
			if n != 2 { // committee 0: one; committee 1: one
				t.Fatalf("%d aggregates after superset", n)
			}
		}
	})
}

// TestPruneAndBounds: old data goes each slot; a full queue or pool answers
// Ignore at once.
func TestPruneAndBounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 16, 200)
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{MaxAggregates: 1})
		ctx := context.Background()
		att, subnet := e.single(e.data(testSlot), 0, 0)
		wantResult(t, p.ValidateAttestation(ctx, NoPeer, att, subnet), Accept, nil)
		att, subnet = e.single(e.data(testSlot), 0, 1)
		wantResult(t, p.ValidateAttestation(ctx, NoPeer, att, subnet), Accept, nil)
		// A second aggregate is over the bound.
		att, subnet = e.single(e.data(testSlot+1), 0, 0)
		e.setSlot(testSlot+1, 1000)
		wantResult(t, p.ValidateAttestation(ctx, NoPeer, att, subnet), Ignore, ErrPoolFull)

		// Two epochs later the first epoch is useless.
		e.setSlot(testSlot+64, 1000)
		p.prune()
		if s := p.Stats(); s.Aggregates != 0 || s.Data != 0 || s.SeenAttesters != 0 {
			t.Fatalf("after prune: %+v", s)
		}
		if p.roots.len() != 0 {
			t.Fatalf("root cache holds %d", p.roots.len())
		}
		checkInvariants(t, p)

		// Queue bound: MaxPending 3 and an hour of batch delay.
		q := e.pool(Config{fixed: fifo(1024, 1024, time.Hour), MaxPending: 3})
		var chans []<-chan Result
		for pos := range uint64(4) {
			att, subnet := e.single(e.data(testSlot+64), 0, pos)
			chans = append(chans, q.validateAttestationAsync(ctx, NoPeer, att, subnet))
		}
		wantResult(t, <-chans[3], Ignore, ErrQueueFull)
		q.Close()
		for _, c := range chans[:3] {
			wantResult(t, <-c, Accept, nil)
		}
	})
}

// TestLoopPrunes: the pool's own loop prunes when the clock moves.
func TestLoopPrunes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 8, 200)
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{pruneEvery: time.Millisecond})
		att, subnet := e.single(e.data(testSlot), 0, 0)
		wantResult(t, p.ValidateAttestation(context.Background(), NoPeer, att, subnet), Accept, nil)
		e.setSlot(testSlot+64, 1000)
		deadline := time.Now().Add(2 * time.Second)
		for p.Stats().Aggregates != 0 {
			if time.Now().After(deadline) {
				t.Fatal("not pruned")
			}
			time.Sleep(time.Millisecond)
		}
	})
}

func TestConfig(t *testing.T) {
	e := newEnv(t, 1, 8, 10)
	if _, err := New(Config{BatchSize: -1}, e.node); !errors.Is(err, ErrConfig) {
		t.Fatalf("negative batch size: %v", err)
	}
	n := e.node
	n.Chain = nil
	if _, err := New(Config{}, n); !errors.Is(err, ErrConfig) {
		t.Fatalf("nil chain: %v", err)
	}
	reg := prometheus.NewRegistry()
	p, err := New(Config{Registerer: reg}, e.node)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{Registerer: reg}, e.node); !errors.Is(err, ErrConfig) {
		t.Fatalf("duplicate registration: %v", err)
	}
	p.Close()
	// Unregistered on Close: a new pool can use the registry.
	p, err = New(Config{Registerer: reg}, e.node)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	var zero Result
	if zero.Verdict != Reject {
		t.Fatal("zero Result is not Reject")
	}
}

func metricValue(m prometheus.Metric) float64 {
	var out dto.Metric
	if err := m.Write(&out); err != nil {
		return -1
	}
	switch {
	case out.Gauge != nil:
		return out.Gauge.GetValue()
	case out.Counter != nil:
		return out.Counter.GetValue()
	}
	return -1
}

// TestGrownAggregateDropsContained: a single attestation that makes one
// aggregate contain another removes the contained one.
func TestGrownAggregateDropsContained(t *testing.T) {
	e := newEnv(t, 1, 8, 100)
	e.setSlot(testSlot, 1000)
	d := e.data(testSlot)
	s := newAggStore(10, 10, 1)
	sig := func(pos uint64) *crypto.Signature {
		att, _ := e.single(d, 0, pos)
		x, err := crypto.SignatureFromBytes(att.Signature[:])
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	root, _ := d.HashTreeRoot()
	k := aggKey{root: root}
	mk := func(pos ...uint64) bitfield.Bitlist {
		b := bitfield.NewBitlist(8)
		for _, i := range pos {
			b.SetBitAt(i, true)
		}
		return b
	}
	sum := func(pos ...uint64) *crypto.Signature {
		var sigs []*crypto.Signature
		for _, i := range pos {
			sigs = append(sigs, sig(i))
		}
		a, _ := crypto.AggregateSignatures(sigs)
		return a
	}
	s.addAggregate(k, d, mk(0, 1, 2), sum(0, 1, 2))
	s.addAggregate(k, d, mk(2, 3), sum(2, 3))
	if s.n != 2 {
		t.Fatalf("%d aggregates", s.n)
	}
	s.addSingles([]*single{{key: k, data: d, pos: 3, size: 8, sig: sig(3)}})
	if s.n != 1 || s.byRoot[root].committees[0][0].participants() != 4 {
		t.Fatalf("%d aggregates after growth", s.n)
	}
}

// TestConcurrentMixed runs attestations, aggregates, block packing, pruning
// and stats at once (for the race detector and the invariants; real time,
// so that packing and pruning interleave with verification).
func TestConcurrentMixed(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, 2, 32, 100)
	e.setSlot(testSlot, 1000)
	p := e.pool(Config{BatchSize: 8})
	d := e.data(testSlot)
	var saps []*attestation.SignedAggregateAndProof
	for pos := range e.comm.size {
		proof := e.sign(e.comm.validator(testSlot, 1, pos), selectionRoot(e, testSlot))
		if !isAggregator(int(e.comm.size), proof) {
			continue
		}
		sap := e.aggregate(d, 1, []uint64{pos, (pos + 1) % e.comm.size, (pos + 7) % e.comm.size})
		v := e.comm.validator(testSlot, 1, pos)
		sap.Message.AggregatorIndex, sap.Message.SelectionProof = v, proof
		sap.Signature = e.signAggregateAndProof(sap.Message)
		saps = append(saps, sap)
	}
	var atts []*attestation.SingleAttestation
	var subnets []uint64
	for pos := range e.comm.size {
		a, s := e.single(d, 0, pos)
		atts, subnets = append(atts, a), append(subnets, s)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(atts); i += 4 {
				if r := p.ValidateAttestation(ctx, NoPeer, atts[i], subnets[i]); r.Verdict != Accept {
					t.Errorf("attestation %d: %v", i, r)
				}
			}
		})
	}
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < len(saps); i += 2 {
				if r := p.ValidateAggregate(ctx, NoPeer, saps[i]); r.Verdict == Reject {
					t.Errorf("aggregate %d: %v", i, r)
				}
			}
		})
	}
	var bg sync.WaitGroup
	bg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			for _, a := range p.AttestationsForBlock(testSlot+1, BlockFilter{}).Attestations() {
				if a.AggregationBits.Len() == 0 {
					t.Error("empty attestation")
				}
			}
			p.prune()
			p.Stats()
			time.Sleep(100 * time.Microsecond)
		}
	})
	wg.Wait()
	close(stop)
	bg.Wait()
	checkInvariants(t, p)
	for _, a := range p.AttestationsForBlock(testSlot+1, BlockFilter{}).Attestations() {
		if !e.verifyOnChain(a) {
			t.Fatal("bad on-chain aggregate")
		}
	}
}

// TestPerSignature: the baseline mode gives the same verdicts.
func TestPerSignature(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 8, 100)
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{SignatureVerifier: perSignature(t)})
		checkCommitteeVerdicts(t, e, func(pos uint64) bool { return pos%3 == 0 }, func(_ uint64, att *attestation.SingleAttestation, subnet uint64) <-chan Result {
			return p.validateAttestationAsync(context.Background(), NoPeer, att, subnet)
		})
	})
}

// checkCommitteeVerdicts submits the attestations of the 8 members of
// committee 0 at testSlot, those at the positions invalid picks signed over
// another root, and checks that those are rejected and the others accepted.
func checkCommitteeVerdicts(t *testing.T, e *env, invalid func(pos uint64) bool, submit func(pos uint64, att *attestation.SingleAttestation, subnet uint64) <-chan Result) {
	t.Helper()
	d := e.data(testSlot)
	var chans []<-chan Result
	for pos := range uint64(8) {
		att, subnet := e.single(d, 0, pos)
		if invalid(pos) {
			att.Signature = e.sign(att.AttesterIndex, [32]byte{3})
		}
		chans = append(chans, submit(pos, att, subnet))
	}
	for pos, c := range chans {
		if invalid(uint64(pos)) {
			wantResult(t, <-c, Reject, ErrInvalidSignature)
		} else {
			wantResult(t, <-c, Accept, nil)
		}
	}
}

// countingVerifier is a SignatureVerifier a node might supply: it wraps a
// shared verifier and counts the sets it is given.
type countingVerifier struct {
	v    *verifier.Verifier
	sets atomic.Int64
}

func (c *countingVerifier) Verify(sets []verifier.Set) []bool {
	c.sets.Add(int64(len(sets)))
	return c.v.Verify(sets)
}

// TestInjectedVerifier: a pool given a SignatureVerifier sends every set to
// it and gives its verdicts (also for messages with a forwarding peer).
func TestInjectedVerifier(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cv := &countingVerifier{v: newTestVerifier(t)}
		e := newEnv(t, 1, 8, 100)
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{SignatureVerifier: cv})
		checkCommitteeVerdicts(t, e, func(pos uint64) bool { return pos%4 == 1 }, func(pos uint64, att *attestation.SingleAttestation, subnet uint64) <-chan Result {
			return p.validateAttestationAsync(context.Background(), Peer(fmt.Sprint("peer", pos%2)), att, subnet)
		})
		p.Close()
		if got := cv.sets.Load(); got != 8 {
			t.Fatalf("injected verifier saw %d sets, want 8", got)
		}
	})
}

// TestReservePendingNeverOverBound reserves and releases from several
// goroutines while another reads the count: the count must never be seen
// over MaxPending, not even between a failed reservation and its undo (the
// flood test once saw 65 against 64 that way), and every reservation that
// succeeds must fit.
func TestReservePendingNeverOverBound(t *testing.T) {
	const limit, workers, rounds = 8, 8, 20000
	p := &Pool{cfg: Config{MaxPending: limit}}
	var wg sync.WaitGroup
	var over atomic.Int64
	stop := make(chan struct{})
	var reader sync.WaitGroup
	reader.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if v := p.pending.Load(); v > limit {
				over.Store(v)
			}
		}
	})
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := int64(w%3 + 2)
			for range rounds {
				if p.reservePending(n) {
					if v := p.pending.Load(); v > limit || v < n {
						over.Store(v)
					}
					runtime.Gosched() // hold it while others try
					p.pending.Add(-n)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	reader.Wait()
	if v := over.Load(); v != 0 {
		t.Fatalf("pending seen at %d, MaxPending %d", v, limit)
	}
	if v := p.pending.Load(); v != 0 {
		t.Fatalf("pending %d after every reservation was released", v)
	}
	if !p.reservePending(limit) || p.reservePending(1) {
		t.Fatal("a reservation of exactly MaxPending must fit and leave no room")
	}
}
