package testenv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mkfile(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// tree makes repo/{.git,go.mod,sub/go.mod,sub/pkg/} under a temp folder
// that itself holds a go.mod (which the .git boundary must hide).
func tree(t *testing.T) (outer, repo string) {
	outer = t.TempDir()
	repo = filepath.Join(outer, "repo")
	mkfile(t, filepath.Join(outer, "go.mod"))
	mkfile(t, filepath.Join(repo, ".git", "HEAD"))
	mkfile(t, filepath.Join(repo, "go.mod"))
	mkfile(t, filepath.Join(repo, "sub", "go.mod"))
	if err := os.MkdirAll(filepath.Join(repo, "sub", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	return outer, repo
}

func TestRepoRoot(t *testing.T) {
	outer, repo := tree(t)
	pkg := filepath.Join(repo, "sub", "pkg")
	if got, err := RepoRoot(pkg); err != nil || got != repo {
		t.Errorf("outermost go.mod: RepoRoot = %q, %v; want %q", got, err, repo)
	}
	// A go.work in the module below the root wins over the outer go.mod.
	mkfile(t, filepath.Join(repo, "sub", "go.work"))
	if got, err := RepoRoot(pkg); err != nil || got != filepath.Join(repo, "sub") {
		t.Errorf("go.work: RepoRoot = %q, %v; want %q", got, err, filepath.Join(repo, "sub"))
	}
	// Without .git the walk goes on up to the outermost go.mod.
	if err := os.RemoveAll(filepath.Join(repo, ".git")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(repo, "sub", "go.work")); err != nil {
		t.Fatal(err)
	}
	if got, err := RepoRoot(pkg); err != nil || got != outer {
		t.Errorf("no .git: RepoRoot = %q, %v; want %q", got, err, outer)
	}
	bare := t.TempDir()
	mkfile(t, filepath.Join(bare, ".git", "HEAD"))
	if _, err := RepoRoot(bare); !errors.Is(err, ErrNoRoot) {
		t.Errorf("no go.mod: err %v, want ErrNoRoot", err)
	}
}

func TestSpecTestsDir(t *testing.T) {
	_, repo := tree(t)
	vectors := filepath.Join(filepath.Dir(repo), "shared", "spec-tests", "tests")
	if err := os.MkdirAll(vectors, 0o755); err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(repo, "afile"))
	t.Chdir(filepath.Join(repo, "sub", "pkg"))

	t.Setenv(Variable, "")
	if dir, set, err := SpecTestsDir(); dir != "" || set || err != nil {
		t.Errorf("unset: %q, %v, %v", dir, set, err)
	}
	// The README's relative path, from a package two levels down.
	t.Setenv(Variable, "../shared/spec-tests/tests")
	if dir, set, err := SpecTestsDir(); dir != vectors || !set || err != nil {
		t.Errorf("relative: %q, %v, %v; want %q", dir, set, err, vectors)
	}
	t.Setenv(Variable, vectors)
	if dir, set, err := SpecTestsDir(); dir != vectors || !set || err != nil {
		t.Errorf("absolute: %q, %v, %v", dir, set, err)
	}
	t.Setenv(Variable, "../shared/spec-tests/missing")
	if _, set, err := SpecTestsDir(); !set || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: set %v, err %v; want fs.ErrNotExist", set, err)
	}
	t.Setenv(Variable, "afile")
	if _, _, err := SpecTestsDir(); !errors.Is(err, ErrNotAFolder) {
		t.Errorf("a file: err %v, want ErrNotAFolder", err)
	}
}

// recordTB records what SpecTests asks of its test.
type recordTB struct {
	testing.TB
	fatal, skip string
}

func (r *recordTB) Helper()                   {}
func (r *recordTB) Fatal(args ...any)         { r.fatal = fmt.Sprint(args...) }
func (r *recordTB) Fatalf(f string, a ...any) { r.fatal = fmt.Sprintf(f, a...) }
func (r *recordTB) Skipf(f string, a ...any)  { r.skip = fmt.Sprintf(f, a...) }

// TestSpecTestsFailsOnAMissingFolder: SpecTests skips only when the
// variable is unset; set, it fails the test when it names a folder that
// does not exist (naming the folder) or a file, and returns the folder it
// names.
func TestSpecTestsFailsOnAMissingFolder(t *testing.T) {
	_, repo := tree(t)
	mkfile(t, filepath.Join(repo, "afile"))
	t.Chdir(repo)
	t.Setenv(Variable, "")
	r := &recordTB{TB: t}
	SpecTests(r)
	if r.skip == "" || r.fatal != "" {
		t.Errorf("unset: skip %q, fatal %q; want a skip", r.skip, r.fatal)
	}
	t.Setenv(Variable, "no/such/folder")
	r = &recordTB{TB: t}
	SpecTests(r)
	if !strings.Contains(r.fatal, filepath.Join(repo, "no", "such", "folder")) || r.skip != "" {
		t.Errorf("missing folder: skip %q, fatal %q; want a failure naming the folder", r.skip, r.fatal)
	}
	t.Setenv(Variable, "afile")
	r = &recordTB{TB: t}
	SpecTests(r)
	if r.fatal == "" || r.skip != "" {
		t.Errorf("a file: skip %q, fatal %q; want a failure", r.skip, r.fatal)
	}
	t.Setenv(Variable, ".")
	r = &recordTB{TB: t}
	if dir := SpecTests(r); dir != repo || r.fatal != "" || r.skip != "" {
		t.Errorf("existing folder: %q, skip %q, fatal %q", dir, r.skip, r.fatal)
	}
}
