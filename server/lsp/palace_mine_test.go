package lsp

import (
	"path/filepath"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"
)

// TestPalaceMineQueuesTheWorkspace: with mining on startup off, nothing is
// searchable until palace/mine, which queues the folder on the server's own
// miner (with $/progress) and answers at once.
func TestPalaceMineQueuesTheWorkspace(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{"notes/plan.md": "The rollout uses a zanzibarflag toggle.\n"})
	c := startServer(t, Options{})
	c.initialize(map[string]any{"wing": "proj", "mineOnStartup": false}, root)
	if hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "zanzibarflag"})); len(hits) != 0 {
		t.Fatalf("found before any mine: %v", hits)
	}

	m := c.mark()
	res := c.mustCall("palace/mine", nil)
	queued := res["queued"].([]any)
	if len(queued) != 1 {
		t.Fatalf("palace/mine queued %v, want the one workspace folder", res)
	}
	q := queued[0].(map[string]any)
	if q["path"] != root || q["wing"] != "proj" || q["uri"] != string(uri.File(root)) {
		t.Errorf("queued %v, want path %s and wing proj", q, root)
	}
	c.waitNote(m, "$/progress", func(p map[string]any) bool {
		return p["value"].(map[string]any)["kind"] == "end"
	}, 30*time.Second)
	c.waitIdle()
	hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "zanzibarflag"}))
	if len(hits) != 1 || hits[0]["source"] != filepath.Join(root, "notes", "plan.md") {
		t.Errorf("after palace/mine, search finds %v", hits)
	}

	// One folder by uri; anything else is refused, and nothing is queued.
	if res := c.mustCall("palace/mine", map[string]any{"uri": string(uri.File(root))}); len(res["queued"].([]any)) != 1 {
		t.Errorf("palace/mine of the folder's uri: %v", res)
	}
	c.waitIdle()
	for _, bad := range []string{string(uri.File(t.TempDir())), string(uri.File(filepath.Join(root, "notes")))} {
		if we := c.callErr("palace/mine", map[string]any{"uri": bad}); we == nil || we.Code != jsonrpc2.InvalidParams {
			t.Errorf("palace/mine of %s: %v, want invalid params", bad, we)
		}
	}
}
