// Command spectest runs the Ethereum consensus-spec test vectors against
// attpool's packages (see package github.com/attpool/attpool/spectest).
//
// Usage:
//
//	go run ./spectest/cmd/spectest PATH
//	go run ./spectest/cmd/spectest -dir PATH
//
// PATH is a consensus-spec-tests "tests" folder
// (<preset>/<fork>/<runner>/<handler>/<suite>/<case>/), such as a whole
// consensus-spec-tests release. It prints one line per handler it covers
// with its counts and names each failed case under it; then one line per
// handler it does not cover (a runner or handler it does not implement, such
// as operations or fork_choice), with its case count and why; and ends with
// the line "N passed, M failed, K not covered (H of T handlers not covered)".
// A case that is not covered is never a failure. The exit status is 0 when
// nothing failed and at least one case ran, 1 when a case failed, and 2 for
// a usage error, a folder that cannot be read, or a folder where no case ran
// (none found, or none covered: for example the folder above tests/); it
// then says which folder layout it expected. -h prints the usage and exits 0.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/attpool/attpool/spectest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// layout is the folder layout the command expects, for its messages.
const layout = "a consensus-spec-tests `tests` folder laid out as <preset>/<fork>/<runner>/<handler>/<suite>/<case>/ " +
	"(e.g. general/phase0/bls/verify/bls/<case>/)"

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spectest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dirFlag := fs.String("dir", "", "`PATH` of a consensus-spec-tests tests folder (or give it as the argument)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: spectest [-dir] PATH")
		fmt.Fprintln(fs.Output(), "PATH is "+layout+".")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return 0
		}
		return 2
	}
	dir, ok := dirArg(*dirFlag, fs.Args())
	if !ok {
		fs.Usage()
		return 2
	}
	results, err := spectest.Run(dir)
	if err != nil {
		fmt.Fprintf(stderr, "%v\nspectest: want %s\n", err, layout)
		return 2
	}
	handlers, total := spectest.Tally(results)
	printResults(stdout, results, handlers, total)
	if total.Passed+total.Failed == 0 {
		fmt.Fprintf(stderr, "spectest: no case ran under %s (%d found, none covered): want %s%s\n",
			dir, len(results), layout, hint(dir))
		return 2
	}
	if total.Failed > 0 {
		return 1
	}
	return 0
}

// dirArg takes the folder from -dir or the one positional argument, not both.
func dirArg(flagDir string, rest []string) (string, bool) {
	switch {
	case len(rest) > 1, len(rest) == 1 && flagDir != "":
		return "", false
	case len(rest) == 1:
		return rest[0], rest[0] != ""
	}
	return flagDir, flagDir != ""
}

// hint names the tests folder below dir when there is one.
func hint(dir string) string {
	sub := filepath.Join(dir, "tests")
	if st, err := os.Stat(sub); err == nil && st.IsDir() {
		return "; did you mean " + sub + "?"
	}
	return ""
}

// printResults prints the covered handlers with their failures, then the
// handlers not covered, one line each, then the total.
func printResults(stdout io.Writer, results []spectest.Result, handlers []spectest.Count, total spectest.Count) {
	byHandler := map[string][]spectest.Result{}
	for _, r := range results {
		byHandler[r.Handler] = append(byHandler[r.Handler], r)
	}
	var notCovered []spectest.Count
	for _, h := range handlers {
		if h.Passed+h.Failed == 0 {
			notCovered = append(notCovered, h)
			continue
		}
		fmt.Fprintln(stdout, h)
		for _, r := range byHandler[h.Handler] {
			if r.Err != nil {
				fmt.Fprintf(stdout, "  FAIL %s: %s\n", r.Case, oneLine(r.Err.Error()))
			}
		}
	}
	for _, h := range notCovered {
		fmt.Fprintf(stdout, "not covered: %s (%s): %s\n", h.Handler, plural(h.NotCovered, "case"), byHandler[h.Handler][0].Reason)
	}
	fmt.Fprintf(stdout, "%v (%d of %s not covered)\n", total, len(notCovered), plural(len(handlers), "handler"))
}

// plural is "1 case" or "n cases".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// oneLine keeps a failure on its line (a panic's stack trace is cut).
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
