// Package benchplot holds what the examples' benchmark reports share: the
// machine a report was measured on, file writing, and gonum/plot charts
// with colour-blind-safe lines, error bars for the range of the runs and
// 1-2-5 log ticks. It measures nothing.
package benchplot

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Machine describes where and when measurements were taken.
type Machine struct {
	Date       time.Time
	GOMAXPROCS int
	GOOS       string
	GOARCH     string
	CPU        string // empty when unknown
}

// ThisMachine is the machine the program runs on, at now.
func ThisMachine(now time.Time) Machine {
	return Machine{
		Date:       now.UTC(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		CPU:        CPUModel("/proc/cpuinfo"),
	}
}

// Where is the machine for a chart's title: "AMD EPYC, GOMAXPROCS=2,
// linux/amd64".
func (m Machine) Where() string {
	where := fmt.Sprintf("GOMAXPROCS=%d, %s/%s", m.GOMAXPROCS, m.GOOS, m.GOARCH)
	if m.CPU != "" {
		where = m.CPU + ", " + where
	}
	return where
}

// MachineHeader names the columns of Columns, which every row of a
// report's CSV ends with, so that rows of several reports can be
// concatenated.
var MachineHeader = []string{"date", "gomaxprocs", "goos", "goarch", "cpu"}

// Columns are m's CSV columns (MachineHeader).
func (m Machine) Columns() []string {
	return []string{m.Date.Format(time.RFC3339), strconv.Itoa(m.GOMAXPROCS), m.GOOS, m.GOARCH, m.CPU}
}

// Num formats a measured figure for a CSV: the shortest exact form.
func Num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// CPUModel returns the processor's model name from a /proc/cpuinfo file, or
// "" when the file is missing or names none.
func CPUModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	return ParseCPUModel(f)
}

// ParseCPUModel reads the model name from the text of a /proc/cpuinfo.
func ParseCPUModel(r io.Reader) string {
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

// WriteFile creates path and writes it with write, buffered; the error
// names the path.
func WriteFile(path string, write func(io.Writer) error) error {
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

// WriteReport writes a report's two files, dir/csvName with writeCSV and
// dir/pngName with writePNG; the error names each file that failed.
func WriteReport(dir, csvName, pngName string, writeCSV, writePNG func(io.Writer) error) error {
	return errors.Join(
		WriteFile(filepath.Join(dir, csvName), writeCSV),
		WriteFile(filepath.Join(dir, pngName), writePNG),
	)
}

// WritePNG draws a widthPx x heightPx image at dpi with paint and writes it
// as PNG.
func WritePNG(w io.Writer, widthPx, heightPx int, dpi float64, paint func(draw.Canvas)) error {
	img := image.NewRGBA(image.Rect(0, 0, widthPx, heightPx))
	cv := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(int(dpi)))
	paint(draw.New(cv))
	_, err := vgimg.PngCanvas{Canvas: cv}.WriteTo(w)
	return err
}

// Colors are the Okabe-Ito colours, told apart by most colour-blind readers.
var Colors = []color.Color{
	color.RGBA{0, 0, 0, 255},
	color.RGBA{230, 159, 0, 255},
	color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 158, 115, 255},
	color.RGBA{213, 94, 0, 255},
	color.RGBA{0, 114, 178, 255},
	color.RGBA{204, 121, 167, 255},
}

// Glyphs are the point shapes of the lines, one per style.
var Glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.BoxGlyph{}, draw.RingGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
}

// AddSeries draws one line with its points and error bars (errs relative to
// the points) in the colour and glyph of style, dashed when asked or when
// the colours have run out, and enters it in legend (nil: none).
func AddSeries(p *plot.Plot, legend *plot.Legend, label string, pts plotter.XYs, errs plotter.YErrors, style int, dashed bool) error {
	line, points, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	bars, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{pts, errs})
	if err != nil {
		return err
	}
	c := Colors[style%len(Colors)]
	line.Color, points.Color, bars.Color = c, c, c
	line.Width = vg.Points(1.5)
	bars.Width = vg.Points(1)
	bars.CapWidth = vg.Points(6)
	if dashed || style >= len(Colors) {
		line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	points.Shape = Glyphs[style%len(Glyphs)]
	points.Radius = vg.Points(3)
	p.Add(line, points, bars)
	if legend != nil {
		legend.Add(label, line, points)
	}
	return nil
}

// Extent appends the x values of pts and the ends of their error bars to xs
// and ys, for the axes' ranges.
func Extent(xs, ys []float64, pts plotter.XYs, errs plotter.YErrors) ([]float64, []float64) {
	for i, q := range pts {
		xs = append(xs, q.X)
		ys = append(ys, q.Y-errs[i].Low, q.Y+errs[i].High)
	}
	return xs, ys
}

// Finite reports whether v is neither infinite nor NaN.
func Finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }

// NiceBelow and NiceAbove return the 1-2-5 values at or just beyond x.
func NiceBelow(x float64) float64 {
	e := math.Pow10(int(math.Floor(math.Log10(x))))
	for _, f := range []float64{5, 2, 1} {
		if f*e <= x {
			return f * e
		}
	}
	return e
}

// NiceAbove: see NiceBelow.
func NiceAbove(x float64) float64 {
	e := math.Pow10(int(math.Floor(math.Log10(x))))
	for _, f := range []float64{1, 2, 5, 10} {
		if f*e >= x {
			return f * e
		}
	}
	return 10 * e
}

// SetLogY puts ys on a log y axis between the 1-2-5 values around them,
// with LogTicks.
func SetLogY(p *plot.Plot, ys []float64) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Min, p.Y.Max = logRange(ys)
	p.Y.Tick.Marker = LogTicks{}
}

// SetLogX is SetLogY on the x axis.
func SetLogX(p *plot.Plot, xs []float64) {
	p.X.Scale = plot.LogScale{}
	p.X.Min, p.X.Max = logRange(xs)
	p.X.Tick.Marker = LogTicks{}
}

// logRange is the 1-2-5 values around the positive finite vs (1 to 10
// when there are none).
func logRange(vs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v > 0 && Finite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1, 10
	}
	lo, hi = NiceBelow(lo), NiceAbove(hi)
	if lo == hi { // one value, on a 1-2-5 mark
		lo, hi = NiceBelow(lo*0.9), NiceAbove(hi*1.1)
	}
	return lo, hi
}

// LogTicks labels 1, 2 and 5 times the powers of ten and marks the other
// integer multiples unlabelled.
type LogTicks struct{}

// Ticks implements plot.Ticker.
func (LogTicks) Ticks(lo, hi float64) []plot.Tick {
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
