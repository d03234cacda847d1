// Command spectest runs the Ethereum consensus-spec test vectors against
// attpool's packages (see package github.com/attpool/attpool/spectest).
//
// Usage:
//
//	go run ./spectest/cmd/spectest -dir PATH
//
// PATH is a consensus-spec-tests "tests" folder
// (<preset>/<fork>/<runner>/<handler>/<suite>/<case>/). It prints one line per
// handler with its counts, names each failed or skipped case under it, and
// ends with the line "N passed, M failed, K skipped". The exit status is 0
// when nothing failed, 1 when a case failed, and 2 for a usage error or a
// folder that cannot be read or holds no case.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/attpool/attpool/spectest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spectest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "`PATH` of a consensus-spec-tests tests folder (required)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: spectest -dir PATH")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	results, err := spectest.Run(*dir)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if len(results) == 0 {
		fmt.Fprintf(stderr, "spectest: no test case under %s (want <preset>/<fork>/<runner>/<handler>/<suite>/<case>/)\n", *dir)
		return 2
	}
	handlers, total := spectest.Tally(results)
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
	if total.Failed > 0 {
		return 1
	}
	return 0
}

// oneLine keeps a failure on its line (a panic's stack trace is cut).
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
