package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestReadme: the README's quick start is this program, whole, and what it
// prints is the output the README shows under it.
func TestReadme(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	section, ok := after(string(readme), "## Quick start")
	if !ok {
		t.Fatal("README: no ## Quick start")
	}
	code, rest, ok := block(section, "```go\n")
	if !ok {
		t.Fatal("README: no ```go block under ## Quick start")
	}
	if code != string(src) {
		t.Errorf("the README's quick start differs from examples/quickstart/main.go:\n--- README\n%s\n--- main.go\n%s", code, src)
	}
	want, _, ok := block(rest, "```text\n")
	if !ok {
		t.Fatal("README: no ```text block of the quick start's output")
	}
	if got := runMain(t); got != want {
		t.Errorf("the quick start prints\n%s\nthe README says\n%s", got, want)
	}
}

// runMain runs main and returns what it printed on stdout.
func runMain(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	func() {
		defer func() { os.Stdout = stdout }()
		main()
	}()
	w.Close()
	return <-done
}

// after returns s after the first heading, up to the next "## " heading.
func after(s, heading string) (string, bool) {
	_, s, ok := strings.Cut(s, heading+"\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(s, "\n## "); i >= 0 {
		s = s[:i+1]
	}
	return s, true
}

// block returns the text of the first fenced block opened by open in s, and
// what follows it.
func block(s, open string) (body, rest string, ok bool) {
	_, s, ok = strings.Cut(s, open)
	if !ok {
		return "", "", false
	}
	body, rest, ok = strings.Cut(s, "```\n")
	return body, rest, ok
}
