//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// A path outside the workspace is refused before anything of it is looked
// at: palace/relevant and palace/mine answer the same words for a file
// outside that exists, one that does not, one under a regular file and one
// under a folder nobody may read, so the answers tell nothing of the disk
// (issue 16: the file's existence leaked through a stat error). A missing
// file behind a workspace symlink leading out is outside too.
func TestOutsidePathsGetOneAnswer(t *testing.T) {
	c, root := started(t, nil)
	outside := writeTree(t, t.TempDir(), map[string]string{"secret.go": "package s\n", "dir/a.go": "package a\n"})
	locked := filepath.Join(outside, "locked")
	if err := os.Mkdir(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o700) })
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{
		"an existing file":          filepath.Join(outside, "secret.go"),
		"a missing file":            filepath.Join(outside, "missing.go"),
		"a path under a file":       filepath.Join(outside, "secret.go", "x.go"),
		"a path in a locked dir":    filepath.Join(locked, "x.go"),
		"a missing file via link":   filepath.Join(root, "out", "missing.go"),
		"an existing file via link": filepath.Join(root, "out", "secret.go"),
	}
	pos := map[string]int{"line": 0, "character": 0}
	answers := map[string]string{}
	for name, p := range paths {
		u := fileURI(p)
		we := c.callErr("palace/relevant", map[string]any{"textDocument": map[string]string{"uri": u}, "position": pos})
		if we == nil || we.Code != jsonrpc2.InvalidParams {
			t.Errorf("relevant on %s: %v, want invalid params", name, we)
			continue
		}
		answers[name] = strings.ReplaceAll(we.Message, u, "URI")
	}
	want := answers["an existing file"]
	if !strings.Contains(want, "outside every workspace folder") {
		t.Errorf("relevant on an existing file outside: %q", want)
	}
	for name, got := range answers {
		if got != want {
			t.Errorf("relevant on %s: %q; want the same answer as for an existing file: %q", name, got, want)
		}
	}
	mineAnswers := map[string]string{}
	for _, p := range []string{outside, filepath.Join(outside, "dir"), filepath.Join(outside, "nodir"), filepath.Join(locked, "d")} {
		u := fileURI(p)
		we := c.callErr("palace/mine", map[string]any{"uri": u})
		if we == nil || we.Code != jsonrpc2.InvalidParams {
			t.Fatalf("mine %s: %v, want invalid params", p, we)
		}
		mineAnswers[strings.ReplaceAll(we.Message, u, "URI")] = p
	}
	if len(mineAnswers) != 1 {
		t.Errorf("mine of paths outside answered differently: %v", mineAnswers)
	}
}
