package spectest_test

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/golang/snappy"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/spectest"
)

// writeFile writes content to root/rel, creating folders.
func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	if err := os.CopyFS(root, fstest.MapFS{rel: {Data: []byte(content)}}); err != nil {
		t.Fatal(err)
	}
}

// runOne runs the tree under root, which must hold exactly one case.
func runOne(t *testing.T, root string) spectest.Result {
	t.Helper()
	results, err := spectest.Run(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 {
		t.Fatalf("got %d results, want 1: %+v", len(results), results)
	}
	return results[0]
}

// wantPass and wantFail check the outcome of a case built by a test.
func wantPass(t *testing.T, r spectest.Result) {
	t.Helper()
	if !r.Passed() {
		t.Errorf("%s %s: want pass, got err=%v not covered=%v %s", r.Handler, r.Case, r.Err, r.NotCovered, r.Reason)
	}
}

func wantFail(t *testing.T, r spectest.Result, substr string) {
	t.Helper()
	if r.NotCovered || r.Err == nil {
		t.Fatalf("%s %s: want failure, got err=%v not covered=%v %s", r.Handler, r.Case, r.Err, r.NotCovered, r.Reason)
	}
	if !strings.Contains(r.Err.Error(), substr) {
		t.Errorf("error %q does not mention %q", r.Err, substr)
	}
}

// blsCase writes general/phase0/bls/<handler>/bls/<name>/data.yaml in a new
// temporary tree and returns the tree.
func blsCase(t *testing.T, handler, data string) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, "general/phase0/bls/"+handler+"/bls/case_x/data.yaml", data)
	return root
}

// signed returns a key pair and its signature of msg.
func signed(t *testing.T, msg []byte) (pk, sig string) {
	t.Helper()
	sk, err := crypto.InteropSecretKey(3)
	if err != nil {
		t.Fatal(err)
	}
	p := sk.PublicKey().Bytes()
	s := crypto.Sign(sk, msg).Bytes()
	return hex.EncodeToString(p[:]), hex.EncodeToString(s[:])
}

func TestUnknownHandlersAreNotCoveredAndNamed(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "general/phase0/bls/frobnicate/bls/c1/data.yaml", "input: 1\noutput: true\n")
	writeFile(t, root, "mainnet/phase0/operations/attestation/pyspec_tests/c2/pre.ssz_snappy", "")
	writeFile(t, root, "mainnet/electra/ssz_static/BeaconState/ssz_random/case_0/roots.yaml", "root: '0x00'\n")
	results, err := spectest.Run(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 {
		t.Fatalf("got %d results, want 3", len(results))
	}
	for i, name := range []string{"frobnicate", "BeaconState", "operations"} { // lexical order of paths
		r := results[i]
		if !r.NotCovered || r.Err != nil || r.Passed() {
			t.Errorf("%s %s: want not covered, got %+v", r.Handler, r.Case, r)
		}
		if !strings.Contains(r.Reason, name) {
			t.Errorf("reason %q does not name %q", r.Reason, name)
		}
	}
	_, total := spectest.Tally(results)
	if total != (spectest.Count{NotCovered: 3}) {
		t.Errorf("total = %+v, want 3 not covered", total)
	}
}

func TestMalformedCasesFailWithoutPanic(t *testing.T) {
	pk, sig := signed(t, []byte{1})
	for name, data := range map[string]string{
		"bad yaml":       "input: [[[\n",
		"empty file":     "",
		"no output":      "input: {pubkey: '0x" + pk + "', message: '0x01', signature: '0x" + sig + "'}\n",
		"no input":       "output: true\n",
		"input a list":   "input: [1, 2]\noutput: true\n",
		"output no bool": "input: {pubkey: '0x" + pk + "', message: '0x01', signature: '0x" + sig + "'}\noutput: maybe\n",
		"bad hex":        "input: {pubkey: '0xzz', message: '0x01', signature: '0x" + sig + "'}\noutput: false\n",
	} {
		t.Run(name, func(t *testing.T) {
			r := runOne(t, blsCase(t, "verify", data))
			if r.NotCovered || r.Err == nil {
				t.Errorf("want failure, got %+v", r)
			}
		})
	}
	t.Run("no data.yaml", func(t *testing.T) {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "general/phase0/bls/verify/bls/empty"), 0o755); err != nil {
			t.Fatal(err)
		}
		wantFail(t, runOne(t, root), "data.yaml")
	})
}

