// Package clitest checks the examples' flag parsing in their tests.
package clitest

import (
	"flag"
	"io"
	"strings"
	"testing"
)

// Case is a command line and a piece of the error it must get (the flag
// it names).
type Case struct {
	Args []string
	Want string
}

// Parse runs parse on a fresh flag set named name, which returns its
// errors and discards its usage text.
func Parse(name string, args []string, parse func(fs *flag.FlagSet, args []string) error) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return parse(fs, args)
}

// Refuses checks that parse refuses every case's command line with an
// error holding its Want.
func Refuses(t testing.TB, name string, parse func(fs *flag.FlagSet, args []string) error, cases []Case) {
	t.Helper()
	for _, c := range cases {
		if err := Parse(name, c.Args, parse); err == nil || !strings.Contains(err.Error(), c.Want) {
			t.Errorf("%s %q: %v, want an error naming %q", name, c.Args, err, c.Want)
		}
	}
}
