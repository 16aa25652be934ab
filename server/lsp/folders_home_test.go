package lsp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A workspace folder holding the user's home folder (/home, /Users, or any
// folder above it) would mine the home folder with it: the server refuses
// it by the same rule as `palace mine` and palace_mine (ops.BroadFolder),
// warns, and mines nothing there; the project beside it is mined.
func TestHomeParentFolderIsNotMined(t *testing.T) {
	users := t.TempDir()
	home := writeTree(t, filepath.Join(users, "bob"), map[string]string{"notes.md": "tokhomeparent\n"})
	writeTree(t, filepath.Join(users, "alice"), map[string]string{"notes.md": "tokotheruser\n"})
	proj := writeTree(t, t.TempDir(), map[string]string{"a.md": "tokbesideproject\n"})
	t.Setenv("HOME", home)
	c := startServer(t, Options{})
	c.initialize(map[string]any{}, users, proj)
	_, m := c.waitNote(0, "window/showMessage", nil, 10*time.Second)
	if msg, _ := m["message"].(string); m["type"] != float64(2) || !strings.Contains(msg, users) || !strings.Contains(msg, "it holds your home folder") {
		t.Errorf("showMessage: %v", m)
	}
	waitFor(t, func() bool {
		return len(hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "tokbesideproject"}))) == 1
	})
	st := c.waitIdle()
	if fs := st["server"].(map[string]any)["folders"].([]any); len(fs) != 1 {
		t.Errorf("folders: %v; want the project alone", fs)
	}
	for _, tok := range []string{"tokhomeparent", "tokotheruser"} {
		if hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": tok})); len(hits) != 0 {
			t.Errorf("%s was mined: %v", tok, hits)
		}
	}
}