func TestVerifyCase(t *testing.T) {
	msg := []byte{0xab, 0xcd}
	pk, sig := signed(t, msg)
	in := func(pk, msg, sig string) string {
		return fmt.Sprintf("input:\n  pubkey: '%s'\n  message: '%s'\n  signature: '%s'\n", pk, msg, sig)
	}
	wantPass(t, runOne(t, blsCase(t, "verify", in("0x"+pk, "0xabcd", "0x"+sig)+"output: true\n")))
	// Hex without 0x, and upper case, are accepted.
	wantPass(t, runOne(t, blsCase(t, "verify", in(pk, "ABCD", strings.ToUpper(sig))+"output: true\n")))
	// A wrong expected output is a failure.
	wantFail(t, runOne(t, blsCase(t, "verify", in("0x"+pk, "0xabcd", "0x"+sig)+"output: false\n")), "want false")
	wantFail(t, runOne(t, blsCase(t, "verify", in("0x"+pk, "0xabce", "0x"+sig)+"output: true\n")), "want true")
	// Invalid encodings make Verify false rather than an error.
	zeroPK := strings.Repeat("00", 48)
	wantPass(t, runOne(t, blsCase(t, "verify", in(zeroPK, "0xabcd", sig)+"output: false\n")))
	wantPass(t, runOne(t, blsCase(t, "verify", in(pk, "0xabcd", sig[:20])+"output: false\n")))
}

func TestAggregateNullOutputMeansError(t *testing.T) {
	_, sig := signed(t, []byte{1})
	wantPass(t, runOne(t, blsCase(t, "aggregate", "input: ['0x"+sig+"']\noutput: '0x"+sig+"'\n")))
	wantFail(t, runOne(t, blsCase(t, "aggregate", "input: ['0x"+sig+"']\noutput: null\n")), "want an error")
	wantPass(t, runOne(t, blsCase(t, "aggregate", "input: []\noutput: null\n")))
	wantFail(t, runOne(t, blsCase(t, "aggregate", "input: []\noutput: '0x"+sig+"'\n")), "Aggregate failed")
	wantPass(t, runOne(t, blsCase(t, "aggregate", "input: ['0x00']\noutput: null\n")))
}

func TestEthAggregatePubkeysCase(t *testing.T) {
	pk, _ := signed(t, []byte{1})
	wantPass(t, runOne(t, blsCase(t, "eth_aggregate_pubkeys", "input: ['0x"+pk+"']\noutput: '0x"+pk+"'\n")))
	wantFail(t, runOne(t, blsCase(t, "eth_aggregate_pubkeys", "input: ['0x"+pk+"', '0x"+pk+"']\noutput: '0x"+pk+"'\n")), "want 0x")
	inf := "c0" + strings.Repeat("00", 47)
	wantPass(t, runOne(t, blsCase(t, "eth_aggregate_pubkeys", "input: ['0x"+inf+"']\noutput: null\n")))
}

func TestBatchVerifyCase(t *testing.T) {
	pk, sig := signed(t, []byte{7})
	data := func(msg, out string) string {
		return "input:\n  pubkeys: ['0x" + pk + "', '0x" + pk + "']\n  messages: ['0x07', '" + msg + "']\n" +
			"  signatures: ['0x" + sig + "', '0x" + sig + "']\noutput: " + out + "\n"
	}
	wantPass(t, runOne(t, blsCase(t, "batch_verify", data("0x07", "true"))))
	wantPass(t, runOne(t, blsCase(t, "batch_verify", data("0x08", "false"))))
	wantFail(t, runOne(t, blsCase(t, "batch_verify", data("0x08", "true"))), "want true")
}

// hashToG2Output formats crypto.HashToCurveG2(msg, dst) as bls12-381-tests does.
func hashToG2Output(msg, dst string) string {
	u := crypto.HashToCurveG2([]byte(msg), []byte(dst))
	h := func(b []byte) string { return "0x" + hex.EncodeToString(b) }
	return fmt.Sprintf("output: {x: '%s,%s', y: '%s,%s'}\n", h(u[48:96]), h(u[0:48]), h(u[144:192]), h(u[96:144]))
}

