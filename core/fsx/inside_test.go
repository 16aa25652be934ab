package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInside(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj, inner, outside := filepath.Join(base, "proj"), filepath.Join(base, "proj", "sub"), filepath.Join(base, "outside")
	write(t, filepath.Join(inner, "a.go"), "package sub")
	write(t, filepath.Join(proj, "b.go"), "package proj")
	write(t, filepath.Join(outside, "secret"), "secret")
	write(t, filepath.Join(base, "projects", "c.go"), "package projects")
	symlink(t, filepath.Join(outside, "secret"), filepath.Join(proj, "leak"))
	symlink(t, filepath.Join(outside, "nothing"), filepath.Join(proj, "leakmissing"))
	symlink(t, filepath.Join(outside), filepath.Join(proj, "outdir"))
	symlink(t, "sub/a.go", filepath.Join(proj, "rel"))                     // a relative link that stays inside
	symlink(t, filepath.Join(proj, "loop2"), filepath.Join(proj, "loop1")) // a cycle inside the root
	symlink(t, filepath.Join(proj, "loop1"), filepath.Join(proj, "loop2"))
	symlink(t, proj, filepath.Join(base, "projlink"))
	missing := filepath.Join(base, "missing")

	cases := []struct {
		name  string
		path  string
		roots []string
		real  string
		at    int
	}{
		{"a file in a root", filepath.Join(proj, "b.go"), []string{proj}, filepath.Join(proj, "b.go"), 0},
		{"the root itself", proj, []string{proj}, proj, 0},
		{"the innermost of nested roots", filepath.Join(inner, "a.go"), []string{proj, inner}, filepath.Join(inner, "a.go"), 1},
		{"the outer root for a file only it holds", filepath.Join(proj, "b.go"), []string{inner, proj}, filepath.Join(proj, "b.go"), 1},
		{"a relative link that stays inside", filepath.Join(proj, "rel"), []string{proj}, filepath.Join(inner, "a.go"), 0},
		{"a link inside a root leading out of it", filepath.Join(proj, "leak"), []string{proj}, "", -1},
		{"the same link to a missing file", filepath.Join(proj, "leakmissing"), []string{proj}, "", -1},
		{"a missing file through a folder link leading out", filepath.Join(proj, "outdir", "nothing"), []string{proj}, "", -1},
		{"an existing file through it", filepath.Join(proj, "outdir", "secret"), []string{proj}, "", -1},
		{"a sibling sharing the root's prefix", filepath.Join(base, "projects", "c.go"), []string{proj}, "", -1},
		{"dot-dots out of the root", filepath.Join(proj, "..", "outside", "secret"), []string{proj}, "", -1},
		{"a missing file outside", filepath.Join(outside, "nothing"), []string{proj}, "", -1},
		{"a root given through a link", filepath.Join(proj, "b.go"), []string{filepath.Join(base, "projlink")}, filepath.Join(proj, "b.go"), 0},
		{"a path through the root's link", filepath.Join(base, "projlink", "b.go"), []string{filepath.Join(base, "projlink")}, filepath.Join(proj, "b.go"), 0},
		{"a missing root holds nothing", filepath.Join(proj, "b.go"), []string{missing, proj}, filepath.Join(proj, "b.go"), 1},
		{"no roots", filepath.Join(proj, "b.go"), nil, "", -1},
		{"the file-system root holds everything", filepath.Join(outside, "secret"), []string{string(filepath.Separator)}, filepath.Join(outside, "secret"), 0},
	}
	for _, tc := range cases {
		real, at, err := Inside(tc.path, tc.roots)
		if err != nil || real != tc.real || at != tc.at {
			t.Errorf("%s: Inside(%s, %q) = %q, %d, %v; want %q, %d", tc.name, tc.path, tc.roots, real, at, err, tc.real, tc.at)
		}
	}
	if real, at, err := Inside(filepath.Join(proj, "nope.go"), []string{proj}); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "nope.go") || real != "" || at != -1 {
		t.Errorf("missing path inside: %q, %d, %v; want a not-exist error naming it", real, at, err)
	}
	if _, _, err := Inside(filepath.Join(proj, "loop1"), []string{proj}); err == nil || !strings.Contains(err.Error(), "too many") {
		t.Errorf("a link cycle: %v, want too many links", err)
	}
}

// An outside folder nobody may list: Within stats into it and reports
// permission denied, a different answer from a missing path. Inside never
// looks, so there is nothing to tell apart.
func TestInsideDoesNotStatOutside(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	base := t.TempDir()
	proj, locked := filepath.Join(base, "proj"), filepath.Join(base, "locked")
	write(t, filepath.Join(proj, "a"), "a")
	write(t, filepath.Join(locked, "f"), "f")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	if _, _, err := Inside(filepath.Join(locked, "f"), []string{proj}); err != nil {
		t.Errorf("Inside stat'ed a path outside the roots: %v", err)
	}
}
