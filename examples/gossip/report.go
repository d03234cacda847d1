package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/attpool/attpool/examples/internal/benchreport"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// report is the program's result, printed as a table or (-json) as JSON.
//
// The gossip load is every attestation of the slots with the faults
// injected (see sim.go); messages, verdicts, rules, faults_* and block are
// its counts, and faults_wall_seconds its wall time through the batching
// pool. The clean load is the same slots with every attestation valid:
// verify_wall_seconds is its wall time through the batching pool,
// baseline_wall_seconds through a pool that verifies every signature alone
// (its SignatureVerifier baseline.EachAlone), speedup
// their ratio; clean_verdicts are its verdicts, heap_bytes the heap the pool
// holds after it. The baseline is run on the gossip load too (baseline_faults_wall_seconds, faults_speedup).
// Wall times run from the first submission to the last verdict, summed over
// the slots; bisections counts the failing batches the verifier split on the
// gossip load. wrong_verdicts counts the messages of every run whose verdict
// is not the expected one; wrong lists the first of them.
type report struct {
	Validators        uint64  `json:"validators"`
	Slots             int     `json:"slots"`
	Subnets           int     `json:"subnets"`
	CommitteesPerSlot uint64  `json:"committees_per_slot"`
	CommitteeSize     int     `json:"committee_size"`
	GOMAXPROCS        int     `json:"gomaxprocs"`
	Goroutines        int     `json:"goroutines"`
	Seed              uint64  `json:"seed"`
	Shares            shares  `json:"shares"`
	KeysDerived       int     `json:"keys_derived"`
	DeriveSeconds     float64 `json:"derive_seconds"`
	SignSeconds       float64 `json:"sign_seconds"`
	AggregateSeconds  float64 `json:"aggregate_seconds"`

	Topics          map[string]*topicSummary `json:"topics"`
	AggregateFaults map[string]faultSummary  `json:"aggregate_faults"`

	Messages       int                     `json:"messages"`
	Verdicts       map[string]int          `json:"verdicts"`
	Rules          map[string]int          `json:"rules"`
	FaultsInjected int                     `json:"faults_injected"`
	FaultsFound    int                     `json:"faults_found"`
	Faults         map[string]faultSummary `json:"faults"`
	WrongVerdicts  int                     `json:"wrong_verdicts"`
	Wrong          []wrongVerdict          `json:"wrong,omitempty"`

	CleanMessages             int            `json:"clean_messages"`
	CleanVerdicts             map[string]int `json:"clean_verdicts"`
	VerifyWallSeconds         float64        `json:"verify_wall_seconds"`
	MessagesPerSecond         float64        `json:"messages_per_second"`
	FaultsWallSeconds         float64        `json:"faults_wall_seconds"`
	FaultsMessagesPerSecond   float64        `json:"faults_messages_per_second"`
	Bisections                int64          `json:"bisections"`
	BaselineWallSeconds       float64        `json:"baseline_wall_seconds,omitempty"`
	Speedup                   float64        `json:"speedup,omitempty"`
	BaselineFaultsWallSeconds float64        `json:"baseline_faults_wall_seconds,omitempty"`
	FaultsSpeedup             float64        `json:"faults_speedup,omitempty"`

	HeapBytes        uint64       `json:"heap_bytes"`
	ProcessHeapBytes uint64       `json:"process_heap_bytes"`
	Aggregates       int          `json:"aggregates"`
	Block            blockSummary `json:"block"`
	TotalSeconds     float64      `json:"total_seconds"`

	ruleVerdict map[string]string // the verdict each rule of Rules gave
	ptc         bool              // the run has the payload_attestation_message topic
}

// topicSummary is one topic's part of every run: messages of the gossip
// load (clean_messages of the clean one), wall times through the batching
// pool (wall_seconds: clean load; faults_wall_seconds: gossip load) and
// through per-signature verification (baseline_*, 0 for a run -baseline
// left out), each from the first submission of a slot to the topic's last
// verdict, summed over slots; and the topic's wrong verdicts over every run.
type topicSummary struct {
	Messages                  int     `json:"messages"`
	CleanMessages             int     `json:"clean_messages"`
	WallSeconds               float64 `json:"wall_seconds"`
	FaultsWallSeconds         float64 `json:"faults_wall_seconds"`
	BaselineWallSeconds       float64 `json:"baseline_wall_seconds"`
	BaselineFaultsWallSeconds float64 `json:"baseline_faults_wall_seconds"`
	WrongVerdicts             int     `json:"wrong_verdicts"`
}

// addTopics records a run's per-topic figures with set and adds its wrong
// verdicts.
func (r *report) addTopics(o outcome, set func(*topicSummary, topicOutcome)) {
	for tp, name := range topicNames {
		if tp == topicPTC && !r.ptc {
			continue
		}
		t := r.Topics[name]
		if t == nil {
			t = &topicSummary{}
			r.Topics[name] = t
		}
		set(t, o.topics[tp])
		t.WrongVerdicts += o.topics[tp].wrong
	}
}

