package pool

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/pool/internal/memnode"
	"github.com/attpool/attpool/ssz"
)

// ptcMessage is the signed payload attestation of validator for the block
// of slot.
func (e *env) ptcMessage(slot, validator uint64, present bool) *attestation.PayloadAttestationMessage {
	d := &attestation.PayloadAttestationData{BeaconBlockRoot: blockRoot(slot), Slot: slot, PayloadPresent: present}
	m := &attestation.PayloadAttestationMessage{ValidatorIndex: validator, Data: d}
	e.signPTC(m)
	return m
}

func (e *env) signPTC(m *attestation.PayloadAttestationMessage) {
	root, err := ssz.ComputeSigningRoot(m.Data, e.domain(ssz.DomainPTCAttester, m.Data.Slot/e.spe))
	if err != nil {
		e.t.Fatal(err)
	}
	m.Signature = e.sign(m.ValidatorIndex, root)
}

func TestPayloadAttestationRules(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, 2, 32, 100)
	member := e.comm.validator(testSlot, 1, 7)
	cases := []ruleCase[*attestation.PayloadAttestationMessage]{
		{"accept", nil, Accept, nil},
		{"malformed", func(_ *Pool, m *attestation.PayloadAttestationMessage) { m.Data = nil }, Reject, ErrMalformed},
		{"not current slot", func(*Pool, *attestation.PayloadAttestationMessage) { e.setSlot(testSlot+1, 501) }, Ignore, ErrNotCurrentSlot},
		{"current slot disparity", func(*Pool, *attestation.PayloadAttestationMessage) { e.setSlot(testSlot+1, 500) }, Accept, nil},
		{"future slot", func(*Pool, *attestation.PayloadAttestationMessage) { e.setSlot(testSlot-1, 11499) }, Ignore, ErrNotCurrentSlot},
		{"already seen", func(p *Pool, m *attestation.PayloadAttestationMessage) {
			wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcMessage(testSlot, m.ValidatorIndex, false)), Accept, nil)
		}, Ignore, ErrPayloadAttestationSeen},
		{"block unknown", func(_ *Pool, m *attestation.PayloadAttestationMessage) {
			m.Data.BeaconBlockRoot = [32]byte{9}
			e.signPTC(m)
		}, Ignore, ErrBlockUnknown},
		{"block invalid", func(_ *Pool, m *attestation.PayloadAttestationMessage) {
			e.chain.AddBlock([32]byte{8}, blockRoot(testSlot-1), testSlot, false)
			m.Data.BeaconBlockRoot = [32]byte{8}
			e.signPTC(m)
		}, Reject, ErrBlockInvalid},
		{"block not at slot", func(_ *Pool, m *attestation.PayloadAttestationMessage) {
			m.Data.BeaconBlockRoot = blockRoot(testSlot - 1)
			e.signPTC(m)
		}, Ignore, ErrBlockSlot},
		{"not in PTC", func(_ *Pool, m *attestation.PayloadAttestationMessage) {
			m.ValidatorIndex = e.comm.validator(testSlot+1, 0, 0)
			e.signPTC(m)
		}, Reject, ErrNotInPTC},
		{"validator index out of range", func(_ *Pool, m *attestation.PayloadAttestationMessage) {
			m.ValidatorIndex = 1 << 50
		}, Reject, ErrNotInPTC},
		{"invalid signature", func(_ *Pool, m *attestation.PayloadAttestationMessage) {
			m.Data.PayloadPresent = false
		}, Reject, ErrInvalidPayloadAttestationSignature},
		{"bad signature encoding", func(_ *Pool, m *attestation.PayloadAttestationMessage) { m.Signature = [96]byte{1} }, Reject, ErrInvalidPayloadAttestationSignature},
		{"before the fork", func(_ *Pool, m *attestation.PayloadAttestationMessage) {
			e.setSlot(20, 1000) // epoch 0, Gloas from epoch 1
			*m = *e.ptcMessage(20, e.comm.validator(20, 0, 0), true)
		}, Ignore, ErrNotGloas},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.gloas(1)
			e.setSlot(testSlot, 1000)
			p := e.pool(Config{})
			m := e.ptcMessage(testSlot, member, true)
			if c.setup != nil {
				c.setup(p, m)
			}
			wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, m), c.verdict, c.err)
		})
	}
	t.Run("no Gloas node", func(t *testing.T) {
		e.node.Gloas = nil
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{})
		wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcMessage(testSlot, member, true)), Ignore, ErrNotGloas)
	})
}

// TestPayloadAttestationCopiesShareVerification: identical copies of a
// payload attestation are verified once, one is accepted and the others
// ignored as seen.
func TestPayloadAttestationCopiesShareVerification(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 1, 8, 100)
		e.gloas(0)
		e.setSlot(testSlot, 1000)
		reg := prometheus.NewRegistry()
		p := e.pool(Config{fixed: fifo(1024, 1024, 50*time.Millisecond), Registerer: reg})
		m := e.ptcMessage(testSlot, e.comm.validator(testSlot, 0, 2), true)
		var chans []<-chan Result
		for i := range 20 {
			chans = append(chans, p.validatePayloadAttestationAsync(context.Background(), Peer(rune('a'+i)), m))
		}
		accepts := 0
		for _, c := range chans {
			if r := <-c; r.Verdict == Accept {
				accepts++
			} else {
				wantResult(t, r, Ignore, ErrPayloadAttestationSeen)
			}
		}
		if accepts != 1 {
			t.Fatalf("%d accepts", accepts)
		}
		if sets := histogramSum(t, reg, "attpool_batch_sets"); sets != 1 {
			t.Fatalf("%v signature sets verified, want 1", sets)
		}
	})
}