func TestHashToG2UsesTheCaseDST(t *testing.T) {
	wantPass(t, runOne(t, blsCase(t, "hash_to_G2", "input: {msg: abc}\n"+hashToG2Output("abc", spectest.HashToG2TestDST))))
	wantPass(t, runOne(t, blsCase(t, "hash_to_G2", "input: {msg: ''}\n"+hashToG2Output("", spectest.HashToG2TestDST))))
	own := "MY-OWN-DST_"
	wantPass(t, runOne(t, blsCase(t, "hash_to_G2", "input: {msg: abc, dst: "+own+"}\n"+hashToG2Output("abc", own))))
	// Without its DST the same output must not match.
	wantFail(t, runOne(t, blsCase(t, "hash_to_G2", "input: {msg: abc}\n"+hashToG2Output("abc", own))), "want 0x")
	wantFail(t, runOne(t, blsCase(t, "hash_to_G2", "input: {msg: abd}\n"+hashToG2Output("abc", spectest.HashToG2TestDST))), "want 0x")
	wantFail(t, runOne(t, blsCase(t, "hash_to_G2", "input: {msg: abc}\noutput: {x: '0x01', y: '0x01,0x02'}\n")), "output x")
}

func TestDeserializationCases(t *testing.T) {
	pk, sig := signed(t, []byte{1})
	wantPass(t, runOne(t, blsCase(t, "deserialization_G1", "input: {pubkey: "+pk+"}\noutput: true\n")))
	wantFail(t, runOne(t, blsCase(t, "deserialization_G1", "input: {pubkey: "+pk+"}\noutput: false\n")), "want false")
	wantPass(t, runOne(t, blsCase(t, "deserialization_G2", "input: {signature: "+sig+"}\noutput: true\n")))
	wantPass(t, runOne(t, blsCase(t, "deserialization_G2", "input: {signature: "+sig[2:]+"}\noutput: false\n")))
}

// TestDeserializationInfinity: the specs' deserialization accepts the point
// at infinity in both groups (bls12-381-tests'
// deserialization_succeeds_infinity_with_true_b_flag), although KeyValidate
// rejects it as a public key; a set b flag with anything else set fails.
func TestDeserializationInfinity(t *testing.T) {
	inf := func(n int) string { return "'0xc0" + strings.Repeat("00", n-1) + "'" }
	wantPass(t, runOne(t, blsCase(t, "deserialization_G1", "input: {pubkey: "+inf(48)+"}\noutput: true\n")))
	wantFail(t, runOne(t, blsCase(t, "deserialization_G1", "input: {pubkey: "+inf(48)+"}\noutput: false\n")), "want false")
	wantPass(t, runOne(t, blsCase(t, "deserialization_G2", "input: {signature: "+inf(96)+"}\noutput: true\n")))
	bad := "'0xc1" + strings.Repeat("00", 47) + "'"
	wantPass(t, runOne(t, blsCase(t, "deserialization_G1", "input: {pubkey: "+bad+"}\noutput: false\n")))
}

// sszCase writes an ssz_static case for value v (encoded by the package under
// test) in a new tree, with value.yaml and roots.yaml as given.
func sszCase(t *testing.T, fork, preset, typ string, ssz []byte, valueYAML, rootsYAML string) string {
	t.Helper()
	root := t.TempDir()
	dir := preset + "/" + fork + "/ssz_static/" + typ + "/ssz_random/case_0/"
	writeFile(t, root, dir+"serialized.ssz_snappy", string(snappy.Encode(nil, ssz)))
	writeFile(t, root, dir+"value.yaml", valueYAML)
	writeFile(t, root, dir+"roots.yaml", rootsYAML)
	return root
}

// encodedAndRoot returns v's SSZ encoding and hash tree root.
func encodedAndRoot(t *testing.T, v spectest.Object) ([]byte, [32]byte) {
	t.Helper()
	enc, err := v.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	htr, err := v.HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	return enc, htr
}

