package pool

// Fuzzing of the pool's intake. FuzzIntake decodes
// its input into a sequence of operations on a fresh pool: submissions of
// SingleAttestations and SignedAggregateAndProofs taken from a small table of
// real signed messages, as they are or mutated (wrong subnet, committee
// index, far-future or past slots, duplicates, bad signature bytes, bad
// bitlists, nil parts), with cancelled or expiring contexts, from the
// fuzzing goroutine or concurrently, interleaved with clock moves, prunes,
// block packing and Close. It checks that nothing panics, that every
// message gets exactly one verdict (on its channel and in the verdict
// metric), that verdicts decided by the early rules are the right ones, that
// no mutated-invalid message is accepted, that no validator is accepted
// twice in an epoch, and the pool's index invariants (checkInvariants of
// helpers_test.go) before and after Close.
//
//	go test -run '^$' -fuzz '^FuzzIntake$' -fuzztime 60s ./pool/

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/pool/internal/memnode"
)

// fzFixture is the table of real signed messages the fuzzer picks from.
type fzFixture struct {
	e       *env
	atts    []*attestation.SingleAttestation
	subnets []uint64
	saps    []*attestation.SignedAggregateAndProof
}

var fzOnce struct {
	sync.Once
	fx *fzFixture
}

func fzLoad(tb testing.TB) *fzFixture {
	fzOnce.Do(func() {
		// Two committees of 16 per slot: every validator is an aggregator.
		e := newEnv(tb, 2, 16, 100)
		fx := &fzFixture{e: e}
		d40, d41 := e.data(testSlot), e.data(testSlot+1)
		for ci := range uint64(2) {
			for pos := range uint64(6) {
				att, subnet := e.single(d40, ci, pos)
				fx.atts, fx.subnets = append(fx.atts, att), append(fx.subnets, subnet)
			}
		}
		for pos := range uint64(4) { // the next slot: future until the clock moves
			att, subnet := e.single(d41, 0, pos)
			fx.atts, fx.subnets = append(fx.atts, att), append(fx.subnets, subnet)
		}
		fx.saps = []*attestation.SignedAggregateAndProof{
			e.aggregate(d40, 0, []uint64{0, 1, 2}),
			e.aggregate(d40, 1, []uint64{3, 4}),
			e.aggregate(d40, 0, []uint64{5, 6, 7, 8}), // same aggregator as the first
			e.aggregate(d41, 0, []uint64{1, 2}),
			e.aggregate(d40, 0, []uint64{0, 1, 2, 3, 9}), // a superset of the first
		}
		fzOnce.fx = fx
	})
	if fzOnce.fx == nil {
		tb.Fatal("fuzz fixture failed to build")
	}
	return fzOnce.fx
}

// fzSub is one submission and what its verdict may be.
type fzSub struct {
	ch  <-chan Result
	res Result
	// exact: the verdict the early rules give (unless the context ends or
	// the pool is closed first).
	exact     *Result
	noAccept  bool // mutated into an invalid message
	cancelled bool // submitted with a context already cancelled
	desc      string
	aggregate bool // sap, else att on subnet
	att       *attestation.SingleAttestation
	subnet    uint64
	sap       *attestation.SignedAggregateAndProof
}

// fzCopySub is a new submission of the message of s (not its context).
func fzCopySub(s *fzSub) *fzSub {
	return &fzSub{exact: s.exact, noAccept: s.noAccept, desc: "copy of " + s.desc,
		aggregate: s.aggregate, att: s.att, subnet: s.subnet, sap: s.sap}
}

func fzCopyAtt(a *attestation.SingleAttestation) *attestation.SingleAttestation {
	c := *a
	c.Data = a.Data.Copy()
	return &c
}

func fzCopySap(s *attestation.SignedAggregateAndProof) *attestation.SignedAggregateAndProof {
	c := *s
	m := *s.Message
	a := *s.Message.Aggregate
	a.Data = a.Data.Copy()
	a.AggregationBits = append(bitfield.Bitlist(nil), a.AggregationBits...)
	a.CommitteeBits = append(bitfield.Bitvector64(nil), a.CommitteeBits...)
	m.Aggregate = &a
	c.Message = &m
	return &c
}

