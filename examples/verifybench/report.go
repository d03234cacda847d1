package main

// The -report output: every measurement as CSV and the same-root table as a
// chart. Nothing here measures; main.go records measurements and hands them
// over.

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/attpool/attpool/examples/internal/benchplot"
	"github.com/attpool/attpool/examples/internal/benchreport"
)

// Report file names inside the -report directory.
const (
	csvName = "verifybench.csv"
	pngName = "verifybench.png"
)

// Size of the chart in pixels (at chartDPI).
const (
	chartWidthPx  = 1500
	chartHeightPx = 600
	chartDPI      = 96
)

// Tables, as named in the CSV.
const (
	tableSameRoot  = "same-root"
	tableMixed     = "mixed"
	tableBisection = "bisection"
	tableSubgroup  = "subgroup"
)

// Methods, as named in the CSV, and the legend's label for each.
var methods = []struct{ name, label string }{
	{"a-alone", "(a) each alone"},
	{"b-distinct", "(b) Prysm/Lighthouse batch"},
	{"c-same-root", "(c) Lodestar/Nimbus same-root"},
	{"d-attpool-64", "(d) attpool 64-bit"},
	{"d-attpool-128", "(d) attpool 128-bit"},
	{"floor", "floor: decompression alone"},
	{"per-point", "per-point subgroup checks"},
	{"batch-64", "attpool batch check 64-bit"},
	{"batch-128", "attpool batch check 128-bit"},
}

// Units, as written in the CSV.
const (
	unitUsPerSig   = "us/signature"
	unitUsPerPoint = "us/point"
	unitMsPerCall  = "ms/call"
	unitRatio      = "ratio"
)

// The ratios of the same-root and mixed tables, as named in the CSV: (c)'s
// time over (d)'s, taken within each repetition.
const (
	ratioC64  = "c/d64"
	ratioC128 = "c/d128"
)

// ratioLines are the lines of the chart's ratio panel.
var ratioLines = []struct{ name, label string }{
	{ratioC64, "(c) / (d) 64-bit"},
	{ratioC128, "(c) / (d) 128-bit"},
}

// measurement is one number verifybench prints: the median of Runs timed
// runs (Value) and the least and greatest of them (Min, Max). N is the number of sets in the call (same-root, mixed, bisection), K
// the number of points (subgroup) and B the number of invalid sets
// (bisection); the ones a table lacks are zero and written empty.
type measurement struct {
	Table  string
	Method string
	N, K   int
	B      int
	Value  float64
	Min    float64
	Max    float64
	Unit   string
	Runs   int
}

// prepareReport creates dir, so that a bad -report fails before the
// benchmark runs rather than after.
func prepareReport(dir string) error {
	return os.MkdirAll(dir, 0o755)
}

// writeReport writes dir/verifybench.csv and dir/verifybench.png.
func writeReport(dir string, m benchreport.Machine, ms []measurement) error {
	if err := prepareReport(dir); err != nil {
		return err
	}
	return errors.Join(
		benchreport.WriteFile(filepath.Join(dir, csvName), func(w io.Writer) error { return writeCSV(w, m, ms) }),
		benchreport.WriteFile(filepath.Join(dir, pngName), func(w io.Writer) error { return writeChart(w, m, ms) }))
}

var csvHeader = append([]string{"table", "method", "n", "k", "b", "value", "min", "max", "unit", "runs"},
	benchreport.MachineHeader...)

