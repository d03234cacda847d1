package spectest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/verifier"
)

// HashToG2TestDST is the domain separation tag of the RFC 9380 hash-to-curve
// test vectors (BLS12381G2_XMD:SHA-256_SSWU_RO_), used by hash_to_G2 cases
// that do not give their own.
const HashToG2TestDST = "QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_"

// blsFunc checks one BLS case given its input and output nodes.
type blsFunc func(in, out *yaml.Node) error

var blsHandlers = map[string]blsFunc{
	"verify":                    blsVerify,
	"aggregate":                 blsAggregate,
	"aggregate_verify":          blsAggregateVerify,
	"fast_aggregate_verify":     blsFastAggregateVerify,
	"eth_aggregate_pubkeys":     blsEthAggregatePubkeys,
	"eth_fast_aggregate_verify": blsEthFastAggregateVerify,
	"sign":                      blsSign,
	"batch_verify":              blsBatchVerify,
	"deserialization_G1":        blsDeserializationG1,
	"deserialization_G2":        blsDeserializationG2,
	"hash_to_G2":                blsHashToG2,
}

// BLSHandlers returns the names of the BLS handlers this package runs.
func BLSHandlers() []string {
	names := make([]string, 0, len(blsHandlers))
	for n := range blsHandlers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func blsHandler(c Case) (caseFunc, error) {
	h, ok := blsHandlers[c.Handler]
	if !ok {
		return nil, skipf("no handler for bls/%s", c.Handler)
	}
	return func(c Case) error {
		doc, err := readYAML(filepath.Join(c.Dir, "data.yaml"))
		if err != nil {
			return err
		}
		in, err := field(doc, "input")
		if err != nil {
			return fmt.Errorf("data.yaml: %w", err)
		}
		out, err := field(doc, "output")
		if err != nil {
			return fmt.Errorf("data.yaml: %w", err)
		}
		return h(in, out)
	}, nil
}

// checkBool compares a verdict with the case's boolean output.
func checkBool(name string, got bool, out *yaml.Node) error {
	want, err := boolOf(out)
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	if got != want {
		return fmt.Errorf("%s = %v, want %v", name, got, want)
	}
	return nil
}

// checkBytes compares the result of an operation that may fail with the
// case's output: null means the operation must fail.
func checkBytes(name string, got []byte, opErr error, out *yaml.Node) error {
	if isNull(out) {
		if opErr == nil {
			return fmt.Errorf("%s = 0x%x, want an error (output null)", name, got)
		}
		return nil
	}
	want, err := hexOf(out)
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	if opErr != nil {
		return fmt.Errorf("%s failed: %v, want 0x%x", name, opErr, want)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s = 0x%x, want 0x%x", name, got, want)
	}
	return nil
}

func decodePubkeys(encoded [][]byte) ([]*crypto.PublicKey, error) {
	pks := make([]*crypto.PublicKey, len(encoded))
	for i, b := range encoded {
		pk, err := crypto.PublicKeyFromBytes(b)
		if err != nil {
			return nil, fmt.Errorf("pubkey %d: %w", i, err)
		}
		pks[i] = pk
	}
	return pks, nil
}

func decodeSignatures(encoded [][]byte) ([]*crypto.Signature, error) {
	sigs := make([]*crypto.Signature, len(encoded))
	for i, b := range encoded {
		s, err := crypto.SignatureFromBytes(b)
		if err != nil {
			return nil, fmt.Errorf("signature %d: %w", i, err)
		}
		sigs[i] = s
	}
	return sigs, nil
}

func blsVerify(in, out *yaml.Node) error {
	pkB, err := hexField(in, "pubkey")
	if err != nil {
		return err
	}
	msg, err := hexField(in, "message")
	if err != nil {
		return err
	}
	sigB, err := hexField(in, "signature")
	if err != nil {
		return err
	}
	got := false
	pk, errPK := crypto.PublicKeyFromBytes(pkB)
	sig, errSig := crypto.SignatureFromBytes(sigB)
	if errPK == nil && errSig == nil {
		got = crypto.Verify(pk, msg, sig)
	}
	return checkBool("Verify", got, out)
}

func blsAggregate(in, out *yaml.Node) error {
	encoded, err := hexList(in)
	if err != nil {
		return fmt.Errorf("input: %w", err)
	}
	var got []byte
	sigs, opErr := decodeSignatures(encoded)
	if opErr == nil {
		var agg *crypto.Signature
		if agg, opErr = crypto.AggregateSignatures(sigs); opErr == nil {
			b := agg.Bytes()
			got = b[:]
		}
	}
	return checkBytes("Aggregate", got, opErr, out)
}

func blsAggregateVerify(in, out *yaml.Node) error {
	pkBs, err := hexListField(in, "pubkeys")
	if err != nil {
		return err
	}
	msgs, err := hexListField(in, "messages")
	if err != nil {
		return err
	}
	sigB, err := hexField(in, "signature")
	if err != nil {
		return err
	}
	got := false
	pks, errPK := decodePubkeys(pkBs)
	sig, errSig := crypto.SignatureFromBytes(sigB)
	if errPK == nil && errSig == nil {
		got = crypto.AggregateVerify(pks, msgs, sig)
	}
	return checkBool("AggregateVerify", got, out)
}

// fastAggregateInputs reads the pubkeys, message and signature of a
// (eth_)fast_aggregate_verify case and decodes them; ok is false when one of
// them is not a valid encoding.
func fastAggregateInputs(in *yaml.Node) (pks []*crypto.PublicKey, msg []byte, sig *crypto.Signature, ok bool, err error) {
	pkBs, err := hexListField(in, "pubkeys")
	if err != nil {
		return nil, nil, nil, false, err
	}
	if msg, err = hexField(in, "message"); err != nil {
		return nil, nil, nil, false, err
	}
	sigB, err := hexField(in, "signature")
	if err != nil {
		return nil, nil, nil, false, err
	}
	pks, errPK := decodePubkeys(pkBs)
	sig, errSig := crypto.SignatureFromBytes(sigB)
	return pks, msg, sig, errPK == nil && errSig == nil, nil
}

func blsFastAggregateVerify(in, out *yaml.Node) error {
	pks, msg, sig, ok, err := fastAggregateInputs(in)
	if err != nil {
		return err
	}
	return checkBool("FastAggregateVerify", ok && crypto.FastAggregateVerify(pks, msg, sig), out)
}

func blsEthFastAggregateVerify(in, out *yaml.Node) error {
	pks, msg, sig, ok, err := fastAggregateInputs(in)
	if err != nil {
		return err
	}
	return checkBool("EthFastAggregateVerify", ok && crypto.EthFastAggregateVerify(pks, msg, sig), out)
}

func blsEthAggregatePubkeys(in, out *yaml.Node) error {
	encoded, err := hexList(in)
	if err != nil {
		return fmt.Errorf("input: %w", err)
	}
	agg, opErr := crypto.EthAggregatePubkeys(encoded)
	return checkBytes("EthAggregatePubkeys", agg[:], opErr, out)
}

func blsSign(in, out *yaml.Node) error {
	skB, err := hexField(in, "privkey")
	if err != nil {
		return err
	}
	msg, err := hexField(in, "message")
	if err != nil {
		return err
	}
	var got []byte
	sk, opErr := crypto.SecretKeyFromBytes(skB)
	if opErr == nil {
		b := crypto.Sign(sk, msg).Bytes()
		got = b[:]
	}
	return checkBytes("Sign", got, opErr, out)
}

// blsBatchVerify checks that every (pubkey, message, signature) set verifies,
// with package verifier's batch check for 32-byte messages (signing roots)
// and crypto.Verify for others. An empty batch, lists of different lengths
// or a key or signature that does not decode give false.
func blsBatchVerify(in, out *yaml.Node) error {
	pkBs, err := hexListField(in, "pubkeys")
	if err != nil {
		return err
	}
	msgs, err := hexListField(in, "messages")
	if err != nil {
		return err
	}
	sigBs, err := hexListField(in, "signatures")
	if err != nil {
		return err
	}
	if len(pkBs) == 0 || len(pkBs) != len(msgs) || len(pkBs) != len(sigBs) {
		return checkBool("BatchVerify", false, out)
	}
	got := true
	sets := make([]verifier.Set, 0, len(pkBs))
	for i := range pkBs {
		pk, errPK := crypto.PublicKeyFromBytes(pkBs[i])
		if errPK != nil || len(sigBs[i]) != crypto.SignatureSize {
			got = false
			break
		}
		if len(msgs[i]) != 32 { // not a signing root: check this set alone
			sig, errSig := crypto.SignatureFromBytes(sigBs[i])
			got = got && errSig == nil && crypto.Verify(pk, msgs[i], sig)
			continue
		}
		sets = append(sets, verifier.Set{Root: [32]byte(msgs[i]), PublicKey: pk, Signature: [96]byte(sigBs[i])})
	}
	if got && len(sets) > 0 {
		// Signing roots go through the project's batch verifier, whose
		// verdicts are per set.
		v, err := verifier.New(verifier.Config{})
		if err != nil {
			return err
		}
		defer v.Close()
		for _, ok := range v.Verify(sets) {
			got = got && ok
		}
	}
	return checkBool("BatchVerify", got, out)
}

// blsDeserializationG1 follows the specs' deserialization of a G1 point,
// which accepts the point at infinity that KeyValidate (and so
// crypto.PublicKeyFromBytes) rejects.
func blsDeserializationG1(in, out *yaml.Node) error {
	b, err := hexField(in, "pubkey")
	if err != nil {
		return err
	}
	decErr := crypto.DeserializeG1(b)
	return checkBool("DeserializeG1 succeeded", decErr == nil, out)
}

// blsDeserializationG2 follows the specs' deserialization of a G2 point
// (signature_to_point with its subgroup check; infinity is valid).
func blsDeserializationG2(in, out *yaml.Node) error {
	b, err := hexField(in, "signature")
	if err != nil {
		return err
	}
	decErr := crypto.DeserializeG2(b)
	return checkBool("DeserializeG2 succeeded", decErr == nil, out)
}

// blsHashToG2 checks hash_to_G2 cases in the bls12-381-tests format: input
// msg (the message as text) and optionally dst, output x and y, each
// "0x<c0>,0x<c1>".
func blsHashToG2(in, out *yaml.Node) error {
	msgN, err := field(in, "msg")
	if err != nil {
		return err
	}
	msg := ""
	if !isNull(msgN) {
		if msg, err = scalar(msgN); err != nil {
			return fmt.Errorf("msg: %w", err)
		}
	}
	dst := HashToG2TestDST
	for _, key := range []string{"dst", "DST"} {
		n, err := lookup(in, key)
		if err != nil {
			return err
		}
		if n != nil {
			if dst, err = scalar(n); err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
			break
		}
	}
	var want [4][]byte // x.c0, x.c1, y.c0, y.c1
	for i, key := range []string{"x", "y"} {
		s, err := scalarField(out, key)
		if err != nil {
			return fmt.Errorf("output: %w", err)
		}
		c0, c1, err := parseFp2(s)
		if err != nil {
			return fmt.Errorf("output %s: %w", key, err)
		}
		want[2*i], want[2*i+1] = c0, c1
	}
	u := crypto.HashToCurveG2([]byte(msg), []byte(dst)) // x.c1 || x.c0 || y.c1 || y.c0
	got := [4][]byte{u[48:96], u[0:48], u[144:192], u[96:144]}
	names := [4]string{"x.c0", "x.c1", "y.c0", "y.c1"}
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			return fmt.Errorf("HashToG2(%q, %q): %s = 0x%x, want 0x%x", abbrev(msg), dst, names[i], got[i], want[i])
		}
	}
	return nil
}

func scalarField(m *yaml.Node, key string) (string, error) {
	n, err := field(m, key)
	if err != nil {
		return "", err
	}
	s, err := scalar(n)
	if err != nil {
		return "", fmt.Errorf("%s: %w", key, err)
	}
	return s, nil
}

// parseFp2 parses "0x<c0>,0x<c1>" into two 48-byte big-endian field elements.
func parseFp2(s string) (c0, c1 []byte, err error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return nil, nil, fmt.Errorf("want \"0x<c0>,0x<c1>\", got %q", abbrev(s))
	}
	var out [2][]byte
	for i, p := range parts {
		p = strings.TrimSpace(p)
		p = strings.TrimPrefix(strings.TrimPrefix(p, "0x"), "0X")
		if len(p)%2 == 1 {
			p = "0" + p
		}
		b, err := hex.DecodeString(p)
		if err != nil {
			return nil, nil, fmt.Errorf("bad hex: %w", err)
		}
		if len(b) > 48 {
			return nil, nil, errors.New("field element longer than 48 bytes")
		}
		out[i] = append(make([]byte, 48-len(b)), b...)
	}
	return out[0], out[1], nil
}
