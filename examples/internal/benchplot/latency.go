package benchplot

// The charts of examples/gossip -latency -report: the valid messages'
// latency percentiles, one panel per load (LatencyPNG), and with a budget
// sweep each policy's CPU against its valid p99 (BudgetPNG). They read
// LatencyJSON, the report as -json prints it.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/attpool/attpool/examples/internal/benchreport"
)

// File names in a -report directory of examples/gossip -latency.
const (
	LatencyJSON = "latency.json"
	LatencyPNG  = "latency.png"
	BudgetPNG   = "latency-budget.png"
)

// LatencyReport is what the charts read of the latency benchmark's report
// (examples/gossip, latencyreport.go); its other fields are left out.
type LatencyReport struct {
	Date    time.Time `json:"date"`
	Reps    int       `json:"reps"`
	Arrival struct {
		Mean time.Duration `json:"mean_ns"`
		P95  time.Duration `json:"p95_ns"`
	} `json:"arrival_attestation"`
	Loads []LatencyLoad `json:"loads"`
}

// LatencyLoad is one load of a LatencyReport.
type LatencyLoad struct {
	Subnets    int             `json:"subnets"`
	Invalid    float64         `json:"invalid"`
	Messages   int             `json:"messages"`
	Aggregates int             `json:"aggregates"`
	Policies   []LatencyPolicy `json:"policies"`
}

// LatencyPolicy is one policy's figures on a load.
type LatencyPolicy struct {
	Policy string `json:"policy"`
	Valid  struct {
		P50 Spread `json:"p50_ms"`
		P90 Spread `json:"p90_ms"`
		P99 Spread `json:"p99_ms"`
		Max Spread `json:"max_ms"`
	} `json:"valid"`
	CPUPer1000 Spread `json:"cpu_seconds_per_1000"`
}

// Spread is a figure's median and range over the runs.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// title names a load in its panel.
func (l LatencyLoad) title() string {
	return fmt.Sprintf("%d subnets, %g%% invalid (%s attestations, %s aggregates)",
		l.Subnets, 100*l.Invalid, benchreport.Group(l.Messages-l.Aggregates), benchreport.Group(l.Aggregates))
}

// hasBudgets reports whether the report holds a budget sweep.
func (r *LatencyReport) hasBudgets() bool {
	return slices.ContainsFunc(r.Loads, func(l LatencyLoad) bool {
		return slices.ContainsFunc(l.Policies, func(p LatencyPolicy) bool { return strings.HasPrefix(p.Policy, "attpool/") })
	})
}

// LatencyCharts draws f's charts: LatencyPNG with write(LatencyPNG, ...),
// and BudgetPNG when the report holds a budget sweep.
func LatencyCharts(f benchreport.File[LatencyReport], write func(name string, draw func(io.Writer) error) error) error {
	m, r := f.Machine, &f.Report
	err := write(LatencyPNG, func(w io.Writer) error { return writeLatencyChart(w, m, r) })
	if err == nil && r.hasBudgets() {
		err = write(BudgetPNG, func(w io.Writer) error { return writeBudgetChart(w, m, r) })
	}
	return err
}

// percentileTicks names the x positions of a panel.
var percentileTicks = plot.ConstantTicks{{Value: 1, Label: "p50"}, {Value: 2, Label: "p90"}, {Value: 3, Label: "p99"}, {Value: 4, Label: "max"}}

// Size of the chart in pixels (at latencyDPI): panelsPerRow panels a row,
// each row panelHeightPx high, below a title of titleHeightPx.
const (
	latencyWidthPx = 1500
	panelHeightPx  = 380
	titleHeightPx  = 60
	latencyDPI     = 96
	panelsPerRow   = 3
)

// writeLatencyChart draws one panel per load: the valid messages' latency
// at p50, p90, p99 and max for every policy, medians with the range of the
// runs as error bars, on a log axis; the legend takes the last tile.
func writeLatencyChart(w io.Writer, m benchreport.Machine, r *LatencyReport) error {
	title := fmt.Sprintf("attpool latency benchmark: verdict latency of valid attestations, medians of %d interleaved runs (bars: min-max)\n%s, %s; arrival lognormal mean %v p95 %v after the deadline",
		r.Reps, r.Date.Format("2006-01-02 15:04 MST"), m.Where(), r.Arrival.Mean, r.Arrival.P95)
	return writePanels(w, title, r.Loads, latencyPanel)
}