// writeCSV writes a header and one row per measurement, each row carrying
// the machine's columns so that rows from several reports can be
// concatenated.
func writeCSV(w io.Writer, m benchreport.Machine, ms []measurement) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	count := func(x int) string {
		if x == 0 {
			return ""
		}
		return strconv.Itoa(x)
	}
	num := benchreport.Num
	for _, x := range ms {
		rec := append([]string{x.Table, x.Method, count(x.N), count(x.K), strconv.Itoa(x.B),
			num(x.Value), num(x.Min), num(x.Max), x.Unit, strconv.Itoa(x.Runs)}, m.Columns()...)
		if x.Table != tableBisection {
			rec[4] = ""
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeChart draws the same-root table in two panels: on the left,
// microseconds per signature against group size, one line per method with
// the range of the runs as error bars, both axes logarithmic, the legend to
// its right; on the right, the ratios (c)/(d), each taken within a
// repetition, with their range. Non-positive values cannot sit on a log axis
// and are left out.
func writeChart(w io.Writer, m benchreport.Machine, ms []measurement) error {
	abs, legend, err := absolutePlot(m, ms)
	if err != nil {
		return err
	}
	ratio, err := ratioPlot(ms)
	if err != nil {
		return err
	}
	return benchplot.WritePNG(w, chartWidthPx, chartHeightPx, chartDPI, func(dc draw.Canvas) {
		width := dc.Max.X - dc.Min.X
		left := draw.Crop(dc, 0, -width*(1-absoluteShare), 0, 0)
		right := draw.Crop(dc, width*absoluteShare, 0, 0, 0)
		drawWithLegend(abs, legend, left, sizeLabel)
		drawWithLegend(ratio, nil, right, sizeLabel)
	})
}

// absoluteShare is the part of the chart's width the absolute panel and its
// legend take; the ratio panel has the rest.
const absoluteShare = 0.66

// sizeLabel is the x label of both panels.
const sizeLabel = "signatures sharing one signing root (n, log scale)"

func absolutePlot(m benchreport.Machine, ms []measurement) (*plot.Plot, *plot.Legend, error) {
	p := plot.New()
	where := m.Where()
	runs := 0
	for _, x := range ms {
		if x.Table == tableSameRoot {
			runs = max(runs, x.Runs)
		}
	}
	p.Title.Text = fmt.Sprintf("attpool verifybench: same-root groups, medians of %d interleaved runs (bars: min-max)\n%s, %s",
		runs, m.Date.Format("2006-01-02 15:04 MST"), where)
	p.Title.Padding = vg.Points(8)
	p.Y.Label.Text = "µs per signature (log scale)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}

	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(4)
	legend.ThumbnailWidth = vg.Points(24)

	p.Add(plotter.NewGrid())
	xs, ys, err := addLines(p, &legend, ms, methods, true, 0)
	if err != nil {
		return nil, nil, err
	}
	if len(xs) == 0 {
		return nil, nil, errors.New("no same-root measurements to chart")
	}
	setLogX(p, xs)
	p.Y.Min, p.Y.Max = benchplot.NiceBelow(slices.Min(ys)), benchplot.NiceAbove(slices.Max(ys))
	if p.Y.Min == p.Y.Max { // one value, on a 1-2-5 mark
		p.Y.Min, p.Y.Max = benchplot.NiceBelow(p.Y.Min*0.9), benchplot.NiceAbove(p.Y.Max*1.1)
	}
	p.Y.Tick.Marker = benchplot.LogTicks{}
	return p, &legend, nil
}

// ratioPlot draws the (c)/(d) ratios of the same-root table on a linear
// axis with a line at 1 (above it attpool is faster). It has its legend in
// its top left corner.
func ratioPlot(ms []measurement) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Lodestar/Nimbus method over attpool's\n(ratio within each run; bars: min-max)"
	p.Title.Padding = vg.Points(8)
	p.Y.Label.Text = "(c) time / (d) time"
	p.X.Scale = plot.LogScale{}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.ThumbnailWidth = vg.Points(24)
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), -vg.Points(6)
	p.Add(plotter.NewGrid())
	// The colours of (d) 64 and 128 bits on the left panel.
	xs, ys, err := addLines(p, &p.Legend, ms, ratioLines, false, 3)
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, errors.New("no same-root ratios to chart")
	}
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.Color = color.Gray{128}
	one.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(one)
	setLogX(p, xs)
	p.Y.Min = math.Min(0, slices.Min(ys))
	p.Y.Max = math.Max(1.2, slices.Max(ys)*1.15) // room for the legend
	return p, nil
}

