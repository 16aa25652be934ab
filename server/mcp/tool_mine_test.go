package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/search"
)

// palace_mine runs the same operation as `palace mine`: a folder inside a
// root mines into the root's wing unless it has its own palace.yaml, the
// mode is checked against ops.MineModes, and a transcript the agent names
// as a conversation is mined verbatim.
func TestMineWingsModesAndTranscripts(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "Shop App")
	writeFile(t, proj, "src/checkout.go", "package checkout\n\n// tokcheckout charges cards\n")
	writeFile(t, proj, "tools/palace.yaml", "wing: tooling\n")
	writeFile(t, proj, "tools/gen.go", "package tools\n\n// toktools generates code\n")
	writeFile(t, proj, "notes/standup.md", "> Who signs off on the release?\n\nDana does, on Thursdays.\n")

	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startStdio(t, newTestServer(t, p, Options{}), []string{proj})
	var res struct {
		Wing       string         `json:"wing"`
		FilesMined int            `json:"files_mined"`
		SkippedBy  map[string]int `json:"skipped_by_reason"`
	}
	c.ok("palace_mine", map[string]any{"path": "src"}, &res)
	if res.Wing != "shop-app" || res.FilesMined != 1 {
		t.Errorf("a folder inside the root: %+v; want the root's wing", res)
	}
	c.ok("palace_mine", map[string]any{"path": filepath.Join(proj, "tools")}, &res)
	if res.Wing != "tooling" || res.FilesMined != 1 || res.SkippedBy["metadata"] != 1 {
		t.Errorf("a folder with its own palace.yaml: %+v; want its wing, palace.yaml not mined", res)
	}
	c.invalid("palace_mine", map[string]any{"path": "src", "mode": "bogus"}, "mode")
	c.fails("palace_mine", map[string]any{"path": "src", "wing": "a/b"}, "invalid input: wing")

	c.ok("palace_mine", map[string]any{"path": "notes", "mode": "convos", "wing": "talk"}, &res)
	if res.FilesMined != 1 {
		t.Fatalf("a short transcript in convos mode: %+v", res)
	}
	var hits search.Result
	c.ok("palace_search", map[string]any{"query": "signs off", "wing": "talk", "detail": "full"}, &hits)
	if len(hits.Hits) != 1 || hits.Hits[0].Content != "> Who signs off on the release?\n\nDana does, on Thursdays." {
		t.Errorf("transcript drawer: %+v", hits.Hits)
	}
}

// A path outside the roots is refused in the same words whether it exists
// or not: nothing outside the roots is looked at, so palace_mine cannot be
// used to learn which files exist elsewhere, directly or through a link.
func TestMineOutsideRootsTellsNothing(t *testing.T) {
	base := t.TempDir()
	proj, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	writeFile(t, proj, "a.md", "tokinside\n")
	writeFile(t, outside, "secret.md", "tokoutside\n")
	if err := os.Symlink(outside, filepath.Join(proj, "out")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), []string{proj})
	for _, pair := range [][2]string{
		{filepath.Join(outside, "secret.md"), filepath.Join(outside, "nothing.md")},
		{"../outside/secret.md", "../outside/nothing.md"},
		{"out/secret.md", "out/nothing.md"},
	} {
		exists := c.fails("palace_mine", map[string]any{"path": pair[0]}, "cannot be mined")
		missing := c.fails("palace_mine", map[string]any{"path": pair[1]}, "cannot be mined")
		if strings.ReplaceAll(exists, "secret.md", "X") != strings.ReplaceAll(missing, "nothing.md", "X") {
			t.Errorf("the refusals differ:\n%s\n%s", exists, missing)
		}
	}
}
