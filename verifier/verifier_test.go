package verifier

import (
	crand "crypto/rand"
	"errors"
	"fmt"
	"math"
	"math/big"
	mrand "math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/internal/signtest"
	"github.com/attpool/attpool/verifier/internal/rounds"
)

// sameRoot returns n valid sets over one root, keys start..start+n-1 (modulo
// numTestKeys). The roots are sameRootPool random ones, taken in turn, so
// that any sameRootPool consecutive calls have distinct roots
// (TestManyRootsRule needs 64) and each key signs each root once per test
// binary, on every core.
func sameRoot(t testing.TB, n, start int) []Set {
	sks, pks := testKeys(t)
	rootsMu.Lock()
	defer rootsMu.Unlock()
	r := &roots[nextRoot]
	nextRoot = (nextRoot + 1) % len(roots)
	if r.sigs == nil {
		r.root, r.sigs = randRoot(t), make([]*[96]byte, len(sks))
	}
	par.For(min(n, len(sks)), 1, func(j int) {
		if k := (start + j) % len(sks); r.sigs[k] == nil {
			sig := signtest.Sign(sks[k], r.root)
			r.sigs[k] = &sig
			wantMemo.Store(wantKey{pks[k], r.root, sig}, true)
		}
	})
	sets := make([]Set, n)
	for i := range sets {
		k := (start + i) % len(sks)
		sets[i] = Set{Root: r.root, PublicKey: pks[k], Signature: *r.sigs[k]}
	}
	return sets
}

const sameRootPool = 64

var (
	rootsMu  sync.Mutex
	nextRoot int
	roots    [sameRootPool]struct {
		root [32]byte
		sigs []*[96]byte // by key index
	}
)

// Sizes straddle the planner's switch between the per-point (small) and the
// fused (large) subgroup paths.
var sizes = []int{1, 2, 3, 5, 17, 40, 100}

func TestNewConfig(t *testing.T) {
	for _, bits := range []int{0, 64, 128} {
		v, err := New(Config{SecurityBits: bits})
		if err != nil {
			t.Fatalf("SecurityBits %d: %v", bits, err)
		}
		v.Close()
	}
	for _, cfg := range []Config{{SecurityBits: 32}, {SecurityBits: 65}, {Workers: -1}} {
		if _, err := New(cfg); !errors.Is(err, ErrConfig) {
			t.Fatalf("%+v: err %v, want ErrConfig", cfg, err)
		}
	}
}

// TestDefaultConfig: the zero Config stands for DefaultConfig, which
// sanitize keeps as it is.
func TestDefaultConfig(t *testing.T) {
	for _, cfg := range []Config{{}, DefaultConfig()} {
		got, err := cfg.sanitize()
		if err != nil || got != DefaultConfig() {
			t.Fatalf("%+v sanitized to %+v, %v; want %+v", cfg, got, err, DefaultConfig())
		}
	}
	if got, _ := (Config{HashCacheSize: -5}).sanitize(); got.HashCacheSize != 0 {
		t.Fatalf("negative HashCacheSize sanitized to %d, want 0 (no cache)", got.HashCacheSize)
	}
}

func TestRounds(t *testing.T) {
	for _, c := range []struct{ bits, R0, R int }{{64, 18, 21}, {128, 36, 38}} {
		if got := roundsFor(c.bits); got != c.R {
			t.Errorf("roundsFor(%d) = %d, want %d", c.bits, got, c.R)
		}
		if got := firstRoundsN(c.bits, firstChecksBits); got != c.R0 {
			t.Errorf("firstRoundsN(%d, firstChecksBits) = %d, want %d", c.bits, got, c.R0)
		}
	}
	// Every first-check budget keeps a call's error within 2^-bits.
	for _, c := range []struct{ bits, cb, R0, R int }{{64, chunkFirstChecksBits, 20, 22}, {128, chunkFirstChecksBits, 38, 38}} {
		R0, R := firstRoundsN(c.bits, c.cb), roundsForN(c.bits, c.cb)
		if R0 != c.R0 || R != c.R {
			t.Errorf("%d bits, 2^%d first checks: %d and %d rounds, want %d and %d", c.bits, c.cb, R0, R, c.R0, c.R)
		}
		err := math.Ldexp(math.Pow(digitBase, -float64(R0)), c.cb) + sharedChecksMax*math.Pow(digitBase, -float64(R))
		if err > math.Ldexp(1, -c.bits) {
			t.Errorf("%d bits, 2^%d first checks: error %g over 2^-%d", c.bits, c.cb, err, c.bits)
		}
	}
}

