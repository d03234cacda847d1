// Package cli holds the command-line checks the examples share: flags only,
// no positional arguments, and each flag within its range, declared with
// the flag ([Flags]) and refused with an error that names the flag.
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

// Value is the type of a flag that Flags declares with its bounds.
type Value interface {
	int | uint64 | float64 | time.Duration
}

// Flags declares a program's number flags with their bounds, so that each
// bound stands once, next to its flag, and serves both to parse a command
// line and to check options built in code. Over a nil flag set it declares
// nothing and leaves the values as they are: Run then checks values set
// another way. Flags of other types go on the flag set directly.
type Flags struct {
	fs     *flag.FlagSet
	checks []func() error
}

// NewFlags returns the declarations of a program's flags on fs, which may
// be nil.
func NewFlags(fs *flag.FlagSet) *Flags { return &Flags{fs: fs} }

// Bounded declares the flag name, held in *p with the default value, which
// must lie within [lo, hi].
func Bounded[T Value](f *Flags, p *T, name string, value, lo, hi T, usage string) {
	f.number(p, name, value, usage)
	f.Check(func() error { return Range(name, *p, lo, hi) })
}

// Floor declares the flag name, held in *p with the default value, which
// must be lo or more.
func Floor[T Value](f *Flags, p *T, name string, value, lo T, usage string) {
	f.number(p, name, value, usage)
	f.Check(func() error { return AtLeast(name, *p, lo) })
}

// Check adds a check that Parse and Run run after the bounds declared
// before it: one across flags, which reads their values when it runs.
func (f *Flags) Check(check func() error) { f.checks = append(f.checks, check) }

// Parse parses args into the flag set (not nil) as the package's Parse
// does, then runs every check; it returns their errors, one a line.
func (f *Flags) Parse(args []string) error {
	if err := Parse(f.fs, args); err != nil {
		return err
	}
	return f.Run()
}

// Run runs every check and returns their errors, one a line, or nil.
func (f *Flags) Run() error {
	errs := make([]error, len(f.checks))
	for i, check := range f.checks {
		errs[i] = check()
	}
	return Check(errs...)
}

// number declares a number flag on the flag set, if there is one.
func (f *Flags) number(p any, name string, value any, usage string) {
	if f.fs == nil {
		return
	}
	switch p := p.(type) {
	case *int:
		f.fs.IntVar(p, name, value.(int), usage)
	case *uint64:
		f.fs.Uint64Var(p, name, value.(uint64), usage)
	case *float64:
		f.fs.Float64Var(p, name, value.(float64), usage)
	case *time.Duration:
		f.fs.DurationVar(p, name, value.(time.Duration), usage)
	}
}