// TestWholePTC: the 512 distinct members of a slot's PTC, voting on two
// data, with one bad signature among them, next to attestations of the same
// slot; the next block's two payload attestations cover every other member
// and verify.
func TestWholePTC(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, p := newPTCEnv(t, 4, 128, Config{BatchSize: 128})
		ptc, _ := e.node.Gloas.PTC.PTC(testSlot)
		var chans []<-chan Result
		var present, absent []uint64
		for i, v := range ptc {
			m := e.ptcMessage(testSlot, v, i%3 != 0)
			switch {
			case i == 100:
				m.Signature = e.sign(v+1, [32]byte{1})
			case i%3 != 0:
				present = append(present, v)
			default:
				absent = append(absent, v)
			}
			chans = append(chans, p.validatePayloadAttestationAsync(context.Background(), NoPeer, m))
		}
		att, subnet := e.single(e.data(testSlot), 2, 5)
		attCh := p.validateAttestationAsync(context.Background(), NoPeer, att, subnet)
		for i, c := range chans {
			if i == 100 {
				wantResult(t, <-c, Reject, ErrInvalidPayloadAttestationSignature)
			} else {
				wantResult(t, <-c, Accept, nil)
			}
		}
		wantResult(t, <-attCh, Accept, nil)
		got := p.PayloadAttestationsForBlock(testSlot+1, blockRoot(testSlot))
		if len(got) != 2 {
			t.Fatalf("%d payload attestations, want 2", len(got))
		}
		for i, voters := range [][]uint64{present, absent} {
			e.wantBits(t, mainnetAtt(got[i]), voters)
			e.processPayloadAttestation(t, mainnetAtt(got[i]), testSlot+1, blockRoot(testSlot))
		}
	})
}

// TestMinimalPTC: a PTC of the minimal preset's 16 members (CommitteePTC
// with Size): its members are accepted, a validator of the slot's
// committees outside it is not; the next block's payload attestation, a
// minimal preset's container, covers every member and verifies.
func TestMinimalPTC(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 2, 32, 100)
		ptcs := memnode.CommitteePTC{Committees: e.comm, SlotsPerEpoch: e.spe, Size: attestation.MinimalPTCSize}
		e.node.Gloas = &GloasNode{ForkEpoch: 0, PTC: ptcs}
		e.setSlot(testSlot, 1000)
		p := e.pool(Config{})
		ptc, _ := ptcs.PTC(testSlot)
		if len(ptc) != attestation.MinimalPTCSize {
			t.Fatalf("a PTC of %d members", len(ptc))
		}
		for _, v := range ptc {
			wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcMessage(testSlot, v, true)), Accept, nil)
		}
		outside := e.comm.validator(testSlot, 1, 31) // position 63 of the 64: past the 16
		wantResult(t, p.ValidatePayloadAttestation(context.Background(), NoPeer, e.ptcMessage(testSlot, outside, true)), Reject, ErrNotInPTC)
		pas := p.PayloadAttestationsForBlock(testSlot+1, blockRoot(testSlot))
		if len(pas) != 1 {
			t.Fatalf("%d payload attestations", len(pas))
		}
		got, err := attestation.ToMinimalPayloadAttestation(pas[0])
		if err != nil {
			t.Fatal(err)
		}
		e.wantBits(t, minimalAtt(got), ptc)
		e.processPayloadAttestation(t, minimalAtt(got), testSlot+1, blockRoot(testSlot))
	})
}

// BenchmarkPTCSlot submits the 512 payload attestations of one slot (the
// PTC of a slot with 4 committees of 128; two thirds vote the payload
// present, one third absent, so two signing roots), waits for every
// verdict, then asks for the next block's payload attestations. Cases:
// batched; the per-signature baseline (perSignature). wall-ms is the time
// from the first submission to the last verdict; block-ms, to the block's
// payload attestations in hand; pack-us, the PayloadAttestationsForBlock
// call alone.
func BenchmarkPTCSlot(b *testing.B) {
	e := newEnv(b, 4, 128, 100)
	e.gloas(0)
	e.setSlot(testSlot, 1000)
	ptc, _ := e.node.Gloas.PTC.PTC(testSlot)
	msgs := make([]*attestation.PayloadAttestationMessage, len(ptc))
	for i, v := range ptc {
		msgs[i] = e.ptcMessage(testSlot, v, i%3 != 0)
	}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"batched", Config{}},
		{"per-signature", Config{SignatureVerifier: perSignature(b)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var wall, block, pack time.Duration
			for b.Loop() {
				p, err := New(c.cfg, e.node)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				chans := make([]<-chan Result, len(msgs))
				for i, m := range msgs {
					chans[i] = p.validatePayloadAttestationAsync(context.Background(), NoPeer, m)
				}
				for _, ch := range chans {
					if r := <-ch; r.Verdict != Accept {
						b.Fatal(r)
					}
				}
				verdicts := time.Now()
				pas := p.PayloadAttestationsForBlock(testSlot+1, blockRoot(testSlot))
				done := time.Now()
				wall, block, pack = wall+verdicts.Sub(start), block+done.Sub(start), pack+done.Sub(verdicts)
				if len(pas) != 2 || pas[0].AggregationBits.Count()+pas[1].AggregationBits.Count() != uint64(len(msgs)) {
					b.Fatalf("%d payload attestations", len(pas))
				}
				p.Close()
			}
			b.ReportMetric(float64(wall.Microseconds())/1e3/float64(b.N), "wall-ms")
			b.ReportMetric(float64(block.Microseconds())/1e3/float64(b.N), "block-ms")
			b.ReportMetric(float64(pack.Nanoseconds())/1e3/float64(b.N), "pack-us")
		})
	}
}
