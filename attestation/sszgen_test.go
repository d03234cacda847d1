package attestation

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/attpool/attpool/attestation/internal/sszgen"
)

// TestSSZMethodsCurrent runs the generator into a temporary directory and
// compares its output with the committed ssz_methods.go (go generate
// ./attestation writes it).
func TestSSZMethodsCurrent(t *testing.T) {
	out, err := sszgen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), sszgen.Output)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(sszgen.Output)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go generate ./attestation", sszgen.Output)
	}
}
