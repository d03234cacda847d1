package verifier

import "testing"

// TestSuspectCallsKeepShareApart: the verdicts of VerifySuspect calls stay
// out of the recent invalid share the other calls read. After 200 suspect
// calls of one invalid set each, a 256-set call with one invalid signature
// is searched as on a fresh verifier (a few checks); after 200 such
// ordinary calls it would check every set alone. The suspect calls read
// their own share: once it is dense, a failing suspect call checks its sets
// alone at once.
func TestSuspectCallsKeepShareApart(t *testing.T) {
	const n, calls = 256, 200
	base := sameRoot(t, n, 0)
	one := append([]Set(nil), base...)
	one[101].Signature = base[102].Signature
	bad := []Set{one[101]}
	exp, expBad := want(one), want(bad)
	cost := func(v *Verifier, sets []Set, exp []bool) (checks, alone int64) {
		t.Helper()
		before := v.Stats()
		checkVerdicts(t, v, sets, exp)
		after := v.Stats()
		return after.Checks - before.Checks, after.Individual - before.Individual
	}
	suspect := func(v *Verifier, sets []Set, exp []bool) {
		t.Helper()
		v.VerifySuspect(sets, func(i int, ok bool) {
			if ok != exp[i] {
				t.Fatalf("suspect call, set %d: verdict %v, alone %v", i, ok, exp[i])
			}
		})
	}

	fresh := newVerifier(t, 64)
	freshChecks, freshAlone := cost(fresh, one, exp)

	v := newVerifier(t, 64)
	for range calls {
		suspect(v, bad, expBad)
	}
	checks, alone := cost(v, one, exp)
	t.Logf("256 sets, one invalid: fresh %d checks and %d alone; after %d suspect calls %d and %d", freshChecks, freshAlone, calls, checks, alone)
	if checks+alone > freshChecks+freshAlone+2 || alone > 8 {
		t.Errorf("after %d suspect calls of an invalid set: %d checks and %d sets alone, a fresh verifier %d and %d", calls, checks, alone, freshChecks, freshAlone)
	}

	// Ordinary calls feed the share the next call reads.
	w := newVerifier(t, 64)
	for range calls {
		checkVerdicts(t, w, bad, expBad)
	}
	ordChecks, ordAlone := cost(w, one, exp)
	t.Logf("after %d ordinary calls of an invalid set: %d checks and %d alone", calls, ordChecks, ordAlone)
	if alone := ordAlone; alone < n/2 {
		t.Errorf("after %d ordinary calls of an invalid set: %d sets alone, want the call checked set by set", calls, alone)
	}

	// Suspect calls read the suspect share.
	mixed := append([]Set(nil), base[:16]...)
	mixed[3].Signature = base[4].Signature
	expMixed := want(mixed)
	before := v.Stats().Individual
	suspect(v, mixed, expMixed)
	if got := v.Stats().Individual - before; got != int64(len(mixed)) {
		t.Errorf("a failing suspect call after %d invalid ones checked %d of its %d sets alone, want all", calls, got, len(mixed))
	}
}
