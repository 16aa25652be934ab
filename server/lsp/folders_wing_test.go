package lsp

import (
	"path/filepath"
	"testing"
)

// TestFolderWingIsTheProjects: a workspace folder's wing is
// ops.ResolveWing's, the answer an agent's session and `palace mine` give
// for the same folder: the nearest palace.yaml at or above it, else its
// git work tree's root, else its own name. It used to read the folder's
// own palace.yaml only, so a subfolder of a project opened alone was a
// wing of its own. initializationOptions' wing still wins, and a
// palace.yaml that cannot be read leaves the folder's name (the mine
// reports the file).
func TestFolderWingIsTheProjects(t *testing.T) {
	base := t.TempDir()
	t.Setenv("HOME", filepath.Join(base, "home"))
	writeTree(t, base, map[string]string{
		"proj/palace.yaml":   "wing: shop\n",
		"proj/web/index.md":  "storefront subfolderonly words\n",
		"repo/.git/HEAD":     "ref: refs/heads/main\n",
		"repo/docs/a.md":     "a\n",
		"plain/a.md":         "a\n",
		"broken/palace.yaml": "wing: [\n",
		"broken/sub/a.md":    "a\n",
	})
	for _, c := range []struct {
		f    folder
		want string
	}{
		{folder{path: filepath.Join(base, "proj", "web")}, "shop"},
		{folder{path: filepath.Join(base, "repo", "docs")}, "repo"},
		{folder{path: filepath.Join(base, "plain")}, "plain"},
		{folder{path: filepath.Join(base, "proj", "web"), fixedWing: "chosen"}, "chosen"},
		{folder{path: filepath.Join(base, "broken", "sub")}, "sub"},
	} {
		if got := c.f.wing(); got != c.want {
			t.Errorf("%s (fixed %q): %q, want %q", c.f.path, c.f.fixedWing, got, c.want)
		}
	}

	// The folder is mined into the project's wing.
	cl := startServer(t, Options{})
	cl.initialize(nil, filepath.Join(base, "proj", "web"))
	waitFor(t, func() bool {
		hits := hitsOf(t, cl.mustCall("palace/search", map[string]any{"query": "subfolderonly"}))
		return len(hits) == 1 && hits[0]["wing"] == "shop"
	})
}