// addAggregateFaults records the aggregate faults of the gossip run, with
// the verdict and rule each must get.
func (r *report) addAggregateFaults(o outcome) {
	for _, f := range pooltest.AggregateFaults() {
		x := o.aggFaults[f.String()]
		if x == nil {
			continue
		}
		v, rule := f.Want()
		r.AggregateFaults[f.String()] = faultSummary{
			Description: "aggregate: " + f.String(), Verdict: v.String(), Rule: pool.Result{Verdict: v, Err: rule}.Rule(),
			Injected: x.injected, Found: x.found,
		}
	}
}

// faultSummary is one fault kind: what was expected, how many were sent and
// how many got the expected verdict.
type faultSummary struct {
	Description string `json:"description"`
	Verdict     string `json:"verdict"`
	Rule        string `json:"rule"`
	Injected    int    `json:"injected"`
	Found       int    `json:"found"`
}

// blockSummary is what AttestationsForBlock(slot+1) packed of each
// simulated slot's votes, summed over the slots, and with -ptc what
// PayloadAttestationsForBlock(slot+1) did of the PTC's: its payload
// attestations, those process_payload_attestation accepts (verified), the
// PTC positions they cover and those of the votes the pool accepted.
type blockSummary struct {
	OnChainAggregates int     `json:"onchain_aggregates"`
	AttestersIncluded int     `json:"attesters_included"`
	AttestersAccepted int     `json:"attesters_accepted"`
	Coverage          float64 `json:"coverage"`

	PayloadAttestations         int `json:"payload_attestations,omitempty"`
	PayloadAttestationsVerified int `json:"payload_attestations_verified,omitempty"`
	PTCPositionsIncluded        int `json:"ptc_positions_included,omitempty"`
	PTCPositionsAccepted        int `json:"ptc_positions_accepted,omitempty"`
}

// group formats n with thousands separators: 1048576 -> "1,048,576".
func group(n int) string { return benchreport.Group(n) }

// perSecond is n/s, 0 for no time.
func perSecond(n int, s float64) float64 {
	if s <= 0 {
		return 0
	}
	return float64(n) / s
}

