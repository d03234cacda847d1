package main

import (
	"flag"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attpool/attpool/examples/internal/cli/clitest"
)

// TestInterleave checks that every repetition runs every method once, the
// first method rotating, and that each method gets one time per run (in a
// synctest bubble: the calls' sleeps pass in fake time).
func TestInterleave(t *testing.T) { synctest.Test(t, testInterleave) }

func testInterleave(t *testing.T) {
	b := &bench{runs: 4}
	var order []int
	f := func(i int) func() {
		return func() {
			order = append(order, i)
			time.Sleep(31 * time.Millisecond) // one call per run
		}
	}
	d := b.interleave(f(0), f(1), f(2))
	if len(d) != 3 {
		t.Fatalf("%d timings, want 3", len(d))
	}
	for i := range d {
		if len(d[i]) != b.runs {
			t.Fatalf("method %d: %d runs, want %d", i, len(d[i]), b.runs)
		}
		for _, x := range d[i] {
			if x < 31*time.Millisecond {
				t.Errorf("method %d: run of %v, shorter than its call", i, x)
			}
		}
	}
	want := []int{0, 1, 2 /* warm-up */, 0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 1, 2}
	if !slices.Equal(order, want) {
		t.Fatalf("calls in order %v, want %v", order, want)
	}
}

func TestStatOf(t *testing.T) {
	s := statOf([]float64{5, 1, 4, 2, 3})
	if s != (stat{median: 3, min: 1, max: 5}) {
		t.Fatalf("statOf = %+v", s)
	}
	if got := s.spread(1); got != "1.0-5.0" {
		t.Fatalf("spread %q", got)
	}
}

// TestFlags: the flags that would make the program panic or run without
// measuring (-runs 0, -alone -1, a size of 0) and stray positional
// arguments are refused, each error naming its flag; the defaults parse.
func TestFlags(t *testing.T) {
	var got options
	parse := func(fs *flag.FlagSet, args []string) (err error) {
		got, err = parseFlags(fs, args)
		return err
	}
	clitest.Refuses(t, "verifybench", parse, []clitest.Case{
		{Args: []string{"-runs", "0"}, Want: "-runs 0"},
		{Args: []string{"-runs", "-3"}, Want: "-runs -3"},
		{Args: []string{"-alone", "-1"}, Want: "-alone -1"},
		{Args: []string{"-alone", "0"}, Want: "-alone 0"},
		{Args: []string{"-sizes", "16,0"}, Want: "-sizes 0"},
		{Args: []string{"-sizes", "16,1000000"}, Want: "-sizes 1000000"},
		{Args: []string{"-sizes", "16,x"}, Want: "-sizes"},
		{Args: []string{"-quick", "5"}, Want: `unexpected argument "5"`},
	})
	err := clitest.Parse("verifybench", nil, parse)
	if err != nil || got.runs != 5 || got.alone != 256 || !slices.Equal(got.sizes, []int{16, 64, 256, 512, 1024, 4096}) {
		t.Errorf("defaults: %+v, %v", got, err)
	}
}
