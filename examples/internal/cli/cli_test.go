package cli

import (
	"errors"
	"flag"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

func newFlags() (*flag.FlagSet, *int) {
	fs := quietFlags()
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

func quietFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("prog", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// declare declares the flags of a program on fs: a bounded int, a floored
// duration and a check across them.
func declare(fs *flag.FlagSet, n *int, d *time.Duration) *Flags {
	f := NewFlags(fs)
	Bounded(f, n, "n", 4, 2, 8, "a number")
	Floor(f, d, "d", time.Second, time.Millisecond, "a duration")
	f.Check(func() error {
		if time.Duration(*n)*time.Second > *d {
			return errors.New("-d: want at least -n seconds")
		}
		return nil
	})
	return f
}

// Flags parses its flags with their defaults, refuses each value out of
// its bounds and the check across them, all at once, and checks values
// set in code the same way over a nil flag set, leaving them as they are.
func TestFlags(t *testing.T) {
	var n int
	var d time.Duration
	f := declare(quietFlags(), &n, &d)
	if n != 4 || d != time.Second {
		t.Errorf("defaults: -n %d -d %v", n, d)
	}
	if err := f.Parse([]string{"-n", "3", "-d", "3s"}); err != nil || n != 3 || d != 3*time.Second {
		t.Errorf("-n 3 -d 3s: %d %v %v", n, d, err)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-n", "9", "-d", "1h"}, []string{"-n 9: want 2 to 8"}},
		{[]string{"-n", "1", "-d", "0s"}, []string{"-n 1: want 2 to 8", "-d 0s: want at least 1ms", "-d: want at least -n seconds"}},
		{[]string{"-n", "x"}, []string{"invalid value"}},
		{[]string{"y"}, []string{"flags only"}},
	} {
		err := declare(quietFlags(), new(int), new(time.Duration)).Parse(c.args)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %v, want %q", c.args, err, w)
			}
		}
	}
	n, d = 9, 0
	if err := declare(nil, &n, &d).Run(); err == nil || !strings.Contains(err.Error(), "-n 9") || !strings.Contains(err.Error(), "-d 0s") {
		t.Errorf("values set in code: %v, want both refused", err)
	}
	if n != 9 || d != 0 {
		t.Errorf("a nil flag set changed the values: %d %v", n, d)
	}
	n, d = 2, 2*time.Second
	if err := declare(nil, &n, &d).Run(); err != nil {
		t.Errorf("values in bounds: %v", err)
	}
}
