package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/attpool/attpool/examples/internal/cli/clitest"
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

// TestFlags: each flag out of its bounds is refused before anything
// starts, the error naming the flag, as are stray positional arguments;
// the defaults parse.
func TestFlags(t *testing.T) {
	var got options
	parse := func(fs *flag.FlagSet, args []string) (err error) {
		got, err = parseFlags(fs, args)
		return err
	}
	clitest.Refuses(t, "p2p", parse, []clitest.Case{
		{Args: []string{"-hosts", "1"}, Want: "-hosts 1: want 2 to 32"},
		{Args: []string{"-hosts", "1000"}, Want: "-hosts 1000"},
		{Args: []string{"-invalid", "-0.1"}, Want: "-invalid -0.1"},
		{Args: []string{"-invalid", "NaN"}, Want: "-invalid NaN"},
		{Args: []string{"-invalid", "2"}, Want: "-invalid 2"},
		{Args: []string{"-undecodable", "-1"}, Want: "-undecodable -1"},
		{Args: []string{"-undecodable", "1000000000"}, Want: "-undecodable 1000000000"},
		{Args: []string{"-timeout", "0"}, Want: "-timeout 0s"},
		{Args: []string{"-timeout", "-5s"}, Want: "-timeout -5s"},
		{Args: []string{"-timeout", "100h"}, Want: "-timeout 100h0m0s"},
		{Args: []string{"-idle", "0"}, Want: "-idle 0s"},
		{Args: []string{"-timeout", "10s", "-idle", "1m"}, Want: "-idle 1m0s"},
		{Args: []string{"-spread", "-1s"}, Want: "-spread -1s"},
		{Args: []string{"-wrong-subnet", "-1"}, Want: "-wrong-subnet -1"},
		{Args: []string{"-aggregate-faults", "-1"}, Want: "-aggregate-faults -1"},
		{Args: []string{"-validators", "4096"}, Want: "-validators 4096"},
		{Args: []string{"-hosts", "4", "8"}, Want: `unexpected argument "8"`},
	})
	if err := clitest.Parse("p2p", nil, parse); err != nil || got.hosts != 4 || got.timeout != 2*time.Minute {
		t.Errorf("defaults: %+v, %v", got, err)
	}
	if _, err := run(io.Discard, options{hosts: 1}); err == nil || !strings.Contains(err.Error(), "-hosts 1") {
		t.Errorf("run with one host: %v", err)
	}
}
