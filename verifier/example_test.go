package verifier_test

import (
	"fmt"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
)

// exampleKey returns interop validator i's key pair. The interop keys are
// public: use them only in tests and examples.
func exampleKey(i uint64) (*crypto.SecretKey, *crypto.PublicKey) {
	sk, err := crypto.InteropSecretKey(i)
	if err != nil {
		panic(err)
	}
	return sk, sk.PublicKey()
}

// A beacon node's gossip pipeline collects a slot's attestations and verifies
// them in one call. Most attesters vote for the same head, so the sets share
// a few signing roots; the Verifier checks each root's sets together and
// still answers for every set on its own, so one bad attestation costs only
// its own rejection.
func Example() {
	v, err := verifier.New(verifier.Config{}) // the zero Config: DefaultConfig
	if err != nil {
		panic(err)
	}
	defer v.Close() // stops the Verifier's goroutines

	// Two signing roots, as ssz.ComputeSigningRoot would give for two
	// attestation data.
	var headA, headB [32]byte
	copy(headA[:], "attestation data voting head A")
	copy(headB[:], "attestation data voting head B")

	var sets []verifier.Set
	var about []string
	add := func(validator uint64, claimed, signed [32]byte, note string) {
		sk, pk := exampleKey(validator)
		sets = append(sets, verifier.Set{
			Root:      claimed,
			PublicKey: pk,
			Signature: crypto.Sign(sk, signed[:]).Bytes(),
		})
		about = append(about, fmt.Sprintf("validator %d, %s", validator, note))
	}
	for i := range uint64(5) {
		add(i, headA, headA, "head A")
	}
	add(5, headB, headB, "head B")
	// Validator 6 signed head A, but its message claims head B.
	add(6, headB, headA, "claims head B, signed head A")
	add(7, headB, headB, "head B")

	for i, ok := range v.Verify(sets) {
		fmt.Printf("set %d (%s): %v\n", i, about[i], ok)
	}
	st := v.Stats()
	fmt.Printf("calls %d, sets %d\n", st.Calls, st.Sets)
	// Output:
	// set 0 (validator 0, head A): true
	// set 1 (validator 1, head A): true
	// set 2 (validator 2, head A): true
	// set 3 (validator 3, head A): true
	// set 4 (validator 4, head A): true
	// set 5 (validator 5, head B): true
	// set 6 (validator 6, claims head B, signed head A): false
	// set 7 (validator 7, head B): true
	// calls 1, sets 8
}

// Verify never fails as a whole: malformed input makes only its own set
// false. The signature bytes are checked exactly as received, so a block's
// or a gossip message's bytes can be passed without decoding them first.
func ExampleVerifier_Verify() {
	v, err := verifier.New(verifier.Config{SecurityBits: 128})
	if err != nil {
		panic(err)
	}
	defer v.Close()

	var root [32]byte
	copy(root[:], "a signing root")
	sk, pk := exampleKey(0)
	good := crypto.Sign(sk, root[:]).Bytes()
	_, otherKey := exampleKey(1)

	var infinity [96]byte
	infinity[0] = 0xc0 // the compressed point at infinity

	garbage := good
	garbage[0] ^= 0x20 // the infinity flag on a nonzero point: no encoding

	sets := []struct {
		what string
		set  verifier.Set
	}{
		{"valid", verifier.Set{Root: root, PublicKey: pk, Signature: good}},
		{"another key", verifier.Set{Root: root, PublicKey: otherKey, Signature: good}},
		{"nil key", verifier.Set{Root: root, Signature: good}},
		{"point at infinity", verifier.Set{Root: root, PublicKey: pk, Signature: infinity}},
		{"bad encoding", verifier.Set{Root: root, PublicKey: pk, Signature: garbage}},
	}
	batch := make([]verifier.Set, len(sets))
	for i, s := range sets {
		batch[i] = s.set
	}
	for i, ok := range v.Verify(batch) {
		fmt.Printf("%-18s %v\n", sets[i].what+":", ok)
	}
	fmt.Println("empty call:", len(v.Verify(nil)))
	// Output:
	// valid:             true
	// another key:       false
	// nil key:           false
	// point at infinity: false
	// bad encoding:      false
	// empty call: 0
}
