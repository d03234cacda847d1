package verifier

import (
	"math"
	"math/bits"

	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// node is a range [lo, hi) of candidates with its blinded sums: S = sum r_k
// s_k over the range, and P[g-gLo] = sum r_k pk_k over the range's part of
// group g, for the groups gLo..gLo+len(P)-1 that the range meets.
type node struct {
	lo, hi int
	S      curve.G2
	gLo    int
	P      []curve.G1

	// A is the node's check value in GT (not one: the node fails), when
	// hasA; em marks a node likely to hold a single invalid set, for the
	// exponentiation method. own marks a value computed by a pairing of sums
	// made from the node's own points (not inherited from a parent, nor a
	// parent's sums less a sibling's): for a single set, a check of that set
	// alone.
	A    curve.GT
	hasA bool
	em   bool
	own  bool
}

// prepare builds the candidate point slices that sums and checks read.
func (c *call) points() (pks []*curve.G1Affine, sigs []*curve.G2Affine) {
	pks = make([]*curve.G1Affine, len(c.cand))
	sigs = make([]*curve.G2Affine, len(c.cand))
	for k, i := range c.cand {
		pks[k] = blspoint.Key(c.sets[i].PublicKey)
		sigs[k] = blspoint.Signature(&c.sigs[i])
	}
	return pks, sigs
}

// sums computes the node of [lo, hi); S, when not nil, is its known G2 sum,
// and known holds key sums of groups that lie wholly inside the range. It
// only reads the call, so nodes may be summed concurrently; callers account
// for the cost.
func (c *call) sums(lo, hi int, S *curve.G2, known map[int]curve.G1) node {
	if c.pks == nil {
		c.pks, c.pts = c.points()
	}
	nb, nbits := c.nbytes, c.nbits
	nd := node{lo: lo, hi: hi, gLo: c.gOf[lo]}
	gHi := c.gOf[hi-1]
	nd.P = make([]curve.G1, gHi-nd.gLo+1)
	part := func(g int) (int, int) {
		return max(lo, c.groups[g].lo), min(hi, c.groups[g].hi)
	}
	c.v.w.forEach(len(nd.P), 1, func(x int) {
		a, b := part(nd.gLo + x)
		if P, ok := known[nd.gLo+x]; ok {
			nd.P[x] = P
		} else if a < b {
			nd.P[x] = curve.MultiExpG1(c.pks[a:b], c.scalars[a*nb:b*nb], nbits)
		}
	})
	if S != nil {
		nd.S = *S
	} else {
		nd.S = curve.MultiExpG2(c.pts[lo:hi], c.scalars[lo*nb:hi*nb], nbits)
	}
	return nd
}

// minus returns the node of parent's range less left's (left is a prefix).
func (c *call) minus(parent, left *node) node {
	nd := node{lo: left.hi, hi: parent.hi, gLo: c.gOf[left.hi], S: parent.S}
	nd.S.Sub(&left.S)
	gHi := parent.gLo + len(parent.P) - 1
	nd.P = make([]curve.G1, gHi-nd.gLo+1)
	for x := range nd.P {
		g := nd.gLo + x
		nd.P[x] = parent.P[g-parent.gLo]
		if g-left.gLo < len(left.P) {
			nd.P[x].Sub(&left.P[g-left.gLo])
		}
	}
	return nd
}

func (c *call) checkCost(nd node) float64 {
	return float64(len(nd.P)+1)*costMiller + costFinalExp
}

// value returns prod_g e(P_g, H(m_g)) * e(-g1, S) in GT: one Miller loop per
// group the node meets plus one, spread over the workers, and one final
// exponentiation. The node's sets are all valid (with the soundness of the
// blinding) exactly when it is one.
func (c *call) value(nd node) curve.GT {
	ps, qs := c.pairs(nd)
	c.v.stats.checks.Add(1)
	return c.v.pairingValue(ps, qs)
}

// valueSerial is value on the calling goroutine alone.
func (c *call) valueSerial(nd node) curve.GT {
	ps, qs := c.pairs(nd)
	c.v.stats.checks.Add(1)
	gt := curve.MillerLoop(ps, qs)
	return gt.FinalExp()
}

// valueMany computes the values of nodes in parallel: one node spreads its
// Miller loops over the workers; several are computed one per worker.
func (c *call) valueMany(nodes []node) []curve.GT {
	out := make([]curve.GT, len(nodes))
	if len(nodes) == 1 {
		out[0] = c.value(nodes[0])
		return out
	}
	c.v.w.forEach(len(nodes), 1, func(x int) {
		out[x] = c.valueSerial(nodes[x])
	})
	return out
}

// pairs returns the pairing inputs of a node's check.
func (c *call) pairs(nd node) ([]curve.G1Affine, []curve.G2Affine) {
	ps := make([]curve.G1, 0, len(nd.P)+1)
	qs := make([]curve.G2Affine, 0, len(nd.P)+1)
	for x := range nd.P {
		g := nd.gLo + x
		if max(nd.lo, c.groups[g].lo) >= min(nd.hi, c.groups[g].hi) {
			continue
		}
		ps = append(ps, nd.P[x])
		qs = append(qs, c.groups[g].h)
	}
	ps = append(ps, c.v.negG1)
	qs = append(qs, nd.S.Affine())
	return curve.BatchAffineG1(ps), qs
}

// pairingValue returns the product of the pairings of (ps[i], qs[i]), with
// the Miller loops spread over the workers.
func (v *Verifier) pairingValue(ps []curve.G1Affine, qs []curve.G2Affine) curve.GT {
	n := len(ps)
	parts := min(n, v.cfg.Workers)
	per := (n + parts - 1) / parts
	parts = (n + per - 1) / per
	gts := make([]curve.GT, parts)
	v.w.forEach(parts, 1, func(x int) {
		lo, hi := x*per, min((x+1)*per, n)
		gts[x] = curve.MillerLoop(ps[lo:hi], qs[lo:hi])
	})
	for x := 1; x < parts; x++ {
		gts[0].Mul(&gts[x])
	}
	return gts[0].FinalExp()
}

// bisect finds the invalid sets of a node known to hold at least one,
// level by level: every failing node of a level is halved at once, the left
// halves' sums computed and checked in parallel. A passing half is accepted
// whole; when the left half passes the right half must fail and is not
// checked; the right half's sums and value are its parent's less (over) the
// left's. A failing node likely to hold a single invalid set (its sibling
// passed, or it is small) first tries the exponentiation method (expMethod).
// Small nodes, and everything once the cost ledger passes the dense budget,
// are checked one by one.
func (c *call) bisect(root node) {
	frontier := []node{root}
	for len(frontier) > 0 {
		var split, em, frontier2 []node
		var alone []int // candidates to check one by one
		for _, nd := range frontier {
			size := nd.hi - nd.lo
			switch {
			case size == 1 && nd.hasA && nd.own:
				// Its own one-set check failed (r_k != 0 mod r): invalid.
				c.settle(c.cand[nd.lo], false)
			case c.spent > c.budget:
				alone = append(alone, allOf(nd)...)
			case nd.em && nd.hasA && size <= emMax && c.reserve(3): // accept, or split
				em = append(em, nd)
			case nd.hasA && size >= karyMin && nd.lo == 0 && nd.hi == len(c.cand) && c.reserve(karyParts(size)):
				// The whole call failed and is large: split it many ways at
				// once (its invalid sets are likely several).
				frontier2 = append(frontier2, c.splitK(nd, karyParts(size))...)
			case size > individualBelow && c.reserve(2): // the left and right halves
				split = append(split, nd)
			default: // small, or no shared check left: one by one
				alone = append(alone, allOf(nd)...)
			}
		}
		c.individual(alone)
		if len(em) > 0 {
			done := c.expMethod(em)
			for x := range em {
				c.spent += float64(em[x].hi-em[x].lo)*(costMSMG1+costMSMG2) + 2*c.checkCost(em[x])
				switch {
				case done[x]:
				case em[x].hi-em[x].lo <= individualBelow:
					c.individual(allOf(em[x]))
				default:
					em[x].em = false
					split = append(split, em[x])
				}
			}
		}
		if len(split) == 0 {
			frontier = frontier2
			continue
		}
		c.v.stats.bisections.Add(int64(len(split)))
		lefts := make([]node, len(split))
		rights := make([]node, len(split))
		c.v.w.forEach(len(split), 1, func(x int) {
			nd := &split[x]
			lefts[x] = c.sums(nd.lo, nd.lo+(nd.hi-nd.lo)/2, nil, nil)
			rights[x] = c.minus(nd, &lefts[x])
		})
		for x := range split {
			c.spent += float64(lefts[x].hi-lefts[x].lo)*(costMSMG1+costMSMG2) + c.checkCost(lefts[x])
		}
		leftVal := c.valueMany(lefts)
		var unknown []node
		frontier = frontier2
		for x := range split {
			if leftVal[x].IsOne() {
				c.accept(lefts[x].lo, lefts[x].hi)
				r := rights[x]
				if split[x].hasA { // value(parent) = value(left) * value(right)
					r.A, r.hasA, r.em = split[x].A, true, true
				}
				frontier = append(frontier, r)
				continue
			}
			l := lefts[x]
			l.A, l.hasA, l.em, l.own = leftVal[x], true, l.hi-l.lo <= emSmall, true
			frontier = append(frontier, l)
			unknown = append(unknown, rights[x])
			c.spent += c.checkCost(rights[x])
		}
		for x, val := range c.valueMany(unknown) {
			if val.IsOne() {
				c.accept(unknown[x].lo, unknown[x].hi)
				continue
			}
			r := unknown[x]
			r.A, r.hasA, r.em = val, true, r.hi-r.lo <= emSmall
			frontier = append(frontier, r)
		}
	}
}

// A failing whole call of at least karyMin candidates is split at once into
// parts of about karyPartSize (karyPartsMin to karyPartsMax parts): all but
// one summed and checked in parallel, the last part's sums and value by
// subtraction and division. Halving such a call level by level would spend
// its first levels on ranges that all fail; parts of 64 are where a range
// of a call with a few invalid sets starts to pass. Fewer than 8 parts would
// not fill the workers; more than 32 cost more checks than the halvings they
// replace.
const (
	karyMin      = 512
	karyPartSize = 64
	karyPartsMin = 8
	karyPartsMax = 32
)

// karyParts is the number of parts a failing whole call of size candidates
// is split into.
func karyParts(size int) int { return min(max(size/karyPartSize, karyPartsMin), karyPartsMax) }

// splitK splits a failing node (with its value) into k parts and returns the
// failing ones, accepting the others; each returned part carries its value
// and, unless every part fails, is marked for the exponentiation method.
func (c *call) splitK(nd node, k int) []node {
	size := nd.hi - nd.lo
	parts := make([]node, k)
	c.v.stats.bisections.Add(1)
	c.v.w.forEach(k-1, 1, func(x int) {
		parts[x] = c.sums(nd.lo+x*size/k, nd.lo+(x+1)*size/k, nil, nil)
	})
	prefix := node{lo: nd.lo, hi: parts[k-2].hi, gLo: nd.gLo, P: make([]curve.G1, len(nd.P))}
	for x := range k - 1 {
		prefix.S.Add(&parts[x].S)
		for y := range parts[x].P {
			prefix.P[parts[x].gLo+y-nd.gLo].Add(&parts[x].P[y])
		}
		c.spent += float64(parts[x].hi-parts[x].lo)*(costMSMG1+costMSMG2) + c.checkCost(parts[x])
	}
	parts[k-1] = c.minus(&nd, &prefix)
	vals := c.valueMany(parts[:k-1])
	last := nd.A // value(nd) = prod of the parts' values
	var failing []node
	for x := range k - 1 {
		if vals[x].IsOne() {
			c.accept(parts[x].lo, parts[x].hi)
			continue
		}
		inv := vals[x]
		last.Mul(inv.Conjugate())
		parts[x].A, parts[x].hasA, parts[x].em, parts[x].own = vals[x], true, true, true
		failing = append(failing, parts[x])
	}
	if last.IsOne() {
		c.accept(parts[k-1].lo, parts[k-1].hi)
	} else {
		parts[k-1].A, parts[k-1].hasA, parts[k-1].em = last, true, true
		failing = append(failing, parts[k-1])
	}
	if len(failing) == k { // every part fails: invalid sets are dense
		for x := range failing {
			failing[x].em = failing[x].hi-failing[x].lo <= emSmall
		}
	}
	return failing
}

// Exponentiation method limits: nodes of at most emMax sets may try it, and
// a failing node of at most emSmall sets whose sibling also failed is
// presumed to hold a single invalid set.
const (
	emMax   = 512
	emSmall = 64
	emRoot  = emMax // a whole call of at most this many candidates tries it
)

// locate looks for the single invalid set of a failing node with one more
// pairing (the exponentiation method of Law and Matt): with weights
// w_k = 1..s on the node's sets, the weighted value B equals A^w_i when set
// i alone is invalid (A is the node's value), found by trying A^j for
// j = 1..s. It returns the candidate i, or ok false when no j matches (the
// node holds two or more invalid sets and must be split). The match only
// names a suspect: expMethod decides.
func (c *call) locate(nd node) (k int, ok bool) {
	s := nd.hi - nd.lo
	wbits := bits.Len(uint(s))
	nbits := c.nbits + wbits
	nb := (nbits + 7) / 8
	sc := make([]byte, s*nb)
	for k := range s {
		mulSmall(sc[k*nb:(k+1)*nb], c.scalars[(nd.lo+k)*c.nbytes:(nd.lo+k+1)*c.nbytes], uint64(k+1))
	}
	w := c.weighted(nd.lo, nd.hi, sc, nbits)
	j := findPower(nd.A, c.valueSerial(w), s)
	if j == 0 {
		return 0, false
	}
	return nd.lo + j - 1, true
}

// expMethod resolves failing nodes likely to hold a single invalid set each:
// locate names a suspect k, and the one-set check of k under the call's
// scalars, V_k = e(r_k pk_k, H) * e(-g1, r_k s_k), decides it (valid exactly
// when V_k is one). When V_k equals the node's value A, the node less k has
// value A/V_k = 1: that is the check of the rest of the node (the pairing
// product of its sums, by bilinearity), which accepts it. It reports, per
// node, whether it was resolved; an unresolved node keeps what its suspect's
// check settled and is split.
func (c *call) expMethod(nodes []node) []bool {
	ks := make([]int, len(nodes))
	oks := make([]bool, len(nodes))
	vals := make([]curve.GT, len(nodes))
	c.v.w.forEach(len(nodes), 1, func(x int) {
		ks[x], oks[x] = c.locate(nodes[x])
		if oks[x] {
			vals[x] = c.valueSerial(c.sums(ks[x], ks[x]+1, nil, nil))
		}
	})
	done := make([]bool, len(nodes))
	for x := range nodes {
		if !oks[x] {
			continue
		}
		k := ks[x]
		if vals[x].IsOne() { // the suspect is valid: the weights were fooled
			c.settle(c.cand[k], true)
			continue
		}
		c.settle(c.cand[k], false)
		if !vals[x].Equal(&nodes[x].A) { // more invalid sets in the node
			continue
		}
		done[x] = true
		c.v.stats.expMethod.Add(1)
		c.accept(nodes[x].lo, k)
		c.accept(k+1, nodes[x].hi)
	}
	return done
}

// weighted returns the node of [lo, hi) with sums under the given scalars
// (nbits bits, little-endian, one per set from lo).
func (c *call) weighted(lo, hi int, sc []byte, nbits int) node {
	nb := (nbits + 7) / 8
	nd := node{lo: lo, hi: hi, gLo: c.gOf[lo]}
	nd.P = make([]curve.G1, c.gOf[hi-1]-nd.gLo+1)
	for x := range nd.P {
		g := nd.gLo + x
		a, b := max(lo, c.groups[g].lo), min(hi, c.groups[g].hi)
		if a < b {
			nd.P[x] = curve.MultiExpG1(c.pks[a:b], sc[(a-lo)*nb:(b-lo)*nb], nbits)
		}
	}
	nd.S = curve.MultiExpG2(c.pts[lo:hi], sc, nbits)
	return nd
}

// findPower returns the j in [1, s] with A^j == B, or 0, for values of GT:
// by baby steps and giant steps (about 2*sqrt(s) multiplications) when s is
// large, one by one otherwise.
func findPower(A, B curve.GT, s int) int {
	if s <= bsgsMin {
		cur := A
		for j := 1; j <= s; j++ {
			if cur.Equal(&B) {
				return j
			}
			cur.Mul(&A)
		}
		return 0
	}
	b := int(math.Ceil(math.Sqrt(float64(s))))
	baby := make(map[curve.GT]int, b)
	cur := A
	for j := 1; j <= b; j++ {
		baby[cur] = j
		cur.Mul(&A)
	}
	// cur is A^(b+1); the giant step is A^-b.
	giant := cur
	giant.Mul(A.Conjugate()) // A^b (A is its own copy here)
	giant.Conjugate()
	g := B
	for i := 0; i*b < s; i++ {
		if j, ok := baby[g]; ok && i*b+j <= s {
			return i*b + j
		}
		g.Mul(&giant)
	}
	return 0
}

// bsgsMin: findPower steps one by one up to this many exponents.
const bsgsMin = 32

// mulSmall sets dst = x * w for a little-endian x (dst has room).
func mulSmall(dst, x []byte, w uint64) {
	var carry uint64
	for i := range dst {
		var b uint64
		if i < len(x) {
			b = uint64(x[i])
		}
		t := b*w + carry
		dst[i] = byte(t)
		carry = t >> 8
	}
}

// individual checks candidates one by one, in parallel (their points are
// known to be in G2): e(pk, H(m)) * e(-g1, s) == 1.
func (c *call) individual(ks []int) {
	if len(ks) == 0 {
		return
	}
	c.v.stats.individual.Add(int64(len(ks)))
	c.spent += float64(len(ks)) * (2*costMiller + costFinalExp)
	ok := make([]bool, len(ks))
	c.v.w.forEach(len(ks), 1, func(x int) {
		k := ks[x]
		i := c.cand[k]
		ps := []curve.G1Affine{*blspoint.Key(c.sets[i].PublicKey), c.v.negG1Affine}
		qs := []curve.G2Affine{c.groups[c.gOf[k]].h, *blspoint.Signature(&c.sigs[i])}
		gt := curve.MillerLoop(ps, qs)
		ok[x] = gt.FinalExpIsOne()
	})
	for x, k := range ks {
		c.settle(c.cand[k], ok[x])
	}
}
