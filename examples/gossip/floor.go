package main

// The CPU breakdown and the floor of the latency benchmark: where a run's
// CPU goes, from a CPU profile of the run (each sample's stack put in one
// category of work), and the CPU the cryptographic work alone would take for
// the batches the arrivals allow, from unit costs measured in the same
// process.

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"io"
	"runtime/pprof"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/pprof/profile"
	blst "github.com/supranational/blst/bindings/go"

	"github.com/attpool/attpool/attestation"
)

// The categories of a run's CPU.
const (
	costDecode   = iota // decoding and signature decompression
	costGroup           // subgroup checks, blinding (scalar multiplications, MSM), key sums
	costMiller          // Miller loops
	costFinalExp        // final exponentiations
	costHash            // hashing to G2
	costSSZ             // SSZ hash tree roots and signing roots
	costRest            // the rest of the process CPU: the pool's bookkeeping and scheduling, the benchmark's dispatch
	numCosts
)

// costNames are the categories' column heads.
var costNames = [numCosts]string{"decode", "subgroup+MSM", "Miller", "final exp", "hash to G2", "SSZ roots", "pool+sched"}

// costRules put a stack frame's function in a category: the first rule
// whose substring the name contains. A sample goes to the category of its
// innermost frame that some rule matches (costRest when none does). The C
// calls of blst appear as frames named _Cfunc_<C function>.
var costRules = []struct {
	sub  string
	cost int
}{
	{"_uncompress", costDecode}, {"_deserialize", costDecode}, {"SetCompressed", costDecode}, {"UnmarshalSSZ", costDecode},
	{"miller_loop", costMiller}, {"precompute_lines", costMiller}, {"_pairing_chk", costMiller}, {"_pairing_commit", costMiller},
	{"_pairing_aggregate", costMiller}, {"_pairing_mul_n_aggregate", costMiller}, {"_core_verify", costMiller}, {"_fp12_mul", costMiller},
	{"final_exp", costFinalExp}, {"finalverify", costFinalExp}, {"_gt_exp", costFinalExp}, {"_fp12_is_one", costFinalExp},
	{"hash_to_g2", costHash}, {"encode_to_g2", costHash}, {"crypto.HashMessage", costHash}, {"curve.HashToG2", costHash},
	{"HashTreeRoot", costSSZ}, {"SigningRoot", costSSZ}, {"sha256", costSSZ}, {"/ssz.", costSSZ},
	{"_Cfunc_", costGroup}, // the rest of blst: point arithmetic, subgroup checks, MSM
}

// costOf is the category of a sample's stack, innermost frame first.
func costOf(frames []string) int {
	for _, f := range frames {
		for _, r := range costRules {
			if strings.Contains(f, r.sub) {
				return r.cost
			}
		}
	}
	return costRest
}

// profileCosts sums the CPU time of the samples of a CPU profile (as
// runtime/pprof writes it) by category. rest is the time of the samples no
// rule matched.
func profileCosts(data []byte) (c [numCosts]time.Duration, err error) {
	p, err := profile.Parse(bytes.NewReader(data))
	if err != nil {
		return c, err
	}
	for _, s := range p.Sample {
		if len(s.Value) == 0 {
			continue
		}
		var frames []string // innermost first: a location's inlined lines come first
		for _, loc := range s.Location {
			for _, line := range loc.Line {
				if line.Function != nil {
					frames = append(frames, line.Function.Name)
				}
			}
		}
		c[costOf(frames)] += time.Duration(s.Value[len(s.Value)-1])
	}
	return c, nil
}

// profiledCosts runs f under a CPU profile and returns the profile's
// samples by category; the profile's bytes go to save too, when not nil.
func profiledCosts(f func() error, save func([]byte) error) (c [numCosts]time.Duration, err error) {
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		return c, err
	}
	err = f()
	pprof.StopCPUProfile()
	if err != nil {
		return c, err
	}
	if save != nil {
		if err := save(buf.Bytes()); err != nil {
			return c, err
		}
	}
	return profileCosts(buf.Bytes())
}

// breakdownOf is a run's CPU by category: the profiled samples of each
// category of cryptographic and SSZ work, and as costRest what is left of
// the process CPU the run measured (the samples of the rest, and CPU the
// profile did not sample).
func breakdownOf(c [numCosts]time.Duration, cpu time.Duration) [numCosts]time.Duration {
	var work time.Duration
	for k := range costRest {
		work += c[k]
	}
	c[costRest] = cpu - work
	return c
}

