package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// writeTree writes each file (path under root: content).
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	fsys := fstest.MapFS{}
	for rel, content := range files {
		fsys[rel] = &fstest.MapFile{Data: []byte(content)}
	}
	if err := os.CopyFS(root, fsys); err != nil {
		t.Fatal(err)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestUsageErrors(t *testing.T) {
	for name, args := range map[string][]string{
		"no dir":      nil,
		"unknown arg": {"-dir", t.TempDir(), "extra"},
		"two args":    {t.TempDir(), t.TempDir()},
		"empty arg":   {""},
		"bad flag":    {"-nope"},
		"missing dir": {"-dir", filepath.Join(t.TempDir(), "missing")},
		"no case":     {"-dir", t.TempDir()},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 {
			t.Errorf("%s: exit %d, want 2 (stderr %q)", name, code, errOut.String())
		}
	}
}

func TestOutput(t *testing.T) {
	root := t.TempDir()
	// A case that must fail: the empty aggregate has no result.
	writeTree(t, root, map[string]string{
		"general/phase0/bls/aggregate/bls/wrong/data.yaml": "input: []\noutput: '0x" + strings.Repeat("00", 96) + "'\n",
		"general/phase0/bls/aggregate/bls/right/data.yaml": "input: []\noutput: null\n",
		"general/phase0/bls/unknown/bls/c/data.yaml":       "input: []\noutput: null\n",
	})
	var out, errOut bytes.Buffer
	if code := run([]string{"-dir", root}, &out, &errOut); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	got := out.String()
	for _, want := range []string{
		"general/phase0/bls/aggregate: 1 passed, 1 failed, 0 not covered\n",
		"  FAIL bls/wrong: ",
		"not covered: general/phase0/bls/unknown (1 case): no handler for bls/unknown\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if l := lastLine(got); l != "1 passed, 1 failed, 1 not covered (1 of 2 handlers not covered)" {
		t.Errorf("last line %q", l)
	}

	// Only passes and cases not covered: exit 0.
	if err := os.RemoveAll(filepath.Join(root, "general/phase0/bls/aggregate/bls/wrong")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"-dir", root}, &out, &errOut); code != 0 {
		t.Errorf("exit %d, want 0:\n%s", code, out.String())
	}
	if l := lastLine(out.String()); l != "1 passed, 0 failed, 1 not covered (1 of 2 handlers not covered)" {
		t.Errorf("last line %q", l)
	}
}

func TestHelpExitsZero(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		var out, errOut bytes.Buffer
		if code := run([]string{arg}, &out, &errOut); code != 0 {
			t.Errorf("%s: exit %d, want 0", arg, code)
		}
		if !strings.Contains(out.String(), "usage: spectest") {
			t.Errorf("%s: stdout %q lacks the usage", arg, out.String())
		}
	}
}

func TestPositionalDir(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"general/phase0/bls/aggregate/bls/right/data.yaml": "input: []\noutput: null\n"})
	var out, errOut bytes.Buffer
	if code := run([]string{root}, &out, &errOut); code != 0 {
		t.Errorf("exit %d, want 0 (stderr %q)", code, errOut.String())
	}
	if l := lastLine(out.String()); l != "1 passed, 0 failed, 0 not covered (0 of 1 handler not covered)" {
		t.Errorf("last line %q", l)
	}
}

// TestNoCaseRan: a folder where no case is covered, such as the folder
// above tests/, is an error that names the layout wanted and the tests
// folder below.
func TestNoCaseRan(t *testing.T) {
	above := t.TempDir()
	writeTree(t, above, map[string]string{
		"tests/general/phase0/bls/aggregate/bls/right/data.yaml": "input: []\noutput: null\n",
		"tests/general/phase0/bls/verify/bls/other/data.yaml":    "input: []\noutput: null\n",
	})
	var out, errOut bytes.Buffer
	if code := run([]string{above}, &out, &errOut); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	msg := errOut.String()
	for _, want := range []string{"no case ran under " + above, "<preset>/<fork>/<runner>/<handler>/<suite>/<case>/",
		"did you mean " + filepath.Join(above, "tests")} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr lacks %q:\n%s", want, msg)
		}
	}
	// The tests folder itself runs.
	out.Reset()
	errOut.Reset()
	if code := run([]string{"-dir", filepath.Join(above, "tests")}, &out, &errOut); code == 2 {
		t.Errorf("tests folder: exit 2 (stderr %q)", errOut.String())
	}
}

// TestReleaseNotCovered: a tree shaped like a whole consensus-spec-tests
// release, with runners and handlers the package does not implement beside
// one it does, lists each of those handlers as not covered, counts them in
// the last line, and exits 0.
func TestReleaseNotCovered(t *testing.T) {
	root := t.TempDir()
	notCovered := []string{
		"general/phase0/bls/frobnicate",                                // a BLS handler it lacks
		"general/phase0/ssz_generic/basic_vector",                      // a runner it lacks
		"mainnet/deneb/operations/attestation",                         // a runner it lacks
		"mainnet/electra/ssz_static/BeaconState",                       // a type it does not register
		"mainnet/fulu/networking/get_custody_groups",                   // a networking handler it lacks
		"minimal/electra/networking/gossip_beacon_aggregate_and_proof", // the minimal preset's aggregates
	}
	files := map[string]string{"general/phase0/bls/aggregate/bls/right/data.yaml": "input: []\noutput: null\n"}
	for i, h := range notCovered {
		files[h+"/pyspec_tests/case_0/data.yaml"] = "input: 1\n"
		if i%2 == 0 {
			files[h+"/pyspec_tests/case_1/data.yaml"] = "input: 2\n"
		}
	}
	writeTree(t, root, files)
	var out, errOut bytes.Buffer
	if code := run([]string{root}, &out, &errOut); code != 0 {
		t.Errorf("exit %d, want 0 (stderr %q):\n%s", code, errOut.String(), out.String())
	}
	got := out.String()
	if strings.Contains(got, "FAIL") {
		t.Errorf("output has a failure:\n%s", got)
	}
	for i, h := range notCovered {
		n := "1 case"
		if i%2 == 0 {
			n = "2 cases"
		}
		if want := "not covered: " + h + " (" + n + "): "; !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if l := lastLine(got); l != "1 passed, 0 failed, 9 not covered (6 of 7 handlers not covered)" {
		t.Errorf("last line %q", l)
	}
}
