// Command verifybench measures attpool's batch verifier beside the methods
// other Ethereum clients use, in one process, and prints medians of several
// runs in microseconds per signature.
//
//	go run ./examples/verifybench [-runs 5] [-sizes 16,64,256,1024,4096] [-quick] [-report DIR]
//
// Methods: (a) each signature alone; (b) the distinct-message batch of Prysm
// and Lighthouse; (c) the same-root method of Lodestar and Nimbus; (d)
// attpool at 64 and 128 bits; and the floor, parallel decompression alone.
// The hash-to-G2 cache of attpool is disabled so that every method hashes its
// roots on every call.
//
// The methods of a row are interleaved: each repetition runs every method
// once (the first rotating), so that noise from the rest of the machine lands
// on all of them rather than on one method's runs. Every cell is the median
// of -runs repetitions and the table below it gives their range (min-max);
// the ratios of the last columns are taken within each repetition.
//
// With -report DIR it also writes DIR/verifybench.csv, every measurement with
// its range, the date and the machine, and DIR/verifybench.png, a chart of the
// same-root table with the ranges as error bars and a panel of the (c)/(d)
// ratios (report.go).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/examples/internal/benchreport"
	"github.com/attpool/attpool/examples/internal/cli"
	"github.com/attpool/attpool/examples/internal/interop"
	"github.com/attpool/attpool/verifier"
	"github.com/attpool/attpool/verifier/baseline"
)

// options are the program's flags.
type options struct {
	runs, alone int
	sizes       []int
	quick       bool
	reportDir   string
}

// maxSize bounds -sizes, so that a mistyped size does not set the program
// deriving and signing with millions of keys before its first table.
const maxSize = 1 << 16

// parseFlags parses the program's flags from args into fs and checks them.
func parseFlags(fs *flag.FlagSet, args []string) (options, error) {
	var o options
	f := cli.NewFlags(fs)
	cli.Floor(f, &o.runs, "runs", 5, 1, "runs per measurement (the median is printed)")
	sizesFlag := fs.String("sizes", "16,64,256,512,1024,4096", "same-root group sizes (1 to 65536)")
	cli.Floor(f, &o.alone, "alone", 256, 1, "method (a) is timed on at most this many sets per size (its cost per signature does not depend on n)")
	fs.BoolVar(&o.quick, "quick", false, "skip the mixed, bisection and subgroup tables")
	fs.StringVar(&o.reportDir, "report", "", "also write every measurement to `DIR`/verifybench.csv and a chart of the same-root table to DIR/verifybench.png")
	if err := f.Parse(args); err != nil {
		return o, err
	}
	for _, size := range strings.Split(*sizesFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(size))
		if err != nil {
			return o, fmt.Errorf("-sizes: %q is not a number", size)
		}
		if err := cli.Range("sizes", n, 1, maxSize); err != nil {
			return o, err
		}
		o.sizes = append(o.sizes, n)
	}
	return o, nil
}

func main() {
	o, err := parseFlags(flag.CommandLine, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "verifybench:", err)
		os.Exit(2)
	}
	if o.reportDir != "" {
		if err := prepareReport(o.reportDir); err != nil {
			fmt.Fprintln(os.Stderr, "verifybench:", err)
			os.Exit(1)
		}
	}
	started := time.Now()
	b := &bench{runs: o.runs}
	if err := b.setup(slices.Max(o.sizes)); err != nil {
		fmt.Fprintln(os.Stderr, "verifybench:", err)
		os.Exit(1)
	}
	defer b.close()
	fmt.Printf("attpool verifybench: GOMAXPROCS=%d, %s/%s, medians of %d interleaved runs (spread: min-max), µs per signature\n\n",
		runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, o.runs)
	b.sameRootTable(o.sizes, o.alone)
	if !o.quick {
		b.mixedTable(o.alone)
		b.bisectionTable()
		b.subgroupTable()
	}
	if o.reportDir != "" {
		if err := writeReport(o.reportDir, benchreport.ThisMachine(started), b.results); err != nil {
			fmt.Fprintln(os.Stderr, "verifybench: report:", err)
			b.close()
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "verifybench: wrote %s and %s\n",
			filepath.Join(o.reportDir, csvName), filepath.Join(o.reportDir, pngName))
	}
}