// unitCosts are the CPU costs of the operations of the floor, measured in
// this process (calibrate).
type unitCosts struct {
	Decompress time.Duration `json:"decompress_ns"`   // a G2 signature from its 96 bytes
	Subgroup   time.Duration `json:"subgroup_ns"`     // a G2 subgroup check (printed; the floor folds it into the blinding)
	BlindG2    time.Duration `json:"blind_g2_ns"`     // a signature's 64-bit scalar in a G2 MSM of 64 points, per point
	BlindG1    time.Duration `json:"blind_g1_ns"`     // a key's 64-bit scalar in a G1 MSM of 64 points, per point
	KeyAdd     time.Duration `json:"key_add_ns"`      // one G1 addition of a key sum
	Miller     time.Duration `json:"miller_ns"`       // one pair of a Miller loop of millerPairs pairs
	FinalExp   time.Duration `json:"final_exp_ns"`    // a final exponentiation
	HashToG2   time.Duration `json:"hash_to_g2_ns"`   // a 32-byte root hashed to G2
	SigningRt  time.Duration `json:"signing_root_ns"` // an AttestationData's hash tree root and its signing root
}

// calibrationRounds is how many times calibrate runs each operation.
const calibrationRounds = 64

// millerPairs is the pairs of the Miller loops calibrate times, about the
// distinct roots of a batch of a few subnets: a loop of several pairs
// shares its squarings, so a pair costs less in it than alone.
const millerPairs = 8

// calibrate measures the unit costs on this machine, now: each operation
// run calibrationRounds times, the fastest of three such rounds.
func calibrate() unitCosts {
	const n = calibrationRounds
	var msgs [n][32]byte
	sigs := make([]blst.P2Affine, n)
	keys := make([]blst.P1Affine, n)
	var comp [n][]byte
	scalars := make([]byte, 8*n)
	var ikm [32]byte
	rand.Read(ikm[:])
	rand.Read(scalars)
	sk := blst.KeyGen(ikm[:])
	dstTag := []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_")
	for i := range n {
		rand.Read(msgs[i][:])
		sigs[i] = *new(blst.P2Affine).Sign(sk, msgs[i][:], dstTag)
		comp[i] = sigs[i].Compress()
		keys[i] = *blst.P1Generator().Mult(scalars[8*i:8*i+8], 64).ToAffine()
	}
	data := &attestation.AttestationData{Slot: 1, Index: 0}
	var sink bool
	best := func(each int, f func()) time.Duration {
		var b time.Duration
		for r := range 3 {
			t0 := cpuTime()
			f()
			d := (cpuTime() - t0) / time.Duration(each)
			if r == 0 || d < b {
				b = d
			}
		}
		return b
	}
	var u unitCosts
	u.Decompress = best(n, func() {
		for i := range n {
			sink = new(blst.P2Affine).Uncompress(comp[i]) != nil
		}
	})
	u.Subgroup = best(n, func() {
		for i := range n {
			sink = sigs[i].InG2()
		}
	})
	u.BlindG2 = best(n, func() { sink = blst.P2Affines(sigs).Mult(scalars, 64) != nil })
	u.BlindG1 = best(n, func() { sink = blst.P1Affines(keys).Mult(scalars, 64) != nil })
	u.KeyAdd = best(n, func() {
		acc := new(blst.P1)
		for i := range n {
			acc.AddAssign(&keys[i])
		}
		sink = acc != nil
	})
	u.Miller = best(n, func() {
		for i := 0; i < n; i += millerPairs {
			sink = blst.Fp12MillerLoopN(sigs[i:i+millerPairs], keys[i:i+millerPairs]) != nil
		}
	})
	f := blst.Fp12MillerLoop(&sigs[0], &keys[0])
	u.FinalExp = best(n, func() {
		for range n {
			g := *f
			g.FinalExp()
		}
	})
	u.HashToG2 = best(n, func() {
		for i := range n {
			sink = blst.HashToG2(msgs[i][:], dstTag) != nil
		}
	})
	u.SigningRt = best(n, func() {
		for i := range n {
			data.Slot = uint64(i)
			r, _ := data.HashTreeRoot()
			var pair [64]byte // the data's root and a domain
			copy(pair[:], r[:])
			sink = sha256.Sum256(pair[:]) != [32]byte{}
		}
	})
	_ = sink
	return u
}

// floorSet is one signature set of a message, for the floor: the message
// its signature signs (the same for every set of that root) and the keys
// summed into its public key.
type floorSet struct {
	root [32]byte
	keys int
}

