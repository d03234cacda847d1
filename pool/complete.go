package pool

import (
	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/crypto"
)

// dropInflightLocked forgets g as the in-flight copy of its message.
func (p *Pool) dropInflightLocked(g *group) {
	m := p.inflight(g.kind)
	if m[g.key] == g {
		delete(m, g.key)
	}
}

// complete turns the verified signatures of a batch into verdicts: for each
// message whose signatures are all known, the chain rules, then (under the
// lock) the first-seen rules again, the seen marks and the merge of its
// signature point, decoded at intake, into the pool; the verdicts are sent
// last, so a caller that sees Accept finds the attestation in the pool.
func (p *Pool) complete(batch []*job, ok []bool) {
	p.mu.Lock()
	var groups []*group
	for i, j := range batch {
		g := j.g
		g.ok[j.idx] = ok[i]
		g.remaining--
		if g.remaining == 0 {
			groups = append(groups, g)
			p.dropInflightLocked(g)
			p.followers -= max(0, len(g.reqs)-1)
		}
	}
	p.mu.Unlock()
	if len(groups) == 0 {
		return
	}

	pre := make([]Result, len(groups))
	chain := make(map[[32]byte]Result)
	for i, g := range groups {
		pre[i] = g.sigVerdict()
		if pre[i].Verdict != Accept || g.kind == kindPayloadAttestation {
			continue // a payload attestation's chain rules ran at intake
		}
		c, seen := chain[g.info.root]
		if !seen {
			c = p.chainChecks(g.data)
			chain[g.info.root] = c
		}
		pre[i] = c
	}

	type outcome struct {
		r   *request
		res Result
	}
	outs := make([]outcome, 0, len(groups))
	var singles []*single
	var singleOut []int
	var singleGroup []*group

	var indexed indexedResults
	p.mu.Lock()
	for i, g := range groups {
		reqs := g.reqs
		g.reqs = nil
		first := true
		var res Result
		for _, r := range reqs {
			if !r.claim() {
				continue
			}
			if !first {
				// An identical copy of a message answered just before.
				if res.Verdict == Accept {
					dup := ErrAlreadySeen
					if g.kind == kindAggregate {
						dup = ErrAggregatorSeen
					} else if g.kind == kindPayloadAttestation {
						dup = ErrPayloadAttestationSeen
					}
					outs = append(outs, outcome{r, ignore(dup)})
				} else {
					outs = append(outs, outcome{r, res})
				}
				continue
			}
			first = false
			res = pre[i]
			if res.Verdict == Accept {
				if g.kind == kindAttestation {
					res = p.commitAttestationLocked(g)
					if res.Verdict == Accept {
						singles = append(singles, &single{key: g.agg, data: g.data, pos: g.pos, size: g.size, sig: &g.point})
						singleOut = append(singleOut, len(outs))
						singleGroup = append(singleGroup, g)
					}
				} else if g.kind == kindPayloadAttestation {
					res = p.commitPayloadAttestationLocked(g)
				} else {
					res = p.commitAggregateLocked(g, &g.point)
				}
				indexed.add(&res, g)
			}
			outs = append(outs, outcome{r, res})
		}
	}
	if len(singles) > 0 {
		stored := p.store.addSingles(singles)
		for k, ok := range stored {
			if !ok {
				g := singleGroup[k]
				p.attSeen.remove(g.key.epoch, g.key.index)
				outs[singleOut[k]].res = ignore(ErrPoolFull)
			}
		}
	}
	p.mu.Unlock()

	for _, o := range outs {
		o.r.deliver(o.res)
	}
}

// commitAttestationLocked applies the first-seen rule to a valid attestation
// and marks it seen.
func (p *Pool) commitAttestationLocked(g *group) Result {
	// [IGNORE] There has been no other valid attestation seen on an attestation
	// subnet that has an identical attestation.data.target.epoch and
	// participating validator index (another copy may have won meanwhile).
	if p.attSeen.has(g.key.epoch, g.key.index) {
		return ignore(ErrAlreadySeen)
	}
	p.attSeen.add(g.key.epoch, g.key.index)
	return accepted
}

// commitAggregateLocked applies the seen rules to a valid aggregate, marks it
// seen and stores it.
func (p *Pool) commitAggregateLocked(g *group, sig *crypto.Signature) Result {
	if res := p.checkAggregateSeenLocked(g); res.Err != nil {
		return res
	}
	if !p.store.addAggregate(g.agg, g.data, g.bits, sig) {
		return ignore(ErrPoolFull)
	}
	bits := make(bitfield.Bitlist, len(g.bits))
	copy(bits, g.bits)
	if !p.aggSeen.add(g.agg, g.data.Slot, bits) {
		p.metrics.dropped.Inc()
		p.log.WithField("slot", g.data.Slot).Warn("seen-aggregate cache full; aggregate kept but not remembered")
	}
	p.aggrSeen.add(g.key.epoch, g.key.index)
	return accepted
}
