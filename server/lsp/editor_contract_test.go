package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// The fields issue 23's editor contract adds: what a panel is about, why it
// is empty, each hit's path relative to its folder and whether its room
// says anything more; the lexical-only notice only in status.
func TestRelevantSaysWhatItIsAboutAndWhere(t *testing.T) {
	c, root := started(t, nil)
	addConversation(t, c.home, "user: why is computeChecksum not SHA-256?\nassistant: speed; see the decisions doc.")
	path := filepath.Join(root, "src", "upload.go")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": "go", "version": 1, "text": fixture["src/upload.go"]}})
	res := c.mustCall("palace/relevant", map[string]any{
		"textDocument": map[string]string{"uri": fileURI(path)},
		"position":     map[string]int{"line": cursorLine, "character": cursorChar},
	})
	if res["about"] != "computeChecksum" || res["empty"] != "" {
		t.Errorf("about = %q, empty = %q", res["about"], res["empty"])
	}
	if _, ok := res["notice"]; ok {
		t.Errorf("palace/relevant holds a notice: %q", res["notice"])
	}
	byRel := map[string]map[string]any{}
	for _, h := range hitsOf(t, res) {
		byRel[h["relPath"].(string)] = h
	}
	def, note, chat := byRel["src/checksum.go"], byRel["docs/decisions.md"], byRel["/chats/session.jsonl"]
	if def == nil || note == nil || chat == nil {
		t.Fatalf("relPaths = %v, want src/checksum.go, docs/decisions.md and the conversation's source as stored", keys(byRel))
	}
	// Rooms are the top folder here (src, docs): they repeat the path.
	if def["room"] != "src" || def["roomRedundant"] != true || note["roomRedundant"] != true {
		t.Errorf("room %v roomRedundant %v / %v, want true for a room that repeats the folder", def["room"], def["roomRedundant"], note["roomRedundant"])
	}
	if chat["roomRedundant"] != false {
		t.Errorf("a conversation's room is redundant: %v", chat)
	}
	// The decision note's snippet is about 160 characters around the clue,
	// not FTS5's few words.
	snip := note["snippet"].(string)
	if n := utf8.RuneCountInString(strings.ReplaceAll(snip, "**", "")); n < 120 || !strings.Contains(snip, "**computeChecksum**") {
		t.Errorf("snippet of %d characters: %q", n, snip)
	}

	// A place nothing mentions explains itself.
	fresh := filepath.Join(root, "src", "fresh.go")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(fresh), "languageId": "go", "version": 1, "text": "quuxfrobnicate()\n"}})
	res = c.mustCall("palace/relevant", map[string]any{
		"textDocument": map[string]string{"uri": fileURI(fresh)},
		"position":     map[string]int{"line": 0, "character": 3},
	})
	if len(hitsOf(t, res)) != 0 || res["about"] != "quuxfrobnicate" || res["empty"] != "Nothing in the palace mentions quuxfrobnicate." {
		t.Errorf("empty answer: about %q, empty %q, hits %v", res["about"], res["empty"], res["hits"])
	}

	// Search: relPath too, and no notice; status keeps it.
	sr := c.mustCall("palace/search", map[string]any{"query": "CRC-32C"})
	if _, ok := sr["notice"]; ok {
		t.Errorf("palace/search holds a notice: %q", sr["notice"])
	}
	for _, h := range hitsOf(t, sr) {
		if rel := h["relPath"].(string); strings.HasPrefix(rel, "/") || h["roomRedundant"] != true {
			t.Errorf("search hit relPath %q roomRedundant %v", rel, h["roomRedundant"])
		}
	}
	st := c.mustCall("palace/status", nil)
	if n, _ := st["notice"].(string); !strings.HasPrefix(n, "lexical only") {
		t.Errorf("status notice = %q, want the lexical-only notice", n)
	}
}

func keys(m map[string]map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestPalaceChangedAfterAnotherWriter: a write through another handle on
// the palace (another process's connection, as far as SQLite can tell) is
// announced with the new drawer count.
func TestPalaceChangedAfterAnotherWriter(t *testing.T) {
	c, _ := started(t, nil)
	before := int(c.mustCall("palace/status", nil)["drawers"].(float64))
	m := c.mark()
	other, err := palace.Open(c.home)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := ops.Remember(context.Background(), other, ops.RememberRequest{Text: "the cache is flushed at midnight",
		Wing: "proj", Room: "ops", Importance: ops.DefaultImportance}); err != nil {
		t.Fatal(err)
	}
	_, n := c.waitNote(m, "palace/changed", func(p map[string]any) bool { return int(p["drawers"].(float64)) == before+1 }, 10*time.Second)
	if _, err := time.Parse(time.RFC3339, n["at"].(string)); err != nil {
		t.Errorf("at = %v: %v", n["at"], err)
	}
}

// stderrLog records what the server writes to standard error.
type stderrLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *stderrLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestLogsGoToTheClientWithTheirLevel: routine lines are window/logMessage
// info, a misspelt option a warning, and nothing reaches standard error
// (an editor shows every stderr line as an error).
func TestLogsGoToTheClientWithTheirLevel(t *testing.T) {
	root := writeTree(t, t.TempDir(), fixture)
	stderr := &stderrLog{}
	c := startServer(t, Options{Log: stderr})
	c.initialize(map[string]any{"wing": "proj", "hoverr": true}, root)
	_, mined := c.waitNote(0, "window/logMessage", func(m map[string]any) bool {
		return strings.Contains(m["message"].(string), "files mined")
	}, 30*time.Second)
	if mined["type"].(float64) != levelInfo {
		t.Errorf("mine summary at level %v, want info (3)", mined["type"])
	}
	_, warn := c.waitNote(0, "window/logMessage", func(m map[string]any) bool {
		return strings.Contains(m["message"].(string), "hoverr")
	}, 5*time.Second)
	if warn["type"].(float64) != levelWarning {
		t.Errorf("unknown option at level %v, want warning (2)", warn["type"])
	}
	c.waitIdle()
	if err := c.shutdown(); err != nil {
		t.Fatal(err)
	}
	stderr.mu.Lock()
	defer stderr.mu.Unlock()
	if len(stderr.lines) > 0 {
		t.Errorf("standard error got %q", stderr.lines)
	}
}