// TestMarginRounds: a fused call that passes, or whose failure the locate
// step settles, keeps its first rounds' scalars (at most its first checks
// shared); one that goes on to bisection, or whose rounds fail, extends them
// with the margin rounds first, so that every later check that may accept
// uses scalars of R rounds. A call whose first rounds are R already (over
// many roots at 128 bits: 38 and 38) draws none. Verdicts stay exact.
func TestMarginRounds(t *testing.T) {
	for _, cfg := range []struct{ bits, cb int }{
		{64, firstChecksBits}, {128, firstChecksBits}, {64, chunkFirstChecksBits}, {128, chunkFirstChecksBits},
	} {
		bits := cfg.bits
		v := newVerifier(t, bits)
		R0, R := firstRoundsN(bits, cfg.cb), roundsForN(bits, cfg.cb)
		margin := int64(1)
		if R0 == R {
			margin = 0
		}
		bitsOf := func(rounds int) int { return int(math.Ceil(float64(rounds) * math.Log2(digitBase))) }
		const n = 300
		valid := sameRoot(t, n, 0)
		with := func(m int, change func(s []Set)) []Set {
			s := append([]Set(nil), valid[:m]...)
			change(s)
			return s
		}
		T := orderThirteen(t)
		D := randomG2(t)
		for _, tc := range []struct {
			name   string
			sets   []Set
			margin int64
			nbits  int
			bad    []int // sets whose verdict is false
		}{
			{"passing", valid, 0, bitsOf(R0), nil},
			{"settled by the locate step", with(n, func(s []Set) { s[7].Signature = valid[8].Signature }), 0, bitsOf(R0), []int{7}},
			// A pair shifted by D and -D cancels in its part's plain value:
			// the locate step's final check fails, and the call is bisected.
			{"bisected", with(120, func(s []Set) {
				s[7].Signature, s[8].Signature = shifted(t, s[7].Signature, &D), shifted(t, s[8].Signature, neg(D))
			}), margin, bitsOf(R), []int{7, 8}},
			{"rounds fail", with(n, func(s []Set) { s[100].Signature = shifted(t, valid[100].Signature, &T) }), margin, bitsOf(R), []int{100}},
		} {
			name := fmt.Sprintf("%d bits, 2^%d first checks, %s", bits, cfg.cb, tc.name)
			m := len(tc.sets)
			before := v.Stats().MarginRounds
			c := &call{v: v, share: &v.recent, sets: tc.sets, out: make([]bool, m), settled: make([]bool, m), firstLimit: 1 << cfg.cb}
			c.decode()
			c.hashRoots()
			c.budget = denseBudget * float64(len(c.cand)) * costSingle
			if !c.fused(R0, R) {
				t.Fatalf("%s: the fused path gave up", name)
			}
			c.settleRest()
			if got := v.Stats().MarginRounds - before; got != tc.margin {
				t.Errorf("%s: margin rounds drawn %d times, want %d", name, got, tc.margin)
			}
			if c.nbits != tc.nbits {
				t.Errorf("%s: scalars of %d bits, want %d", name, c.nbits, tc.nbits)
			}
			if c.shared > c.firstLimit && tc.margin == 0 && R0 < R {
				t.Errorf("%s: %d shared checks on the first rounds, bound %d", name, c.shared, c.firstLimit)
			}
			for i, ok := range c.out {
				if ok == slices.Contains(tc.bad, i) {
					t.Fatalf("%s: set %d verdict %v", name, i, ok)
				}
			}
		}
	}
}

// TestNoMarginToDraw: when a call's first rounds are R already, withMargin
// draws no digits and makes no check: the call's scalars and its failing
// value stay those of its first rounds, which the error bound counts with
// the checks that follow (firstLimit + sharedChecksMax of them).
func TestNoMarginToDraw(t *testing.T) {
	const bits, cb = 128, chunkFirstChecksBits
	R0, R := firstRoundsN(bits, cb), roundsForN(bits, cb)
	if R0 != R {
		t.Fatalf("%d bits, 2^%d first checks: %d and %d rounds, the case of this test is gone", bits, cb, R0, R)
	}
	v := newVerifier(t, bits)
	sets := sameRoot(t, 64, 0)
	c := &call{v: v, share: &v.recent, sets: sets, out: make([]bool, len(sets)), settled: make([]bool, len(sets)), firstLimit: 1 << cb}
	c.decode()
	c.hashRoots()
	if !c.fused(R0, R) || c.first == nil {
		t.Fatal("the fused call did not keep its first rounds")
	}
	// The whole call's node under the first rounds' scalars, as a failing
	// check leaves it for bisection.
	f := c.first
	whole := c.blindedSums(f.digits, R0, f.H, f.PG, f.big)
	whole = whole.failing(c.value(whole), false, true)
	scalars := slices.Clone(c.scalars)
	stats, shared := v.Stats(), c.shared
	got, ok := c.withMargin(whole)
	after := v.Stats()
	if !ok || got.A != whole.A || !got.S.Equal(&whole.S) {
		t.Error("withMargin did not hand back the call's failing node")
	}
	if after.Checks != stats.Checks || after.MarginRounds != stats.MarginRounds {
		t.Errorf("withMargin made %d checks and drew margin rounds %d times, want none", after.Checks-stats.Checks, after.MarginRounds-stats.MarginRounds)
	}
	if !slices.Equal(c.scalars, scalars) || c.first != nil || c.sharedBase != shared {
		t.Error("withMargin changed the scalars, or did not move the call past its first checks")
	}
}

