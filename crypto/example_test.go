package crypto_test

import (
	"fmt"

	"github.com/attpool/attpool/crypto"
)

// A validator signs a 32-byte signing root; anyone holding the encoded public
// key and signature can check it. The interop keys are public: use them only
// in tests and examples.
func ExampleSign() {
	sk, err := crypto.InteropSecretKey(0)
	if err != nil {
		panic(err)
	}
	pkBytes := sk.PublicKey().Bytes()
	fmt.Printf("validator 0: %x...\n", pkBytes[:8])

	root := make([]byte, 32) // the signing root of some attestation
	sigBytes := crypto.Sign(sk, root).Bytes()

	// The receiving side decodes (and validates) both encodings first.
	pk, err := crypto.PublicKeyFromBytes(pkBytes[:])
	if err != nil {
		panic(err)
	}
	sig, err := crypto.SignatureFromBytes(sigBytes[:])
	if err != nil {
		panic(err)
	}
	fmt.Println("valid:", crypto.Verify(pk, root, sig))

	root[0] = 1
	fmt.Println("valid for another root:", crypto.Verify(pk, root, sig))
	// Output:
	// validator 0: a99a76ed7796f7be...
	// valid: true
	// valid for another root: false
}

// Attesters of one committee sign the same root; their signatures aggregate
// into one, checked against all their keys at the cost of about one pairing.
func ExampleFastAggregateVerify() {
	root := []byte("attestation data root, 32 bytes")
	var pks []*crypto.PublicKey
	var sigs []*crypto.Signature
	for i := range uint64(4) {
		sk, _ := crypto.InteropSecretKey(i)
		pks = append(pks, sk.PublicKey())
		sigs = append(sigs, crypto.Sign(sk, root))
	}
	agg, err := crypto.AggregateSignatures(sigs)
	if err != nil {
		panic(err)
	}
	fmt.Println("all four:", crypto.FastAggregateVerify(pks, root, agg))
	fmt.Println("one key missing:", crypto.FastAggregateVerify(pks[:3], root, agg))

	// The spec's variant also accepts no keys with the infinity signature
	// (an empty sync committee), which FastAggregateVerify refuses.
	inf, _ := crypto.SignatureFromBytes(append([]byte{0xc0}, make([]byte, 95)...))
	fmt.Println("no keys:", crypto.FastAggregateVerify(nil, root, inf), crypto.EthFastAggregateVerify(nil, root, inf))
	// Output:
	// all four: true
	// one key missing: false
	// no keys: false true
}

// Signatures over different messages aggregate too; each key is checked
// against its own message.
func ExampleAggregateVerify() {
	var pks []*crypto.PublicKey
	var msgs [][]byte
	var sigs []*crypto.Signature
	for i := range uint64(3) {
		sk, _ := crypto.InteropSecretKey(i)
		msg := []byte(fmt.Sprintf("message of validator %d", i))
		pks = append(pks, sk.PublicKey())
		msgs = append(msgs, msg)
		sigs = append(sigs, crypto.Sign(sk, msg))
	}
	agg, _ := crypto.AggregateSignatures(sigs)
	fmt.Println(crypto.AggregateVerify(pks, msgs, agg))
	msgs[0], msgs[1] = msgs[1], msgs[0]
	fmt.Println(crypto.AggregateVerify(pks, msgs, agg))
	// Output:
	// true
	// false
}
