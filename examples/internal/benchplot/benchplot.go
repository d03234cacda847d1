// Package benchplot draws the charts of the examples' benchmark reports
// (examples/cmd/benchcharts) with gonum/plot: colour-blind-safe lines,
// error bars for the range of the runs and 1-2-5 log ticks. It reads the
// JSON the benchmarks write under -report (package benchreport) and
// measures nothing. The benchmarks themselves do not import it, so that
// their builds carry no plotting library.
package benchplot

import (
	"image"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

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
