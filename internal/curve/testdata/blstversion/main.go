// Command blstversion prints the version of blst in its build info, and
// its replacement if any: a binary linked as attpool's users link it.
// TestBlstVersion runs it, because a test binary's build info lists no
// dependencies.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	_ "github.com/attpool/attpool/internal/curve"
)

func main() {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(os.Stderr, "blstversion: no build info")
		os.Exit(1)
	}
	for _, m := range bi.Deps {
		if m.Path == "github.com/supranational/blst" {
			if m.Replace != nil {
				fmt.Println(m.Version, "=>", m.Replace.Path, m.Replace.Version)
				return
			}
			fmt.Println(m.Version)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "blstversion: blst is not in the build info")
	os.Exit(1)
}