func fzRes(v Verdict, err error) *Result { return &Result{Verdict: v, Err: err} }

// fzMutateAtt returns a mutation of att (a copy) and what it must get.
func fzMutateAtt(att *attestation.SingleAttestation, subnet uint64, arg byte) (*attestation.SingleAttestation, uint64, *fzSub) {
	a := fzCopyAtt(att)
	s := &fzSub{noAccept: true}
	switch arg % 14 {
	case 0:
		subnet = (subnet + 1 + uint64(arg)%63) % AttestationSubnetCount
		s.exact, s.desc = fzRes(Reject, ErrWrongSubnet), "wrong subnet"
	case 1:
		a.CommitteeIndex = 2 + uint64(arg)
		s.exact, s.desc = fzRes(Reject, ErrCommitteeIndex), "committee index"
	case 2:
		a.Data.Slot += 1000 + uint64(arg)*32
		a.Data.Target.Epoch = a.Data.Slot / 32
		s.desc = "far future"
	case 3:
		a.Data.Slot = ^uint64(0) - uint64(arg)
		a.Data.Target.Epoch = a.Data.Slot / 32
		s.desc = "slot at the top of uint64"
	case 4:
		a.Data.Slot = uint64(arg) % 32
		a.Data.Target.Epoch = 0
		s.desc = "past slot"
	case 5:
		a.Signature[int(arg)*7%96] ^= 1 << (arg % 8)
		s.desc = "signature bit flipped"
	case 6:
		switch arg % 3 {
		case 0:
			a.Signature = [96]byte{}
		case 1:
			a.Signature = [96]byte{0xc0} // the point at infinity
		case 2:
			for i := range a.Signature {
				a.Signature[i] = 0xff
			}
		}
		s.desc = "signature bytes"
	case 7:
		a.Data = nil
		s.exact, s.desc = fzRes(Reject, ErrMalformed), "nil data"
	case 8:
		s.exact, s.desc = fzRes(Reject, ErrMalformed), "nil attestation"
		return nil, subnet, s
	case 9:
		a.Data.Index = 1 + uint64(arg)
		s.exact, s.desc = fzRes(Reject, ErrDataIndexNonZero), "data index"
	case 10:
		a.AttesterIndex ^= 1 // another member of the committee (or none)
		s.desc = "other attester"
	case 11:
		a.AttesterIndex = 1<<63 + uint64(arg)
		s.desc = "huge attester index"
	case 12:
		a.Data.Target = nil
		s.desc = "nil target"
	case 13:
		a.Data.Source = nil
		s.desc = "nil source"
	}
	if arg%14 >= 2 && arg%14 <= 4 { // on the slot's subnet: the time rules decide
		subnet = (2*(a.Data.Slot%32) + a.CommitteeIndex) % AttestationSubnetCount
	}
	return a, subnet, s
}

