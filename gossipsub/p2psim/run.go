package p2psim

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/pool"
)

// Run publishes the phases in turn, each message from its source, and
// waits after each phase until every expected validation has happened, or
// until no validation or drop has been recorded for idle, or ctx ends.
func (n *Net) Run(ctx context.Context, phases []Phase, idle time.Duration) (*Result, error) {
	var all []*Msg
	for p := range phases {
		for i := range phases[p].Msgs {
			m := &phases[p].Msgs[i]
			if m.Source < 0 || m.Source >= len(n.Sources) {
				return nil, fmt.Errorf("%w: source %d of %d", ErrConfig, m.Source, len(n.Sources))
			}
			m.ID = messageID(m)
			n.rec.expect(m.ID)
			all = append(all, m)
		}
	}
	mem := sampleMemory()
	for p := range phases {
		phases[p].Clock()
		if err := n.publish(ctx, &phases[p]); err != nil {
			mem()
			return nil, err
		}
		n.waitPhase(ctx, all, idle)
	}
	n.waitHostile(ctx, all)
	// Two score inspections after the last event.
	select {
	case <-ctx.Done():
	case <-time.After(250 * time.Millisecond):
	}
	r := n.result(all)
	r.PeakHeap, r.Allocated = mem()
	return r, nil
}

// heapPeriod is how often a Run samples the heap: often enough to see a
// phase's peak, rarely enough that the world's stops do not count.
const heapPeriod = 20 * time.Millisecond