type bench struct {
	runs      int
	sks       []*crypto.SecretKey
	pks       []*crypto.PublicKey
	v64, v128 *verifier.Verifier
	results   []measurement // every median printed, for -report
}

// record keeps a measurement for the report, with its runs' median and
// range.
func (b *bench) record(m measurement, s stat) {
	m.Runs = b.runs
	m.Value, m.Min, m.Max = s.median, s.min, s.max
	b.results = append(b.results, m)
}

// recordRow keeps the six measurements of a row of a same-root or mixed
// table and its two c/d ratios.
func (b *bench) recordRow(table string, r row) {
	for _, x := range []struct {
		method string
		v      stat
		unit   string
	}{{"a-alone", r.a, unitUsPerSig}, {"b-distinct", r.bb, unitUsPerSig}, {"c-same-root", r.c, unitUsPerSig},
		{"d-attpool-64", r.d64, unitUsPerSig}, {"d-attpool-128", r.d128, unitUsPerSig}, {"floor", r.floor, unitUsPerSig},
		{ratioC64, r.cd64, unitRatio}, {ratioC128, r.cd128, unitRatio}} {
		b.record(measurement{Table: table, Method: x.method, N: r.n, Unit: x.unit}, x.v)
	}
}

func (b *bench) close() { b.v64.Close(); b.v128.Close() }

func (b *bench) setup(n int) error {
	n = max(n, 4352)
	var err error
	if b.sks, err = interop.SecretKeys(n); err != nil {
		return err
	}
	b.pks = make([]*crypto.PublicKey, n)
	for i, sk := range b.sks {
		b.pks[i] = sk.PublicKey()
	}
	if b.v64, err = verifier.New(verifier.Config{SecurityBits: 64, HashCacheSize: -1}); err != nil {
		return err
	}
	b.v128, err = verifier.New(verifier.Config{SecurityBits: 128, HashCacheSize: -1})
	return err
}

// sign returns n sets over root by keys first..first+n-1.
func (b *bench) sign(root [32]byte, first, n int) []verifier.Set {
	sets := make([]verifier.Set, n)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range sets {
		g.Go(func() error {
			k := (first + i) % len(b.sks)
			sets[i] = verifier.Set{Root: root, PublicKey: b.pks[k], Signature: crypto.Sign(b.sks[k], root[:]).Bytes()}
			return nil
		})
	}
	_ = g.Wait() // the signings return no error
	return sets
}

func rootOf(label string, i int) [32]byte {
	var r [32]byte
	copy(r[:], fmt.Sprintf("%s-%d", label, i))
	return r
}

// interleave times every f over b.runs repetitions and returns, per f, the
// time per call of each repetition. Each repetition runs every f once, the
// first one rotating from repetition to repetition, so that a burst of noise
// from the rest of the machine lands on all the methods of a row, not on one
// method's runs. Every f is warmed up once and repeated within a repetition so
// that each of its runs lasts at least minRun: a run's time is its average
// per call.
func (b *bench) interleave(fs ...func()) [][]time.Duration {
	const minRun = 30 * time.Millisecond
	reps := make([]int, len(fs))
	for i, f := range fs {
		start := time.Now()
		f()
		reps[i] = 1
		if t := time.Since(start); t < minRun {
			reps[i] = int(minRun/max(t, time.Microsecond)) + 1
		}
	}
	d := make([][]time.Duration, len(fs))
	for i := range d {
		d[i] = make([]time.Duration, b.runs)
	}
	for r := range b.runs {
		for k := range fs {
			i := (r + k) % len(fs)
			start := time.Now()
			for range reps[i] {
				fs[i]()
			}
			d[i][r] = time.Since(start) / time.Duration(reps[i])
		}
	}
	return d
}

// stat is the median of a measurement's runs and their range.
type stat struct{ median, min, max float64 }

func statOf(xs []float64) stat {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return stat{median: xs[len(xs)/2], min: xs[0], max: xs[len(xs)-1]}
}

// perSig is each run's microseconds per signature for calls of n sets.
func perSig(d []time.Duration, n int) []float64 {
	out := make([]float64, len(d))
	for i, x := range d {
		out[i] = float64(x.Nanoseconds()) / 1000 / float64(n)
	}
	return out
}

