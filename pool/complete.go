package pool

import (
	"sync"

	"github.com/prysmaticlabs/go-bitfield"
)

// verdict is the verifier's verdict on one job.
type verdict struct {
	j  *job
	ok bool
	// skip, when its Err is set, says the set was not verified (ok is
	// true): its message's verdict is skip unless another of its sets is
	// invalid (an isolated peer's lane had no room for it, Pool.taint; its
	// key could not be had, Pool.resolveKeys).
	skip Result
}

// completer turns verdicts into answers on a goroutine of its own, so that
// a verify goroutine reports a set's verdict as soon as the verifier
// decides it and goes on: it answers, in one go, every verdict reported
// since it last looked (few when the verifier streams them early, a batch's
// worth when they come together).
type completer struct {
	mu    sync.Mutex
	inbox []verdict
	wake  chan struct{}
	quit  chan struct{} // closed once no more verdicts can come
}

func newCompleter() *completer {
	return &completer{wake: make(chan struct{}, 1), quit: make(chan struct{})}
}

func (c *completer) report(v verdict) {
	c.mu.Lock()
	c.inbox = append(c.inbox, v)
	c.mu.Unlock()
	signal(c.wake)
}

// reported returns and forgets the verdicts reported so far.
func (c *completer) reported() []verdict {
	c.mu.Lock()
	defer c.mu.Unlock()
	vs := c.inbox
	c.inbox = nil
	return vs
}

// completeLoop is the completer's goroutine; it returns when quit is closed
// and every verdict reported before is answered.
func (p *Pool) completeLoop() {
	for {
		select {
		case <-p.done.wake:
			p.complete(p.done.reported())
		case <-p.done.quit:
			p.complete(p.done.reported())
			return
		}
	}
}

// complete answers the messages whose signatures the verdicts complete: the
// chain rules, then (under the lock) the first-seen rules again, the seen
// marks and the merge of the signature points, decoded once before
// verification, into the pool; the verdicts go out last, so a caller that
// sees Accept finds the attestation in the pool. A message gets its verdict once all its sets
// are reported, whichever batches they were in. The sets stay counted as
// pending (against MaxPending) until just before their verdicts go out.
func (p *Pool) complete(vs []verdict) {
	if len(vs) == 0 {
		return
	}
	groups := p.recordVerdicts(vs)
	var outs []outcome
	if len(groups) > 0 {
		outs = p.commit(groups, p.preliminary(groups))
	}
	p.pending.Add(-int64(len(vs)))
	for _, o := range outs {
		o.r.deliver(o.res)
	}
}

// recordVerdicts notes the verdicts in their groups and returns the groups
// they complete, no longer in flight.
func (p *Pool) recordVerdicts(vs []verdict) []*group {
	p.mu.Lock()
	defer p.mu.Unlock()
	var groups []*group
	for _, v := range vs {
		g := v.j.g
		g.ok[v.j.idx] = v.ok
		if v.skip.Err != nil && g.skip.Err == nil {
			g.skip = v.skip
		}
		g.remaining--
		p.releasePeerLocked(g.owner, 1)
		if g.remaining == 0 && !g.dropped.Load() {
			groups = append(groups, g)
			p.leaveInflightLocked(g)
		}
	}
	return groups
}

// preliminary is each group's verdict before the first-seen rules: its
// signatures', then, on the topics that run them now, the chain rules'
// (once per data root).
func (p *Pool) preliminary(groups []*group) []Result {
	pre := make([]Result, len(groups))
	chain := make(map[[32]byte]Result)
	for i, g := range groups {
		pre[i] = g.t.signatures(g.ok)
		if pre[i].Verdict == Accept && g.skip.Err != nil {
			pre[i] = g.skip
		}
		if pre[i].Verdict != Accept || !g.t.chainRules {
			continue
		}
		c, seen := chain[g.info.root]
		if !seen {
			c = p.chainChecks(g.data)
			chain[g.info.root] = c
		}
		pre[i] = c
	}
	return pre
}

// outcome is a verdict to deliver.
type outcome struct {
	r   *request
	res Result
}

