package verifier

import (
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

// TestInvalidShare: the share follows the verdicts of the recent calls and
// halves its counts past the window, so a change of traffic shows within a
// few batches.
func TestInvalidShare(t *testing.T) {
	var s invalidShare
	if got := s.expected(1024); got != 0 {
		t.Fatalf("no call yet: expected %v invalid sets, want 0", got)
	}
	verdicts := make([]bool, 1000)
	for i := range verdicts {
		verdicts[i] = i%100 != 0 // 1% invalid
	}
	s.observe(verdicts)
	if got := s.expected(1000); got != 10 {
		t.Fatalf("after a call of 1%% invalid: expected %v in 1000 sets, want 10", got)
	}
	clean := make([]bool, 1000)
	for i := range clean {
		clean[i] = true
	}
	for range 20 {
		s.observe(clean)
	}
	if got := s.expected(1000); got >= 0.1 {
		t.Fatalf("after 20 clean calls of 1000: expected %v invalid sets in 1000, want < 0.1", got)
	}
	if s.sets > invalidShareWindow {
		t.Fatalf("counts over %v sets, window %d", s.sets, invalidShareWindow)
	}
}

// TestWholeFirstFollowsShare: the locate step tries the whole call first
// while failing calls hold about one invalid set, stops when the recent
// share puts several in a call, and starts again once traffic is clean.
// Every verdict stays exact whichever way it goes.
func TestWholeFirstFollowsShare(t *testing.T) {
	v := newVerifier(t, 64)
	const n = 512
	base := sameRoot(t, n, 0)
	withBad := func(bad ...int) []Set {
		sets := append([]Set(nil), base...)
		for _, i := range bad {
			sets[i].Signature = base[(i+1)%n].Signature
		}
		return sets
	}
	single := func() float64 { return v.recent.singleShare(n) }
	first := func() bool { // the choice for a failing call of n sets over one root
		c := &call{v: v, share: &v.recent, gOf: make([]int, n)}
		return c.wholeFirst(blindedRange{lo: 0, hi: n}, n/locatePartSize)
	}
	if single() != 1 || !first() {
		t.Fatalf("no history: a single invalid set has chance %.2f, whole call first %v", single(), first())
	}
	dense := withBad(3, 50, 97, 130, 201, 260, 333, 410, 470, 505) // 10 of 512
	one := withBad(77)
	expDense, expOne, expBase := want(dense), want(one), want(base)
	for range 2 {
		checkVerdicts(t, v, dense, expDense)
	}
	if first() {
		t.Fatalf("after calls of 10 invalid sets in %d (expected %.1f, a single one %.2f): the whole call is still tried first", n, v.recent.expected(n), single())
	}
	checkVerdicts(t, v, one, expOne)
	for range 8 {
		checkVerdicts(t, v, base, expBase)
	}
	if !first() {
		t.Fatalf("after clean calls (expected %.2f, a single one %.2f): the whole call is not tried first again", v.recent.expected(n), single())
	}
	checkVerdicts(t, v, one, expOne)
}

func checkVerdicts(t *testing.T, v *Verifier, sets []Set, exp []bool) {
	t.Helper()
	for i, ok := range v.Verify(sets) {
		if ok != exp[i] {
			t.Fatalf("set %d: verdict %v, alone %v", i, ok, exp[i])
		}
	}
}

// TestOutsidePays: the early acceptance of the sets outside the ranges
// still searched runs when those ranges are a small share of the call (1%
// invalid: a range or two of a 1,024-set call) and not when they are most
// of it (5%: most parts hold several invalid sets).
func TestOutsidePays(t *testing.T) {
	whole := blindedRange{lo: 0, hi: 1024}
	ranges := func(sizes ...int) []plainRange {
		var ps []plainRange
		lo := 0
		for _, n := range sizes {
			ps = append(ps, plainRange{lo: lo, hi: lo + n})
			lo += 2 * n
		}
		return ps
	}
	for _, tc := range []struct {
		name string
		open []plainRange
		want bool
	}{
		{"two parts (1%)", ranges(64, 64), true},
		{"a quarter", ranges(128, 64, 64), true},
		{"over a quarter", ranges(128, 64, 65), false},
		{"most parts (5%)", ranges(64, 64, 64, 64, 64, 64, 64), false},
	} {
		if got := outsidePays(whole, tc.open); got != tc.want {
			t.Errorf("%s: outsidePays %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDenseShareAlone: once the recent calls put an invalid set in every
// locateDense sets, a failing call checks its sets alone at once
// instead of searching (which would cost more); the first such call, with
// no history, searches within its budget. Verdicts stay exact.
func TestDenseShareAlone(t *testing.T) {
	v := newVerifier(t, 64)
	const n = 64
	sets := sameRoot(t, n, 0)
	for i := 0; i < n; i += 2 {
		sets[i].Signature = sets[i+1].Signature
	}
	exp := want(sets)
	shared := func() int64 {
		before := v.Stats().Checks
		checkVerdicts(t, v, sets, exp)
		return v.Stats().Checks - before
	}
	first := shared()
	if first <= 1 {
		t.Fatalf("the first dense call made %d shared checks: it did not search", first)
	}
	if again := shared(); again != 1 {
		t.Fatalf("at a dense recent share a call made %d shared checks, want 1 (the whole call's): it searched (the first made %d)", again, first)
	}
}

// TestLocateSmall: failing calls down to locateMin sets run the locate step,
// not bisection (which cost 1.9 to 3.4 times as much per invalid set in
// calls of 16 to 128: BenchmarkLocalisationBySize), with one or several
// invalid sets over one or two roots; verdicts exact.
func TestLocateSmall(t *testing.T) {
	v := newVerifier(t, 64)
	for _, tc := range []struct {
		n, roots int
		bad      []int
	}{{locateMin, 1, []int{3}}, {32, 1, []int{0, 31}}, {64, 2, []int{5, 6, 40}}, {128, 1, []int{1, 50, 51, 100}}} {
		var sets []Set
		for range tc.roots {
			sets = append(sets, sameRoot(t, tc.n/tc.roots, 0)...)
		}
		for _, i := range tc.bad {
			sets[i].Signature = sets[(i+1)%tc.n].Signature
		}
		before := v.Stats().Located
		checkVerdicts(t, v, sets, want(sets))
		if got := v.Stats().Located - before; got != int64(len(tc.bad)) {
			t.Errorf("%d sets, %d invalid: the locate step found %d", tc.n, len(tc.bad), got)
		}
	}
}

// TestPartsFollowShare: a failing call over a root or two is cut into
// about one part per expected invalid set at the recent share (at least
// locatePartsMin, at most one per locatePartSize sets); a call over many
// roots keeps parts of locatePartSize. Verdicts stay exact with the fewer,
// larger parts.
func TestPartsFollowShare(t *testing.T) {
	v := newVerifier(t, 64)
	const n = 1024
	parts := func(setsPerRoot int) int {
		c := &call{v: v, share: &v.recent, gOf: make([]int, n)}
		for k := range c.gOf {
			c.gOf[k] = k / setsPerRoot
		}
		return c.partsFor(0, n)
	}
	share := func(invalid int) { // the recent share: invalid in 4,096
		v.recent = invalidShare{}
		verdicts := make([]bool, invalidShareWindow)
		for i := range verdicts {
			verdicts[i] = i >= invalid
		}
		v.recent.observe(verdicts)
	}
	for _, tc := range []struct {
		invalid, perRoot, want int
	}{
		{12, n, 4},  // 0.3%: 3 expected
		{41, n, 11}, // 1%: 10.25 expected
		{41, n / 2, 11},
		{205, n, 16}, // 5%: one part per 64 sets
		{12, 3, 16},  // 3-set roots: parts of 64
		{41, n / 16, 16},
	} {
		share(tc.invalid)
		if got := parts(tc.perRoot); got != tc.want {
			t.Errorf("%d invalid in %d, roots of %d sets: %d parts, want %d", tc.invalid, invalidShareWindow, tc.perRoot, got, tc.want)
		}
	}
	share(12)
	sets := sameRoot(t, n, 0)
	for _, i := range []int{5, 300, 301, 900} {
		sets[i].Signature = sets[(i+2)%n].Signature
	}
	checkVerdicts(t, v, sets, want(sets))
}

// TestLocateChunks: a failing call over many roots is searched over the
// Miller loops its whole check kept (locateChunks) and settled by its final
// check, without the margin rounds' bisection, when its invalid sets are
// plain ones; crafted ones (a cancelling pair across chunks, a point
// outside G2) still get exact verdicts.
func TestLocateChunks(t *testing.T) {
	var base []Set
	for i := range 300 { // a root per set, as the aggregators' own signatures
		base = append(base, validSet(t, i, randRoot(t)))
	}
	base = append(base, sameRoot(t, 100, 300)...)
	wrongKey := func(sets []Set, is ...int) {
		for _, i := range is {
			sets[i].Signature = base[(i+1)%len(base)].Signature
		}
	}
	v := newVerifier(t, 64)
	plain := append([]Set(nil), base...)
	wrongKey(plain, 7, 150, 151, 299, 350)
	c0, m0, k0 := v.stats.chunkChecks.Load(), v.stats.marginRounds.Load(), v.stats.checks.Load()+v.stats.individual.Load()
	checkExact(t, v, plain)
	chunkChecks, checks := v.stats.chunkChecks.Load()-c0, v.stats.checks.Load()+v.stats.individual.Load()-k0
	t.Logf("chunk checks %d, checks %d", chunkChecks, checks)
	if chunkChecks == 0 {
		t.Fatal("the failing call over 301 roots did not search its chunks")
	}
	if checks > 60 { // 37 measured; 205 with the chunks' signature sums wrong
		t.Fatalf("%d checks (%d of chunks) for 5 invalid sets: the chunk values do not steer the search", checks, chunkChecks)
	}
	if v.stats.marginRounds.Load() != m0 {
		t.Fatal("the chunk search did not settle the call: it went on to bisection")
	}
	// The sets outside the failing chunks are answered before the chunks
	// are searched: before the first rejection.
	var before int
	rejected := false
	v.VerifyStream(plain, func(i int, valid bool) {
		rejected = rejected || !valid
		if !rejected {
			before++
		}
	})
	if before < len(plain)/2 {
		t.Fatalf("%d of %d verdicts before the first rejection: the sets outside the failing chunks waited for their search", before, len(plain))
	}
	crafted := append([]Set(nil), base...)
	D := randomG2(t)
	crafted[20].Signature = shifted(t, crafted[20].Signature, &D)
	crafted[260].Signature = shifted(t, crafted[260].Signature, neg(D))
	wrongKey(crafted, 90)
	checkExact(t, v, crafted)
	outside := append([]Set(nil), base...)
	Q := orderThirteen(t)
	outside[40].Signature = shifted(t, outside[40].Signature, &Q)
	wrongKey(outside, 200)
	checkExact(t, v, outside)
	checkExact(t, v, base)
}

// TestManyRootsRule: a failing call over 64 roots or more is searched
// chunk by chunk when its roots hold few sets each (here 2) and by
// locateAll when they hold several (here 8), with exact verdicts either
// way.
func TestManyRootsRule(t *testing.T) {
	for _, tc := range []struct {
		perRoot int
		chunks  bool
	}{{2, true}, {8, false}} {
		var sets []Set
		for g := range 64 {
			sets = append(sets, sameRoot(t, tc.perRoot, g*tc.perRoot)...)
		}
		sets[5].Signature = sets[6].Signature
		sets[len(sets)-3].Signature = sets[0].Signature
		v := newVerifier(t, 64)
		c0 := v.stats.chunkChecks.Load()
		checkExact(t, v, sets)
		if got := v.stats.chunkChecks.Load() > c0; got != tc.chunks {
			t.Errorf("%d sets a root: chunk search %v, want %v", tc.perRoot, got, tc.chunks)
		}
	}
}

// TestHalve: halving a failing range costs one check (its left half's plain
// value) when a half passes or each half holds one invalid set, which the
// range's weighted value then names in each (jointNames); two checks when a
// half holds several. The halves' weighted values are the ones their sets
// give, whichever way they were found.
func TestHalve(t *testing.T) {
	v := newVerifier(t, 64)
	valid := sameRoot(t, 64, 0)
	for _, tc := range []struct {
		bad    []int
		checks int
		named  [2]int // the halves' named weights (0: none)
	}{
		{[]int{3, 40}, 1, [2]int{4, 41}},
		{[]int{31, 32}, 1, [2]int{32, 33}},
		{[]int{3, 5}, 1, [2]int{}},   // the right half passes
		{[]int{40, 63}, 1, [2]int{}}, // the left half passes
		{[]int{3, 5, 40}, 2, [2]int{}},
		{[]int{3, 40, 50}, 2, [2]int{}},
	} {
		sets := append([]Set(nil), valid...)
		for _, i := range tc.bad {
			sets[i].Signature = valid[(i+1)%len(valid)].Signature
		}
		c := &call{v: v, share: &v.recent, sets: sets, out: make([]bool, len(sets)), settled: make([]bool, len(sets))}
		c.decode()
		c.hashRoots()
		c.pks, c.pts = c.points()
		p := plainRange{lo: 0, hi: 64, base: 0, hasB: true, A: c.valueSerial(c.plainSums(0, 64))}
		p.B = c.plainWeighted(&p, 0, 64)
		h, checks := c.halve(p, false)
		if checks != tc.checks {
			t.Errorf("invalid %v: halving made %d checks, want %d", tc.bad, checks, tc.checks)
		}
		for x, half := range h {
			want := c.valueSerial(c.plainSums(half.lo, half.hi))
			if !half.A.Equal(&want) {
				t.Errorf("invalid %v: half %d's plain value is wrong", tc.bad, x)
			}
			want = c.plainWeighted(&p, half.lo, half.hi)
			if !half.B.Equal(&want) {
				t.Errorf("invalid %v: half %d's weighted value is wrong", tc.bad, x)
			}
			if half.named != tc.named[x] {
				t.Errorf("invalid %v: half %d names weight %d, want %d", tc.bad, x, half.named, tc.named[x])
			}
		}
	}
}

// TestJointNames: jointNames finds the weights a and b of B = X^a * Y^b
// over the halves' ranges, at their ends too, and names nothing (leaving the
// halves unchanged) when a third value is in B or a weight is outside its
// half.
func TestJointNames(t *testing.T) {
	gt := func() curve.GT { // a random value of GT
		q := randomG2(t)
		f := curve.MillerLoop([]curve.G1Affine{curve.G1Generator()}, []curve.G2Affine{q.Affine()})
		return f.FinalExp()
	}
	X, Y, Z := gt(), gt(), gt()
	pow := func(a curve.GT, w int) curve.GT { return *inverse(*weightedTerm(a, w-1)) }
	for _, tc := range []struct {
		lo, mid, hi, base int
		a, b              int  // B = X^a Y^b
		third, ok         bool // B also has Z; found
	}{
		{0, 32, 64, 0, 1, 33, false, true},
		{0, 32, 64, 0, 32, 64, false, true},
		{40, 60, 80, 8, 40, 53, false, true},
		{0, 32, 64, 0, 5, 40, true, false},
		{0, 32, 64, 0, 5, 20, false, false}, // b in the left half
	} {
		B := pow(X, tc.a)
		yb := pow(Y, tc.b)
		B.Mul(&yb)
		if tc.third {
			B.Mul(&Z)
		}
		p := &plainRange{lo: tc.lo, hi: tc.hi, base: tc.base, A: X, B: B}
		l := &plainRange{lo: tc.lo, hi: tc.mid, base: tc.base, A: X}
		r := &plainRange{lo: tc.mid, hi: tc.hi, base: tc.base, A: Y}
		l0 := *l
		ok := jointNames(p, l, r)
		if ok != tc.ok {
			t.Fatalf("%+v: found %v", tc, ok)
		}
		if !ok {
			if l.named != 0 || r.named != 0 || !l.B.Equal(&l0.B) {
				t.Errorf("%+v: no match, but the halves changed", tc)
			}
			continue
		}
		xa := pow(X, tc.a)
		if l.named != tc.a || r.named != tc.b || !l.B.Equal(&xa) {
			t.Errorf("%+v: named %d, %d", tc, l.named, r.named)
		}
	}
}
