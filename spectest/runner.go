package spectest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
)

// Case is one test case: the folder
// <root>/<Preset>/<Fork>/<Runner>/<Handler>/<Suite>/<Name>/.
type Case struct {
	Preset  string // "general", "mainnet" or "minimal"
	Fork    string // "phase0", "altair", "electra", ...
	Runner  string // "bls", "ssz_static", ...
	Handler string // "verify", or for ssz_static the type name, e.g. "Attestation"
	Suite   string // "bls", "ssz_random", ...
	Name    string // the case folder's name
	Dir     string // the case folder
}

// HandlerPath names the case's handler as Preset/Fork/Runner/Handler, e.g.
// "general/phase0/bls/verify" or "mainnet/electra/ssz_static/Attestation".
func (c Case) HandlerPath() string {
	return c.Preset + "/" + c.Fork + "/" + c.Runner + "/" + c.Handler
}

// CasePath names the case within its handler as Suite/Name.
func (c Case) CasePath() string { return c.Suite + "/" + c.Name }

// Result is the outcome of one case. Exactly one of three holds: it passed
// (Err nil, NotCovered false), it failed (Err non-nil), or its runner or
// handler is one this package does not implement (NotCovered true, Reason
// says which). A case that is not covered is never a failure: a whole
// consensus-spec-tests release holds many runners (operations, fork choice,
// ...) that an attestation pool has no use for.
type Result struct {
	Handler    string // Case.HandlerPath
	Case       string // Case.CasePath
	Dir        string // the case folder
	Err        error
	NotCovered bool
	Reason     string
}

// Passed reports whether the case ran and passed.
func (r Result) Passed() bool { return !r.NotCovered && r.Err == nil }

// notCoveredError tells RunCase that no handler of this package covers a
// case.
type notCoveredError struct{ reason string }

func (e *notCoveredError) Error() string { return "not covered: " + e.reason }

func notCoveredf(format string, args ...any) error {
	return &notCoveredError{reason: fmt.Sprintf(format, args...)}
}

// caseFunc runs one case and returns nil when it passes.
type caseFunc func(c Case) error

// runners maps a runner name to the function choosing the handler of a case.
var runners = map[string]func(c Case) (caseFunc, error){
	"bls":        blsHandler,
	"ssz_static": sszStaticHandler,
	"networking": networkingHandler,
}

// Discover lists the cases under root, a consensus-spec-tests "tests" folder,
// in lexical order of their paths. A case is any folder at depth six
// (<preset>/<fork>/<runner>/<handler>/<suite>/<case>); files above that depth
// are ignored. It fails when root is not a readable folder.
func Discover(root string) ([]Case, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("spectest: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("spectest: %s is not a directory", root)
	}
	var cases []Case
	var walk func(dir string, parts []string) error
	walk = func(dir string, parts []string) error {
		if len(parts) == 6 {
			cases = append(cases, Case{
				Preset: parts[0], Fork: parts[1], Runner: parts[2],
				Handler: parts[3], Suite: parts[4], Name: parts[5], Dir: dir,
			})
			return nil
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("spectest: %w", err)
		}
		for _, e := range entries {
			if !isDir(dir, e) {
				continue
			}
			if err := walk(filepath.Join(dir, e.Name()), append(parts[:len(parts):len(parts)], e.Name())); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, nil); err != nil {
		return nil, err
	}
	return cases, nil
}

// isDir reports whether e is a folder, following symbolic links.
func isDir(dir string, e os.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&os.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, e.Name()))
	return err == nil && st.IsDir()
}

// RunCase runs one case. It never panics: a panic inside a handler is
// reported as a failure of the case.
func RunCase(c Case) (res Result) {
	res = Result{Handler: c.HandlerPath(), Case: c.CasePath(), Dir: c.Dir}
	defer func() {
		if p := recover(); p != nil {
			res.Err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
			res.NotCovered, res.Reason = false, ""
		}
	}()
	var err error
	choose, ok := runners[c.Runner]
	if !ok {
		err = notCoveredf("no handler for runner %q (handler %q)", c.Runner, c.Handler)
	} else {
		var f caseFunc
		if f, err = choose(c); err == nil {
			err = f(c)
		}
	}
	var nc *notCoveredError
	switch {
	case errors.As(err, &nc):
		res.NotCovered, res.Reason = true, nc.reason
	case err != nil:
		res.Err = err
	}
	return res
}

// Run discovers and runs every case under root (see [Discover]), in order.
// The error is about root itself; failures of cases are in the results.
func Run(root string) ([]Result, error) {
	cases, err := Discover(root)
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(cases))
	for i, c := range cases {
		results[i] = RunCase(c)
	}
	return results, nil
}

// Count holds the tally of one handler (or, from [Tally], of all of them, with
// Handler empty).
type Count struct {
	Handler                    string
	Passed, Failed, NotCovered int
}

// String formats the counts as "N passed, M failed, K not covered", prefixed
// by "Handler: " when Handler is set.
func (c Count) String() string {
	s := fmt.Sprintf("%d passed, %d failed, %d not covered", c.Passed, c.Failed, c.NotCovered)
	if c.Handler != "" {
		s = c.Handler + ": " + s
	}
	return s
}

func (c *Count) add(r Result) {
	switch {
	case r.NotCovered:
		c.NotCovered++
	case r.Err != nil:
		c.Failed++
	default:
		c.Passed++
	}
}

// Tally counts results per handler, in the order handlers first appear, and
// in total.
func Tally(results []Result) (handlers []Count, total Count) {
	index := map[string]int{}
	for _, r := range results {
		i, ok := index[r.Handler]
		if !ok {
			i = len(handlers)
			index[r.Handler] = i
			handlers = append(handlers, Count{Handler: r.Handler})
		}
		handlers[i].add(r)
		total.add(r)
	}
	return handlers, total
}
