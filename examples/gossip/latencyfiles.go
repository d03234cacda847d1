package main

// The -report output of -latency: every figure as CSV, and the report as
// JSON for examples/cmd/benchcharts, which draws the charts. Nothing here
// measures.

import (
	"encoding/csv"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/attpool/attpool/examples/internal/benchreport"
)

// Report file names inside the -report directory.
const (
	latencyCSV  = "latency.csv"
	latencyJSON = "latency.json"
)

// writeLatencyReport writes dir/latency.csv and dir/latency.json.
func writeLatencyReport(dir string, r *latencyReport) error {
	m := benchreport.ThisMachine(r.Date)
	m.Date, m.GOMAXPROCS = r.Date, r.GOMAXPROCS
	return errors.Join(
		benchreport.WriteFile(filepath.Join(dir, latencyCSV), func(w io.Writer) error { return writeLatencyCSV(w, m, r) }),
		benchreport.WriteJSON(filepath.Join(dir, latencyJSON), m, r))
}

var latencyCSVHeader = append([]string{"subnets", "invalid_share", "messages", "policy", "class", "metric",
	"median", "min", "max", "runs"}, benchreport.MachineHeader...)

// writeLatencyCSV writes one row per figure of the report, each with the
// machine's columns (those of the core sweep with their GOMAXPROCS).
func writeLatencyCSV(w io.Writer, m benchreport.Machine, r *latencyReport) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(latencyCSVHeader); err != nil {
		return err
	}
	if err := writeLoadsCSV(cw, m, r.Reps, r.Loads); err != nil {
		return err
	}
	for _, c := range r.CoreSweep {
		mc := m
		mc.GOMAXPROCS = c.GOMAXPROCS
		if err := writeLoadsCSV(cw, mc, r.Reps, c.Loads); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeLoadsCSV writes the rows of loads measured on m.
func writeLoadsCSV(cw *csv.Writer, m benchreport.Machine, reps int, loads []loadResult) error {
	num := benchreport.Num
	for _, l := range loads {
		row := func(policy, class, metric string, s spread) error {
			return cw.Write(append([]string{strconv.Itoa(l.Subnets), num(l.Invalid), strconv.Itoa(l.Messages), policy, class, metric,
				num(s.Median), num(s.Min), num(s.Max), strconv.Itoa(reps)}, m.Columns()...))
		}
		for _, p := range slices.Concat(l.Policies, []policyResult{l.Burst}) {
			for c, sum := range p.classSummaries() {
				if sum == nil || sum.Messages == 0 {
					continue
				}
				for _, f := range []struct {
					metric string
					s      spread
				}{{"p50_ms", sum.P50}, {"p90_ms", sum.P90}, {"p99_ms", sum.P99}, {"max_ms", sum.Max}} {
					if err := row(p.Policy, classNames[c], f.metric, f.s); err != nil {
						return err
					}
				}
			}
			for _, f := range []struct {
				metric string
				s      spread
			}{{"cpu_s_per_1000", p.CPUPer1000}, {"cpu_s", p.CPUSeconds}, {"wall_s", p.WallSeconds}, {"dispatch_lag_max_ms", p.DispatchLagMs}, {"sets_per_call", p.SetsPerCall}, {"schedulings_per_message", p.SchedPerMessage}} {
				if err := row(p.Policy, "all", f.metric, f.s); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