// printTable writes the report for a reader.
func (r *report) printTable(w io.Writer) {
	fmt.Fprintf(w, "attpool gossip simulation: %s validators, %d slot(s) of %d committees x %d, GOMAXPROCS %d, %d submitting goroutines, seed %d\n",
		group(int(r.Validators)), r.Slots, r.CommitteesPerSlot, r.CommitteeSize, r.GOMAXPROCS, r.Goroutines, r.Seed)
	fmt.Fprintf(w, "setup: %s keys derived in %.2fs, as many attestations signed in %.2fs\n\n",
		group(r.KeysDerived), r.DeriveSeconds, r.SignSeconds)

	// Verdicts and rules of the gossip load.
	fmt.Fprintf(w, "Gossip load: %s messages, %s of them faults\n", group(r.Messages), group(r.FaultsInjected))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  verdict\trule\t%9s\n", "messages")
	for _, v := range []string{"accept", "ignore", "reject"} {
		fmt.Fprintf(tw, "  %s\t\t%9s\n", v, group(r.Verdicts[v]))
		for _, rule := range sortedRules(r.Rules, r.ruleVerdict, v) {
			if rule != v {
				fmt.Fprintf(tw, "  \t%s\t%9s\n", rule, group(r.Rules[rule]))
			}
		}
	}
	tw.Flush()

	fmt.Fprintln(w, "\nInjected faults")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  fault\twhat\texpected\t%8s\t%8s\t\n", "injected", "got")
	for k := kind(1); k < numKinds; k++ {
		f := r.Faults[k.String()]
		mark := "ok"
		if f.Found != f.Injected {
			mark = "MISSED " + group(f.Injected-f.Found)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s (%s)\t%8s\t%8s\t%s\n", k, f.Description, f.Verdict, f.Rule, group(f.Injected), group(f.Found), mark)
	}
	fmt.Fprintf(tw, "  total\t\t\t%8s\t%8s\t\n", group(r.FaultsInjected), group(r.FaultsFound))
	tw.Flush()

	fmt.Fprintf(w, "\nVerification (wall time: first submission to last verdict; %s failing batches bisected on the gossip load)\n", group(int(r.Bisections)))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  pool\tload\t%9s\t%8s\t%10s\t%s\n", "messages", "wall", "messages/s", "speedup")
	row := func(pool, load string, n int, s float64, speedup string) {
		fmt.Fprintf(tw, "  %s\t%s\t%9s\t%7.2fs\t%10s\t%7s\n", pool, load, group(n), s, group(int(perSecond(n, s))), speedup)
	}
	row("batched", "clean", r.CleanMessages, r.VerifyWallSeconds, "")
	row("batched", "gossip", r.Messages, r.FaultsWallSeconds, "")
	if r.BaselineWallSeconds > 0 {
		row("per signature", "clean", r.CleanMessages, r.BaselineWallSeconds, fmt.Sprintf("%.1fx", r.Speedup))
	}
	if r.BaselineFaultsWallSeconds > 0 {
		row("per signature", "gossip", r.Messages, r.BaselineFaultsWallSeconds, fmt.Sprintf("%.1fx", r.FaultsSpeedup))
	}
	tw.Flush()
	if r.BaselineWallSeconds > 0 {
		fmt.Fprintf(w, "  speedup of the pool over each signature alone, clean load: %.1fx (reference: %s)\n", r.Speedup, referenceSpeedup)
	}

	fmt.Fprintf(w, "\nTopics (node on %d subnets; the topics arrive mixed)\n", r.Subnets)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  topic\tmessages\tclean wall\tgossip wall\tper-sig clean\tper-sig gossip\twrong\t")
	for _, name := range topicNames {
		t := r.Topics[name]
		if t == nil {
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\t%.2fs\t%.2fs\t%s\t%s\t%d\t\n", name, group(t.Messages), t.WallSeconds, t.FaultsWallSeconds,
			tableSeconds(t.BaselineWallSeconds), tableSeconds(t.BaselineFaultsWallSeconds), t.WrongVerdicts)
	}
	tw.Flush()
	if len(r.AggregateFaults) > 0 {
		fmt.Fprintln(w, "\nInjected aggregate faults")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  fault\texpected\t%8s\t%8s\t\n", "injected", "got")
		for _, f := range pooltest.AggregateFaults() {
			x, ok := r.AggregateFaults[f.String()]
			if !ok {
				continue
			}
			mark := "ok"
			if x.Found != x.Injected {
				mark = "MISSED " + group(x.Injected-x.Found)
			}
			fmt.Fprintf(tw, "  %s\t%s (%s)\t%8s\t%8s\t%s\n", f, x.Verdict, x.Rule, group(x.Injected), group(x.Found), mark)
		}
		tw.Flush()
	}

	b := r.Block
	fmt.Fprintln(w, "\nBlock packing (AttestationsForBlock(slot+1) after each slot, gossip load)")
	fmt.Fprintf(w, "  on-chain aggregates  %d\n", b.OnChainAggregates)
	fmt.Fprintf(w, "  attesters included   %s of %s accepted, by either topic (%.2f%%)\n", group(b.AttestersIncluded), group(b.AttestersAccepted), 100*b.Coverage)
	if r.ptc {
		fmt.Fprintf(w, "  payload attestations %d, %d verified (process_payload_attestation: FastAggregateVerify over the PTC), covering %s of the %s PTC positions of the accepted votes\n",
			b.PayloadAttestations, b.PayloadAttestationsVerified, group(b.PTCPositionsIncluded), group(b.PTCPositionsAccepted))
	}
	fmt.Fprintf(w, "  pool after clean load: %d aggregates, %.1f MiB of heap\n", r.Aggregates, float64(r.HeapBytes)/(1<<20))
	fmt.Fprintf(w, "\ntotal %.1fs\n", r.TotalSeconds)

	if r.WrongVerdicts == 0 {
		fmt.Fprintf(w, "every verdict as expected (%s gossip messages, %s clean)\n", group(r.Messages), group(r.CleanMessages))
		return
	}
	fmt.Fprintf(w, "\n%s verdict(s) differ from the expected ones", group(r.WrongVerdicts))
	if len(r.Wrong) < r.WrongVerdicts {
		fmt.Fprintf(w, " (first %d)", len(r.Wrong))
	}
	fmt.Fprintln(w, ":")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  run\tslot\tmessage\tkind\tvalidator\twant\tgot\t")
	for _, x := range r.Wrong {
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%d\t%s\t%s\t\n", x.Run, x.Slot, x.Message, x.Kind, x.Validator, x.Want, x.Got)
	}
	tw.Flush()
}

// sortedRules lists the rules that gave verdict v, the most frequent
// first.
func sortedRules(rules map[string]int, ruleVerdict map[string]string, v string) []string {
	var out []string
	for rule := range rules {
		if ruleVerdict[rule] == v {
			out = append(out, rule)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if rules[a] != rules[b] {
			return rules[b] - rules[a]
		}
		return strings.Compare(a, b)
	})
	return out
}

// tableSeconds formats a wall time of the tables, "-" for a run not made.
func tableSeconds(s float64) string {
	if s <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fs", s)
}
