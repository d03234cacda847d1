package spectest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/attpool/attpool/internal/testenv"
	"github.com/attpool/attpool/spectest"
)

// TestConsensusSpecTests runs every case under $CONSENSUS_SPEC_TESTS (a
// consensus-spec-tests "tests" folder; a relative path is taken from the
// repository root) as a subtest named handler/case. It fails on any failed
// case and on a handler folder with no case; a case whose runner or handler
// the package does not implement is not covered, a skipped subtest that
// says so, never a failure (a whole release holds many such runners).
func TestConsensusSpecTests(t *testing.T) {
	root := testenv.SpecTests(t)
	cases, err := spectest.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no test case under %s (want <preset>/<fork>/<runner>/<handler>/<suite>/<case>/)", root)
	}

	var order []string
	byHandler := map[string][]spectest.Case{}
	for _, c := range cases {
		h := c.HandlerPath()
		if _, ok := byHandler[h]; !ok {
			order = append(order, h)
		}
		byHandler[h] = append(byHandler[h], c)
	}
	var results []spectest.Result
	for _, h := range order {
		t.Run(h, func(t *testing.T) {
			for _, c := range byHandler[h] {
				t.Run(c.CasePath(), func(t *testing.T) {
					r := spectest.RunCase(c)
					results = append(results, r)
					switch {
					case r.NotCovered:
						t.Skipf("not covered: %s", r.Reason)
					case r.Err != nil:
						t.Errorf("%v (%s)", r.Err, c.Dir)
					}
				})
			}
		})
	}

	handlers, total := spectest.Tally(results)
	t.Logf("%d handlers: %v", len(handlers), total)
	if total.Passed+total.Failed == 0 {
		t.Errorf("no case under %s is covered", root)
	}
	// Every handler folder present must contribute cases.
	dirs, err := filepath.Glob(filepath.Join(root, "*", "*", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		rel, err := filepath.Rel(root, d)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(byHandler[filepath.ToSlash(rel)]); n == 0 {
			t.Errorf("handler %s: no case found", filepath.ToSlash(rel))
		}
	}
}