// floorSets are the signature sets of m: an attestation's one, over its
// AttestationData; an aggregate's three, its selection proof (over the
// slot, the same for every aggregator), the aggregator's signature (over
// its AggregateAndProof) and the aggregate's (over the AttestationData,
// with a key per attester); a payload attestation's one.
func (m *timed) floorSets() []floorSet {
	tagged := func(tag byte, r [32]byte, err error) [32]byte {
		if err != nil {
			return [32]byte{tag}
		}
		r[0] ^= tag
		return r
	}
	switch {
	case m.agg != nil && m.agg.Msg.Message != nil && m.agg.Msg.Message.Aggregate != nil:
		a := m.agg.Msg.Message
		var slot [32]byte
		if a.Aggregate.Data != nil {
			slot[0], slot[1] = byte(a.Aggregate.Data.Slot), byte(a.Aggregate.Data.Slot>>8)
		}
		d, err := a.Aggregate.Data.HashTreeRoot()
		p, perr := a.HashTreeRoot()
		return []floorSet{
			{root: tagged(1, slot, nil), keys: 1},
			{root: tagged(2, p, perr), keys: 1},
			{root: tagged(3, d, err), keys: max(1, int(a.Aggregate.AggregationBits.Count()))},
		}
	case m.agg != nil:
		return nil // a malformed aggregate: no set to verify
	case m.ptc != nil:
		r, err := m.ptc.msg.Data.HashTreeRoot()
		return []floorSet{{root: tagged(4, r, err), keys: 1}}
	}
	r, err := m.att.Data.HashTreeRoot()
	return []floorSet{{root: tagged(3, r, err), keys: 1}}
}

// floorResult is the floor of a load: the CPU of the cryptographic work
// alone, per 1,000 messages, for the batches the arrivals allow within the
// latency budget and for one batch of everything (the burst), by category.
type floorResult struct {
	BudgetMs float64 `json:"budget_ms"`
	// Batches: the windows of the budget in which a set arrives; every set
	// arriving in one window goes in one batch.
	Batches      int               `json:"batches"`
	SetsPerCall  float64           `json:"sets_per_batch"`
	RootsPerCall float64           `json:"roots_per_batch"`
	Per1000      [numCosts]float64 `json:"cpu_seconds_per_1000_by_category"`
	Total        float64           `json:"cpu_seconds_per_1000"`
	Burst        [numCosts]float64 `json:"burst_cpu_seconds_per_1000_by_category"`
	BurstTotal   float64           `json:"burst_cpu_seconds_per_1000"`
	// DefaultOver and BurstOver are the median CPU of attpool's default and
	// of its burst over the floor and over the burst's floor.
	DefaultOver float64 `json:"default_over_floor"`
	BurstOver   float64 `json:"burst_over_burst_floor"`
}

// floorCosts is the cost by category of verifying the load's sets in one
// batch per window of the budget (window 0: one batch of everything): per
// set a decompression, its blinding in G2 and in G1 (the subgroup checks
// folded into the G2 blinding, as a randomized batch check does, so none
// alone) and the additions of its key sum; per distinct root of a batch a hash to G2
// and a pair of the Miller loop; per batch the generator's pair and a
// final exponentiation; per set a signing root. The floor leaves out what
// finding invalid sets costs: it is the work of a clean load.
func floorCosts(l *latencyLoad, window time.Duration, u unitCosts) (c [numCosts]time.Duration, batches, sets, roots int) {
	type batch struct {
		roots map[[32]byte]bool
	}
	open := map[int64]*batch{}
	for i := range l.msgs {
		m := &l.msgs[i]
		w := int64(0)
		if window > 0 {
			w = int64(m.at / window)
		}
		b := open[w]
		if b == nil {
			b = &batch{roots: map[[32]byte]bool{}}
			open[w] = b
		}
		for _, s := range m.floorSets() {
			sets++
			c[costDecode] += u.Decompress
			c[costGroup] += u.BlindG2 + u.BlindG1 + time.Duration(s.keys-1)*u.KeyAdd
			c[costSSZ] += u.SigningRt
			if !b.roots[s.root] {
				b.roots[s.root] = true
				c[costHash] += u.HashToG2
				c[costMiller] += u.Miller
			}
		}
	}
	for _, b := range open {
		roots += len(b.roots)
	}
	batches = len(open)
	c[costMiller] += time.Duration(batches) * u.Miller
	c[costFinalExp] += time.Duration(batches) * u.FinalExp
	return c, batches, sets, roots
}