func TestSSZStaticCase(t *testing.T) {
	cp := &attestation.Checkpoint{Epoch: 18446744073709551615}
	cp.Root[0], cp.Root[31] = 0xaa, 0x01
	enc, htr := encodedAndRoot(t, cp)
	rootHex := "0x" + hex.EncodeToString(cp.Root[:])
	value := "epoch: 18446744073709551615\nroot: '" + rootHex + "'\n"
	roots := fmt.Sprintf("root: '0x%x'\n", htr)

	wantPass(t, runOne(t, sszCase(t, "phase0", "mainnet", "Checkpoint", enc, value, roots)))
	// Same container in another fork and preset; hex compares case-insensitively.
	upper := "epoch: 18446744073709551615\nroot: '0x" + strings.ToUpper(rootHex[2:]) + "'\n"
	wantPass(t, runOne(t, sszCase(t, "electra", "minimal", "Checkpoint", enc, upper, roots)))
	wantFail(t, runOne(t, sszCase(t, "phase0", "mainnet", "Checkpoint", enc, value, "root: '0x"+strings.Repeat("00", 32)+"'\n")), "HashTreeRoot")
	wantFail(t, runOne(t, sszCase(t, "phase0", "mainnet", "Checkpoint", enc, "epoch: 1\nroot: '"+rootHex+"'\n", roots)), "epoch")
	wantFail(t, runOne(t, sszCase(t, "phase0", "mainnet", "Checkpoint", enc, "epoch: 18446744073709551615\n", roots)), "root: decoded field missing")
	wantFail(t, runOne(t, sszCase(t, "phase0", "mainnet", "Checkpoint", enc, value+"extra: 1\n", roots)), "extra")
	wantFail(t, runOne(t, sszCase(t, "phase0", "mainnet", "Checkpoint", enc[:39], value, roots)), "UnmarshalSSZ")
	r := runOne(t, sszCase(t, "phase0", "mainnet", "NoSuchType", enc, value, roots))
	if !r.NotCovered || !strings.Contains(r.Reason, "NoSuchType") {
		t.Errorf("unregistered type: got %+v, want not covered and named", r)
	}
}

func TestSSZStaticBitlistAsHex(t *testing.T) {
	a := &attestation.Phase0Attestation{
		AggregationBits: []byte{0x05, 0x01}, // 8 bits then the delimiter bit
		Data:            &attestation.AttestationData{Slot: 1, Index: 2, Source: &attestation.Checkpoint{}, Target: &attestation.Checkpoint{Epoch: 3}},
	}
	a.Signature[95] = 0x7f
	enc, htr := encodedAndRoot(t, a)
	zero := "'0x" + strings.Repeat("00", 32) + "'"
	value := func(bits string) string {
		return "aggregation_bits: '" + bits + "'\ndata:\n  slot: 1\n  index: 2\n  beacon_block_root: " + zero +
			"\n  source: {epoch: 0, root: " + zero + "}\n  target: {epoch: 3, root: " + zero + "}\n" +
			"signature: '0x" + strings.Repeat("00", 95) + "7f'\n"
	}
	roots := fmt.Sprintf("root: '0x%x'\n", htr)
	wantPass(t, runOne(t, sszCase(t, "phase0", "minimal", "Attestation", enc, value("0x0501"), roots)))
	wantFail(t, runOne(t, sszCase(t, "phase0", "minimal", "Attestation", enc, value("0x0503"), roots)), "aggregation_bits")
}

func TestRegistryCoversEveryContainer(t *testing.T) {
	for _, fork := range []string{"phase0", "electra", "gloas"} {
		for _, preset := range []string{"mainnet", "minimal"} {
			names := []string{"Checkpoint", "AttestationData", "Fork", "ForkData", "SigningData",
				"Attestation", "IndexedAttestation", "AggregateAndProof", "SignedAggregateAndProof"}
			if fork != "phase0" {
				names = append(names, "SingleAttestation")
			}
			if fork == "gloas" {
				names = append(names, "PayloadAttestationData", "PayloadAttestationMessage", "PayloadAttestation")
			}
			for _, name := range names {
				f, ok := spectest.SSZType(fork, preset, name)
				if !ok {
					t.Errorf("no type for %s/%s/%s", fork, preset, name)
					continue
				}
				if f() == nil {
					t.Errorf("nil object for %s/%s/%s", fork, preset, name)
				}
			}
		}
	}
	// The presets differ in Electra.
	mainnet, _ := spectest.SSZType("electra", "mainnet", "Attestation")
	minimal, _ := spectest.SSZType("electra", "minimal", "Attestation")
	if fmt.Sprintf("%T", mainnet()) == fmt.Sprintf("%T", minimal()) {
		t.Errorf("electra Attestation: same type %T for both presets", mainnet())
	}
	// Gloas hashes its attestations as progressive containers, and its
	// PTC_SIZE differs by preset.
	for _, name := range []string{"Attestation", "IndexedAttestation", "AggregateAndProof", "SignedAggregateAndProof"} {
		electra, _ := spectest.SSZType("electra", "mainnet", name)
		gloas, _ := spectest.SSZType("gloas", "mainnet", name)
		if fmt.Sprintf("%T", electra()) == fmt.Sprintf("%T", gloas()) {
			t.Errorf("%s: same type %T in electra and gloas", name, gloas())
		}
	}
	mainnet, _ = spectest.SSZType("gloas", "mainnet", "PayloadAttestation")
	minimal, _ = spectest.SSZType("gloas", "minimal", "PayloadAttestation")
	if fmt.Sprintf("%T", mainnet()) == fmt.Sprintf("%T", minimal()) {
		t.Errorf("gloas PayloadAttestation: same type %T for both presets", mainnet())
	}
	if _, ok := spectest.SSZType("phase0", "mainnet", "SingleAttestation"); ok {
		t.Error("phase0 has no SingleAttestation")
	}
	if _, ok := spectest.SSZType("fulu", "mainnet", "PayloadAttestationData"); ok {
		t.Error("fulu has no PayloadAttestationData")
	}
	if len(spectest.SSZTypes()) == 0 || len(spectest.BLSHandlers()) == 0 {
		t.Error("empty registries")
	}
}

