package core_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goCommand runs the go command in the module's root with GOFLAGS as given
// (the tests' own GOFLAGS carry -tags=sqlite_fts5), and returns its output
// and whether it succeeded.
func goCommand(t *testing.T, goflags string, args ...string) (string, bool) {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	cmd := exec.Command(gobin, args...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOFLAGS="+goflags)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// TestGoModTidy: go.mod and go.sum are what 'go mod tidy' makes of the
// module's imports (every file, whatever its build tags). The gitleaks
// comparison lives in its own module (core/secrets/gitleakscmp) for this.
func TestGoModTidy(t *testing.T) {
	out, ok := goCommand(t, "-buildvcs=false", "mod", "tidy", "-diff")
	if !ok || out != "" {
		t.Errorf("go.mod or go.sum is not tidy; run 'go mod tidy' at the module's root:\n%s", out)
	}
}

// TestBuildWithoutTheTagNamesIt: without -tags=sqlite_fts5 the go command
// stops while loading packages (before compiling SQLite) and says which tag
// is missing (core/store/fts5_tag.go, core/cjk/fts5_tag_test.go).
func TestBuildWithoutTheTagNamesIt(t *testing.T) {
	for _, pkg := range []string{"./core/store", "./core/cjk"} {
		out, ok := goCommand(t, "-buildvcs=false", "list", "-test", "-deps", pkg)
		if ok || !strings.Contains(out, "Palace needs the build tag sqlite_fts5") {
			t.Errorf("go list -test %s without the tag: succeeded %v, want it to fail naming the tag:\n%s", pkg, ok, out)
		}
	}
	// With the tag the guards are out of the build.
	for _, f := range []string{"store/fts5_tag.go", "cjk/fts5_tag_test.go"} {
		b, err := os.ReadFile(filepath.FromSlash(f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "//go:build !sqlite_fts5\n") {
			t.Errorf("%s: want its first line //go:build !sqlite_fts5", f)
		}
	}
	if out, ok := goCommand(t, "-buildvcs=false -tags=sqlite_fts5", "list", "-test", "-deps", "./core/store", "./core/cjk"); !ok {
		t.Errorf("go list with the tag failed:\n%s", out)
	}
}