// floorOf is the floor of l at the latency budget, with the multiples of
// attpool's default (def) and its burst.
func floorOf(l *latencyLoad, budget time.Duration, u unitCosts, def, burst float64) floorResult {
	per := func(c [numCosts]time.Duration) (out [numCosts]float64, total float64) {
		for k, d := range c {
			out[k] = d.Seconds() * 1000 / float64(max(len(l.msgs), 1))
			total += out[k]
		}
		return out, total
	}
	c, batches, sets, roots := floorCosts(l, budget, u)
	f := floorResult{BudgetMs: ms64(budget), Batches: batches,
		SetsPerCall: float64(sets) / float64(max(batches, 1)), RootsPerCall: float64(roots) / float64(max(batches, 1))}
	f.Per1000, f.Total = per(c)
	bc, _, _, _ := floorCosts(l, 0, u)
	f.Burst, f.BurstTotal = per(bc)
	if f.Total > 0 {
		f.DefaultOver = def / f.Total
	}
	if f.BurstTotal > 0 {
		f.BurstOver = burst / f.BurstTotal
	}
	return f
}

// printFloor writes a load's CPU by category, each policy's and the burst's
// (medians of the runs, each column on its own), and the floors.
func printFloor(w io.Writer, l *loadResult) {
	f := l.Floor
	fmt.Fprintf(w, "CPU by category, s/1000 messages (of the median run by CPU; from each run's CPU profile at 100 Hz; pool+sched: the process CPU left after the others; sampled: the profile's samples over the process CPU):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "row\t")
	for _, n := range costNames {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprint(tw, "total\tx floor\tsampled\t\n")
	row := func(name string, c [numCosts]float64, total, over float64, sampled string) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, v := range c {
			fmt.Fprintf(tw, "%.4f\t", v)
		}
		fmt.Fprintf(tw, "%.4f\t%.2f\t%s\t\n", total, over, sampled)
	}
	for _, p := range append(slices.Clone(l.Policies), l.Burst) {
		c := p.Breakdown
		floor := f.Total
		if p.Policy == l.Burst.Policy {
			floor = f.BurstTotal
		}
		row(p.Policy, c, p.CPUPer1000.Median, p.CPUPer1000.Median/floor, fmt.Sprintf("%.0f%%", 100*p.Sampled.Median))
	}
	row(fmt.Sprintf("floor, %g ms batches", f.BudgetMs), f.Per1000, f.Total, 1, "-")
	row("floor, one batch", f.Burst, f.BurstTotal, 1, "-")
	tw.Flush()
	fmt.Fprintf(w, "floor: %d batches of the sets arriving in each %g ms window, %.1f sets and %.1f distinct roots a batch; attpool %.2fx the floor, its burst %.2fx the one-batch floor\n",
		f.Batches, f.BudgetMs, f.SetsPerCall, f.RootsPerCall, f.DefaultOver, f.BurstOver)
}

// medianUnits is each unit cost's median over us.
func medianUnits(us []unitCosts) unitCosts {
	med := func(f func(*unitCosts) *time.Duration) time.Duration {
		var xs []float64
		for i := range us {
			xs = append(xs, float64(*f(&us[i])))
		}
		return time.Duration(spreadOf(xs).Median)
	}
	var m unitCosts
	for _, f := range []func(*unitCosts) *time.Duration{
		func(u *unitCosts) *time.Duration { return &u.Decompress }, func(u *unitCosts) *time.Duration { return &u.Subgroup },
		func(u *unitCosts) *time.Duration { return &u.BlindG2 }, func(u *unitCosts) *time.Duration { return &u.BlindG1 },
		func(u *unitCosts) *time.Duration { return &u.KeyAdd }, func(u *unitCosts) *time.Duration { return &u.Miller },
		func(u *unitCosts) *time.Duration { return &u.FinalExp }, func(u *unitCosts) *time.Duration { return &u.HashToG2 },
		func(u *unitCosts) *time.Duration { return &u.SigningRt },
	} {
		*f(&m) = med(f)
	}
	return m
}

// line is the unit costs as the table prints them, in microseconds.
func (u unitCosts) line() string {
	us := func(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/1e3) }
	return "decompress " + us(u.Decompress) + ", subgroup " + us(u.Subgroup) + ", G2 blind " + us(u.BlindG2) + ", G1 blind " + us(u.BlindG1) +
		", key add " + us(u.KeyAdd) + ", Miller pair " + us(u.Miller) + ", final exp " + us(u.FinalExp) + ", hash to G2 " + us(u.HashToG2) + ", signing root " + us(u.SigningRt)
}

// sum is the sum of ds.
func sum(ds []time.Duration) (t time.Duration) {
	for _, d := range ds {
		t += d
	}
	return t
}
