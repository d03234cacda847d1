package pool_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeQuickStart: the README's quick start is the body of Example
// (example_test.go), which the tests compile and run, so the README's code
// cannot drift from code that works.
func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	quick, ok := between(string(readme), "## Quick start", "```go\n", "```")
	if !ok {
		t.Fatal("README: no ```go block under ## Quick start")
	}
	body, ok := between(string(example), "", "func Example() {\n", "\n}\n")
	if !ok {
		t.Fatal("example_test.go: no func Example")
	}
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	if got, want := strings.TrimSpace(quick), strings.TrimSpace(strings.Join(lines, "\n")); got != want {
		t.Errorf("the README's quick start differs from Example's body:\n--- README\n%s\n--- Example\n%s", got, want)
	}
}

// between returns the text of s after the first after (itself after
// section) and before the next end.
func between(s, section, after, end string) (string, bool) {
	i := strings.Index(s, section)
	if i < 0 {
		return "", false
	}
	s = s[i:]
	j := strings.Index(s, after)
	if j < 0 {
		return "", false
	}
	s = s[j+len(after):]
	k := strings.Index(s, end)
	if k < 0 {
		return "", false
	}
	return s[:k], true
}