func TestAllValid(t *testing.T) {
	for _, bits := range []int{64, 128} {
		v := newVerifier(t, bits)
		for _, n := range sizes {
			sets := sameRoot(t, n, 0)
			got := v.Verify(sets)
			for i, ok := range got {
				if !ok {
					t.Fatalf("bits %d n %d: valid set %d rejected", bits, n, i)
				}
			}
		}
	}
}

func TestEmpty(t *testing.T) {
	v := newVerifier(t, 64)
	if got := v.Verify(nil); len(got) != 0 {
		t.Fatalf("%d verdicts for no sets", len(got))
	}
}

func TestInvalid(t *testing.T) {
	v := newVerifier(t, 64)
	bads := func(n int) []int { return []int{1, 2, n / 3, n} }
	if testing.Short() {
		bads = func(n int) []int { return []int{1, n / 3} }
	}
	for _, n := range sizes {
		for _, bad := range bads(n) {
			if bad == 0 || bad > n {
				continue
			}
			sets := sameRoot(t, n, 0)
			other := randRoot(t)
			for _, i := range mrand.Perm(n)[:bad] {
				sets[i].Signature = validSet(t, i, other).Signature // signs another root
			}
			checkExact(t, v, sets)
		}
	}
}

func TestSwapped(t *testing.T) {
	v := newVerifier(t, 64)
	for _, n := range sizes[1:] {
		sets := sameRoot(t, n, 0)
		sets[0].Signature, sets[n-1].Signature = sets[n-1].Signature, sets[0].Signature
		checkExact(t, v, sets)
	}
}

// A pair shifted by D and -D for D in G2: the sum is unchanged, only the
// blinding catches it.
func TestShiftedInG2(t *testing.T) {
	v := newVerifier(t, 64)
	for range trials(20, 4) {
		for _, n := range sizes[1:] {
			sets := sameRoot(t, n, 0)
			D := randomG2(t)
			i, j := 0, n-1
			sets[i].Signature = shifted(t, sets[i].Signature, &D)
			sets[j].Signature = shifted(t, sets[j].Signature, neg(D))
			checkExact(t, v, sets)
		}
	}
}

// orderThirteenTrials is the number of order-13 attack trials: 2000 under
// -long (the race detector build lowers it, race_test.go), 300 by default,
// 100 with -short. A verifier without the subgroup rounds fails one trial in
// 13, so 300 trials miss it with probability (12/13)^300 < 2^-34, and 100
// with probability < 2^-11.
var orderThirteenTrials = 2000

// A pair shifted by T and -T for T of order 13. A 64-bit blinded check
// without subgroup checks accepts it whenever 13 divides r1-r2 (about 1 in
// 13); the fused rounds must reject it every time.
func TestOrderThirteenAttack(t *testing.T) {
	T := orderThirteen(t)
	v := newVerifier(t, 64)
	n := 48 // the fused path (see TestPlannerPath)
	base := sameRoot(t, n, 0)
	trialCount := trials(orderThirteenTrials, 300)
	if testing.Short() && !*long {
		trialCount = 100
	}
	for trial := range trialCount {
		sets := append([]Set(nil), base...)
		i := trial % n
		j := (i + 1 + trial%(n-1)) % n
		sets[i].Signature = shifted(t, sets[i].Signature, &T)
		sets[j].Signature = shifted(t, sets[j].Signature, neg(T))
		got := v.Verify(sets)
		if got[i] || got[j] {
			t.Fatalf("trial %d: order-13 shifted pair accepted", trial)
		}
		for k := range got {
			if k != i && k != j && !got[k] {
				t.Fatalf("trial %d: valid set %d rejected", trial, k)
			}
		}
	}
	if s := v.Stats(); s.SubgroupFallbacks != int64(trialCount) {
		t.Fatalf("%d subgroup fallbacks in %d trials", s.SubgroupFallbacks, trialCount)
	}
}

