package main

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/attpool/attpool/examples/internal/benchplot"
)

// drawCharts draws the charts of the -report folder dir as
// examples/cmd/benchcharts does, from the JSON the report wrote, and checks
// that each PNG decodes: the latency chart, and the budget chart when
// budgets is set.
func drawCharts(t *testing.T, dir string, budgets bool) {
	t.Helper()
	written, err := benchplot.Charts(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, benchplot.LatencyPNG)}
	if budgets {
		want = append(want, filepath.Join(dir, benchplot.BudgetPNG))
	}
	if !slices.Equal(written, want) {
		t.Errorf("charts written: %v, want %v", written, want)
	}
	for _, p := range written {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", p, err)
		} else if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
			t.Errorf("%s: %dx%d", p, b.Dx(), b.Dy())
		}
	}
}
