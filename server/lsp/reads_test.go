package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// palace/search takes since and until like `palace search` and
// palace_search; palace/drawer takes neighbours like palace_get; palace/status
// is `palace status --json` (wings and embedding included) plus the server.
func TestSearchDatesDrawerNeighboursStatus(t *testing.T) {
	c, root := started(t, nil)
	if hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "checksum", "until": "2000-01-01"})); len(hits) != 0 {
		t.Errorf("until 2000: %d hits, want none (the files are new)", len(hits))
	}
	hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "checksum", "since": "2000-01-01", "source": filepath.Join(root, "src") + "/"}))
	if len(hits) == 0 {
		t.Fatal("since 2000: no hits")
	}
	for _, h := range hits {
		if s := h["snippet"].(string); strings.ContainsAny(s, "\x02\x03") {
			t.Errorf("snippet %q has the store's markers", s)
		}
	}
	d := c.mustCall("palace/drawer", map[string]any{"id": hits[0]["id"], "neighbours": 5})
	if d["id"] != hits[0]["id"] || d["uri"] == nil || d["content"] == "" {
		t.Errorf("drawer = %v", d)
	}
	st := c.mustCall("palace/status", nil)
	emb, _ := st["embedding"].(map[string]any)
	if fmt.Sprint(st["wings"]) != "[proj]" || emb == nil || emb["backend"] == nil || emb["pending"] == nil || st["server"] == nil {
		t.Errorf("status = %v", st)
	}
}