// The fused argument, tested directly: with a pair shifted by T and -T, a
// round sum stays in G2 exactly when the two digits of that round agree,
// about 1 time in 13, for either round of a pair pass. This shows the attack
// is real and that each round is an independent 1/13 filter.
func TestRoundFilterRate(t *testing.T) {
	T := orderThirteen(t)
	sets := sameRoot(t, 8, 0)
	sets[0].Signature = shifted(t, sets[0].Signature, &T)
	sets[1].Signature = shifted(t, sets[1].Signature, neg(T))
	v := newVerifier(t, 64)
	c := &call{v: v, share: &v.recent, sets: sets}
	c.decode()
	_, sigs := c.points()
	ds := rounds.NewSource()
	var sc curve.PairRoundScratch
	const rounds = 650
	passed := 0
	d1, d2 := make([]uint8, len(sigs)), make([]uint8, len(sigs))
	for range rounds {
		for k := range sigs {
			d1[k], d2[k] = ds.Next(), ds.Next()
		}
		H1, H2, err := curve.PairRoundG2(&sc, sigs, d1, d2)
		if err != nil {
			t.Fatal(err)
		}
		for x, c := range []struct {
			H curve.G2
			d []uint8
		}{{H1, d1}, {H2, d2}} {
			in := c.H.InG2()
			if same := c.d[0] == c.d[1]; in != same {
				t.Fatalf("round %d of the pass: in G2 = %v with digits %d, %d", x, in, c.d[0], c.d[1])
			}
			if in {
				passed++
			}
		}
	}
	// 1300 rounds: expect 100 to pass; a 6-sigma band.
	if passed < 40 || passed > 160 {
		t.Fatalf("%d of %d rounds passed, want about 1/13", passed, 2*rounds)
	}
}

func TestOutsideG2(t *testing.T) {
	v := newVerifier(t, 64)
	for _, n := range sizes {
		sets := sameRoot(t, n, 0)
		Q := randomCurvePoint(t)
		sets[n/2].Signature = shifted(t, sets[n/2].Signature, &Q)
		checkExact(t, v, sets)
	}
}

func TestInfinityAndMalformed(t *testing.T) {
	v := newVerifier(t, 64)
	var inf [96]byte
	inf[0] = 0xc0
	for _, n := range sizes {
		sets := sameRoot(t, n, 0)
		sets[0].Signature = inf
		if n > 1 {
			sets[1].Signature[0] &^= 0x80 // compression flag cleared
		}
		if n > 2 {
			sets[2].Signature = [96]byte{0xff} // x >= p
		}
		if n > 3 {
			sets[3].PublicKey = nil
		}
		if n > 4 {
			sets[4].Signature[95] ^= 1 // another x: off the curve or another point
		}
		checkExact(t, v, sets)
	}
}

func TestDuplicatesAndRepeatedKey(t *testing.T) {
	v := newVerifier(t, 64)
	for _, n := range sizes[1:] {
		sets := sameRoot(t, n, 0)
		dup := append(append([]Set(nil), sets...), sets...) // every set twice
		checkExact(t, v, dup)
		// One key signing two roots, and twice the same root.
		k := validSet(t, 7, randRoot(t))
		sets = append(sets, k, k, validSet(t, 7, sets[0].Root))
		checkExact(t, v, sets)
		// A duplicated invalid set.
		bad := sets[0]
		bad.Signature = sets[1].Signature
		sets = append(sets, bad, bad)
		checkExact(t, v, sets)
	}
}

func TestAllInvalid(t *testing.T) {
	v := newVerifier(t, 64)
	for _, n := range []int{3, 40, 150} {
		sets := sameRoot(t, n, 0)
		other := sameRoot(t, n, 0)
		for i := range sets {
			sets[i].Signature = other[(i+1)%n].Signature
		}
		checkExact(t, v, sets)
	}
}

// Random mixes over many roots, with every kind of bad set.
func TestRandomMixes(t *testing.T) {
	T := orderThirteen(t)
	var inf [96]byte
	inf[0] = 0xc0
	for _, bits := range []int{64, 128} {
		v := newVerifier(t, bits)
		for trial := range trials(12, 4) {
			rng := mrand.New(mrand.NewPCG(uint64(trial), uint64(bits)))
			nroots := 1 + rng.IntN(12)
			roots := make([][32]byte, nroots)
			for i := range roots {
				roots[i] = randRoot(t)
			}
			n := 1 + rng.IntN(150)
			sets := make([]Set, n)
			for i := range sets {
				sets[i] = validSet(t, rng.IntN(numTestKeys), roots[rng.IntN(nroots)])
			}
			for i := range sets {
				switch rng.IntN(40) {
				case 0:
					sets[i].Signature = sets[rng.IntN(n)].Signature
				case 1:
					sets[i].Signature = inf
				case 2:
					sets[i].Signature[0] ^= 0x80
				case 3:
					sets[i].Signature = shifted(t, sets[i].Signature, &T)
				case 4:
					sets[i].Root = roots[rng.IntN(nroots)]
				case 5:
					D := randomG2(t)
					sets[i].Signature = shifted(t, sets[i].Signature, &D)
				}
			}
			checkExact(t, v, sets)
		}
	}
}