// sampleMemory samples runtime.MemStats.HeapInuse until the returned stop
// is called, which returns the largest sample and the bytes allocated
// meanwhile (the growth of TotalAlloc).
func sampleMemory() (stop func() (peak, allocated uint64)) {
	done, peak := make(chan struct{}), make(chan uint64)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	start := ms.TotalAlloc
	go func() {
		t := time.NewTicker(heapPeriod)
		defer t.Stop()
		var most uint64
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			most = max(most, ms.HeapInuse)
			select {
			case <-done:
				peak <- most
				return
			case <-t.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		most := <-peak
		runtime.ReadMemStats(&ms)
		return most, ms.TotalAlloc - start
	}
}

// publish sends the phase's messages, each source's in order and spaced
// over the phase's Spread, or at their At, all sources at once.
func (n *Net) publish(ctx context.Context, ph *Phase) error {
	bySource := make([][]*Msg, len(n.Sources))
	for i := range ph.Msgs {
		bySource[ph.Msgs[i].Source] = append(bySource[ph.Msgs[i].Source], &ph.Msgs[i])
	}
	var wg sync.WaitGroup
	errs := make([]error, len(n.Sources))
	for s, ms := range bySource {
		wg.Go(func() {
			start := time.Now()
			for k, m := range ms {
				at := m.At
				if at <= 0 {
					at = ph.Spread * time.Duration(k) / time.Duration(len(ms))
				}
				if wait := time.Until(start.Add(at)); wait > 0 {
					select {
					case <-ctx.Done():
						return
					case <-time.After(wait):
					}
				}
				m.published = time.Now()
				if err := n.Sources[s].topics[m.Topic].Publish(ctx, m.Data); err != nil {
					errs[s] = fmt.Errorf("attpool/gossipsub/p2psim: publish: %w", err)
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// waitPhase waits until the validations expected so far have all happened,
// or nothing new happened for idle, or ctx ends.
func (n *Net) waitPhase(ctx context.Context, all []*Msg, idle time.Duration) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	last, lastChange := -1, time.Now()
	for {
		count := n.rec.eventCount()
		if count != last {
			last, lastChange = count, time.Now()
		}
		if n.allValidated(all) || time.Since(lastChange) > idle {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// allValidated reports whether every published message has the
// validations it expects.
func (n *Net) allValidated(all []*Msg) bool {
	done := true
	for _, m := range all {
		if m.published.IsZero() || m.Want.Dedup || m.Want.Hostile {
			continue
		}
		want, entry := 1, n.cfg.Sources[m.Source]
		if m.Want.Verdict == pool.Accept {
			want = len(n.Hosts)
		}
		n.rec.with(m.ID, func(e *msgEvents) {
			got := 0
			for h := range n.Hosts {
				if e.outcome[h] != nil || e.dropped[h] != "" {
					got++
				}
			}
			if got < want && (m.Want.Verdict == pool.Accept || e.outcome[entry] == nil) {
				done = false
			}
		})
		if !done {
			return false
		}
	}
	return true
}

// waitHostile waits, after the phases, until every hostile message has an
// outcome or a router's drop at its entry host, or cannot get one any more:
// the validator's timeout (and a second) has passed since it was published
// (its entry host's router received it from a graylisted peer and dropped
// it unrecorded, or never received it), or ctx ends.
func (n *Net) waitHostile(ctx context.Context, all []*Msg) {
	timeout := n.cfg.Validators.Timeout
	if timeout <= 0 {
		timeout = gossipsub.DefaultConfig().Timeout
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		settled := true
		for _, m := range all {
			if !m.Want.Hostile || m.published.IsZero() || time.Since(m.published) > timeout+time.Second {
				continue
			}
			entry := n.cfg.Sources[m.Source]
			n.rec.with(m.ID, func(e *msgEvents) {
				settled = settled && (e.outcome[entry] != nil || e.dropped[entry] != "")
			})
			if !settled {
				break
			}
		}
		if settled {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Hop is the latency of messages at one distance from their source (Hop 1
// is the entry host), or at one host.
type Hop struct {
	Hop                int
	Count              int
	P50, P90, P99, Max time.Duration
}

// Result is what a Run observed.
type Result struct {
	Hosts    int
	Messages int
	// Verdicts counts, per validating host, the validations by rule
	// ("accept", "invalid_signature", "undecodable", ...).
	Verdicts []map[string]int
	// Wrong lists the validations whose outcome is not the expected one,
	// and the expected validations that did not happen (for the honest
	// sources' messages).
	Wrong []string
	// Forwarded lists the messages not accepted that a host other than
	// their entry host received or validated.
	Forwarded []string
	// RouterDropped counts the messages the entry host's router dropped
	// before the validator (by reason: "validation throttled",
	// "validation queue full", ...), and ScoreDropped those it received
	// but neither validated nor traced (a source below the gossip or
	// graylist threshold), and Deduplicated the copies dropped by
	// message-id as expected.
	RouterDropped map[string]int
	ScoreDropped  int
	Deduplicated  int
	// Hops is the delivery latency per hop, from publication to the
	// router's delivery (the pool's verdict included).
	Hops []Hop
	// Validation is, per validating host, the time its validators took
	// (decoding and the pool's verdict), over every validated message; its
	// Hop field is the host's index.
	Validation []Hop
	// Honest is the time the validators took over the honest messages
	// (neither Hostile nor planned as REJECT) at every host that validated
	// them: their verdicts' latency; its Hop field is 0.
	Honest Hop
	// Hostile counts the fates of the hostile messages at their entry host:
	// the rule of its verdict, "router: " and the reason of a drop before
	// validation, or "unvalidated" (dropped unrecorded: the attacker
	// graylisted).
	Hostile map[string]int
	// SourceScores is each source's peer score at its entry host at the end.
	SourceScores []float64
	// PeakHeap is the largest heap in use (runtime.MemStats.HeapInuse) the
	// run sampled, every host's together (they share the process).
	PeakHeap uint64
	// Allocated is the bytes the process allocated during the run
	// (runtime.MemStats.TotalAlloc), every host's and source's together:
	// what the run's messages cost in allocation, freed or not.
	Allocated uint64
}

// Check returns an error naming every wrong verdict, missing validation,
// forwarded invalid message and router drop.
func (r *Result) Check() error {
	var errs []error
	for _, w := range r.Wrong {
		errs = append(errs, errors.New(w))
	}
	for _, f := range r.Forwarded {
		errs = append(errs, errors.New(f))
	}
	for reason, c := range r.RouterDropped {
		errs = append(errs, fmt.Errorf("%d messages dropped by a router: %s", c, reason))
	}
	if r.ScoreDropped > 0 {
		errs = append(errs, fmt.Errorf("%d messages dropped for their source's score", r.ScoreDropped))
	}
	return errors.Join(errs...)
}

func (n *Net) result(all []*Msg) *Result {
	r := &Result{Hosts: len(n.Hosts), Messages: len(all), RouterDropped: make(map[string]int), Hostile: make(map[string]int)}
	for range n.Hosts {
		r.Verdicts = append(r.Verdicts, make(map[string]int))
	}
	hops := make(map[int][]time.Duration)
	took := make(map[int][]time.Duration)
	var honest []time.Duration
	for _, m := range all {
		n.rec.with(m.ID, func(e *msgEvents) {
			n.judge(r, m, e, hops)
			for h, o := range e.outcome {
				if o == nil || m.Want.Dedup {
					continue
				}
				took[h] = append(took[h], o.Took)
				if !m.Want.Hostile && m.Want.Verdict != pool.Reject {
					honest = append(honest, o.Took)
				}
			}
		})
	}
	if len(honest) > 0 {
		r.Honest = percentiles(0, honest)
	}
	for h := 1; h <= len(n.Hosts); h++ {
		if d := hops[h]; len(d) > 0 {
			r.Hops = append(r.Hops, percentiles(h, d))
		}
	}
	for h := range n.Hosts {
		if d := took[h]; len(d) > 0 {
			r.Validation = append(r.Validation, percentiles(h, d))
		}
	}
	n.rec.mu.Lock()
	for s, e := range n.cfg.Sources {
		r.SourceScores = append(r.SourceScores, n.rec.score[e][n.Sources[s].Host.ID()])
	}
	n.rec.mu.Unlock()
	return r
}

// judge adds message m's events to r.
func (n *Net) judge(r *Result, m *Msg, e *msgEvents, hops map[int][]time.Duration) {
	if m.Want.Dedup {
		// The copy shares the original's id and events: the original's
		// single validation per host (checked below) shows it was dropped.
		r.Deduplicated++
		return
	}
	entry := n.cfg.Sources[m.Source]
	name := fmt.Sprintf("%s %s %x from source %d", m.Kind, m.Label, m.ID[:4], m.Source)
	if m.Want.Hostile {
		n.judgeHostile(r, name, entry, e)
		return
	}
	for h := range n.Hosts {
		if o := e.outcome[h]; o != nil {
			r.Verdicts[h][rule(o.Result)]++
			if e.validated[h] > 1 {
				r.Wrong = append(r.Wrong, fmt.Sprintf("%s: validated %d times at host %d", name, e.validated[h], h))
			}
			if !matches(m.Want, o.Result) {
				r.Wrong = append(r.Wrong, fmt.Sprintf("%s: host %d: %v, want %v (%v)", name, h, o.Result, m.Want.Verdict, m.Want.Err))
			}
		}
		if d := e.dropped[h]; d != "" {
			r.RouterDropped[d]++
		}
	}
	switch {
	case m.Want.Verdict == pool.Accept:
		for h := range n.Hosts {
			if e.outcome[h] == nil {
				r.Wrong = append(r.Wrong, fmt.Sprintf("%s: not validated at host %d", name, h))
				continue
			}
			if !e.delivered[h].IsZero() {
				hop := Distance(entry, h) + 1
				hops[hop] = append(hops[hop], e.delivered[h].Sub(m.published))
			}
		}
	default:
		for h := range n.Hosts {
			if h != entry && (e.received[h] > 0 || e.outcome[h] != nil) {
				r.Forwarded = append(r.Forwarded, fmt.Sprintf("%s: reached host %d past its entry host %d", name, h, entry))
			}
		}
		if e.outcome[entry] == nil && e.dropped[entry] == "" {
			if e.received[entry] > 0 {
				r.ScoreDropped++
			} else {
				r.Wrong = append(r.Wrong, name+": never reached its entry host")
			}
		}
	}
}

// judgeHostile adds a hostile message's events to r: accepted nowhere,
// seen by no host but its entry host, and its fate there.
func (n *Net) judgeHostile(r *Result, name string, entry int, e *msgEvents) {
	for h := range n.Hosts {
		if o := e.outcome[h]; o != nil {
			r.Verdicts[h][rule(o.Result)]++
			if o.Result.Verdict == pool.Accept {
				r.Wrong = append(r.Wrong, fmt.Sprintf("%s: accepted at host %d", name, h))
			}
		}
		if h != entry && (e.received[h] > 0 || e.outcome[h] != nil) {
			r.Forwarded = append(r.Forwarded, fmt.Sprintf("%s: reached host %d past its entry host %d", name, h, entry))
		}
	}
	switch o := e.outcome[entry]; {
	case o != nil:
		r.Hostile[rule(o.Result)]++
	case e.dropped[entry] != "":
		r.Hostile["router: "+e.dropped[entry]]++
	default:
		r.Hostile["unvalidated"]++
	}
}

func percentiles(label int, d []time.Duration) Hop {
	slices.Sort(d)
	return Hop{Hop: label, Count: len(d), P50: d[len(d)/2], P90: d[len(d)*9/10], P99: d[len(d)*99/100], Max: d[len(d)-1]}
}

// rule names an outcome for the verdict tables.
func rule(res pool.Result) string {
	if errors.Is(res.Err, gossipsub.ErrUndecodable) {
		return "undecodable"
	}
	return res.Rule()
}

// matches reports whether res is the verdict want asks for.
func matches(want Expect, res pool.Result) bool {
	if res.Verdict != want.Verdict {
		return false
	}
	if want.Err == nil {
		return res.Err == nil
	}
	return errors.Is(res.Err, want.Err)
}
