// Package benchreport holds what the examples' benchmarks write under
// -report: the machine a report was measured on, CSV cells, and the JSON
// file that examples/cmd/benchcharts draws the charts from. It measures
// nothing and draws nothing, so that a benchmark's build carries no
// plotting library.
package benchreport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Machine describes where and when measurements were taken.
type Machine struct {
	Date       time.Time `json:"date"`
	GOMAXPROCS int       `json:"gomaxprocs"`
	GOOS       string    `json:"goos"`
	GOARCH     string    `json:"goarch"`
	CPU        string    `json:"cpu,omitempty"` // empty when unknown
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

// File is the JSON a benchmark writes under -report: the machine it was
// measured on and the benchmark's own report (its -json form).
type File[R any] struct {
	Machine Machine `json:"machine"`
	Report  R       `json:"report"`
}

// WriteJSON writes path as the File of m and report, indented.
func WriteJSON(path string, m Machine, report any) error {
	return WriteFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(File[any]{Machine: m, Report: report})
	})
}

// ReadJSON reads a File written by WriteJSON.
func ReadJSON[R any](path string) (File[R], error) {
	var f File[R]
	b, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Group formats n with thousands separators: 1048576 -> "1,048,576".
func Group(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