func TestDiscoverErrors(t *testing.T) {
	if _, err := spectest.Run(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Run on a missing folder: want error")
	}
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := spectest.Run(f); err == nil {
		t.Error("Run on a file: want error")
	}
	// Files above the case level are ignored; folders at the case level are cases.
	root := t.TempDir()
	writeFile(t, root, "README.md", "x")
	writeFile(t, root, "general/phase0/bls/verify/notes.txt", "x")
	cases, err := spectest.Discover(root)
	if err != nil || len(cases) != 0 {
		t.Errorf("Discover = %v, %v; want no cases", cases, err)
	}
}

func TestTally(t *testing.T) {
	results := []spectest.Result{
		{Handler: "a"}, {Handler: "a", Err: fmt.Errorf("x")}, {Handler: "b", NotCovered: true}, {Handler: "a"},
	}
	hs, total := spectest.Tally(results)
	want := []spectest.Count{{Handler: "a", Passed: 2, Failed: 1}, {Handler: "b", NotCovered: 1}}
	if len(hs) != 2 || hs[0] != want[0] || hs[1] != want[1] {
		t.Errorf("handlers = %+v, want %+v", hs, want)
	}
	if got := total.String(); got != "2 passed, 1 failed, 1 not covered" {
		t.Errorf("total = %q", got)
	}
	if got := hs[0].String(); got != "a: 2 passed, 1 failed, 0 not covered" {
		t.Errorf("handler line = %q", got)
	}
}

func TestSignCase(t *testing.T) {
	sk, err := crypto.InteropSecretKey(3)
	if err != nil {
		t.Fatal(err)
	}
	b := sk.Bytes()
	_, sig := signed(t, []byte{9})
	data := func(sk, out string) string {
		return "input: {privkey: '0x" + sk + "', message: '0x09'}\noutput: " + out + "\n"
	}
	wantPass(t, runOne(t, blsCase(t, "sign", data(hex.EncodeToString(b[:]), "'0x"+sig+"'"))))
	wantFail(t, runOne(t, blsCase(t, "sign", data(hex.EncodeToString(b[:]), "null"))), "want an error")
	wantPass(t, runOne(t, blsCase(t, "sign", data(strings.Repeat("00", 32), "null"))))
}

// TestGloasSSZStaticFixture runs the Gloas ssz_static fixture of
// testdata/gloas-ssz-static (made by testdata/gengloas from the SSZ spec,
// independently of package attestation; see testdata/README.md): every case
// must run and pass, and a corrupted copy of a case must fail.
func TestGloasSSZStaticFixture(t *testing.T) {
	const dir = "testdata/gloas-ssz-static"
	results, err := spectest.Run(dir)
	if err != nil {
		t.Fatal(err)
	}
	handlers, total := spectest.Tally(results)
	if total.Failed != 0 || total.NotCovered != 0 || total.Passed != 56 || len(handlers) != 14 {
		for _, r := range results {
			if !r.Passed() {
				t.Errorf("%s %s: %v %s", r.Handler, r.Case, r.Err, r.Reason)
			}
		}
		t.Fatalf("%d handlers, %v; want 14 handlers, 56 passed", len(handlers), total)
	}
	// Change one value of a PayloadAttestation case: its value.yaml no
	// longer matches.
	src := filepath.Join(dir, "mainnet/gloas/ssz_static/PayloadAttestation/ssz_random/case_2")
	tmp := t.TempDir()
	for _, name := range []string{"serialized.ssz_snappy", "roots.yaml", "value.yaml"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "value.yaml" {
			b = []byte(strings.Replace(string(b), "payload_present: true", "payload_present: false", 1))
		}
		writeFile(t, tmp, "mainnet/gloas/ssz_static/PayloadAttestation/ssz_random/case_2/"+name, string(b))
	}
	wantFail(t, runOne(t, tmp), "payload_present")
}
