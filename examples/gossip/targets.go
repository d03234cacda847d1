package main

// The targets of the latency benchmark (defined in docs/bench/RESULTS.md),
// checked on the medians of a graded run: every -latency run but -quick.

import (
	"fmt"
	"math"
	"time"
)

// The targets' names.
const (
	// targetCheaper: at each clean load of 2, 16 and 64 subnets, attpool's
	// CPU per 1,000 messages at most 0.9x Prysm's and its valid p99 at
	// most Prysm's.
	targetCheaper = "cheaper than Prysm"
	// targetNoDominance: at the clean loads of 2 and 16 subnets, for each
	// client run, attpool at a latency budget no longer than the client's
	// own wait (clientWait; the row of -budgets) has its CPU and valid p99
	// both below the client's.
	targetNoDominance = "no client dominates"
	// targetBurst: at 64 subnets clean, attpool's CPU at most 1.5x the
	// burst's of the same messages.
	targetBurst = "close to the burst"
	// targetFailure: at 64 subnets with 1% invalid signatures, attpool's
	// CPU at most 1.3x the clean 64-subnet run's.
	targetFailure = "cheap failure path"
	// targetLatency: at 64 subnets, attpool's valid p99 at most 40 ms clean
	// and 60 ms with 1% invalid signatures.
	targetLatency = "all-subnets latency"
)

// clientWait is each client's own wait for a batch's companions
// (policies): none for those that take what is queued when a worker is
// free, else the batch delay. targetNoDominance compares each client with
// attpool at that latency budget (budgetName).
var clientWait = map[string]time.Duration{
	"prysm":      5 * time.Millisecond,
	"lighthouse": 0,
	"lodestar":   50 * time.Millisecond,
	"teku":       0,
}

// target is one check of a named target on the medians: Value against
// Limit, at most the limit, or below it when Below.
type target struct {
	Name  string  `json:"name"`
	What  string  `json:"what"`
	Value float64 `json:"value"`
	Limit float64 `json:"limit"`
	Unit  string  `json:"unit"`
	Below bool    `json:"below,omitempty"`
	Met   bool    `json:"met"`
}

// line is the target as the table prints it:
// "met    cheaper than Prysm, 16 subnets: CPU over prysm's 0.84 x (limit 0.90)".
func (t target) line() string {
	mark := "met   "
	if !t.Met {
		mark = "MISSED"
	}
	prec, bound := 2, "limit"
	if t.Unit == "ms" {
		prec = 1
	}
	if t.Below {
		bound = "below"
	}
	return fmt.Sprintf("%s %s, %s %.*f %s (%s %.*f)", mark, t.Name, t.What, prec, t.Value, t.Unit, bound, prec, t.Limit)
}

// policy returns the load's row of the policy named name, nil if it was
// not run.
func (l *loadResult) policy(name string) *policyResult {
	for i := range l.Policies {
		if l.Policies[i].Policy == name {
			return &l.Policies[i]
		}
	}
	return nil
}

// checkTargets checks the targets on the loads and policies that were run
// (a target whose load or row is missing is left out), attpool's default
// row unless a target names another, in the order of the targets' list.
func checkTargets(loads []loadResult) []target {
	find := func(subnets int, invalid float64) *loadResult {
		for i := range loads {
			if loads[i].Subnets == subnets && loads[i].Invalid == invalid {
				return &loads[i]
			}
		}
		return nil
	}
	var ts []target
	add := func(name, what string, value, limit float64, unit string, below bool) {
		if math.IsNaN(value) || math.IsInf(value, 0) { // a zero figure to compare with: no verdict
			return
		}
		met := value <= limit
		if below {
			met = value < limit
		}
		ts = append(ts, target{Name: name, What: what, Value: value, Limit: limit, Unit: unit, Below: below, Met: met})
	}
	cpu := func(p *policyResult) float64 { return p.CPUPer1000.Median }
	p99 := func(p *policyResult) float64 { return p.Valid.P99.Median }

	for _, n := range []int{2, 16, 64} {
		l := find(n, 0)
		if l == nil {
			continue
		}
		a, p := l.policy("attpool"), l.policy("prysm")
		if a == nil || p == nil {
			continue
		}
		add(targetCheaper, fmt.Sprintf("%d subnets: CPU over prysm's", n), cpu(a)/cpu(p), 0.9, "x", false)
		add(targetCheaper, fmt.Sprintf("%d subnets: valid p99 over prysm's", n), p99(a)/p99(p), 1, "x", false)
	}

	for _, n := range []int{2, 16} {
		l := find(n, 0)
		if l == nil {
			continue
		}
		for _, pol := range policies()[1:] {
			c := l.policy(pol.Name)
			wait, ok := clientWait[pol.Name]
			if c == nil || !ok {
				continue
			}
			row := budgetName(wait)
			b := l.policy(row)
			if b == nil {
				continue
			}
			add(targetNoDominance, fmt.Sprintf("%d subnets: %s CPU over %s's", n, row, pol.Name), cpu(b)/cpu(c), 1, "x", true)
			add(targetNoDominance, fmt.Sprintf("%d subnets: %s valid p99 over %s's", n, row, pol.Name), p99(b)/p99(c), 1, "x", true)
		}
	}

	clean := find(64, 0)
	var cleanA *policyResult
	if clean != nil {
		cleanA = clean.policy("attpool")
	}
	if cleanA != nil {
		add(targetBurst, "64 subnets clean: CPU over the burst's", cpu(cleanA)/cpu(&clean.Burst), 1.5, "x", false)
	}
	failing := find(64, 0.01)
	var failA *policyResult
	if failing != nil {
		failA = failing.policy("attpool")
	}
	if failA != nil && cleanA != nil {
		add(targetFailure, "64 subnets 1% invalid: CPU over the clean run's", cpu(failA)/cpu(cleanA), 1.3, "x", false)
	}
	if cleanA != nil {
		add(targetLatency, "64 subnets clean: valid p99", p99(cleanA), 40, "ms", false)
	}
	if failA != nil {
		add(targetLatency, "64 subnets 1% invalid: valid p99", p99(failA), 60, "ms", false)
	}
	return ts
}
