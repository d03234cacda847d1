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
// With -report DIR it also writes DIR/verifybench.csv, every measurement with
// the date and the machine, and DIR/verifybench.png, a chart of the
// same-root table (report.go).
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
	"sync"
	"time"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
	"github.com/attpool/attpool/verifier/baseline"
)

func main() {
	runs := flag.Int("runs", 5, "runs per measurement (the median is printed)")
	sizesFlag := flag.String("sizes", "16,64,256,512,1024,4096", "same-root group sizes")
	aliveMax := flag.Int("alone", 256, "method (a) is timed on at most this many sets per size (its cost per signature does not depend on n)")
	quick := flag.Bool("quick", false, "skip the mixed, bisection and subgroup tables")
	reportDir := flag.String("report", "", "also write every measurement to `DIR`/verifybench.csv and a chart of the same-root table to DIR/verifybench.png")
	flag.Parse()
	var sizes []int
	for _, f := range strings.Split(*sizesFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "verifybench: bad size %q\n", f)
			os.Exit(2)
		}
		sizes = append(sizes, n)
	}
	if *reportDir != "" {
		if err := prepareReport(*reportDir); err != nil {
			fmt.Fprintln(os.Stderr, "verifybench:", err)
			os.Exit(1)
		}
	}
	started := time.Now()
	b := &bench{runs: *runs}
	if err := b.setup(slices.Max(sizes)); err != nil {
		fmt.Fprintln(os.Stderr, "verifybench:", err)
		os.Exit(1)
	}
	defer b.close()
	fmt.Printf("attpool verifybench: GOMAXPROCS=%d, %s/%s, medians of %d runs, µs per signature\n\n",
		runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, *runs)
	b.sameRootTable(sizes, *aliveMax)
	if !*quick {
		b.mixedTable(*aliveMax)
		b.bisectionTable()
		b.subgroupTable()
	}
	if *reportDir != "" {
		if err := writeReport(*reportDir, thisMachine(started), b.results); err != nil {
			fmt.Fprintln(os.Stderr, "verifybench: report:", err)
			b.close()
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "verifybench: wrote %s and %s\n",
			filepath.Join(*reportDir, csvName), filepath.Join(*reportDir, pngName))
	}
}

type bench struct {
	runs      int
	sks       []*crypto.SecretKey
	pks       []*crypto.PublicKey
	v64, v128 *verifier.Verifier
	results   []measurement // every median printed, for -report
}

// record keeps a measurement for the report.
func (b *bench) record(m measurement) {
	m.Runs = b.runs
	b.results = append(b.results, m)
}

// recordRow keeps the six measurements of a row of a same-root or mixed table.
func (b *bench) recordRow(table string, r row) {
	for _, x := range []struct {
		method string
		v      float64
	}{{"a-alone", r.a}, {"b-distinct", r.bb}, {"c-same-root", r.c},
		{"d-attpool-64", r.d64}, {"d-attpool-128", r.d128}, {"floor", r.floor}} {
		b.record(measurement{Table: table, Method: x.method, N: r.n, Value: x.v, Unit: unitUsPerSig})
	}
}

func (b *bench) close() { b.v64.Close(); b.v128.Close() }

func (b *bench) setup(n int) error {
	n = max(n, 4352)
	b.sks = make([]*crypto.SecretKey, n)
	b.pks = make([]*crypto.PublicKey, n)
	var firstErr error
	var mu sync.Mutex
	parallel(n, func(i int) {
		sk, err := crypto.InteropSecretKey(uint64(i))
		if err != nil {
			mu.Lock()
			firstErr = err
			mu.Unlock()
			return
		}
		b.sks[i], b.pks[i] = sk, sk.PublicKey()
	})
	if firstErr != nil {
		return firstErr
	}
	var err error
	if b.v64, err = verifier.New(verifier.Config{SecurityBits: 64, HashCacheSize: -1}); err != nil {
		return err
	}
	b.v128, err = verifier.New(verifier.Config{SecurityBits: 128, HashCacheSize: -1})
	return err
}

func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	w := runtime.GOMAXPROCS(0)
	for g := range w {
		wg.Go(func() {
			for i := g; i < n; i += w {
				f(i)
			}
		})
	}
	wg.Wait()
}

// sign returns n sets over root by keys first..first+n-1.
func (b *bench) sign(root [32]byte, first, n int) []verifier.Set {
	sets := make([]verifier.Set, n)
	parallel(n, func(i int) {
		k := (first + i) % len(b.sks)
		sets[i] = verifier.Set{Root: root, PublicKey: b.pks[k], Signature: crypto.Sign(b.sks[k], root[:]).Bytes()}
	})
	return sets
}

func rootOf(label string, i int) [32]byte {
	var r [32]byte
	copy(r[:], fmt.Sprintf("%s-%d", label, i))
	return r
}

