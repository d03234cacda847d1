package main

import (
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attpool/attpool/examples/internal/benchreport"
)

// fakeResults returns measurements shaped like a full run's: a same-root
// table over sizes, a mixed row, a bisection table and a subgroup table.
func fakeResults(sizes []int) []measurement {
	var ms []measurement
	add := func(m measurement) {
		m.Runs = 3
		ms = append(ms, m)
	}
	for i, n := range sizes {
		for j, meth := range []string{"a-alone", "b-distinct", "c-same-root", "d-attpool-64", "d-attpool-128", "floor"} {
			v := 1000 / float64(j+1) / float64(i+1)
			if meth == "a-alone" {
				v = 1200
			}
			add(measurement{Table: tableSameRoot, Method: meth, N: n, Value: v, Min: v * 0.9, Max: v * 1.2, Unit: unitUsPerSig})
		}
		for j, r := range []string{ratioC64, ratioC128} {
			v := 1 + float64(i)/2 - float64(j)/4
			add(measurement{Table: tableSameRoot, Method: r, N: n, Value: v, Min: v - 0.1, Max: v + 0.2, Unit: unitRatio})
		}
	}
	add(measurement{Table: tableMixed, Method: "d-attpool-64", N: 4352, Value: 80, Unit: unitUsPerSig})
	for _, bad := range []int{0, 1, 8} {
		add(measurement{Table: tableBisection, Method: "d-attpool-64", N: 512, B: bad, Value: 30 + float64(bad), Unit: unitMsPerCall})
	}
	add(measurement{Table: tableSubgroup, Method: "per-point", K: 256, Value: 60, Unit: unitUsPerPoint})
	return ms
}

func fakeMachine() benchreport.Machine {
	return benchreport.Machine{
		Date:       time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC),
		GOMAXPROCS: 2, GOOS: "linux", GOARCH: "amd64",
		CPU: "Test CPU, 2 cores", // a comma must survive CSV quoting
	}
}

func TestWriteReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "dir") // created by writeReport
	ms := fakeResults([]int{16, 64, 256, 1024})
	if err := writeReport(dir, fakeMachine(), ms); err != nil {
		t.Fatal(err)
	}

	f, err := os.Open(filepath.Join(dir, csvName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("CSV does not parse: %v", err)
	}
	if got := strings.Join(recs[0], ","); got != strings.Join(csvHeader, ",") {
		t.Fatalf("header %q", got)
	}
	rows := recs[1:]
	if len(rows) != len(ms) {
		t.Fatalf("%d rows, want %d", len(rows), len(ms))
	}
	col := make(map[string]int)
	for i, h := range csvHeader {
		col[h] = i
	}
	for i, r := range rows {
		m := ms[i]
		for _, c := range []struct {
			name string
			want float64
		}{{"value", m.Value}, {"min", m.Min}, {"max", m.Max}} {
			v, err := strconv.ParseFloat(r[col[c.name]], 64)
			if err != nil || v != c.want {
				t.Errorf("row %d %s %q, want %v", i, c.name, r[col[c.name]], c.want)
			}
		}
		if r[col["table"]] != m.Table || r[col["method"]] != m.Method || r[col["unit"]] != m.Unit || r[col["runs"]] != "3" {
			t.Errorf("row %d = %q for %+v", i, r, m)
		}
		wantN, wantK, wantB := "", "", ""
		if m.N > 0 {
			wantN = strconv.Itoa(m.N)
		}
		if m.K > 0 {
			wantK = strconv.Itoa(m.K)
		}
		if m.Table == tableBisection {
			wantB = strconv.Itoa(m.B) // 0 invalid sets is a measurement too
		}
		if r[col["n"]] != wantN || r[col["k"]] != wantK || r[col["b"]] != wantB {
			t.Errorf("row %d n,k,b = %q,%q,%q, want %q,%q,%q", i, r[col["n"]], r[col["k"]], r[col["b"]], wantN, wantK, wantB)
		}
		if r[col["date"]] != "2025-03-14T15:09:26Z" || r[col["gomaxprocs"]] != "2" ||
			r[col["goos"]] != "linux" || r[col["goarch"]] != "amd64" || r[col["cpu"]] != "Test CPU, 2 cores" {
			t.Errorf("row %d machine columns %q", i, r[col["date"]:])
		}
	}

	g, err := os.Open(filepath.Join(dir, pngName))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	img, err := png.Decode(g)
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != chartWidthPx || b.Dy() != chartHeightPx {
		t.Fatalf("PNG is %dx%d, want %dx%d", b.Dx(), b.Dy(), chartWidthPx, chartHeightPx)
	}
}

// A quick run's chart may have one size and values a log axis cannot show.
func TestChartEdgeCases(t *testing.T) {
	ms := fakeResults([]int{16})
	ms[1].Value = 0             // left out of the chart, kept in the CSV
	ms[2].Min, ms[2].Max = 0, 0 // no range: drawn without error bars
	if err := writeReport(t.TempDir(), fakeMachine(), ms); err != nil {
		t.Fatal(err)
	}
	none := slices.DeleteFunc(slices.Clone(ms), func(m measurement) bool { return m.Table == tableSameRoot })
	if err := writeReport(t.TempDir(), fakeMachine(), none); err == nil {
		t.Fatal("no same-root measurements: no error")
	}
	noRatios := slices.DeleteFunc(slices.Clone(ms), func(m measurement) bool { return m.Unit == unitRatio })
	if err := writeReport(t.TempDir(), fakeMachine(), noRatios); err == nil {
		t.Fatal("no ratios: no error")
	}
}
