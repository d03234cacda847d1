package spectest

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/attestantio/go-eth2-client/spec/electra"
	"github.com/attestantio/go-eth2-client/spec/phase0"
)

// TestShuffledIndexKnownAnswers checks compute_shuffled_index (90 rounds)
// against published shufflings (protolambda/eth2-shuffle spec/tests.csv:
// the list start shuffled, shuffled[p(i)] = start[i]).
func TestShuffledIndexKnownAnswers(t *testing.T) {
	for _, c := range []struct{ seed, start, shuffled string }{
		{"df3f619804a92fdb4057192dc43dd748ea778adc52bc498ce80524c014b81119", "3:1:4:2:0", "2:3:1:0:4"},
		{"df3f619804a92fdb4057192dc43dd748ea778adc52bc498ce80524c014b81119", "8:7:5:9:2:3:6:1:4:0", "2:6:9:5:7:3:4:8:1:0"},
		{"67abdd721024f0ff4e0b3f4c2fc13bc5bad42d0b7851d456d88d203d15aaa450", "3:1:4:2:0", "0:2:4:1:3"},
		{"67abdd721024f0ff4e0b3f4c2fc13bc5bad42d0b7851d456d88d203d15aaa450", "8:7:5:9:2:3:6:1:4:0", "1:6:8:7:2:3:0:5:4:9"},
	} {
		seed, _ := hex.DecodeString(c.seed)
		start, want := ints(t, c.start), ints(t, c.shuffled)
		got := make([]uint64, len(start))
		for i, v := range start {
			got[shuffledIndex(uint64(i), uint64(len(start)), [32]byte(seed), 90)] = v
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("seed %s…, %d items: got %v, want %v", c.seed[:8], len(start), got, want)
				break
			}
		}
	}
}

func ints(t *testing.T, s string) []uint64 {
	var out []uint64
	for _, f := range strings.Split(s, ":") {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestBlockRootMatchesFastSSZ: the mainnet block root through dynamic-ssz
// is the one of go-eth2-client's generated code.
func TestBlockRootMatchesFastSSZ(t *testing.T) {
	b := &electra.BeaconBlock{Slot: 3, ParentRoot: phase0.Root{1}, Body: &electra.BeaconBlockBody{RANDAOReveal: phase0.BLSSignature{2}}}
	signed := &electra.SignedBeaconBlock{Message: b}
	raw, err := presets["mainnet"].ssz.MarshalSSZ(signed)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeBlock(presets["mainnet"], "electra", raw)
	if err != nil {
		t.Fatal(err)
	}
	var full electra.SignedBeaconBlock
	if err := full.UnmarshalSSZ(raw); err != nil {
		t.Fatal(err)
	}
	want, err := full.Message.HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	if got.root != want || got.slot != 3 || got.parent != [32]byte{1} {
		t.Errorf("decoded %+v, want root %x", got, want)
	}
}

// copyCase copies a fixture case to a temporary tree and returns the tree
// and the copy's folder.
func copyCase(t *testing.T, rel string) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	dir = filepath.Join(root, rel)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(networkingFixture, rel))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(networkingFixture, rel, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, dir
}

func editMeta(t *testing.T, dir, old, new string) {
	t.Helper()
	p := filepath.Join(dir, "meta.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("meta.yaml lacks %q:\n%s", old, b)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runOnly(t *testing.T, root string) Result {
	t.Helper()
	results, err := Run(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 {
		t.Fatalf("%d results", len(results))
	}
	return results[0]
}

// TestNetworkingCaseChangesFail: a fixture case changed so that the specs
// expect another verdict, or made malformed, fails.
func TestNetworkingCaseChangesFail(t *testing.T) {
	const (
		valid    = "minimal/electra/networking/gossip_beacon_attestation/pyspec_tests/gossip_beacon_attestation__valid"
		failed   = "minimal/electra/networking/gossip_beacon_attestation/pyspec_tests/gossip_beacon_attestation__reject_block_failed_validation"
		gloas    = "minimal/gloas/networking/gossip_beacon_attestation/pyspec_tests/gossip_beacon_attestation__valid_payload_validated"
		ptcValid = "minimal/gloas/networking/gossip_payload_attestation_message/pyspec_tests/gossip_payload_attestation_message__valid"
		aggr     = "mainnet/electra/networking/gossip_beacon_aggregate_and_proof/pyspec_tests/gossip_beacon_aggregate_and_proof__ignore_finalized_not_ancestor"
	)
	for _, c := range []struct {
		name, rel, old, new, want string
	}{
		{"expected flipped", valid, "expected: valid", "expected: reject", "want reject"},
		{"unknown key", valid, "offset_ms: 500", "offset_ms: 500\n      extra: 1", "field extra not found"},
		{"unknown expected", valid, "expected: valid", "expected: accept", "want valid, ignore or reject"},
		{"no subnet", valid, "subnet_id:", "column_index:", "no subnet_id"},
		{"wrong topic", valid, "topic: beacon_attestation", "topic: beacon_block", "topic"},
		{"block not failed", failed, "failed: true", "failed: false", "want reject"},
		{"payload invalidated", gloas, "payload_status: VALID", "payload_status: INVALIDATED", "want valid"},
		{"ptc member rejected", ptcValid, "expected: valid", "expected: reject", "want reject"},
		{"bad payload status", gloas, "payload_status: VALID", "payload_status: GOOD", "payload_status"},
		{"finalized is the anchor", aggr, "root: 0x" + strings.Repeat("ef", 32), "block: ANCHOR", "want ignore"},
		{"finalized block unknown", aggr, "root: 0x" + strings.Repeat("ef", 32), "block: block_0x00", "not in blocks"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, dir := copyCase(t, c.rel)
			if c.new == "block: ANCHOR" {
				blocks, _ := filepath.Glob(filepath.Join(dir, "block_*.ssz_snappy"))
				c.new = "block: " + strings.TrimSuffix(filepath.Base(blocks[0]), ".ssz_snappy")
			}
			editMeta(t, dir, c.old, c.new)
			r := runOnly(t, root)
			if r.NotCovered || r.Err == nil || !strings.Contains(r.Err.Error(), c.want) {
				t.Errorf("got %+v, want a failure mentioning %q", r, c.want)
			}
		})
	}
}

// TestNetworkingSkips: topics, forks and presets the pool does not serve
// are not covered, with their reason.
func TestNetworkingSkips(t *testing.T) {
	for _, c := range []struct {
		c    Case
		want string
	}{
		{Case{Preset: "minimal", Fork: "electra", Runner: "networking", Handler: "gossip_beacon_block"}, "beacon_aggregate_and_proof and payload_attestation_message"},
		{Case{Preset: "minimal", Fork: "fulu", Runner: "networking", Handler: "gossip_payload_attestation_message"}, "from Gloas on"},
		{Case{Preset: "minimal", Fork: "deneb", Runner: "networking", Handler: "gossip_beacon_attestation"}, "Electra, Fulu and Gloas"},
		{Case{Preset: "minimal", Fork: "heze", Runner: "networking", Handler: "gossip_beacon_attestation"}, "Electra, Fulu and Gloas"},
		{Case{Preset: "minimal", Fork: "electra", Runner: "networking", Handler: "gossip_beacon_aggregate_and_proof"}, "mainnet preset"},
	} {
		r := RunCase(c.c)
		if !r.NotCovered || !strings.Contains(r.Reason, c.want) {
			t.Errorf("%s: %+v, want not covered, mentioning %q", c.c.HandlerPath(), r, c.want)
		}
	}
}
