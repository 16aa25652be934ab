package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func TestWithin(t *testing.T) {
	// EvalSymlinks of the temp folder itself, so the expected real paths
	// hold even where TMPDIR is behind a link (macOS).
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj, inner, outside := filepath.Join(base, "proj"), filepath.Join(base, "proj", "sub"), filepath.Join(base, "outside")
	write(t, filepath.Join(inner, "a.go"), "package sub")
	write(t, filepath.Join(proj, "b.go"), "package proj")
	write(t, filepath.Join(outside, "secret"), "secret")
	write(t, filepath.Join(base, "projects", "c.go"), "package projects") // shares proj's prefix
	symlink(t, filepath.Join(outside, "secret"), filepath.Join(proj, "leak"))
	symlink(t, proj, filepath.Join(base, "projlink")) // a root given through a link
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
		{"the innermost of nested roots, whatever their order", filepath.Join(inner, "a.go"), []string{proj, inner}, filepath.Join(inner, "a.go"), 1},
		{"the outer root for a file only it holds", filepath.Join(proj, "b.go"), []string{inner, proj}, filepath.Join(proj, "b.go"), 1},
		{"a link inside a root leading out of it", filepath.Join(proj, "leak"), []string{proj}, filepath.Join(outside, "secret"), -1},
		{"a sibling sharing the root's prefix", filepath.Join(base, "projects", "c.go"), []string{proj}, filepath.Join(base, "projects", "c.go"), -1},
		{"dot-dots out of the root", filepath.Join(proj, "..", "outside", "secret"), []string{proj}, filepath.Join(outside, "secret"), -1},
		{"a root given through a link", filepath.Join(proj, "b.go"), []string{filepath.Join(base, "projlink")}, filepath.Join(proj, "b.go"), 0},
		{"a path given through a link", filepath.Join(base, "projlink", "b.go"), []string{proj}, filepath.Join(proj, "b.go"), 0},
		{"a missing root holds nothing", filepath.Join(proj, "b.go"), []string{missing, proj}, filepath.Join(proj, "b.go"), 1},
		{"no roots", filepath.Join(proj, "b.go"), nil, filepath.Join(proj, "b.go"), -1},
		{"the file-system root holds everything", filepath.Join(outside, "secret"), []string{string(filepath.Separator)}, filepath.Join(outside, "secret"), 0},
	}
	for _, tc := range cases {
		real, at, err := Within(tc.path, tc.roots)
		if err != nil || real != tc.real || at != tc.at {
			t.Errorf("%s: Within(%s, %q) = %s, %d, %v; want %s, %d", tc.name, tc.path, tc.roots, real, at, err, tc.real, tc.at)
		}
	}
	// A path that does not resolve is an error naming it, whatever the roots.
	if real, at, err := Within(filepath.Join(proj, "nope.go"), []string{proj}); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "nope.go") || real != "" || at != -1 {
		t.Errorf("missing path: %q, %d, %v; want a not-exist error naming it", real, at, err)
	}
}

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.txt")
	write(t, small, "hello")
	if b, err := ReadRegular(small, 5); err != nil || string(b) != "hello" {
		t.Errorf("a file of exactly max bytes: %q, %v", b, err)
	}
	if b, err := ReadRegular(small, 4); !errors.Is(err, ErrTooLarge) || b != nil || !strings.Contains(err.Error(), small) {
		t.Errorf("a file one byte over max: %q, %v; want ErrTooLarge naming the file", b, err)
	}
	if _, err := ReadRegular(dir, 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a folder: %v, want ErrNotRegular", err)
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing"), 1<<20); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
	link := filepath.Join(dir, "link.txt")
	symlink(t, small, link)
	if b, err := ReadRegular(link, 5); err != nil || string(b) != "hello" {
		t.Errorf("a link to a regular file is followed: %q, %v", b, err)
	}
}
