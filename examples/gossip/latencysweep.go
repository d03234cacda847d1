package main

// The sweeps of -latency: attpool at several latency budgets (-budgets),
// drawn as its CPU against its valid p99 beside each client's point, and
// the loads at several GOMAXPROCS values (-procs), as a table. Nothing here
// measures.

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/attpool/attpool/examples/internal/benchplot"
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

// budgetPNG is the budget sweep's chart in the -report directory.
const budgetPNG = "latency-budget.png"

// hasBudgets reports whether the report holds a budget sweep.
func (r *latencyReport) hasBudgets() bool {
	return slices.ContainsFunc(r.Policies, func(p policy) bool { return strings.HasPrefix(p.Name, "attpool/") })
}

// writeBudgetChart draws one panel per load: each policy's CPU per 1,000
// messages against its valid p99 (medians), attpool's budgets as one line
// labelled with the budget, attpool's default and each client as points.
func writeBudgetChart(w io.Writer, m benchplot.Machine, r *latencyReport) error {
	title := fmt.Sprintf("attpool latency benchmark: CPU against valid attestations' p99, by latency budget, medians of %d interleaved runs\n%s, %s; arrival lognormal mean %v p95 %v after the deadline",
		r.Reps, r.Date.Format("2006-01-02 15:04 MST"), m.Where(), r.Arrival.Mean, r.Arrival.P95)
	return writePanels(w, title, r.Loads, budgetPanel)
}

// budgetPanel is one load's panel of the budget chart and its legend.
func budgetPanel(l loadResult) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%v (%s attestations, %s aggregates)", l.loadSpec, group(l.Messages-l.Aggregates), group(l.Aggregates))
	p.X.Label.Text = "valid attestations' p99, ms (log)"
	p.Y.Label.Text = "CPU s per 1,000 messages"
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.ThumbnailWidth = vg.Points(24)
	point := func(pr policyResult) plotter.XY {
		return plotter.XY{X: math.Max(pr.Valid.P99.Median, 1e-3), Y: pr.CPUPer1000.Median}
	}
	var curve plotter.XYs
	var labels []string
	var xs, ys []float64
	style := 1
	for _, pr := range l.Policies {
		q := point(pr)
		xs, ys = append(xs, q.X), append(ys, q.Y)
		switch {
		case strings.HasPrefix(pr.Policy, "attpool/"):
			curve = append(curve, q)
			labels = append(labels, strings.TrimPrefix(pr.Policy, "attpool/"))
		default:
			s := style
			if pr.Policy == "attpool" {
				s = 0
			} else {
				style++
			}
			name := pr.Policy
			if name == "attpool" {
				name = "attpool (default)"
			}
			if err := benchplot.AddSeries(p, &legend, name, plotter.XYs{q}, make(plotter.YErrors, 1), s, false); err != nil {
				return nil, legend, err
			}
		}
	}
	if len(curve) > 0 {
		if err := benchplot.AddSeries(p, &legend, "attpool by budget", curve, make(plotter.YErrors, len(curve)), 0, true); err != nil {
			return nil, legend, err
		}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: curve, Labels: labels})
		if err != nil {
			return nil, legend, err
		}
		lb.Offset = vg.Point{X: vg.Points(4), Y: vg.Points(4)}
		p.Add(lb)
	}
	benchplot.SetLogX(p, xs)
	p.Y.Min, p.Y.Max = 0, benchplot.NiceAbove(slices.Max(ys))
	return p, legend, nil
}
