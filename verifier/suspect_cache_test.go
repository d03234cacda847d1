package verifier

import "testing"

// TestSuspectCallsKeepHashCache: VerifySuspect calls over many signing roots
// of a suspect source's choosing (twice HashCacheSize, the default scaled
// by 1/8, more than the cache's two generations hold) evict no root of the
// trusted calls from the hash-to-G2 cache: the next trusted call over a
// root cached before finds it there. The suspect calls' verdicts are
// right, and they still use the roots the cache holds.
func TestSuspectCallsKeepHashCache(t *testing.T) {
	size := DefaultConfig().HashCacheSize / 8
	v, err := New(Config{HashCacheSize: size})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	honest := validSet(t, 0, randRoot(t))
	checkVerdicts(t, v, []Set{honest}, []bool{true})
	for i := range 2 * size {
		s := validSet(t, 1, randRoot(t))
		s.Signature = honest.Signature // decodes, and is invalid for the root
		v.VerifySuspect([]Set{s}, func(_ int, ok bool) {
			if ok {
				t.Fatalf("suspect call %d: an invalid set verified", i)
			}
		})
	}
	before := v.Stats().HashCacheHits
	v.VerifySuspect([]Set{honest}, func(_ int, ok bool) {
		if !ok {
			t.Fatal("suspect call over the trusted root: a valid set failed")
		}
	})
	checkVerdicts(t, v, []Set{honest}, []bool{true})
	if hits := v.Stats().HashCacheHits - before; hits != 2 {
		t.Fatalf("%d hash cache hits for two calls over a root cached before %d suspect calls, want 2", hits, 2*size)
	}
}
