// Command spectest runs the Ethereum consensus-spec test vectors against
// attpool's packages (see package github.com/attpool/attpool/spectest).
//
// Usage:
//
//	go run ./spectest/cmd/spectest PATH
//	go run ./spectest/cmd/spectest -dir PATH
//
// PATH is a consensus-spec-tests "tests" folder
// (<preset>/<fork>/<runner>/<handler>/<suite>/<case>/). It prints one line per
// handler with its counts, names each failed or skipped case under it, and
// ends with the line "N passed, M failed, K skipped". The exit status is 0
// when nothing failed and at least one case ran, 1 when a case failed, and 2
// for a usage error, a folder that cannot be read, or a folder where no case
// ran (none found, or all skipped: for example the folder above tests/); it
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
		fmt.Fprintf(stderr, "spectest: no case ran under %s (%d found, all skipped): want %s%s\n",
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

func printResults(stdout io.Writer, results []spectest.Result, handlers []spectest.Count, total spectest.Count) {
	byHandler := map[string][]spectest.Result{}
	for _, r := range results {
		byHandler[r.Handler] = append(byHandler[r.Handler], r)
	}
	for _, h := range handlers {
		fmt.Fprintln(stdout, h)
		for _, r := range byHandler[h.Handler] {
			switch {
			case r.Skipped:
				fmt.Fprintf(stdout, "  SKIP %s: %s\n", r.Case, r.Reason)
			case r.Err != nil:
				fmt.Fprintf(stdout, "  FAIL %s: %s\n", r.Case, oneLine(r.Err.Error()))
			}
		}
	}
	fmt.Fprintln(stdout, total)
}

// oneLine keeps a failure on its line (a panic's stack trace is cut).
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