// series returns the same-root measurements of method, sorted by n, with
// their ranges as error bars relative to the medians. positive leaves out
// what a log axis cannot show.
func series(ms []measurement, method string, positive bool) (plotter.XYs, plotter.YErrors) {
	var rows []measurement
	for _, x := range ms {
		ok := x.Table == tableSameRoot && x.Method == method && x.N > 0 && benchplot.Finite(x.Value)
		if ok && positive {
			ok = x.Value > 0
		}
		if ok {
			rows = append(rows, x)
		}
	}
	slices.SortFunc(rows, func(a, b measurement) int { return cmp.Compare(a.N, b.N) })
	pts := make(plotter.XYs, len(rows))
	errs := make(plotter.YErrors, len(rows))
	for i, x := range rows {
		pts[i] = plotter.XY{X: float64(x.N), Y: x.Value}
		lo, hi := x.Min, x.Max
		if !benchplot.Finite(lo) || !benchplot.Finite(hi) || lo > x.Value || hi < x.Value || (positive && lo <= 0) { // no range recorded
			lo, hi = x.Value, x.Value
		}
		errs[i].Low, errs[i].High = x.Value-lo, hi-x.Value
	}
	return pts, errs
}

// addLines draws the same-root series of every line that has measurements,
// line i in style firstStyle+i, and returns the x values and the ends of the
// error bars, for the axes' ranges. positive leaves out what a log axis
// cannot show; the floor is dashed.
func addLines(p *plot.Plot, legend *plot.Legend, ms []measurement, lines []struct{ name, label string }, positive bool, firstStyle int) (xs, ys []float64, err error) {
	for i, l := range lines {
		pts, errs := series(ms, l.name, positive)
		if len(pts) == 0 {
			continue
		}
		if err := benchplot.AddSeries(p, legend, l.label, pts, errs, firstStyle+i, l.name == "floor"); err != nil {
			return nil, nil, err
		}
		xs, ys = benchplot.Extent(xs, ys, pts, errs)
	}
	return xs, ys, nil
}

// setLogX puts the measured sizes on a log x axis with a margin.
func setLogX(p *plot.Plot, xs []float64) {
	p.X.Min, p.X.Max = slices.Min(xs)/1.25, slices.Max(xs)*1.25
	p.X.Tick.Marker = sizeTicks(xs)
}

// drawWithLegend draws p into c with xLabel below it and, when legend is not
// nil, the legend in a column at c's right. The x label is drawn by hand:
// gonum sizes a centred axis label at the arithmetic middle of the range,
// which on a log axis sits far right and needlessly shrinks the plot.
func drawWithLegend(p *plot.Plot, legend *plot.Legend, c draw.Canvas, xLabel string) {
	legendWidth := vg.Length(0)
	if legend != nil {
		legendWidth = legendExtent(legend, c) + vg.Points(16)
	}
	xStyle := p.X.Label.TextStyle
	xStyle.XAlign, xStyle.YAlign = draw.XCenter, draw.YBottom
	xLabelHeight := xStyle.Height(xLabel) + vg.Points(6)
	plotArea := draw.Crop(c, 0, -legendWidth, xLabelHeight, 0)
	p.Draw(plotArea)
	c.FillText(xStyle, vg.Point{X: (plotArea.Min.X + plotArea.Max.X) / 2, Y: c.Min.Y + vg.Points(4)}, xLabel)
	if legend != nil {
		area := draw.Crop(c, c.Max.X-c.Min.X-legendWidth+vg.Points(8), -vg.Points(8), 0, -vg.Points(48))
		legend.Draw(area)
	}
}

func legendExtent(l *plot.Legend, c draw.Canvas) vg.Length {
	r := l.Rectangle(c)
	return r.Max.X - r.Min.X
}

// sizeTicks labels the measured group sizes.
func sizeTicks(xs []float64) plot.ConstantTicks {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	var ticks plot.ConstantTicks
	for _, x := range slices.Compact(xs) {
		ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', -1, 64)})
	}
	return ticks
}
