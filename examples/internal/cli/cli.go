// Package cli holds the command-line checks the examples share: flags only,
// no positional arguments, and each flag within its range, refused with an
// error that names the flag.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"time"
)

// Parse parses args into fs and refuses positional arguments. The examples
// take flags only, and the flag package stops at the first word that is not
// a flag: a stray word would otherwise be dropped silently, with every flag
// after it ("4 -hosts 8" would run with the default -hosts).
func Parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: flags only (-h lists them)", fs.Arg(0))
	}
	return nil
}

// Number is what Range and AtLeast check: the flag package's numbers and
// durations.
type Number interface {
	~int | ~int64 | ~uint64 | ~float64
}

// Range returns an error naming flag name when v is not within [lo, hi]
// (a NaN is not).
func Range[T Number](name string, v, lo, hi T) error {
	if v >= lo && v <= hi {
		return nil
	}
	return fmt.Errorf("-%s %s: want %s to %s", name, show(v), show(lo), show(hi))
}

// AtLeast returns an error naming flag name when v is below lo (or NaN).
func AtLeast[T Number](name string, v, lo T) error {
	if v >= lo {
		return nil
	}
	return fmt.Errorf("-%s %s: want at least %s", name, show(v), show(lo))
}

// Check returns the errors of the checks given, one a line, or nil.
func Check(errs ...error) error { return errors.Join(errs...) }

// show writes a flag value as the flag would be given: durations as
// time.Duration does, floats in full, and other numbers in decimal.
func show[T Number](v T) string {
	switch x := any(v).(type) {
	case time.Duration:
		return x.String()
	case float64:
		if math.IsNaN(x) {
			return "NaN"
		}
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
}
