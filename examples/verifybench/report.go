package main

// The -report output: every measurement as CSV and the same-root table as a
// chart. Nothing here measures; main.go records measurements and hands them
// over.

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Report file names inside the -report directory.
const (
	csvName = "verifybench.csv"
	pngName = "verifybench.png"
)

// Size of the chart in pixels (at chartDPI).
const (
	chartWidthPx  = 1000
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
)

// measurement is one number verifybench prints: the median of Runs timed
// runs. N is the number of sets in the call (same-root, mixed, bisection), K
// the number of points (subgroup) and B the number of invalid sets
// (bisection); the ones a table lacks are zero and written empty.
type measurement struct {
	Table  string
	Method string
	N, K   int
	B      int
	Value  float64
	Unit   string
	Runs   int
}

// machine describes where and when the measurements were taken.
type machine struct {
	Date       time.Time
	GOMAXPROCS int
	GOOS       string
	GOARCH     string
	CPU        string // empty when unknown
}

func thisMachine(now time.Time) machine {
	return machine{
		Date:       now.UTC(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		CPU:        cpuModel("/proc/cpuinfo"),
	}
}

// cpuModel returns the processor's model name from a /proc/cpuinfo file, or
// "" when the file is missing or names none.
func cpuModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	return parseCPUModel(f)
}

func parseCPUModel(r io.Reader) string {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(key) {
		case "model name", "Model", "cpu model", "Processor":
			if v := strings.Join(strings.Fields(val), " "); v != "" {
				return v
			}
		}
	}
	return ""
}

// prepareReport creates dir, so that a bad -report fails before the
// benchmark runs rather than after.
func prepareReport(dir string) error {
	return os.MkdirAll(dir, 0o755)
}

