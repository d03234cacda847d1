// Command sszgen writes the SSZ methods of package attestation, in the
// package's directory (go generate runs it there).
package main

import (
	"fmt"
	"os"

	"github.com/attpool/attpool/attestation/internal/sszgen"
)

func main() {
	out, err := sszgen.Generate(".")
	if err == nil {
		err = os.WriteFile(sszgen.Output, out, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sszgen:", err)
		os.Exit(1)
	}
}
