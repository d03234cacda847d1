package main

import (
	"flag"
	"testing"

	"github.com/attpool/attpool/examples/internal/cli/clitest"
)

// TestFlags: flags out of their bounds and stray positional arguments are
// refused before the soak starts, each error naming its flag; the
// defaults parse.
func TestFlags(t *testing.T) {
	var got options
	parse := func(fs *flag.FlagSet, args []string) (err error) {
		got, err = parseFlags(fs, args)
		return err
	}
	clitest.Refuses(t, "soak", parse, []clitest.Case{
		{Args: []string{"-epochs", "0"}, Want: "-epochs 0"},
		{Args: []string{"-validators-per-slot", "0"}, Want: "-validators-per-slot 0"},
		{Args: []string{"-invalid", "1.5"}, Want: "-invalid 1.5"},
		{Args: []string{"-withheld", "-0.1"}, Want: "-withheld -0.1"},
		{Args: []string{"-aggregators", "-1"}, Want: "-aggregators -1"},
		{Args: []string{"-goroutines", "0"}, Want: "-goroutines 0"},
		{Args: []string{"-growth", "0.5"}, Want: "-growth 0.5"},
		{Args: []string{"-slack-mib", "-1"}, Want: "-slack-mib -1"},
		{Args: []string{"-epochs", "3", "10"}, Want: `unexpected argument "10"`},
	})
	if err := clitest.Parse("soak", nil, parse); err != nil || got.epochs != 10 || got.perSlot != 512 {
		t.Errorf("defaults: %+v, %v", got, err)
	}
}
