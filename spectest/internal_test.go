package spectest

import (
	"strings"
	"testing"
)

func TestPanicInHandlerIsAFailure(t *testing.T) {
	runners["panicky"] = func(Case) (caseFunc, error) {
		return func(Case) error { panic("boom") }, nil
	}
	defer delete(runners, "panicky")
	r := RunCase(Case{Runner: "panicky", Handler: "h"})
	if r.NotCovered || r.Err == nil || !strings.Contains(r.Err.Error(), "boom") {
		t.Errorf("got %+v, want a failure mentioning the panic", r)
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"BeaconBlockRoot":       "beacon_block_root",
		"Epoch":                 "epoch",
		"GenesisValidatorsRoot": "genesis_validators_root",
		"AggregationBits":       "aggregation_bits",
		"HTTPServer":            "http_server",
		"Field2Name":            "field2_name",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecodeHex(t *testing.T) {
	for _, s := range []string{"0xab01", "ab01", "0XAB01", " ab01 "} {
		b, err := decodeHex(s)
		if err != nil || len(b) != 2 || b[0] != 0xab || b[1] != 1 {
			t.Errorf("decodeHex(%q) = %x, %v", s, b, err)
		}
	}
	for _, s := range []string{"0xa", "zz", "0x0g"} {
		if _, err := decodeHex(s); err == nil {
			t.Errorf("decodeHex(%q): want error", s)
		}
	}
}
