// Command benchcharts draws the charts of a benchmark's -report folder
// from the JSON the benchmark wrote there, so that the benchmarks
// themselves build without a plotting library.
//
// Usage:
//
//	go run -trimpath ./examples/gossip -latency -report DIR
//	go run -trimpath ./examples/cmd/benchcharts DIR
//
// From DIR/latency.json it writes DIR/latency.png (the valid attestations'
// latency percentiles, one panel per load) and, when the report holds a
// budget sweep (-budgets), DIR/latency-budget.png (CPU against p99 by
// latency budget). It exits 1 when DIR holds no report or a chart cannot be
// drawn, 2 on a usage error.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/attpool/attpool/examples/internal/benchplot"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "" || args[0][0] == '-' {
		fmt.Fprintln(stderr, "usage: benchcharts DIR (a -report folder of examples/gossip -latency)")
		return 2
	}
	written, err := benchplot.Charts(args[0])
	for _, p := range written {
		fmt.Fprintln(stdout, "benchcharts: wrote", p)
	}
	if err != nil {
		fmt.Fprintln(stderr, "benchcharts:", err)
		return 1
	}
	return 0
}