// commitment is what commit gathers: the verdicts to deliver and the
// accepted attestations to merge, with the index of their outcome.
type commitment struct {
	outs    []outcome
	singles []*single
	at      []int
	groups  []*group
	indexed indexedResults
	// payloads gathers the signature points of the accepted payload
	// attestations, one merge task per aggregate they join.
	payloads merger
}

// commit applies the first-seen rules and stores what they accept, under
// the lock, and returns the verdicts to deliver.
func (p *Pool) commit(groups []*group, pre []Result) []outcome {
	c := &commitment{outs: make([]outcome, 0, len(groups))}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, g := range groups {
		p.answerGroupLocked(c, g, pre[i])
	}
	p.storeSinglesLocked(c)
	mergeAll(c.payloads.tasks, p.cfg.VerifyWorkers)
	return c.outs
}

// answerGroupLocked answers g's callers still waiting: the first gets the
// message's verdict, committed; the identical copies, the verdict a copy
// gets after it.
func (p *Pool) answerGroupLocked(c *commitment, g *group, pre Result) {
	reqs := g.reqs
	g.reqs = nil
	first := true
	var res Result
	for _, r := range reqs {
		if !r.claim() {
			continue
		}
		if first {
			first = false
			res = p.commitGroupLocked(c, g, pre)
			c.indexed.add(&res, g)
			c.outs = append(c.outs, outcome{r, res})
			continue
		}
		c.outs = append(c.outs, outcome{r, copyVerdict(g, res)})
	}
}

// copyVerdict is the verdict of an identical copy of g's message answered
// just after g's with res: an accepted message's copy breaks its topic's
// first-seen rule.
func copyVerdict(g *group, res Result) Result {
	if res.Verdict != Accept {
		return res
	}
	return ignore(g.t.copySeen)
}

// commitGroupLocked applies the first-seen rules to a message whose
// preliminary verdict is pre and commits it if accepted (topic.commit).
func (p *Pool) commitGroupLocked(c *commitment, g *group, pre Result) Result {
	if pre.Verdict != Accept {
		return pre
	}
	return g.t.commit(c, g)
}

// storeSinglesLocked merges the accepted attestations into their
// aggregates; one the store has no room for is answered Ignore and
// forgotten as seen.
func (p *Pool) storeSinglesLocked(c *commitment) {
	if len(c.singles) == 0 {
		return
	}
	for k, ok := range p.store.addSingles(c.singles) {
		if !ok {
			p.hit(boundStore)
			g := c.groups[k]
			p.attSeen.remove(g.key.epoch, g.key.index)
			c.outs[c.at[k]].res = ignore(ErrPoolFull)
		}
	}
}

// commitAttestationLocked applies the first-seen rule to a valid attestation
// and marks it seen; it joins c's singles, merged into its aggregate by
// storeSinglesLocked.
func (p *Pool) commitAttestationLocked(c *commitment, g *group) Result {
	if res := p.checkAttestationSeenLocked(g); res.Err != nil {
		return res
	}
	p.attSeen.add(g.key.epoch, g.key.index)
	c.singles = append(c.singles, &single{key: g.agg, data: g.data, pos: g.pos, size: g.size, sig: &g.point})
	c.at = append(c.at, len(c.outs))
	c.groups = append(c.groups, g)
	return accepted
}

// commitAggregateLocked applies the seen rules to a valid aggregate, marks it
// seen and stores it.
func (p *Pool) commitAggregateLocked(_ *commitment, g *group) Result {
	if res := p.checkAggregateSeenLocked(g); res.Err != nil {
		return res
	}
	if !p.store.addAggregate(g.agg, g.data, g.bits, &g.point) {
		p.hit(boundStore)
		return ignore(ErrPoolFull)
	}
	bits := make(bitfield.Bitlist, len(g.bits))
	copy(bits, g.bits)
	if !p.aggSeen.add(g.agg, g.data.Slot, bits) {
		p.metrics.dropped.Inc()
		p.hit(boundSeenAggregates) // logged once a slot (logBounds)
	}
	p.aggrSeen.add(g.key.epoch, g.key.index)
	return accepted
}
