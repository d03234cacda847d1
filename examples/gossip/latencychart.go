package main

// The chart of the -report output of -latency: the valid messages' latency
// percentiles, one panel per load. Nothing here measures.

import (
	"errors"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/attpool/attpool/examples/internal/benchplot"
)

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
func writeLatencyChart(w io.Writer, m benchplot.Machine, r *latencyReport) error {
	title := fmt.Sprintf("attpool latency benchmark: verdict latency of valid attestations, medians of %d interleaved runs (bars: min-max)\n%s, %s; arrival lognormal mean %v p95 %v after the deadline",
		r.Reps, r.Date.Format("2006-01-02 15:04 MST"), m.Where(), r.Arrival.Mean, r.Arrival.P95)
	return writePanels(w, title, r.Loads, latencyPanel)
}

// writePanels draws one panel per load with panel, panelsPerRow a row
// below the title, and the first panel's legend beside them.
func writePanels(w io.Writer, title string, loads []loadResult, panel func(loadResult) (*plot.Plot, plot.Legend, error)) error {
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
	return benchplot.WritePNG(w, latencyWidthPx, titleHeightPx+rows*panelHeightPx, latencyDPI, func(dc draw.Canvas) {
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
func latencyPanel(l loadResult) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%v (%s attestations, %s aggregates)", l.loadSpec, group(l.Messages-l.Aggregates), group(l.Aggregates))
	p.Y.Label.Text = "ms, submission to verdict (log)"
	p.X.Min, p.X.Max = 0.7, 4.3
	p.X.Tick.Marker = percentileTicks
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.ThumbnailWidth = vg.Points(24)
	var ys []float64
	for style, pr := range l.Policies {
		s := []spread{pr.Valid.P50, pr.Valid.P90, pr.Valid.P99, pr.Valid.Max}
		pts := make(plotter.XYs, len(s))
		errs := make(plotter.YErrors, len(s))
		for i, x := range s {
			// A log axis cannot show 0: below a microsecond is drawn at one.
			med, lo, hi := math.Max(x.Median, 1e-3), math.Max(x.Min, 1e-3), math.Max(x.Max, 1e-3)
			pts[i] = plotter.XY{X: float64(i + 1), Y: med}
			errs[i].Low, errs[i].High = med-math.Min(lo, med), math.Max(hi, med)-med
		}
		if err := benchplot.AddSeries(p, &legend, pr.Policy, pts, errs, style, false); err != nil {
			return nil, legend, err
		}
		_, ys = benchplot.Extent(nil, ys, pts, errs)
	}
	benchplot.SetLogY(p, ys)
	return p, legend, nil
}