// TestPlannerPath pins which path the planner takes, so the attack tests
// exercise the fused rounds.
func TestPlannerPath(t *testing.T) {
	v := newVerifier(t, 64)
	v.Verify(sameRoot(t, 48, 0))
	if s := v.Stats(); s.Checks != 1 || s.Individual != 0 {
		t.Fatalf("stats after one valid call: %+v", s)
	}
	T := orderThirteen(t)
	sets := sameRoot(t, 48, 0)
	sets[5].Signature = shifted(t, sets[5].Signature, &T)
	v.Verify(sets)
	if s := v.Stats(); s.SubgroupFallbacks != 1 {
		t.Fatalf("a point outside G2 in a 48-set call gave %d fused-round failures", s.SubgroupFallbacks)
	}
	// The threshold (planner.go's pathCosts): from 28 sets at 64 bits and
	// 34 at 128 the fused rounds run, below them each point's own check.
	for _, c := range []struct{ bits, n, fallbacks int }{{64, 27, 0}, {64, 28, 1}, {128, 33, 0}, {128, 34, 1}} {
		v := newVerifier(t, c.bits)
		sets := sameRoot(t, c.n, 0)
		sets[1].Signature = shifted(t, sets[1].Signature, &T)
		if got := v.Verify(sets); got[1] || !got[0] {
			t.Fatalf("%d bits, %d sets: verdicts %v", c.bits, c.n, got)
		}
		if s := v.Stats(); s.SubgroupFallbacks != int64(c.fallbacks) {
			t.Errorf("%d bits, %d sets with a point outside G2: %d fused-round failures, want %d", c.bits, c.n, s.SubgroupFallbacks, c.fallbacks)
		}
	}
}

// Bisection reuses work: one invalid signature among n costs about log2(n)
// halvings and no individual checks beyond the last few.
func TestBisectionCost(t *testing.T) {
	v := newVerifier(t, 64)
	sets := sameRoot(t, 256, 0)
	sets[77].Signature = sets[78].Signature
	before := v.Stats()
	checkExact(t, v, sets)
	s := v.Stats()
	if b := s.Bisections - before.Bisections; b > 9 {
		t.Errorf("%d bisections for one bad set in 256", b)
	}
	if ind := s.Individual - before.Individual; ind > individualBelow {
		t.Errorf("%d individual checks for one bad set in 256", ind)
	}
	if n := (s.ExpMethod - before.ExpMethod) + (s.Located - before.Located); n != 1 {
		t.Errorf("the exponentiation method named %d invalid sets, want 1", n)
	}
}

// A failing call too small for the fused rounds (it is blinded by random
// scalars) with one invalid set settles it by the exponentiation method:
// the whole call's check, the weighted check and the suspect's own, no set
// checked alone. It fails if the dense budget goes to the call's own check,
// or if the scalars have random bits above SecurityBits+marginBits (the
// weighted value then misses): every call of fewer than eight sets would
// check each set alone.
func TestExpMethodSmallCall(t *testing.T) {
	for _, bits := range []int{64, 128} {
		v := newVerifier(t, bits)
		for _, n := range []int{3, 5, 7} {
			sets := sameRoot(t, n, 0)
			sets[n/2].Signature = sets[0].Signature
			before := v.Stats()
			checkExact(t, v, sets)
			s := v.Stats()
			em, checks, alone := s.ExpMethod-before.ExpMethod, s.Checks-before.Checks, s.Individual-before.Individual
			if em != 1 || checks != 3 || alone != 0 {
				t.Errorf("%d bits, one invalid set in %d: %d found by the exponentiation method, %d checks, %d sets alone; want 1, 3, 0",
					bits, n, em, checks, alone)
			}
		}
	}
}

// A failing call that tryWhole does not settle (two invalid sets) is
// searched by halving the whole call, whose values tryWhole made: in a call
// of 15 sets, 6-7 pairings (checks and sets alone), where cutting it into
// four parts took 14 (the failing parts, of four sets or fewer, were then
// checked set by set).
func TestSearchFromWhole(t *testing.T) {
	for _, bad := range [][2]int{{1, 6}, {1, 12}} {
		v := newVerifier(t, 64) // no recent invalid sets: tryWhole runs
		sets := sameRoot(t, 15, 0)
		for _, i := range bad {
			sets[i].Signature = sets[i+1].Signature
		}
		before := v.Stats()
		checkExact(t, v, sets)
		s := v.Stats()
		if ops := (s.Checks - before.Checks) + (s.Individual - before.Individual); ops > 8 {
			t.Errorf("invalid sets %v of 15: %d checks and %d sets alone", bad, s.Checks-before.Checks, s.Individual-before.Individual)
		}
	}
}

