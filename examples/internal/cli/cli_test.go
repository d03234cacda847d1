package cli

import (
	"flag"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

func newFlags() (*flag.FlagSet, *int) {
	fs := flag.NewFlagSet("prog", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs, fs.Int("n", 1, "a number")
}

// Parse refuses positional arguments, wherever they stand, naming the
// first; flags alone parse.
func TestParse(t *testing.T) {
	for _, args := range [][]string{{"x"}, {"-n", "2", "x"}, {"x", "-n", "2"}, {"--", "-n"}} {
		fs, _ := newFlags()
		err := Parse(fs, args)
		if err == nil || !strings.Contains(err.Error(), "flags only") {
			t.Errorf("%q: %v, want a refusal", args, err)
		}
	}
	fs, n := newFlags()
	if err := Parse(fs, []string{"-n", "3"}); err != nil || *n != 3 {
		t.Errorf("-n 3: n %d, %v", *n, err)
	}
}

func TestRange(t *testing.T) {
	if err := Range("hosts", 2, 2, 32); err != nil {
		t.Errorf("in range: %v", err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{Range("hosts", 1, 2, 32), "-hosts 1: want 2 to 32"},
		{Range("invalid", 1.5, 0, 1), "-invalid 1.5: want 0 to 1"},
		{Range("invalid", math.NaN(), 0, 1), "-invalid NaN: want 0 to 1"},
		{Range("timeout", 0, time.Second, time.Hour), "-timeout 0s: want 1s to 1h0m0s"},
		{AtLeast("runs", 0, 1), "-runs 0: want at least 1"},
		{AtLeast[uint64]("validators", 3, 8192), "-validators 3: want at least 8192"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("%v, want %q", c.err, c.want)
		}
	}
	if err := Check(nil, AtLeast("a", 0, 1), nil, AtLeast("b", 0, 1)); err == nil || strings.Count(err.Error(), "want at least") != 2 {
		t.Errorf("Check: %v, want both errors", err)
	}
	if Check(nil, nil) != nil {
		t.Error("Check of no errors is not nil")
	}
}