// fzMutateSap returns a mutation of sap (a copy) and what it must get.
func fzMutateSap(sap *attestation.SignedAggregateAndProof, arg byte) (*attestation.SignedAggregateAndProof, *fzSub) {
	const limit = attestation.MaxValidatorsPerCommittee * MaxCommitteesPerSlot
	c := fzCopySap(sap)
	agg := c.Message.Aggregate
	s := &fzSub{noAccept: true}
	size := agg.AggregationBits.Len()
	setBits := func(n uint64) {
		b := bitfield.NewBitlist(n)
		b.SetBitAt(0, true)
		agg.AggregationBits = b
	}
	switch arg % 12 {
	case 0:
		setBits(size + 1 + uint64(arg))
		s.desc = "oversized bits"
	case 1:
		setBits(1 + uint64(arg)%(size-1))
		s.desc = "undersized bits"
	case 2:
		setBits(limit)
		s.desc = "bits at the SSZ limit"
	case 3:
		setBits(limit + 1 + uint64(arg))
		s.exact, s.desc = fzRes(Reject, ErrMalformed), "bits past the SSZ limit"
	case 4:
		agg.AggregationBits = [][]byte{{}, {0}, {0, 0}}[arg%3]
		s.exact, s.desc = fzRes(Reject, ErrMalformed), "bits without length bit"
	case 5:
		agg.CommitteeBits = agg.CommitteeBits[:arg%8]
		s.exact, s.desc = fzRes(Reject, ErrMalformed), "short committee bits"
	case 6:
		agg.CommitteeBits.SetBitAt(uint64(arg%63)+1, true) // a second committee (or the same)
		if agg.CommitteeBits.Count() == 2 {
			s.exact = fzRes(Reject, ErrCommitteeBits)
		}
		s.desc = "two committees"
	case 7:
		switch arg % 3 {
		case 0:
			c.Message = nil
		case 1:
			c.Message.Aggregate = nil
		case 2:
			agg.Data = nil
		}
		s.exact, s.desc = fzRes(Reject, ErrMalformed), "nil part"
	case 8:
		i := int(arg) * 5 % 96
		switch arg % 3 {
		case 0:
			agg.Signature[i] ^= 0x10
		case 1:
			c.Message.SelectionProof[i] ^= 0x10
		case 2:
			c.Signature[i] ^= 0x10
		}
		s.desc = "a signature flipped"
	case 9:
		for i := range size {
			if !agg.AggregationBits.BitAt(i) {
				agg.AggregationBits.SetBitAt(i, true) // one participant too many
				break
			}
		}
		s.desc = "extra participant"
	case 10:
		c.Message.AggregatorIndex++
		s.desc = "other aggregator"
	case 11:
		agg.Data.Slot += 1000 + uint64(arg)
		agg.Data.Target.Epoch = agg.Data.Slot / 32
		s.desc = "far future"
	}
	return c, s
}

// fzWait returns the verdict on ch, failing t if none comes in time.
func fzWait(t *testing.T, ch <-chan Result, what string) Result {
	select {
	case r := <-ch:
		return r
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no verdict after 20 s", what)
		return Result{}
	}
}