// The random blinding scalars have no bits above the call's nbits (the sums
// read nbits bits, the weighted scalars all the bytes) and none is zero.
func TestRandomScalarsBits(t *testing.T) {
	for _, bits := range []int{64, 128} {
		v := newVerifier(t, bits)
		c := &call{v: v, share: &v.recent, cand: make([]int, 1000)}
		c.randomScalars()
		if c.nbits != bits+marginBits {
			t.Fatalf("%d bits: scalars of %d bits", bits, c.nbits)
		}
		for k := range c.cand {
			be := slices.Clone(c.scalar(k)) // little-endian
			slices.Reverse(be)
			x := new(big.Int).SetBytes(be)
			if x.Sign() == 0 || x.BitLen() > c.nbits {
				t.Fatalf("%d bits: scalar %d is %x (%d bits, want 1 to %d)", bits, k, x, x.BitLen(), c.nbits)
			}
		}
	}
}

// The exponentiation method must not accept a node holding two invalid
// sets, whatever their weights; the verdicts stay exact.
func TestExpMethodTwoInvalid(t *testing.T) {
	v := newVerifier(t, 64)
	for trial := range 6 {
		sets := sameRoot(t, 64, 0)
		i, j := trial*5, 63-trial*3
		sets[i].Signature = sets[i+1].Signature
		sets[j].Signature = sets[j-1].Signature
		checkExact(t, v, sets)
	}
}

// Dense invalid signatures switch to individual checks: the number of
// pairing checks stays within about 1.2 per set.
func TestDenseSwitch(t *testing.T) {
	v := newVerifier(t, 64)
	n := 200
	sets := sameRoot(t, n, 0)
	for i := 0; i < n; i += 2 {
		sets[i].Signature = sets[i+1].Signature
	}
	before := v.Stats()
	checkExact(t, v, sets)
	s := v.Stats()
	work := (s.Checks - before.Checks) + (s.Individual - before.Individual)
	if float64(work) > 1.2*float64(n) {
		t.Fatalf("%d pairing checks for %d sets (%d shared, %d alone)", work, n, s.Checks-before.Checks, s.Individual-before.Individual)
	}
}

// TestConcurrentAndClose runs in a synctest bubble, which fails the test if
// a goroutine the Verifier started outlives it: Close must join them all.
func TestConcurrentAndClose(t *testing.T) {
	synctest.Test(t, concurrentAndClose)
}

func concurrentAndClose(t *testing.T) {
	v, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 4)
	var callers sync.WaitGroup
	for g := range 4 {
		callers.Go(func() {
			sets := sameRoot(t, 30+g, g)
			sets[g].Signature = sets[g+1].Signature
			got := v.Verify(sets)
			exp := want(sets)
			for i := range exp {
				if got[i] != exp[i] {
					done <- fmt.Errorf("goroutine %d set %d: %v want %v", g, i, got[i], exp[i])
					return
				}
			}
			done <- nil
		})
	}
	callers.Wait() // the callers' goroutines have ended: only the pool's are left
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	v.Close()
	v.Close() // idempotent
	// Verify still answers after Close, on the caller.
	sets := sameRoot(t, 40, 0)
	sets[3].Signature = sets[4].Signature
	got := v.Verify(sets)
	if got[3] || !got[4] {
		t.Fatal("wrong verdicts after Close")
	}
}

func TestDigitSource(t *testing.T) {
	ds := rounds.NewSource()
	var count [13]int
	const n = 130000
	for range n {
		d := ds.Next()
		if d > 12 {
			t.Fatalf("digit %d", d)
		}
		count[d]++
	}
	for d, c := range count {
		if c < 9000 || c > 11000 {
			t.Fatalf("digit %d drawn %d times of %d", d, c, n)
		}
	}
	var seed [8]byte
	_, _ = crand.Read(seed[:])
}

// Sets carrying their signature already decoded (curve check only) get the
// same verdicts: the verifier still checks their subgroup.
func TestDecodedSignatures(t *testing.T) {
	T := orderThirteen(t)
	for _, bits := range []int{64, 128} {
		v := newVerifier(t, bits)
		for _, n := range []int{3, 48, 120} {
			sets := sameRoot(t, n, 0)
			sets[1].Signature = shifted(t, sets[1].Signature, &T)
			sets[2].Signature = sets[0].Signature
			sets[n-1].Signature = [96]byte{0xc0}
			for i := range sets {
				if i%2 == 0 || i == 1 {
					var s crypto.Signature
					if _, err := s.SetBytesNoSubgroupCheck(sets[i].Signature[:]); err == nil {
						sets[i].Decoded = &s
					}
				}
			}
			if sets[1].Decoded == nil {
				t.Fatal("the shifted signature did not decode")
			}
			checkExact(t, v, sets)
		}
	}

}

