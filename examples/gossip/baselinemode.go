package main

import "fmt"

// baselineMode is which loads the main job also runs through the per-signature
// baseline (-baseline). Each such run verifies every signature alone, 11-27
// s for the default slot on two vCPUs, so by default only the clean load,
// whose speedup is the job's headline, goes through it. The zero value is
// the default.
type baselineMode int

const (
	baselineClean baselineMode = iota // the clean load (the default)
	baselineBoth                      // the clean and the gossip load
	baselineNone                      // neither
)

// String names the mode as -baseline takes it.
func (b *baselineMode) String() string {
	if b == nil {
		return "clean"
	}
	switch *b {
	case baselineBoth:
		return "both"
	case baselineNone:
		return "none"
	}
	return "clean"
}

// Set parses -baseline's value. true (-baseline alone) means both and false
// none, as when the flag was a boolean.
func (b *baselineMode) Set(s string) error {
	switch s {
	case "clean":
		*b = baselineClean
	case "both", "true":
		*b = baselineBoth
	case "none", "false":
		*b = baselineNone
	default:
		return fmt.Errorf("want clean, both or none, not %q", s)
	}
	return nil
}

// IsBoolFlag lets -baseline stand alone, as the boolean flag it was.
func (b *baselineMode) IsBoolFlag() bool { return true }
