package main

import (
	"crypto/rand"
	"math"
	"strings"
	"testing"
	"time"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/attpool/attpool/pool/pooltest"
)

// checkBreakdown checks the CPU breakdown and the floor of a report: the
// table printed for every load, each row's categories summing to its
// measured CPU, the profiled ones not exceeding it beyond the sampling's
// tolerance, the profile's samples close to that CPU, the cryptographic categories seen, and a floor that
// batching within the budget raises over the one-batch floor.
func checkBreakdown(t *testing.T, rep *latencyReport, table string) {
	t.Helper()
	if n := strings.Count(table, "CPU by category"); n != len(rep.Loads) {
		t.Errorf("%d breakdown tables for %d loads", n, len(rep.Loads))
	}
	if rep.Units.Miller <= 0 || rep.Units.FinalExp <= 0 || rep.Units.Decompress <= 0 || rep.Units.HashToG2 <= 0 {
		t.Errorf("unit costs %+v", rep.Units)
	}
	var crypto float64
	for li, l := range rep.Loads {
		for _, p := range append(l.Policies, l.Burst) {
			var sum float64
			for k, c := range p.Breakdown {
				sum += c
				if k != costRest {
					crypto += c
				}
			}
			cpu := p.CPUPer1000.Median
			if math.Abs(sum-cpu) > 1e-9*cpu || p.Breakdown[costRest] < -0.25*cpu {
				t.Errorf("load %d, %s: categories %v sum to %.4f s/1000, CPU %.4f", li, p.Policy, p.Breakdown, sum, cpu)
			}
			// The profile samples at 100 Hz: a quick run has tens of samples.
			if s := p.Sampled.Median; s < 0.5 || s > 1.5 {
				t.Errorf("load %d, %s: the profile sampled %.0f%% of the CPU", li, p.Policy, 100*s)
			}
		}
		f := l.Floor
		if f.Total <= 0 || f.BurstTotal <= 0 || f.Total < f.BurstTotal || f.Batches < 2 || f.DefaultOver <= 0 || f.BurstOver <= 0 {
			t.Errorf("load %d: floor %+v", li, f)
		}
		if f.Per1000[costRest] != 0 || f.Per1000[costMiller] <= 0 || f.Per1000[costFinalExp] <= 0 {
			t.Errorf("load %d: floor by category %v", li, f.Per1000)
		}
	}
	if crypto <= 0 {
		t.Error("no CPU profiled in the cryptographic categories")
	}
}

// The breakdown puts a run of Miller loops in the Miller category and a
// run of decompressions in the decoding one, from a real CPU profile.
func TestProfileCosts(t *testing.T) {
	var ikm [32]byte
	rand.Read(ikm[:])
	sig := new(blst.P2Affine).Sign(blst.KeyGen(ikm[:]), []byte("root"), []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"))
	key := blst.P1Generator().ToAffine()
	comp := sig.Compress()
	for _, tc := range []struct {
		cost int
		op   func()
	}{
		{costMiller, func() { blst.Fp12MillerLoop(sig, key) }},
		{costDecode, func() { new(blst.P2Affine).Uncompress(comp) }},
	} {
		c, err := profiledCosts(func() error {
			for t0 := cpuTime(); cpuTime()-t0 < 300*time.Millisecond; {
				tc.op()
			}
			return nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		total := sum(c[:])
		if total < 100*time.Millisecond || c[tc.cost] < total*7/10 {
			t.Errorf("%s: %v of %v sampled, all: %v", costNames[tc.cost], c[tc.cost], total, c)
		}
	}
}

// A burst's floor is one batch; a window of the budget that holds every
// arrival is one too, and a window per set is a batch per set.
func TestFloorCosts(t *testing.T) {
	cfg := quickConfig(t)
	cfg.Loads = cfg.Loads[:1]
	loads, err := buildLatencyLoads(cfg, pooltest.NewNetwork(cfg.Validators, firstSlot+1))
	if err != nil {
		t.Fatal(err)
	}
	l := &loads[0]
	u := unitCosts{Decompress: 1, BlindG2: 1, BlindG1: 1, Miller: 1, FinalExp: 1000, HashToG2: 1, SigningRt: 1}
	one, b1, sets, roots := floorCosts(l, 0, u)
	all, b2, _, _ := floorCosts(l, time.Hour, u)
	if b1 != 1 || b2 != 1 || one != all || one[costFinalExp] != 1000 || sets < len(l.msgs) || roots < 2 {
		t.Errorf("one batch: %v (%d batches), within an hour: %v (%d), %d sets, %d roots", one, b1, all, b2, sets, roots)
	}
	_, many, _, _ := floorCosts(l, time.Nanosecond, u)
	if many < 2 {
		t.Errorf("%d batches of a nanosecond", many)
	}
}
