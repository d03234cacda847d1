package main

// The sweeps of -latency: attpool at several latency budgets (-budgets),
// whose CPU against valid p99 beside each client's point
// examples/cmd/benchcharts draws from -report, and the loads at several
// GOMAXPROCS values (-procs), as a table. Nothing here measures.

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// parseBudgets reads -budgets: durations ("5ms", "0"), a bare number
// meaning milliseconds ("0,1,2,5").
func parseBudgets(s string) ([]time.Duration, error) {
	if s == "" {
		return nil, nil
	}
	var out []time.Duration
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		d, err := time.ParseDuration(f)
		if err != nil {
			ms, err2 := strconv.ParseFloat(f, 64)
			if err2 != nil {
				return nil, fmt.Errorf("-budgets: %q: want a duration (5ms) or milliseconds (5)", f)
			}
			d = time.Duration(ms * float64(time.Millisecond))
		}
		if d < 0 || d > time.Second {
			return nil, fmt.Errorf("-budgets: %q: want 0 to 1s", f)
		}
		if slices.Contains(out, d) {
			return nil, fmt.Errorf("-budgets: %v given twice", d)
		}
		out = append(out, d)
	}
	return out, nil
}

// parseProcs reads -procs: GOMAXPROCS values ("1,4,16").
func parseProcs(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1024 {
			return nil, fmt.Errorf("-procs: %q: want a GOMAXPROCS value (1-1024)", f)
		}
		if n == runtime.GOMAXPROCS(0) || slices.Contains(out, n) {
			return nil, fmt.Errorf("-procs: %d given twice (the process's own GOMAXPROCS is always run)", n)
		}
		out = append(out, n)
	}
	return out, nil
}

// printCoreSweep writes the core sweep's table: per load and policy, the
// valid p99 and the CPU per 1,000 messages at each GOMAXPROCS.
func (r *latencyReport) printCoreSweep(w io.Writer) {
	if len(r.CoreSweep) == 0 {
		return
	}
	sweep := append([]coreResult{{GOMAXPROCS: r.GOMAXPROCS, Loads: r.Loads}}, r.CoreSweep...)
	slices.SortFunc(sweep, func(a, b coreResult) int { return a.GOMAXPROCS - b.GOMAXPROCS })
	fmt.Fprintf(w, "\nCore sweep: valid p99 ms / CPU s per 1,000 messages (medians), by GOMAXPROCS (%d CPUs here; * more than that: the runs share them)\n", runtime.NumCPU())
	for li, l := range r.Loads {
		fmt.Fprintf(w, "\n%v\n", l.loadSpec)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "policy\t")
		for _, c := range sweep {
			mark := ""
			if c.GOMAXPROCS > runtime.NumCPU() {
				mark = "*"
			}
			fmt.Fprintf(tw, "GOMAXPROCS %d%s\t", c.GOMAXPROCS, mark)
		}
		fmt.Fprintln(tw)
		for pi, p := range l.Policies {
			fmt.Fprintf(tw, "%s\t", p.Policy)
			for _, c := range sweep {
				q := c.Loads[li].Policies[pi]
				fmt.Fprintf(tw, "%s / %.3f\t", q.Valid.P99.cell(), q.CPUPer1000.Median)
			}
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "%s\t", l.Burst.Policy)
		for _, c := range sweep {
			fmt.Fprintf(tw, "- / %.3f\t", c.Loads[li].Burst.CPUPer1000.Median)
		}
		fmt.Fprintln(tw)
		tw.Flush()
	}
}
