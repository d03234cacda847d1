package main

import (
	"strings"
	"testing"
	"time"
)

// The program on a small chain: three hosts, every verdict right, nothing
// forwarded past its entry host, and the report names each part.
func TestRun(t *testing.T) {
	var out strings.Builder
	ok, err := run(&out, options{
		hosts: 3, validators: 8192, invalid: 0.05, undecodable: 2, wrongSubnet: 1, aggFaults: 1,
		seed: 3, timeout: time.Minute, idle: 10 * time.Second, permissive: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatalf("wrong verdicts or forwarded messages:\n%s", out.String())
	}
	for _, want := range []string{"delivery latency per hop", "verdicts per host", "went past their entry host: 0", "wrong or missing verdicts: 0", "faulty, entry host 1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