// msPerCall is each run's milliseconds per call.
func msPerCall(d []time.Duration) []float64 { return perSig(d, 1000) }

// ratios is each run's a[i]/b[i]: both measured in the same repetition.
func ratios(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] / b[i]
	}
	return out
}

// spread formats a stat's range: "24.9-26.8".
func (s stat) spread(prec int) string {
	return strconv.FormatFloat(s.min, 'f', prec, 64) + "-" + strconv.FormatFloat(s.max, 'f', prec, 64)
}

func mustAll(name string, ok []bool) {
	for i, v := range ok {
		if !v {
			fmt.Fprintf(os.Stderr, "verifybench: %s rejected valid set %d\n", name, i)
			os.Exit(1)
		}
	}
}

func must(name string, ok bool) {
	if !ok {
		fmt.Fprintf(os.Stderr, "verifybench: %s rejected a valid batch\n", name)
		os.Exit(1)
	}
}

// row is one line of a same-root or mixed table: each method's
// microseconds per signature and the ratios of the last columns, each ratio
// taken within a repetition.
type row struct {
	label                      string
	n                          int
	a, bb, c, d64, d128, floor stat
	cd64, cd128, d64floor      stat
}

func (b *bench) measure(label string, sets []verifier.Set, aloneMax int) row {
	n := len(sets)
	alone := sets[:min(n, aloneMax)]
	d := b.interleave(
		func() { mustAll("(a)", baseline.Individual(alone)) },
		func() { must("(b)", baseline.DistinctMessages(sets)) },
		func() { must("(c)", baseline.SameRoot(sets)) },
		func() { mustAll("(d64)", b.v64.Verify(sets)) },
		func() { mustAll("(d128)", b.v128.Verify(sets)) },
		func() {
			if baseline.Decompress(sets) != n {
				must("floor", false)
			}
		},
	)
	a, bb, c, d64, d128, floor := perSig(d[0], len(alone)), perSig(d[1], n), perSig(d[2], n),
		perSig(d[3], n), perSig(d[4], n), perSig(d[5], n)
	return row{
		label: label, n: n,
		a: statOf(a), bb: statOf(bb), c: statOf(c), d64: statOf(d64), d128: statOf(d128), floor: statOf(floor),
		cd64: statOf(ratios(c, d64)), cd128: statOf(ratios(c, d128)), d64floor: statOf(ratios(d64, floor)),
	}
}

// printRows prints the medians, then the range of the runs of every cell.
func printRows(rows []row) {
	header := func() {
		fmt.Printf("%-10s %6s %9s %9s %9s %9s %9s %9s | %8s %8s %9s\n",
			"call", "n", "(a)alone", "(b)prysm", "(c)lodes", "(d)64bit", "(d)128bit", "floor",
			"c/d64", "c/d128", "d64/floor")
	}
	header()
	for _, r := range rows {
		fmt.Printf("%-10s %6d %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f | %7.2fx %7.2fx %8.2fx\n",
			r.label, r.n, r.a.median, r.bb.median, r.c.median, r.d64.median, r.d128.median, r.floor.median,
			r.cd64.median, r.cd128.median, r.d64floor.median)
	}
	fmt.Println("spread (min-max over the runs):")
	for _, r := range rows {
		fmt.Printf("%-10s %6d %9s %9s %9s %9s %9s %9s | %8s %8s %9s\n",
			r.label, r.n, r.a.spread(0), r.bb.spread(0), r.c.spread(0), r.d64.spread(0), r.d128.spread(0), r.floor.spread(0),
			r.cd64.spread(2), r.cd128.spread(2), r.d64floor.spread(2))
	}
	fmt.Println()
}

func (b *bench) sameRootTable(sizes []int, aloneMax int) {
	fmt.Println("Same-root groups (one signing root, n signatures):")
	all := b.sign(rootOf("same", 0), 0, slices.Max(sizes))
	var rows []row
	for _, n := range sizes {
		rows = append(rows, b.measure("same-root", all[:n], aloneMax))
		b.recordRow(tableSameRoot, rows[len(rows)-1])
	}
	printRows(rows)
}