// writeReport writes dir/verifybench.csv and dir/verifybench.png.
func writeReport(dir string, m machine, ms []measurement) error {
	if err := prepareReport(dir); err != nil {
		return err
	}
	return errors.Join(
		writeFile(filepath.Join(dir, csvName), func(w io.Writer) error { return writeCSV(w, m, ms) }),
		writeFile(filepath.Join(dir, pngName), func(w io.Writer) error { return writeChart(w, m, ms) }),
	)
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

var csvHeader = []string{"table", "method", "n", "k", "b", "value", "unit", "runs",
	"date", "gomaxprocs", "goos", "goarch", "cpu"}

// writeCSV writes a header and one row per measurement, each row carrying
// the machine's columns so that rows from several reports can be
// concatenated.
func writeCSV(w io.Writer, m machine, ms []measurement) error {
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
	date := m.Date.Format(time.RFC3339)
	for _, x := range ms {
		rec := []string{x.Table, x.Method, count(x.N), count(x.K), strconv.Itoa(x.B),
			strconv.FormatFloat(x.Value, 'g', -1, 64), x.Unit, strconv.Itoa(x.Runs),
			date, strconv.Itoa(m.GOMAXPROCS), m.GOOS, m.GOARCH, m.CPU}
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

// writeChart draws the same-root table: microseconds per signature against
// group size, one line per method, both axes logarithmic, the legend to the
// right of the plot. Non-positive values cannot sit on a log axis and are
// left out.
func writeChart(w io.Writer, m machine, ms []measurement) error {
	p := plot.New()
	where := fmt.Sprintf("GOMAXPROCS=%d, %s/%s", m.GOMAXPROCS, m.GOOS, m.GOARCH)
	if m.CPU != "" {
		where = m.CPU + ", " + where
	}
	runs := 0
	for _, x := range ms {
		if x.Table == tableSameRoot {
			runs = max(runs, x.Runs)
		}
	}
	p.Title.Text = fmt.Sprintf("attpool verifybench: same-root groups, medians of %d runs\n%s, %s",
		runs, m.Date.Format("2006-01-02 15:04 MST"), where)
	p.Title.Padding = vg.Points(8)
	// The x label is drawn below the plot by hand: gonum sizes a centred
	// axis label at the arithmetic middle of the range, which on a log axis
	// sits far right and needlessly shrinks the plot.
	xLabel := "signatures sharing one signing root (n, log scale)"
	p.Y.Label.Text = "µs per signature (log scale)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}

	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(4)
	legend.ThumbnailWidth = vg.Points(24)

	p.Add(plotter.NewGrid())
	var xs, ys []float64
	style := 0
	for _, meth := range methods {
		var pts plotter.XYs
		for _, x := range ms {
			if x.Table == tableSameRoot && x.Method == meth.name && x.N > 0 && x.Value > 0 &&
				!math.IsInf(x.Value, 0) && !math.IsNaN(x.Value) {
				pts = append(pts, plotter.XY{X: float64(x.N), Y: x.Value})
			}
		}
		if len(pts) == 0 {
			continue
		}
		slices.SortFunc(pts, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		c := lineColors[style%len(lineColors)]
		line.Color, points.Color = c, c
		line.Width = vg.Points(1.5)
		if style >= len(lineColors) || meth.name == "floor" {
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		points.Shape = glyphs[style%len(glyphs)]
		points.Radius = vg.Points(3)
		style++
		p.Add(line, points)
		legend.Add(meth.label, line, points)
		for _, q := range pts {
			xs, ys = append(xs, q.X), append(ys, q.Y)
		}
	}
	if len(xs) == 0 {
		return errors.New("no same-root measurements to chart")
	}
	p.X.Min, p.X.Max = slices.Min(xs)/1.25, slices.Max(xs)*1.25
	p.X.Tick.Marker = sizeTicks(xs)
	p.Y.Min, p.Y.Max = niceBelow(slices.Min(ys)), niceAbove(slices.Max(ys))
	if p.Y.Min == p.Y.Max { // one value, on a 1-2-5 mark
		p.Y.Min, p.Y.Max = niceBelow(p.Y.Min*0.9), niceAbove(p.Y.Max*1.1)
	}
	p.Y.Tick.Marker = logTicks{}

	img := image.NewRGBA(image.Rect(0, 0, chartWidthPx, chartHeightPx))
	cv := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(chartDPI))
	dc := draw.New(cv)
	// The legend gets the right-hand part of the canvas, the plot the rest.
	legendWidth := legendExtent(&legend, dc) + vg.Points(16)
	xStyle := p.X.Label.TextStyle
	xStyle.XAlign, xStyle.YAlign = draw.XCenter, draw.YBottom
	xLabelHeight := xStyle.Height(xLabel) + vg.Points(6)
	plotArea := draw.Crop(dc, 0, -legendWidth, xLabelHeight, 0)
	p.Draw(plotArea)
	dc.FillText(xStyle, vg.Point{X: (plotArea.Min.X + plotArea.Max.X) / 2, Y: dc.Min.Y + vg.Points(4)}, xLabel)
	area := draw.Crop(dc, dc.Max.X-dc.Min.X-legendWidth+vg.Points(8), -vg.Points(8), 0, -vg.Points(48))
	legend.Draw(area)
	_, err := vgimg.PngCanvas{Canvas: cv}.WriteTo(w)
	return err
}

func legendExtent(l *plot.Legend, c draw.Canvas) vg.Length {
	r := l.Rectangle(c)
	return r.Max.X - r.Min.X
}

// Okabe-Ito colours, told apart by most colour-blind readers.
var lineColors = []color.Color{
	color.RGBA{0, 0, 0, 255},
	color.RGBA{230, 159, 0, 255},
	color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 158, 115, 255},
	color.RGBA{213, 94, 0, 255},
	color.RGBA{0, 114, 178, 255},
	color.RGBA{204, 121, 167, 255},
}

var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.BoxGlyph{}, draw.RingGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
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

// niceBelow and niceAbove return the 1-2-5 values at or just beyond x.
func niceBelow(x float64) float64 {
	e := math.Pow10(int(math.Floor(math.Log10(x))))
	for _, f := range []float64{5, 2, 1} {
		if f*e <= x {
			return f * e
		}
	}
	return e
}

func niceAbove(x float64) float64 {
	e := math.Pow10(int(math.Floor(math.Log10(x))))
	for _, f := range []float64{1, 2, 5, 10} {
		if f*e >= x {
			return f * e
		}
	}
	return 10 * e
}

// logTicks labels 1, 2 and 5 times the powers of ten and marks the other
// integer multiples unlabelled.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Pow10(int(math.Floor(math.Log10(lo)))); e <= hi; e *= 10 {
		for i := 1; i < 10; i++ {
			v := float64(i) * e
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if i == 1 || i == 2 || i == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
