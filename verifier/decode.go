package verifier

import (
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
)

// decode decompresses every signature once, in parallel, rejects the sets
// that cannot take part in a sum, and orders the others by signing root.
func (c *call) decode() {
	n := len(c.sets)
	c.sigs = make([]crypto.Signature, n)
	ok := make([]bool, n)
	undecoded := 0 // the sets whose caller decoded the signature cost a copy
	for i := range c.sets {
		if c.sets[i].Decoded == nil {
			undecoded++
		}
	}
	c.helpers = c.v.helpersFor(float64(undecoded) * costDecode)
	c.each(n, min(decodeChunk, max(1, n/(2*c.width()))), func(i int) { ok[i] = c.decodeOne(i) })
	for i := range n {
		if !ok[i] {
			c.settle(i, false) // decided by this set alone: no key or no point
		}
	}
	c.orderByRoot(ok)
}

// decodeOne decodes set i's signature into c.sigs[i] and reports whether
// the set is a candidate. No key, the zero-value key and the point at
// infinity (no valid key is) make this set invalid, and no other. They
// never enter a sum. Nor does the infinity signature, which never verifies
// against a valid key.
func (c *call) decodeOne(i int) bool {
	s := &c.sets[i]
	if s.PublicKey == nil || blspoint.Key(s.PublicKey).IsInfinity() {
		return false
	}
	if s.Decoded != nil {
		c.sigs[i] = *s.Decoded
	} else if _, err := c.sigs[i].SetBytesNoSubgroupCheck(s.Signature[:]); err != nil {
		return false
	}
	return !c.sigs[i].IsInfinity()
}

// orderByRoot makes the candidates, the sets with ok, and their groups, one
// per signing root: each group's candidates consecutive, in the sets' order.
func (c *call) orderByRoot(ok []bool) {
	index := make(map[[32]byte]int)
	var members [][]int
	for i := range c.sets {
		if !ok[i] {
			continue
		}
		g, seen := index[c.sets[i].Root]
		if !seen {
			g = len(c.groups)
			index[c.sets[i].Root] = g
			c.groups = append(c.groups, group{root: c.sets[i].Root})
			members = append(members, nil)
		}
		members[g] = append(members[g], i)
	}
	for g, ms := range members {
		c.groups[g].lo = len(c.cand)
		c.cand = append(c.cand, ms...)
		c.groups[g].hi = len(c.cand)
		for range ms {
			c.gOf = append(c.gOf, g)
		}
	}
}

// decodeChunk is the most signatures a worker decompresses per chunk. It
// amortises scheduling yet lets two workers share a small call evenly.
const decodeChunk = 16
