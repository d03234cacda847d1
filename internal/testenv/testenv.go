// Package testenv finds what attpool's tests read from their
// environment: the official consensus-spec-tests folder named by
// CONSENSUS_SPEC_TESTS, and the process's CPU time for the benchmarks.
//
// go test runs each package in the package's own folder, so a relative
// path such as ../consensus-spec-tests/tests would be looked up from a
// different place in every package. SpecTestsDir resolves a relative path
// against the repository root instead: the folder holding go.work, else the
// outermost folder holding a go.mod, searched upwards from the working
// directory and never above the folder holding .git.
package testenv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/metrics"
	"syscall"
	"testing"
	"time"
)

// Variable is the environment variable naming the consensus-spec-tests
// "tests" folder.
const Variable = "CONSENSUS_SPEC_TESTS"

// ErrNoRoot: no go.work or go.mod was found above the working directory.
var ErrNoRoot = errors.New("attpool/internal/testenv: no go.work or go.mod above the working directory")

// ErrNotAFolder: CONSENSUS_SPEC_TESTS names something that is not a folder.
var ErrNotAFolder = errors.New("attpool/internal/testenv: not a folder")

// SpecTestsDir returns the folder CONSENSUS_SPEC_TESTS names, a relative
// path resolved against the repository root (see the package doc). set is
// false, with no error, when the variable is unset or empty. A set variable
// naming a folder that does not exist is an error.
func SpecTestsDir() (dir string, set bool, err error) {
	v := os.Getenv(Variable)
	if v == "" {
		return "", false, nil
	}
	dir = v
	if !filepath.IsAbs(dir) {
		wd, err := os.Getwd()
		if err != nil {
			return "", true, fmt.Errorf("attpool/internal/testenv: %w", err)
		}
		root, err := RepoRoot(wd)
		if err != nil {
			return "", true, err
		}
		dir = filepath.Join(root, dir)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return dir, true, fmt.Errorf("attpool/internal/testenv: %s=%s: %w", Variable, v, err)
	}
	if !st.IsDir() {
		return dir, true, fmt.Errorf("%w: %s=%s (%s)", ErrNotAFolder, Variable, v, dir)
	}
	return dir, true, nil
}

// SpecTests returns SpecTestsDir's folder for a test. It skips tb, saying
// why, when CONSENSUS_SPEC_TESTS is unset or empty, and fails it when the
// variable is set but its folder cannot be used: a path that does not exist
// (a relative path such as ../consensus-spec-tests/tests in a clone that
// has no vectors beside it), a file, or any other error. Whoever sets the
// variable wants the vectors run, so a wrong path must not pass as a skip.
func SpecTests(tb testing.TB) string {
	tb.Helper()
	dir, set, err := SpecTestsDir()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		tb.Fatalf("%s=%s names no folder (%s): unset it to skip the official vectors, or point it at a consensus-spec-tests `tests` folder",
			Variable, os.Getenv(Variable), dir)
	case err != nil:
		tb.Fatal(err)
	case !set:
		tb.Skipf("%s is not set: set it to a consensus-spec-tests `tests` folder "+
			"(a relative path is taken from the repository root, e.g. %s=../consensus-spec-tests/tests) "+
			"to run the official vectors", Variable, Variable)
	}
	return dir
}

// RepoRoot returns the repository root above from: the nearest folder with
// a go.work, else the outermost folder with a go.mod, looking no higher than
// the first folder that holds .git.
func RepoRoot(from string) (string, error) {
	dir, err := filepath.Abs(from)
	if err != nil {
		return "", fmt.Errorf("attpool/internal/testenv: %w", err)
	}
	outermost := ""
	for {
		if exists(filepath.Join(dir, "go.work")) {
			return dir, nil
		}
		if exists(filepath.Join(dir, "go.mod")) {
			outermost = dir
		}
		parent := filepath.Dir(dir)
		if exists(filepath.Join(dir, ".git")) || parent == dir {
			break
		}
		dir = parent
	}
	if outermost == "" {
		return "", fmt.Errorf("%w (from %s)", ErrNoRoot, from)
	}
	return outermost, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// CPUTime is the CPU time (user and system) the process has used so far,
// for the benchmarks' CPU figures on a shared machine (0 where getrusage
// fails).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Schedulings estimates how many times the process's goroutines have been
// made to run so far (wake-ups and new goroutines), for the benchmarks'
// figures of the scheduler's work: runtime/metrics' /sched/latencies counts
// one goroutine transition in 8 (the runtime's gTrackingPeriod).
func Schedulings() float64 {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return 0
	}
	n := 0.0
	for _, c := range s[0].Value.Float64Histogram().Counts {
		n += float64(c)
	}
	return 8 * n
}