// writePanels draws one panel per load with panel, panelsPerRow a row
// below the title, and the first panel's legend beside them.
func writePanels(w io.Writer, title string, loads []LatencyLoad, panel func(LatencyLoad) (*plot.Plot, plot.Legend, error)) error {
	if len(loads) == 0 {
		return errors.New("no loads to chart")
	}
	var panels []*plot.Plot
	var legend plot.Legend
	for i, l := range loads {
		p, lg, err := panel(l)
		if err != nil {
			return err
		}
		if i == 0 {
			legend = lg
		}
		panels = append(panels, p)
	}
	cols := min(panelsPerRow, len(panels))
	rows := (len(panels) + cols - 1) / cols
	return WritePNG(w, latencyWidthPx, titleHeightPx+rows*panelHeightPx, latencyDPI, func(dc draw.Canvas) {
		ts := plot.New().Title.TextStyle
		ts.XAlign, ts.YAlign = draw.XCenter, draw.YTop
		dc.FillText(ts, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - vg.Points(4)}, title)
		legend.Top, legend.Left = true, true
		legend.Padding = vg.Points(4)
		lr := legend.Rectangle(dc)
		legendWidth := lr.Max.X - lr.Min.X + vg.Points(24)
		body := draw.Crop(dc, 0, -legendWidth, 0, -ts.Height(title)-vg.Points(12))
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(12), PadY: vg.Points(12),
			PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
		for i, p := range panels {
			p.Draw(tiles.At(body, i%cols, i/cols))
		}
		legend.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-legendWidth+vg.Points(12), 0, 0, -ts.Height(title)-vg.Points(40)))
	})
}

// latencyPanel is one load's panel and its legend.
func latencyPanel(l LatencyLoad) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	p.Title.Text = l.title()
	p.Y.Label.Text = "ms, submission to verdict (log)"
	p.X.Min, p.X.Max = 0.7, 4.3
	p.X.Tick.Marker = percentileTicks
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.ThumbnailWidth = vg.Points(24)
	var ys []float64
	for style, pr := range l.Policies {
		s := []Spread{pr.Valid.P50, pr.Valid.P90, pr.Valid.P99, pr.Valid.Max}
		pts := make(plotter.XYs, len(s))
		errs := make(plotter.YErrors, len(s))
		for i, x := range s {
			// A log axis cannot show 0: below a microsecond is drawn at one.
			med, lo, hi := math.Max(x.Median, 1e-3), math.Max(x.Min, 1e-3), math.Max(x.Max, 1e-3)
			pts[i] = plotter.XY{X: float64(i + 1), Y: med}
			errs[i].Low, errs[i].High = med-math.Min(lo, med), math.Max(hi, med)-med
		}
		if err := AddSeries(p, &legend, pr.Policy, pts, errs, style, false); err != nil {
			return nil, legend, err
		}
		_, ys = Extent(nil, ys, pts, errs)
	}
	SetLogY(p, ys)
	return p, legend, nil
}

// writeBudgetChart draws one panel per load: each policy's CPU per 1,000
// messages against its valid p99 (medians), attpool's budgets as one line
// labelled with the budget, attpool's default and each client as points.
func writeBudgetChart(w io.Writer, m benchreport.Machine, r *LatencyReport) error {
	title := fmt.Sprintf("attpool latency benchmark: CPU against valid attestations' p99, by latency budget, medians of %d interleaved runs\n%s, %s; arrival lognormal mean %v p95 %v after the deadline",
		r.Reps, r.Date.Format("2006-01-02 15:04 MST"), m.Where(), r.Arrival.Mean, r.Arrival.P95)
	return writePanels(w, title, r.Loads, budgetPanel)
}

// budgetPanel is one load's panel of the budget chart and its legend.
func budgetPanel(l LatencyLoad) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	p.Title.Text = l.title()
	p.X.Label.Text = "valid attestations' p99, ms (log)"
	p.Y.Label.Text = "CPU s per 1,000 messages"
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.ThumbnailWidth = vg.Points(24)
	point := func(pr LatencyPolicy) plotter.XY {
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
			if err := AddSeries(p, &legend, name, plotter.XYs{q}, make(plotter.YErrors, 1), s, false); err != nil {
				return nil, legend, err
			}
		}
	}
	if len(curve) > 0 {
		if err := AddSeries(p, &legend, "attpool by budget", curve, make(plotter.YErrors, len(curve)), 0, true); err != nil {
			return nil, legend, err
		}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: curve, Labels: labels})
		if err != nil {
			return nil, legend, err
		}
		lb.Offset = vg.Point{X: vg.Points(4), Y: vg.Points(4)}
		p.Add(lb)
	}
	SetLogX(p, xs)
	p.Y.Min, p.Y.Max = 0, NiceAbove(slices.Max(ys))
	return p, legend, nil
}
