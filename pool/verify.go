package pool

import (
	"time"

	"github.com/sirupsen/logrus"

	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/verifier"
)

// The verify goroutines: each takes batches from the batcher, decodes their
// signatures, verifies them and hands every verdict to the completer.

// verifyLoop is a verify goroutine of role r: it takes batches, verifies
// them and reports the verdicts to the completer, until the batcher is
// closed and both lanes drained.
func (p *Pool) verifyLoop(r role) {
	wake := p.batch.wake
	switch r {
	case backup:
		wake = p.batch.wakeBackup
	case isolated:
		wake = p.batch.wakeApart
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		batch, apart, wait, done := p.batch.take(r)
		if batch != nil {
			start := time.Now()
			p.verify(batch, apart)
			if r == isolated {
				p.rest(timer, time.Since(start))
			}
			continue
		}
		if done {
			return
		}
		if wait < 0 {
			wait = time.Hour
		}
		timer.Reset(wait)
		select {
		case <-wake:
		case <-timer.C:
		case <-p.batch.closing:
		}
	}
}

// isolatedShare is the most of a core the isolated peers' goroutine spends
// verifying (see rest). An isolated attacker's flood takes no more from the
// other batches. What its lane cannot verify in time times out and leaves
// the queues. The cost: an honest peer isolated by one invalid signature is
// verified at a quarter of a core for about a slot, the score's half-life.
const isolatedShare = 0.25

// rest waits after a call of the isolated peers' goroutine that took took.
// It waits as long as keeps its verification within isolatedShare of a
// core, or until the pool closes (its drain does not wait).
func (p *Pool) rest(timer *time.Timer, took time.Duration) {
	timer.Reset(time.Duration(float64(took) * (1/isolatedShare - 1)))
	select {
	case <-timer.C:
	case <-p.batch.closing:
	}
}

// verify verifies a batch, reporting each set's verdict to the completer as
// soon as the verifier decides it, and taints the peers of invalid sets.
func (p *Pool) verify(batch []*job, apart bool) {
	start := time.Now()
	if batch = p.resolveKeys(batch); len(batch) == 0 {
		return
	}
	batch = p.decodeSignatures(batch)
	sets := make([]verifier.Set, len(batch))
	oldest := start
	for i, j := range batch {
		sets[i] = j.set
		if j.queued.Before(oldest) {
			oldest = j.queued
		}
		p.metrics.queueWait.Observe(start.Sub(j.queued).Seconds())
	}
	// Counted before any verdict goes out, so a caller that sees its
	// verdict finds its batch in the metrics.
	p.metrics.batchSize.Observe(float64(len(sets)))
	if apart {
		p.metrics.isolated.Add(float64(len(batch)))
	}
	invalid := 0
	var searching func()
	var suspects []Peer // nil: no search began
	if !apart {
		searching = func() { suspects = peersOf(batch); p.batch.searchStarted(suspects) }
	}
	p.check(sets, apart, func(i int, valid bool) {
		j := batch[i]
		// The peer's state is updated before the verdict goes out, so the
		// next set its caller submits is batched by it.
		switch {
		case !valid:
			invalid++
			j.g.failed.Store(true)
			p.taint(j.from)
		case apart:
			p.batch.vouch(j.from)
		}
		p.done.report(verdict{j: j, ok: valid})
	}, searching)
	if suspects != nil {
		p.batch.searchEnded(suspects)
	}
	end := time.Now()
	took := end.Sub(start)
	if !apart {
		p.batch.verified(len(batch), rootsOf(sets), took, end.Sub(oldest), invalid == 0)
	}
	p.metrics.verifyTime.Observe(took.Seconds())
	p.log.WithFields(logrus.Fields{"sets": len(sets), "invalid": invalid, "apart": apart, "took": took}).Debug("verified batch")
}

// rootsOf is the number of signing roots of sets, whose sets of one root
// are consecutive (as the batcher takes them).
func rootsOf(sets []verifier.Set) int {
	n := 0
	for i := range sets {
		if i == 0 || sets[i].Root != sets[i-1].Root {
			n++
		}
	}
	return n
}

// peersOf returns the distinct peers that forwarded the batch's sets,
// NoPeer left out, as a non-nil slice.
func peersOf(batch []*job) []Peer {
	seen := make(map[Peer]bool)
	out := []Peer{}
	for _, j := range batch {
		if j.from != NoPeer && !seen[j.from] {
			seen[j.from] = true
			out = append(out, j.from)
		}
	}
	return out
}

// decodeSignatures decodes the batch's undecoded signatures, in parallel.
// It answers the jobs whose signature does not decode (an invalid
// signature: its peer is tainted as for any other) and returns the others.
func (p *Pool) decodeSignatures(batch []*job) []*job {
	var todo []int
	for i, j := range batch {
		if j.undecoded {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return batch
	}
	bad := make([]bool, len(batch))
	par.For(len(todo), decodeChunk, func(k int) {
		i := todo[k]
		j := batch[i]
		// [REJECT] The attestation signature is valid (it does not decode).
		_, err := j.set.Decoded.SetBytesNoSubgroupCheck(j.set.Signature[:])
		bad[i], j.undecoded = err != nil, false
	})
	kept := batch[:0:0]
	for i, j := range batch {
		if !bad[i] {
			kept = append(kept, j)
			continue
		}
		j.g.failed.Store(true)
		p.taint(j.from)
		p.done.report(verdict{j: j})
	}
	return kept
}

// decodeChunk is the signatures a goroutine of decodeSignatures claims at a
// time. At about 35 µs each, 16 make the claim negligible. They still end
// the goroutines of a batch of a few hundred together.
const decodeChunk = 16

// check runs the verifier on sets, streaming if it can, and tells
// searching (when not nil) that a failing call's search began. The
// isolated peers' sets (apart) go to VerifySuspect. They are mostly
// invalid, and must not steer the search of the pool's other calls, or of
// another user of a shared verifier.
func (p *Pool) check(sets []verifier.Set, apart bool, report func(i int, valid bool), searching func()) {
	switch {
	case p.stream == nil:
		for i, ok := range p.v.Verify(sets) {
			report(i, ok)
		}
	case apart:
		p.stream.VerifySuspect(sets, report)
	default:
		p.stream.VerifyStreamSearch(sets, report, searching)
	}
}