func (b *bench) mixedTable(aloneMax int) {
	fmt.Println("Mixed call (64 roots x 64 signatures + 256 single-signature roots):")
	var sets []verifier.Set
	for g := range 64 {
		sets = append(sets, b.sign(rootOf("mixed", g), g*64, 64)...)
	}
	for s := range 256 {
		sets = append(sets, b.sign(rootOf("single", s), 4096+s, 1)...)
	}
	r := b.measure("mixed", sets, aloneMax)
	b.recordRow(tableMixed, r)
	printRows([]row{r})
}

func (b *bench) bisectionTable() {
	fmt.Println("Bisection: cost of a call with b invalid signatures relative to the all-valid call (attpool, 64-bit):")
	fmt.Printf("%6s %6s %12s %12s %10s %12s\n", "n", "b", "ms/call", "spread", "relative", "spread")
	for _, n := range []int{512, 4096} {
		valid := b.sign(rootOf("bisect", n), 0, n)
		bads := []int{0, 1, 8, 64}
		fs := make([]func(), len(bads))
		for j, bad := range bads {
			sets := slices.Clone(valid)
			for k := range bad {
				i := (k*7919 + 13) % n
				sets[i].Signature = valid[(i+1)%n].Signature // another key's signature
			}
			fs[j] = func() { b.checkVerdicts(sets, valid, bad) }
		}
		d := b.interleave(fs...)
		base := msPerCall(d[0])
		for j, bad := range bads {
			t := msPerCall(d[j])
			s, rel := statOf(t), statOf(ratios(t, base))
			b.record(measurement{Table: tableBisection, Method: "d-attpool-64", N: n, B: bad, Unit: unitMsPerCall}, s)
			fmt.Printf("%6d %6d %12.1f %12s %9.2fx %12s\n", n, bad, s.median, s.spread(1), rel.median, rel.spread(2))
		}
	}
	fmt.Println()
}

// checkVerdicts verifies sets, of which bad differ from valid, and exits on
// any verdict other than checking each set alone would give.
func (b *bench) checkVerdicts(sets, valid []verifier.Set, bad int) {
	got := b.v64.Verify(sets)
	wrong := 0
	for i := range got {
		if got[i] != (sets[i].Signature == valid[i].Signature) {
			wrong++
		}
	}
	if wrong > 0 {
		fmt.Fprintf(os.Stderr, "verifybench: %d wrong verdicts with %d invalid in %d\n", wrong, bad, len(sets))
		os.Exit(1)
	}
}

func (b *bench) subgroupTable() {
	fmt.Println("Subgroup check alone: attpool's batch check (64 and 128 bits) against per-point checks (parallel), µs per point:")
	fmt.Printf("%6s %10s %10s %10s %10s %10s   %s\n", "k", "per-point", "batch64", "batch128", "speedup64", "speedup128", "spread of per-point, batch64, batch128")
	sets := b.sign(rootOf("subgroup", 0), 0, 4096)
	for _, k := range []int{256, 1024, 4096} {
		pts := make([]*crypto.Signature, k)
		for i := range pts {
			s, err := crypto.SignatureFromBytes(sets[i].Signature[:])
			if err != nil {
				must("decode", false)
			}
			pts[i] = s
		}
		d := b.interleave(
			func() { must("per-point", baseline.PerPointInG2(pts)) },
			func() { must("batch64", baseline.BatchInG2(pts, 64)) },
			func() { must("batch128", baseline.BatchInG2(pts, 128)) },
		)
		per, b64, b128 := perSig(d[0], k), perSig(d[1], k), perSig(d[2], k)
		sp, s64, s128 := statOf(per), statOf(b64), statOf(b128)
		for _, x := range []struct {
			method string
			v      stat
		}{{"per-point", sp}, {"batch-64", s64}, {"batch-128", s128}} {
			b.record(measurement{Table: tableSubgroup, Method: x.method, K: k, Unit: unitUsPerPoint}, x.v)
		}
		fmt.Printf("%6d %10.2f %10.2f %10.2f %9.2fx %9.2fx   %s, %s, %s\n", k, sp.median, s64.median, s128.median,
			statOf(ratios(per, b64)).median, statOf(ratios(per, b128)).median, sp.spread(1), s64.spread(1), s128.spread(1))
	}
	fmt.Println()
}