// A large failing call goes through the locate step and the many-way split;
// the verdicts stay exact with few or many invalid sets, over one root or
// several, including pairs crafted to cancel (D and -D) that fool the
// unweighted part sums.
func TestLargeCallSplit(t *testing.T) {
	v := newVerifier(t, 64)
	base := append(sameRoot(t, 400, 0), sameRoot(t, 200, 0)...)
	bads, pairCounts := []int{1, 3, 12, 40, 600}, []int{1, 5}
	if testing.Short() {
		bads, pairCounts = []int{3, 40}, []int{5}
	}
	for _, bad := range bads {
		sets := append([]Set(nil), base...)
		changed := mrand.Perm(len(sets))[:bad]
		for _, i := range changed {
			sets[i].Signature = base[(i+1)%len(base)].Signature
		}
		checkChanged(t, v, sets, changed...)
	}
	for _, pairs := range pairCounts {
		sets := append([]Set(nil), base...)
		var changed []int
		for p := range pairs {
			D := randomG2(t)
			i := 10 + 100*p
			sets[i].Signature = shifted(t, sets[i].Signature, &D)
			sets[i+1].Signature = shifted(t, sets[i+1].Signature, neg(D))
			changed = append(changed, i, i+1)
		}
		checkChanged(t, v, sets, changed...)
	}
}

// TestVerifyStream: every index is reported exactly once, with the verdict
// the set gets alone, before VerifyStream returns.
func TestVerifyStream(t *testing.T) {
	v := newVerifier(t, 64)
	const n = 300
	sets := sameRoot(t, n, 0)
	other := randRoot(t)
	for _, i := range mrand.Perm(n)[:5] {
		sets[i].Signature = validSet(t, i, other).Signature
	}
	exp := want(sets)
	seen := make([]int, n)
	got := make([]bool, n)
	v.VerifyStream(sets, func(i int, ok bool) {
		seen[i]++
		got[i] = ok
	})
	for i := range sets {
		if seen[i] != 1 || got[i] != exp[i] {
			t.Fatalf("set %d: reported %d times, verdict %v, alone %v", i, seen[i], got[i], exp[i])
		}
	}
}

// TestEarlyCheckStreamOnly: the check that accepts a failing call's sets
// outside the ranges still searched runs in VerifyStream, which answers
// those sets with it, and not in Verify, which answers every set together:
// on the same call (two invalid sets in one part, one in another, as in
// TestVerifyStreamEarly) from Verifiers in the same state, Verify makes one
// check fewer, and both give every set its verdict alone.
func TestEarlyCheckStreamOnly(t *testing.T) {
	sets := sameRoot(t, 600, 0)
	for _, i := range []int{10, 11, 400} {
		sets[i].Signature = sets[i+1].Signature
	}
	exp := want(sets)
	checks := func(run func(v *Verifier) []bool) int64 {
		v := newVerifier(t, 64)
		got := run(v)
		for i := range sets {
			if got[i] != exp[i] {
				t.Fatalf("set %d: verdict %v, alone %v", i, got[i], exp[i])
			}
		}
		return v.Stats().Checks
	}
	plain := checks(func(v *Verifier) []bool { return v.Verify(sets) })
	stream := checks(func(v *Verifier) []bool {
		got := make([]bool, len(sets))
		v.VerifyStream(sets, func(i int, ok bool) { got[i] = ok })
		return got
	})
	if stream != plain+1 {
		t.Fatalf("checks: VerifyStream %d, Verify %d; want one more in VerifyStream (the early check)", stream, plain)
	}
}

// TestVerifyStreamSearch: searching is called once, before the first
// invalid verdict, when a call fails its check together (on the fused path
// and on the small calls' path, an invalid signature or a point outside G2);
// never for a passing call, nor for one whose only invalid sets do not
// decode.
func TestVerifyStreamSearch(t *testing.T) {
	v := newVerifier(t, 64)
	other := randRoot(t)
	D := orderThirteen(t)
	cases := []struct {
		name   string
		n      int
		change func(sets []Set)
		search bool
	}{
		{"passing", 300, func([]Set) {}, false},
		{"passing small", 5, func([]Set) {}, false},
		{"undecodable", 300, func(s []Set) { s[7].Signature = [96]byte{1} }, false},
		{"invalid", 300, func(s []Set) { s[7].Signature = validSet(t, 7, other).Signature }, true},
		{"invalid small", 5, func(s []Set) { s[2].Signature = validSet(t, 2, other).Signature }, true},
		{"outside G2", 300, func(s []Set) { s[9].Signature = shifted(t, s[9].Signature, &D) }, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sets := sameRoot(t, tc.n, 0)
			tc.change(sets)
			exp := want(sets)
			calls, invalidBefore := 0, 0
			got := make([]bool, len(sets))
			v.VerifyStreamSearch(sets, func(i int, ok bool) {
				got[i] = ok
				if !ok && calls == 0 {
					invalidBefore++
				}
			}, func() { calls++ })
			for i := range sets {
				if got[i] != exp[i] {
					t.Fatalf("set %d: verdict %v, alone %v", i, got[i], exp[i])
				}
			}
			wantCalls := 0
			if tc.search {
				wantCalls = 1
			}
			if calls != wantCalls {
				t.Errorf("searching called %d times, want %d", calls, wantCalls)
			}
			if tc.search && invalidBefore != 0 {
				t.Errorf("%d invalid verdicts before searching was called", invalidBefore)
			}
		})
	}
}

