package baseline

import (
	"fmt"
	"testing"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
)

// testSets returns n sets over three roots (one of them with a single set),
// the sets at bad carrying another set's signature (a valid point, the wrong
// key's), and every third set with its signature already decoded.
func testSets(t *testing.T, n int, bad ...int) []verifier.Set {
	t.Helper()
	sets := make([]verifier.Set, n)
	for i := range sets {
		sk, err := crypto.InteropSecretKey(uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		var root [32]byte
		r := i % 2
		if i == n-1 {
			r = 2 // a root with one set
		}
		copy(root[:], fmt.Sprintf("root-%d", r))
		sets[i] = verifier.Set{Root: root, PublicKey: sk.PublicKey(), Signature: crypto.Sign(sk, root[:]).Bytes()}
	}
	for _, i := range bad {
		sets[i].Signature = crypto.Sign(mustKey(t, uint64(n+i)), sets[i].Root[:]).Bytes()
	}
	for i := 0; i < n; i += 3 {
		sig, err := new(crypto.Signature).SetBytesNoSubgroupCheck(sets[i].Signature[:])
		if err != nil {
			t.Fatal(err)
		}
		sets[i].Decoded = sig
	}
	return sets
}

func clients() map[string]interface{ Verify([]verifier.Set) []bool } {
	return map[string]interface{ Verify([]verifier.Set) []bool }{
		"prysm": Prysm{}, "lighthouse": Lighthouse{}, "lodestar": Lodestar{}, "teku": Teku{},
		"each-alone": EachAlone{},
	}
}

func mustKey(t *testing.T, i uint64) *crypto.SecretKey {
	sk, err := crypto.InteropSecretKey(i)
	if err != nil {
		t.Fatal(err)
	}
	return sk
}

// TestClientsExact checks that every client's method gives each set the
// verdict it gets alone, with no, one and many invalid sets, so that
// Teku's split, Lodestar's per-root retry and the fallbacks are all taken.
func TestClientsExact(t *testing.T) {
	for _, bad := range [][]int{nil, {7}, {0, 1, 2, 30, 39}} {
		sets := testSets(t, 40, bad...)
		want := make([]bool, len(sets))
		for i := range sets {
			sig, err := crypto.SignatureFromBytes(sets[i].Signature[:])
			want[i] = err == nil && crypto.Verify(sets[i].PublicKey, sets[i].Root[:], sig)
		}
		for name, c := range clients() {
			got := c.Verify(sets)
			if len(got) != len(sets) {
				t.Fatalf("%s: %d verdicts for %d sets", name, len(got), len(sets))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%s, invalid %v: set %d got %v, want %v", name, bad, i, got[i], want[i])
				}
			}
		}
	}
}

// A signature on the curve but outside G2 is rejected by every method, the
// point decoded by the caller or not.
func TestClientsRejectOffG2(t *testing.T) {
	sets := testSets(t, 8)
	var off [96]byte
	for seed := byte(1); ; seed++ {
		var b [96]byte
		for i := range b {
			b[i] = seed*31 + byte(i)*7
		}
		b[0] = 0x80 | b[0]&0x0f
		b[48] &= 0x0f
		var s crypto.Signature
		if _, err := s.SetBytesNoSubgroupCheck(b[:]); err == nil && !s.InG2() {
			off = b
			break
		}
	}
	sets[3].Signature, sets[3].Decoded = off, nil
	dec, _ := new(crypto.Signature).SetBytesNoSubgroupCheck(off[:])
	sets[4].Signature, sets[4].Decoded = off, dec
	for name, c := range clients() {
		got := c.Verify(sets)
		for i, v := range got {
			if v != (i != 3 && i != 4) {
				t.Errorf("%s: set %d got %v", name, i, v)
			}
		}
	}
}
