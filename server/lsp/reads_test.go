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

// palace/search answers an editor in full without a budget unless the
// params say otherwise; a compact hit still has its uri and the words it
// mentions (looked for in its snippet), and a budget below the first hit
// answers none and counts them.
func TestSearchDetailBudget(t *testing.T) {
	c, _ := started(t, nil)
	full := c.mustCall("palace/search", map[string]any{"query": "checksum"})
	hits := hitsOf(t, full)
	if len(hits) == 0 || hits[0]["content"] == nil || full["detail"] != "full" || full["budget"] != nil || full["omitted"] != 0.0 {
		t.Fatalf("by default: %v", full)
	}
	compact := c.mustCall("palace/search", map[string]any{"query": "checksum", "detail": "compact"})
	for _, h := range hitsOf(t, compact) {
		if h["content"] != nil || h["uri"] == nil || fmt.Sprint(h["matched"]) != "[checksum]" || strings.Contains(h["snippet"].(string), "\n") {
			t.Errorf("compact hit: %v", h)
		}
	}
	tight := c.mustCall("palace/search", map[string]any{"query": "checksum", "budget": 5})
	if len(hitsOf(t, tight)) != 0 || tight["omitted"] != float64(len(hits)) || tight["budget"] != 5.0 || tight["note"] == nil {
		t.Errorf("budget 5: %v", tight)
	}
}