// fzRun plays data on a fresh pool and checks the verdicts and the pool.
func fzRun(t *testing.T, fx *fzFixture, data []byte) {
	clock := memnode.NewManualClock(fx.e.genesis.Add(testSlot*12*time.Second + time.Second))
	node := fx.e.node
	node.Clock = clock
	p, err := New(Config{
		BatchSize: 4, BatchTime: time.Millisecond, VerifyWorkers: 2,
		MaxPending: 24, MaxAggregates: 8, MaxData: 3, seenAggregates: 4, rootCache: 4,
		pruneEvery: time.Millisecond,
	}, node)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	var subs []*fzSub
	var wg sync.WaitGroup
	var last *fzSub // the last submission, for duplicates
	submit := func(s *fzSub, ctx context.Context, async bool, cancel context.CancelFunc) {
		subs = append(subs, s)
		last = s
		do := func() {
			if s.aggregate {
				s.ch = p.validateAggregateAsync(ctx, NoPeer, s.sap)
			} else {
				s.ch = p.validateAttestationAsync(ctx, NoPeer, s.att, s.subnet)
			}
			s.res = fzWait(t, s.ch, s.desc)
			if cancel != nil {
				cancel()
			}
		}
		if async {
			wg.Go(do)
		} else {
			do()
		}
	}

	ops := 0
	for i := 0; i+2 < len(data) && ops < 48; i, ops = i+3, ops+1 {
		op, idx, arg := data[i], int(data[i+1]), data[i+2]
		async := op&0x80 != 0
		ctx, cancel := context.Background(), context.CancelFunc(nil)
		switch op & 0x7f % 16 {
		case 0, 1: // an attestation of the table
			k := idx % len(fx.atts)
			submit(&fzSub{att: fx.atts[k], subnet: fx.subnets[k], desc: "table attestation"}, ctx, async, nil)
		case 2, 3: // a mutated attestation
			k := idx % len(fx.atts)
			a, subnet, s := fzMutateAtt(fx.atts[k], fx.subnets[k], arg)
			s.att, s.subnet = a, subnet
			submit(s, ctx, async, nil)
		case 4: // an aggregate of the table
			submit(&fzSub{aggregate: true, sap: fx.saps[idx%len(fx.saps)], desc: "table aggregate"}, ctx, async, nil)
		case 5: // a mutated aggregate
			c, s := fzMutateSap(fx.saps[idx%len(fx.saps)], arg)
			s.sap, s.aggregate = c, true
			submit(s, ctx, async, nil)
		case 6: // a duplicate of the last submission, same pointers
			if last != nil {
				submit(fzCopySub(last), ctx, async, nil)
			}
		case 7: // an already cancelled context
			ctx, cancel = context.WithCancel(ctx)
			cancel()
			k := idx % len(fx.atts)
			submit(&fzSub{att: fx.atts[k], subnet: fx.subnets[k], cancelled: true, desc: "cancelled"}, ctx, async, nil)
		case 8: // a context that expires within a few milliseconds
			ctx, cancel = context.WithTimeout(ctx, time.Duration(arg%8)*time.Millisecond)
			if idx%2 == 0 {
				k := idx / 2 % len(fx.atts)
				submit(&fzSub{att: fx.atts[k], subnet: fx.subnets[k], desc: "expiring"}, ctx, async, cancel)
			} else {
				submit(&fzSub{aggregate: true, sap: fx.saps[idx/2%len(fx.saps)], desc: "expiring aggregate"}, ctx, async, cancel)
			}
		case 9, 10: // the clock moves, by up to 38 s forward or 12 s back
			if arg < 192 {
				clock.Advance(time.Duration(arg) * 200 * time.Millisecond)
			} else {
				clock.Advance(-time.Duration(arg-192) * 200 * time.Millisecond)
			}
		case 11:
			p.prune()
		case 12:
			_ = p.AttestationsForBlock(testSlot+uint64(arg%8), BlockFilter{}).Attestations()
		case 13:
			_ = p.Stats()
		case 14: // wait for what is in flight
			wg.Wait()
		case 15:
			if arg%4 == 0 {
				p.Close()
			}
		}
	}
	wg.Wait()
	checkInvariants(t, p)
	counted := floodVerdictCount(t, p)
	p.Close()
	checkInvariants(t, p)
	fzCheck(t, p, subs, counted)
}

// fzCheck checks the verdicts of a run.
func fzCheck(t *testing.T, p *Pool, subs []*fzSub, counted float64) {
	if int(counted) != len(subs) {
		t.Errorf("the verdict metric counts %v verdicts for %d submissions", counted, len(subs))
	}
	rules := map[string]int{}
	defer func() { t.Logf("%d submissions: %v", len(subs), rules) }()
	type who struct{ epoch, index uint64 }
	attAccepts, aggAccepts := map[who]int{}, map[who]int{}
	for i, s := range subs {
		r := s.res
		select {
		case r2 := <-s.ch:
			t.Fatalf("submission %d (%s): a second verdict %v after %v", i, s.desc, r2, r)
		default:
		}
		if r.Verdict > Accept {
			t.Fatalf("submission %d (%s): verdict %v", i, s.desc, r)
		}
		rules[r.Rule()]++
		if r.Verdict != Accept && r.Rule() == "unknown" {
			t.Errorf("submission %d (%s): %v names no rule", i, s.desc, r)
		}
		if (r.Verdict == Accept) != (r.Err == nil) {
			t.Errorf("submission %d (%s): verdict %v with Err %v", i, s.desc, r.Verdict, r.Err)
		}
		if s.cancelled && (r.Verdict != Ignore || !errors.Is(r, ErrCancelled) || !errors.Is(r, context.Canceled)) {
			t.Errorf("submission %d (%s): %v, want Ignore (cancelled)", i, s.desc, r)
		}
		ended := r.Verdict == Ignore && (errors.Is(r, ErrCancelled) || errors.Is(r, ErrClosed))
		if s.exact != nil && !ended && (r.Verdict != s.exact.Verdict || !errors.Is(r, s.exact.Err)) {
			t.Errorf("submission %d (%s): %v, want %v", i, s.desc, r, *s.exact)
		}
		if r.Verdict != Accept {
			continue
		}
		if s.noAccept {
			t.Errorf("submission %d (%s): an invalid message accepted", i, s.desc)
			continue
		}
		if s.aggregate {
			m := s.sap.Message
			aggAccepts[who{m.Aggregate.Data.Target.Epoch, m.AggregatorIndex}]++
		} else {
			attAccepts[who{s.att.Data.Target.Epoch, s.att.AttesterIndex}]++
		}
	}
	for w, n := range attAccepts {
		if n > 1 {
			t.Errorf("validator %d accepted %d times in epoch %d", w.index, n, w.epoch)
		}
	}
	for w, n := range aggAccepts {
		if n > 1 {
			t.Errorf("aggregator %d accepted %d times in epoch %d", w.index, n, w.epoch)
		}
	}
	if s := p.Stats(); s.Pending != 0 {
		t.Errorf("closed pool: %+v", s)
	}
}