// median times f over b.runs runs (after one warm-up) and returns the median
// wall time per call.
func (b *bench) median(f func()) time.Duration {
	// Warm up, and repeat short calls within a run so that every run lasts
	// at least minRun: a run's time is its average per call.
	const minRun = 30 * time.Millisecond
	start := time.Now()
	f()
	reps := 1
	if t := time.Since(start); t < minRun {
		reps = int(minRun/max(t, time.Microsecond)) + 1
	}
	d := make([]time.Duration, b.runs)
	for i := range d {
		start := time.Now()
		for range reps {
			f()
		}
		d[i] = time.Since(start) / time.Duration(reps)
	}
	slices.Sort(d)
	return d[len(d)/2]
}

func us(d time.Duration, n int) float64 { return float64(d.Microseconds()) / float64(n) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

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

type row struct {
	label                      string
	n                          int
	a, bb, c, d64, d128, floor float64
}

func (b *bench) measure(label string, sets []verifier.Set, aloneMax int) row {
	n := len(sets)
	alone := sets[:min(n, aloneMax)]
	r := row{label: label, n: n}
	r.a = us(b.median(func() { mustAll("(a)", baseline.Individual(alone)) }), len(alone))
	r.bb = us(b.median(func() { must("(b)", baseline.DistinctMessages(sets)) }), n)
	r.c = us(b.median(func() { must("(c)", baseline.SameRoot(sets)) }), n)
	r.d64 = us(b.median(func() { mustAll("(d64)", b.v64.Verify(sets)) }), n)
	r.d128 = us(b.median(func() { mustAll("(d128)", b.v128.Verify(sets)) }), n)
	r.floor = us(b.median(func() {
		if baseline.Decompress(sets) != n {
			must("floor", false)
		}
	}), n)
	return r
}

func printRows(rows []row) {
	fmt.Printf("%-10s %6s %9s %9s %9s %9s %9s %9s | %8s %8s %9s\n",
		"call", "n", "(a)alone", "(b)prysm", "(c)lodes", "(d)64bit", "(d)128bit", "floor",
		"c/d64", "c/d128", "d64/floor")
	for _, r := range rows {
		fmt.Printf("%-10s %6d %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f | %7.2fx %7.2fx %8.2fx\n",
			r.label, r.n, r.a, r.bb, r.c, r.d64, r.d128, r.floor, r.c/r.d64, r.c/r.d128, r.d64/r.floor)
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
	fmt.Printf("%6s %6s %12s %10s\n", "n", "b", "ms/call", "relative")
	for _, n := range []int{512, 4096} {
		valid := b.sign(rootOf("bisect", n), 0, n)
		base := b.median(func() { mustAll("(d64)", b.v64.Verify(valid)) })
		b.record(measurement{Table: tableBisection, Method: "d-attpool-64", N: n, Value: ms(base), Unit: unitMsPerCall})
		fmt.Printf("%6d %6d %12.1f %9.2fx\n", n, 0, float64(base.Microseconds())/1000, 1.0)
		for _, bad := range []int{1, 8, 64} {
			sets := slices.Clone(valid)
			for k := range bad {
				i := (k*7919 + 13) % n
				sets[i].Signature = valid[(i+1)%n].Signature // another key's signature
			}
			var got []bool
			d := b.median(func() { got = b.v64.Verify(sets) })
			wrong := 0
			for i := range got {
				exp := sets[i].Signature == valid[i].Signature
				if got[i] != exp {
					wrong++
				}
			}
			if wrong > 0 {
				fmt.Fprintf(os.Stderr, "verifybench: %d wrong verdicts with %d invalid in %d\n", wrong, bad, n)
				os.Exit(1)
			}
			b.record(measurement{Table: tableBisection, Method: "d-attpool-64", N: n, B: bad, Value: ms(d), Unit: unitMsPerCall})
			fmt.Printf("%6d %6d %12.1f %9.2fx\n", n, bad, float64(d.Microseconds())/1000, float64(d)/float64(base))
		}
	}
	fmt.Println()
}

func (b *bench) subgroupTable() {
	fmt.Println("Subgroup check alone: attpool's batch check (64 and 128 bits) against per-point checks (parallel), µs per point:")
	fmt.Printf("%6s %10s %10s %10s %10s %10s\n", "k", "per-point", "batch64", "batch128", "speedup64", "speedup128")
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
		per := us(b.median(func() { must("per-point", baseline.PerPointInG2(pts)) }), k)
		b64 := us(b.median(func() { must("batch64", b.v64.BatchInG2(pts)) }), k)
		b128 := us(b.median(func() { must("batch128", b.v128.BatchInG2(pts)) }), k)
		for _, x := range []struct {
			method string
			v      float64
		}{{"per-point", per}, {"batch-64", b64}, {"batch-128", b128}} {
			b.record(measurement{Table: tableSubgroup, Method: x.method, K: k, Value: x.v, Unit: unitUsPerPoint})
		}
		fmt.Printf("%6d %10.2f %10.2f %10.2f %9.2fx %9.2fx\n", k, per, b64, b128, per/b64, per/b128)
	}
	fmt.Println()
}
