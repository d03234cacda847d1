package verifier

import (
	mrand "math/rand/v2"
	"testing"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/curve"
)

// Crafted keys: the zero value, nil, and a key's negation (a valid key whose
// points cancel the original's in any plain sum).

// negKey returns -pk, decoded from pk's encoding with the sign bit flipped.
func negKey(t testing.TB, pk *crypto.PublicKey) *crypto.PublicKey {
	t.Helper()
	b := pk.Bytes()
	b[0] ^= 0x20
	q, err := crypto.PublicKeyFromBytes(b[:])
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// negSig returns the encoding of -sig.
func negSig(t testing.TB, sig [96]byte) [96]byte {
	t.Helper()
	sig[0] ^= 0x20
	return sig
}

// TestZeroValueKey: a zero-value or nil key makes its own set invalid and no
// other, wherever it sits in calls of every path (small, fused, locate,
// bisection).
func TestZeroValueKey(t *testing.T) {
	v := newVerifier(t, 64)
	ns, wheres := []int{2, 17, 100, 300, 600, 1100}, func(n int) []int { return []int{0, n / 2, n - 1} }
	if testing.Short() {
		ns, wheres = []int{2, 100, 1100}, func(n int) []int { return []int{n / 2} }
	}
	for _, n := range ns {
		base := sameRoot(t, n, 0)
		for _, where := range wheres(n) {
			for _, key := range []*crypto.PublicKey{new(crypto.PublicKey), nil} {
				sets := append([]Set(nil), base...)
				sets[where].PublicKey = key
				checkChanged(t, v, sets, where)
				// With other invalid sets beside it.
				if n > 4 {
					sets[(where+1)%n].Signature = sets[(where+2)%n].Signature
					checkChanged(t, v, sets, where, (where+1)%n)
				}
			}
		}
	}
}

// TestZeroValueSets: a zero-value Set, and a set whose Decoded signature is
// the zero value (the point at infinity), are invalid and change no other
// verdict, in small and large calls.
func TestZeroValueSets(t *testing.T) {
	v := newVerifier(t, 64)
	for _, n := range []int{3, 60, 300} {
		base := sameRoot(t, n, 0)
		sets := append([]Set(nil), base...)
		sets[1] = Set{}
		sets[n-1].Decoded = new(crypto.Signature)
		got := v.Verify(sets)
		for i := range got {
			if exp := i != 1 && i != n-1; got[i] != exp {
				t.Fatalf("%d sets, set %d: verdict %v, want %v", n, i, got[i], exp)
			}
		}
	}
}

// TestNegatedKeys: keys and their negations in one call, valid (-pk with
// -sig) and invalid (-pk with sig), so that plain sums of parts and halves
// reach the point at infinity.
func TestNegatedKeys(t *testing.T) {
	v := newVerifier(t, 64)
	ns := []int{4, 40, 300, 700}
	if testing.Short() {
		ns = ns[:3]
	}
	for _, n := range ns {
		sets := sameRoot(t, n, 0)
		for i := 0; i+1 < n; i += 2 {
			sets[i+1].PublicKey = negKey(t, sets[i].PublicKey)
			sets[i+1].Signature = negSig(t, sets[i].Signature)
		}
		checkExact(t, v, sets) // all valid (by the reference), every pair sums to infinity
		var changed []int
		for _, i := range mrand.Perm(n / 2)[:max(1, n/50)] {
			sets[2*i+1].Signature = sets[2*i].Signature // -pk with sig: invalid
			changed = append(changed, 2*i+1)
		}
		checkChanged(t, v, sets, changed...)
	}
}

// checkChanged is checkExact for sets that are all valid but the changed
// ones (the others are copies of sets signed or checked valid already: the
// reference is computed for the changed ones only, which keeps the large
// calls' tests within the default run's minute).
func checkChanged(t *testing.T, v *Verifier, sets []Set, changed ...int) {
	t.Helper()
	exp := make([]bool, len(sets))
	for i := range exp {
		exp[i] = true
	}
	for _, i := range changed {
		exp[i] = want(sets[i : i+1])[0]
	}
	got := v.Verify(sets)
	for i := range exp {
		if got[i] != exp[i] {
			t.Fatalf("set %d of %d: verdict %v, alone %v", i, len(sets), got[i], exp[i])
		}
	}
}

// TestVerifyStreamEarly: the valid sets of a failing call are reported as
// soon as a check proves them, while the search goes on. Each report records
// how many checks the Verifier had made; valid sets must be reported before
// the last check of the call, and every verdict must be exact and reported
// once. In the 600-set call two invalid sets share a part of the locate step,
// which is searched after the rest of the call is accepted; in the 200-set
// call a pair shifted by D and -D cancels in the plain values, the locate
// step's final check fails, and bisection accepts passing halves level by
// level.
func TestVerifyStreamEarly(t *testing.T) {
	v := newVerifier(t, 64)
	D := randomG2(t)
	for _, tc := range []struct {
		n      int
		bad    []int
		cancel bool // bad[0] and bad[1] shifted by D and -D
	}{{600, []int{10, 11, 400}, false}, {200, []int{3, 4, 150}, true}} {
		sets := sameRoot(t, tc.n, 0)
		for x, i := range tc.bad {
			switch {
			case tc.cancel && x == 0:
				sets[i].Signature = shifted(t, sets[i].Signature, &D)
			case tc.cancel && x == 1:
				sets[i].Signature = shifted(t, sets[i].Signature, neg(D))
			default:
				sets[i].Signature = sets[i+1].Signature
			}
		}
		work := func() int64 { s := v.Stats(); return s.Checks + s.Individual }
		at := make([]int64, tc.n)
		seen := make([]int, tc.n)
		got := make([]bool, tc.n)
		v.VerifyStream(sets, func(i int, ok bool) {
			seen[i]++
			got[i], at[i] = ok, work()
		})
		final := work()
		early := 0
		for i := range sets {
			exp := !contains(tc.bad, i)
			if seen[i] != 1 || got[i] != exp {
				t.Fatalf("%d sets, set %d: reported %d times, verdict %v, want %v", tc.n, i, seen[i], got[i], exp)
			}
			if exp && at[i] < final {
				early++
			}
		}
		if early == 0 {
			t.Fatalf("%d sets: no valid set was reported before the call's last check", tc.n)
		}
		t.Logf("%d sets: %d valid sets reported before the last of %d checks", tc.n, early, final)
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestOutsideG2Descent: points outside G2 in a large call are found by
// splitting the failing subgroup rounds, not by checking every point (which
// OutsideG2 would not count), and the verdicts stay exact: a random curve
// point, an order-13 shift, two shifts that cancel in a plain sum, and
// invalid signatures of G2 beside them.
func TestOutsideG2Descent(t *testing.T) {
	v := newVerifier(t, 64)
	T := orderThirteen(t)
	base := sameRoot(t, 600, 0)
	for _, tc := range []struct {
		name  string
		shift []int // sets shifted out of G2
		other []int // sets with another valid signature (in G2, invalid)
	}{
		{"one", []int{7}, nil},
		{"first and last", []int{0, 599}, nil},
		{"cancelling pair", []int{100, 101}, nil},
		{"with invalid in G2", []int{300}, []int{20, 450}},
	} {
		sets := append([]Set(nil), base...)
		for x, i := range tc.shift {
			switch {
			case tc.name == "cancelling pair" && x == 1:
				sets[i].Signature = shifted(t, sets[i].Signature, neg(T))
			case tc.name == "cancelling pair":
				sets[i].Signature = shifted(t, sets[i].Signature, &T)
			default:
				Q := randomCurvePoint(t)
				sets[i].Signature = shifted(t, sets[i].Signature, &Q)
			}
		}
		for _, i := range tc.other {
			sets[i].Signature = sets[i+1].Signature
		}
		before := v.Stats().OutsideG2
		checkChanged(t, v, sets, append(tc.shift, tc.other...)...)
		if got := v.Stats().OutsideG2 - before; got != int64(len(tc.shift)) {
			t.Errorf("%s: %d points found outside G2 by the descent, want %d", tc.name, got, len(tc.shift))
		}
	}
}

// TestFindPower: the baby-step giant-step search finds every exponent in
// [1, s] and nothing beyond, for s on both sides of bsgsMin.
func TestFindPower(t *testing.T) {
	g1, g2 := curve.G1Generator(), curve.G2Generator()
	ml := curve.MillerLoop([]curve.G1Affine{g1}, []curve.G2Affine{g2})
	A := ml.FinalExp()
	for _, s := range []int{1, 5, bsgsMin, bsgsMin + 1, 100, 2048} {
		for _, j := range []int{1, 2, s / 2, s - 1, s, s + 1, s + 7} {
			if j < 1 {
				continue
			}
			B := A.Exp([]byte{byte(j), byte(j >> 8)}, 16)
			want := j
			if j > s {
				want = 0
			}
			if got := findPower(A, B, s); got != want {
				t.Errorf("s=%d, B=A^%d: findPower %d, want %d", s, j, got, want)
			}
		}
	}
}

// TestWeightedByRounds: the public-weight sums from pair rounds equal the
// multi-scalar multiplication's, over ranges that cut through groups.
func TestWeightedByRounds(t *testing.T) {
	v := newVerifier(t, 64)
	sets := append(sameRoot(t, 150, 0), sameRoot(t, 170, 0)...)
	c := &call{v: v, share: &v.recent, sets: sets, out: make([]bool, len(sets)), settled: make([]bool, len(sets))}
	c.decode()
	c.pks, c.pts = c.points()
	for _, r := range [][3]int{{0, 0, 320}, {10, 40, 300}, {100, 140, 160}} {
		base, lo, hi := r[0], r[1], r[2]
		got := c.weightedByRounds(base, lo, hi)
		nbits := 9
		nb := 2
		w := make([]byte, (hi-lo)*nb)
		for k := range hi - lo {
			x := lo + k - base + 1
			w[k*nb], w[k*nb+1] = byte(x), byte(x>>8)
		}
		want := c.weighted(lo, hi, w, nbits)
		if !got.S.Equal(&want.S) || len(got.P) != len(want.P) {
			t.Fatalf("range %v: signature sums differ", r)
		}
		for x := range got.P {
			if !got.P[x].Equal(&want.P[x]) {
				t.Fatalf("range %v: key sum of group %d differs", r, got.gLo+x)
			}
		}
	}
}

// TestLocateCrafted: signatures shifted by points of G2 chosen to fool the
// locate step's public weights. Shifting the sets of weights 1 and 3 by the
// same D makes the weighted value (1+3)D twice the plain one (2D): the
// weights name the valid set of weight 2. Shifting three neighbours by D
// names an invalid set whose term leaves more behind (peeling). A pair
// shifted by D and -D cancels in the plain values; the check under the
// secret scalars catches it.
func TestLocateCrafted(t *testing.T) {
	v := newVerifier(t, 64)
	base := sameRoot(t, 600, 0)
	D := randomG2(t)
	for _, tc := range []struct {
		name  string
		shift map[int]*curve.G2
	}{
		{"weights 1 and 3 name weight 2", map[int]*curve.G2{0: &D, 2: &D}},
		{"three neighbours", map[int]*curve.G2{0: &D, 1: &D, 2: &D}},
		{"cancelling pair", map[int]*curve.G2{3: &D, 4: neg(D)}},
		{"fooling pair and others", map[int]*curve.G2{70: &D, 72: &D, 300: neg(D), 599: &D}},
	} {
		sets := append([]Set(nil), base...)
		var changed []int
		for i, S := range tc.shift {
			sets[i].Signature = shifted(t, sets[i].Signature, S)
			changed = append(changed, i)
		}
		before := v.Stats()
		checkChanged(t, v, sets, changed...)
		s := v.Stats()
		t.Logf("%s: %d checks, %d alone, %d located", tc.name, s.Checks-before.Checks, s.Individual-before.Individual, s.Located-before.Located)
	}
}

// TestLocateFooledSmall: the public weights fooled inside ranges too small to
// halve (shifts by D at weights 1 and 3 of the last parts' small halves, and
// at the call's last sets), with invalid sets around them.
func TestLocateFooledSmall(t *testing.T) {
	v := newVerifier(t, 64)
	base := sameRoot(t, 300, 0)
	D := randomG2(t)
	for _, at := range [][]int{{296, 298}, {0, 2, 150}, {64, 66, 67, 299}} {
		sets := append([]Set(nil), base...)
		for _, i := range at {
			sets[i].Signature = shifted(t, sets[i].Signature, &D)
		}
		checkChanged(t, v, sets, at...)
	}
}

// TestLocate128: the locate step and the descent at 128-bit soundness (38
// rounds, 141-bit scalars), with invalid sets, a fooling pair and a point
// outside G2 in one call over two roots.
func TestLocate128(t *testing.T) {
	v := newVerifier(t, 128)
	sets := append(sameRoot(t, 200, 0), sameRoot(t, 200, 0)...)
	D := randomG2(t)
	Q := randomCurvePoint(t)
	sets[10].Signature = shifted(t, sets[10].Signature, &D)
	sets[12].Signature = shifted(t, sets[12].Signature, &D)
	sets[250].Signature = shifted(t, sets[250].Signature, &Q)
	sets[300].Signature = sets[301].Signature
	sets[399].Signature = sets[0].Signature
	before := v.Stats()
	checkChanged(t, v, sets, 10, 12, 250, 300, 399)
	if s := v.Stats(); s.OutsideG2-before.OutsideG2 != 1 || s.Located-before.Located < 1 {
		t.Fatalf("descent found %d, locate named %d", s.OutsideG2-before.OutsideG2, s.Located-before.Located)
	}
}
