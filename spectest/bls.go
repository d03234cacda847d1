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
	"deserialization_G1":        blsDeserialization("pubkey", "DeserializeG1", crypto.DeserializeG1),
	"deserialization_G2":        blsDeserialization("signature", "DeserializeG2", crypto.DeserializeG2),
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
		return nil, notCoveredf("no handler for bls/%s", c.Handler)
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

// decodeAll decodes each of encoded with decode, naming the item (what i)
// of the first that fails.
func decodeAll[T any](encoded [][]byte, what string, decode func([]byte) (T, error)) ([]T, error) {
	out := make([]T, len(encoded))
	for i, b := range encoded {
		v, err := decode(b)
		if err != nil {
			return nil, fmt.Errorf("%s %d: %w", what, i, err)
		}
		out[i] = v
	}
	return out, nil
}

func decodePubkeys(encoded [][]byte) ([]*crypto.PublicKey, error) {
	return decodeAll(encoded, "pubkey", crypto.PublicKeyFromBytes)
}

func decodeSignatures(encoded [][]byte) ([]*crypto.Signature, error) {
	return decodeAll(encoded, "signature", crypto.SignatureFromBytes)
}

func blsVerify(in, out *yaml.Node) error {
	f, err := fieldsAs(in, hexOf, "pubkey", "message", "signature")
	if err != nil {
		return err
	}
	pk, errPK := crypto.PublicKeyFromBytes(f[0])
	sig, errSig := crypto.SignatureFromBytes(f[2])
	return checkBool("Verify", errPK == nil && errSig == nil && crypto.Verify(pk, f[1], sig), out)
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
	lists, err := fieldsAs(in, hexList, "pubkeys", "messages")
	if err != nil {
		return err
	}
	sigB, err := hexField(in, "signature")
	if err != nil {
		return err
	}
	pks, errPK := decodePubkeys(lists[0])
	sig, errSig := crypto.SignatureFromBytes(sigB)
	return checkBool("AggregateVerify", errPK == nil && errSig == nil && crypto.AggregateVerify(pks, lists[1], sig), out)
}

// fastAggregateInputs reads the pubkeys, message and signature of a
// (eth_)fast_aggregate_verify case and decodes them; ok is false when one of
// them is not a valid encoding.
func fastAggregateInputs(in *yaml.Node) (pks []*crypto.PublicKey, msg []byte, sig *crypto.Signature, ok bool, err error) {
	pkBs, err := hexListField(in, "pubkeys")
	if err != nil {
		return nil, nil, nil, false, err
	}
	f, err := fieldsAs(in, hexOf, "message", "signature")
	if err != nil {
		return nil, nil, nil, false, err
	}
	pks, errPK := decodePubkeys(pkBs)
	sig, errSig := crypto.SignatureFromBytes(f[1])
	return pks, f[0], sig, errPK == nil && errSig == nil, nil
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
	f, err := fieldsAs(in, hexOf, "privkey", "message")
	if err != nil {
		return err
	}
	var got []byte
	sk, opErr := crypto.SecretKeyFromBytes(f[0])
	if opErr == nil {
		b := crypto.Sign(sk, f[1]).Bytes()
		got = b[:]
	}
	return checkBytes("Sign", got, opErr, out)
}

// blsBatchVerify checks that every (pubkey, message, signature) set verifies,
// with package verifier's batch check for 32-byte messages (signing roots)
// and crypto.Verify for others. An empty batch, lists of different lengths
// or a key or signature that does not decode give false.
func blsBatchVerify(in, out *yaml.Node) error {
	lists, err := fieldsAs(in, hexList, "pubkeys", "messages", "signatures")
	if err != nil {
		return err
	}
	pkBs, msgs, sigBs := lists[0], lists[1], lists[2]
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
		// Signing roots go through attpool's batch verifier, whose
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

// blsDeserialization checks a deserialization case of the point in the
// input's key with deserialize: crypto.DeserializeG1 follows the specs'
// deserialization of a G1 point, which accepts the point at infinity that
// KeyValidate (and so crypto.PublicKeyFromBytes) rejects;
// crypto.DeserializeG2 that of a G2 point (signature_to_point with its
// subgroup check; infinity is valid).
func blsDeserialization(key, name string, deserialize func([]byte) error) blsFunc {
	return func(in, out *yaml.Node) error {
		b, err := hexField(in, key)
		if err != nil {
			return err
		}
		return checkBool(name+" succeeded", deserialize(b) == nil, out)
	}
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

func scalarField(m *yaml.Node, key string) (string, error) { return fieldAs(m, key, scalar) }

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