// FuzzIntake fuzzes the pool's intake; see the top of the file. Each input
// is a sequence of 3-byte operations (op, index, argument); op's top bit
// makes a submission concurrent.
func FuzzIntake(f *testing.F) {
	seeds := [][]byte{
		{},
		{0, 0, 0, 0, 1, 0, 4, 0, 0}, // two attestations, an aggregate
		{0x80, 0, 0, 0x80, 1, 0, 0x80, 2, 0, 0x86, 0, 0, 6, 0, 0},       // concurrent, then duplicates
		{2, 0, 0, 2, 1, 1, 2, 2, 2, 2, 3, 3, 2, 4, 4, 2, 5, 5, 2, 6, 6}, // attestation mutations 0-6
		{2, 0, 7, 2, 1, 8, 2, 2, 9, 2, 3, 10, 2, 4, 11, 2, 5, 12, 2, 6, 13},
		{5, 0, 0, 5, 1, 1, 5, 2, 2, 5, 3, 3, 5, 0, 4, 5, 1, 5, 5, 2, 6, 5, 3, 7}, // aggregate mutations
		{5, 0, 8, 5, 1, 9, 5, 2, 10, 5, 3, 11, 4, 0, 0, 4, 4, 0, 4, 2, 0},
		{7, 0, 0, 8, 2, 0, 8, 3, 1, 0x88, 4, 2, 0x88, 5, 3}, // cancelled and expiring contexts
		{0x88, 0, 7, 0x88, 1, 6, 0x88, 2, 5, 0x88, 3, 7, 0x88, 6, 4, 0x88, 7, 7, 0x80, 0, 0, 0x84, 0, 0},
		{0x80, 12, 0, 9, 0, 60, 0x80, 13, 0, 0x80, 12, 0, 14, 0, 0, 9, 0, 191, 11, 0, 0, 0, 0, 0}, // clock moves, prune
		{0x80, 0, 0, 0x80, 1, 0, 0x84, 0, 0, 0x80, 2, 0, 15, 0, 0, 0x80, 3, 0, 0, 4, 0},           // Close mid-flight
		{0x80, 0, 0, 0x80, 1, 0, 0x80, 2, 0, 0x80, 3, 0, 0x80, 4, 0, 0x80, 5, 0, 0x80, 6, 0, 0x80, 7, 0,
			0x80, 8, 0, 0x80, 9, 0, 0x80, 10, 0, 0x80, 11, 0, 0x80, 12, 0, 0x80, 13, 0, 0x80, 14, 0}, // a queue of 24 overflowing
		{9, 0, 200, 0, 0, 0, 9, 0, 250, 0, 1, 0, 12, 0, 0}, // the clock going back
		{4, 0, 0, 4, 4, 0, 4, 2, 0, 12, 0, 1, 4, 1, 0},     // aggregator seen, superset seen
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fzRun(t, fzLoad(t), data)
	})
}