// TestHashCacheLines: a root found again in the cache gets its hash's
// lines, which are that hash's (a check with them is the check without);
// at most hashLinesMax roots keep lines, and a dropped generation gives
// back its count. A failing call over few roots makes its groups' lines
// when its search begins; one over more than searchLinesGroups does not.
func TestHashCacheLines(t *testing.T) {
	h := newHashCache(hashLinesMax)
	root := [32]byte{1}
	if _, l := h.get(root); l != nil {
		t.Fatal("lines on a root's first call")
	}
	p, l := h.get(root)
	if l == nil {
		t.Fatal("no lines on a root's second call")
	}
	if _, l2 := h.get(root); l2 != l {
		t.Error("lines made again on the third call")
	}
	g := curve.G1Generator()
	ps, qs := []curve.G1Affine{g}, []curve.G2Affine{p}
	want := curve.MillerLoop(ps, qs)
	if got := curve.MillerLoopLines(ps, qs, []*curve.Lines{l}); !got.Equal(&want) {
		t.Error("the kept lines are not the hash's")
	}
	for i := 2; i <= hashLinesMax+1; i++ { // fills cur; the last root starts a generation
		r := [32]byte{byte(i), byte(i >> 8)}
		h.get(r)
		_, l := h.get(r)
		if (l != nil) != (i <= hashLinesMax) {
			t.Errorf("root %d of %d met twice: lines %v", i, hashLinesMax, l != nil)
		}
	}
	if h.lines != hashLinesMax {
		t.Errorf("%d roots with lines, want %d", h.lines, hashLinesMax)
	}
	for i := 0; i < 2*hashLinesMax; i++ { // two more generations drop every line
		h.get([32]byte{0xff, byte(i), byte(i >> 8)})
	}
	if h.lines != 0 || h.countLines(h.cur)+h.countLines(h.prev) != 0 {
		t.Errorf("%d roots with lines counted after their generations were dropped", h.lines)
	}

	v := newVerifier(t, 64)
	for _, roots := range []int{1, searchLinesGroups, searchLinesGroups + 1} {
		c := &call{v: v, share: &v.recent}
		for r := range roots {
			c.groups = append(c.groups, group{h: curve.HashToG2([]byte{byte(r)}, []byte("lines"))})
		}
		c.searchBegins()
		for x := range c.groups {
			if made := c.groups[x].lines != nil; made != (roots <= searchLinesGroups) {
				t.Errorf("%d roots: group %d lines made %v", roots, x, made)
			}
		}
	}
}

// TestHashCacheRacingInsert: two calls that miss the same root both insert
// it; the second insert keeps the first entry (in either generation) and
// the lines a call kept in it between the two, so the count of roots with
// lines stays that of the entries holding them. A drifting count would
// reach hashLinesMax and no root would ever keep lines again.
func TestHashCacheRacingInsert(t *testing.T) {
	h := newHashCache(4)
	counted := func() int { return h.countLines(h.cur) + h.countLines(h.prev) }
	for i := range 4 * hashLinesMax {
		root := [32]byte{byte(i), byte(i >> 8), 1}
		p := curve.HashToG2(root[:], []byte("race"))
		h.insert(root, p) // the first call's miss
		e := h.cur[root]
		h.keepLines(root, e, curve.NewLines(&p)) // a later call found it again
		if i%2 == 1 {                            // the racing call comes after a new generation began
			h.insert([32]byte{byte(i), byte(i >> 8), 2}, p)
			h.insert([32]byte{byte(i), byte(i >> 8), 3}, p)
			h.insert([32]byte{byte(i), byte(i >> 8), 4}, p)
		}
		q, l := h.insert(root, p) // the racing call's miss
		if got := h.cur[root]; got != e && (got != nil || h.prev[root] != e) {
			t.Fatalf("root %d: the racing insert replaced the entry", i)
		}
		if l != e.lines || l == nil || !q.Equal(&p) {
			t.Fatalf("root %d: the racing insert did not return the entry's hash and lines", i)
		}
		if h.lines != counted() {
			t.Fatalf("root %d: %d roots with lines counted, %d in the cache", i, h.lines, counted())
		}
	}
	root := [32]byte{0xee}
	h.get(root)
	if _, l := h.get(root); l == nil {
		t.Error("a root found again gets no lines")
	}
}
