package spectest_test

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/spectest"
)

// Run walks a consensus-spec-tests "tests" folder and checks every case it
// understands. Here we build a tiny tree by hand: one BLS verify case, in the
// official layout general/<fork>/bls/<handler>/bls/<case>/data.yaml, and one
// case of a handler this package does not know, which is not covered and named
// rather than silently passed. With the real vectors, point Run (or the
// spectest command, or the Go test via CONSENSUS_SPEC_TESTS) at the
// checkout's tests folder instead.
func Example() {
	root, err := os.MkdirTemp("", "spectest-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(root)

	// A signature made with a deterministic test key.
	sk, _ := crypto.InteropSecretKey(0)
	msg := []byte("attestation")
	pk, sig := sk.PublicKey().Bytes(), crypto.Sign(sk, msg).Bytes()
	verify := fmt.Sprintf("input:\n  pubkey: '0x%x'\n  message: '0x%s'\n  signature: '0x%x'\noutput: true\n",
		pk, hex.EncodeToString(msg), sig)

	write := func(rel, content string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		_ = os.WriteFile(p, []byte(content), 0o644)
	}
	write("general/phase0/bls/verify/bls/verify_example/data.yaml", verify)
	write("general/phase0/bls/sign_with_nonce/bls/case_0/data.yaml", "input: {}\noutput: null\n")

	results, err := spectest.Run(root)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		switch {
		case r.NotCovered:
			fmt.Printf("not covered %s %s: %s\n", r.Handler, r.Case, r.Reason)
		case r.Err != nil:
			fmt.Printf("FAIL %s %s: %v\n", r.Handler, r.Case, r.Err)
		default:
			fmt.Printf("ok   %s %s\n", r.Handler, r.Case)
		}
	}
	_, total := spectest.Tally(results)
	fmt.Println(total)
	// Output:
	// not covered general/phase0/bls/sign_with_nonce bls/case_0: no handler for bls/sign_with_nonce
	// ok   general/phase0/bls/verify bls/verify_example
	// 1 passed, 0 failed, 1 not covered
}
