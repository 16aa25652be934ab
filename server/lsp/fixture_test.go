package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// fixture is a small project whose relevant drawers are known: the cursor
// on computeChecksum inside verifyUpload should bring the design note that
// names both first. Its one copy is testdata/fixture.json, which the node
// suite reads too (test/fixture.mjs): file paths to contents, and the
// cursor.
var fixture, cursorLine, cursorChar = loadFixture()

// loadFixture reads testdata/fixture.json; the cursor is on
// computeChecksum in src/upload.go (line and character from 0).
func loadFixture() (files map[string]string, line, char int) {
	b, err := os.ReadFile(filepath.Join("testdata", "fixture.json"))
	if err != nil {
		panic(err)
	}
	var f struct {
		Files  map[string]string `json:"files"`
		Cursor struct {
			File            string
			Line, Character int
		} `json:"cursor"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		panic(fmt.Sprintf("testdata/fixture.json: %v", err))
	}
	if f.Cursor.File != "src/upload.go" || f.Files[f.Cursor.File] == "" {
		panic(fmt.Sprintf("testdata/fixture.json: the cursor is in %q; the tests ask about src/upload.go", f.Cursor.File))
	}
	return f.Files, f.Cursor.Line, f.Cursor.Character
}

// addConversation files a conversation drawer in another wing, as a mined
// chat export would be: palace/relevant searches conversations too.
func addConversation(t *testing.T, home, content string) string {
	t.Helper()
	p, err := palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	id := store.DrawerID("chats", "/chats/session.jsonl", 0, store.ContentHash(content))
	_, err = p.Store.InsertDrawers(context.Background(), []store.Drawer{{
		ID: id, Wing: "chats", Room: "conversations", Kind: store.KindConversation, Source: "/chats/session.jsonl",
		Content: content, ContentHash: store.ContentHash(content), CreatedAt: time.Now(), OccurredAt: time.Now(),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The fixture's cursor is where its tests say it is: on computeChecksum,
// inside verifyUpload.
func TestFixtureCursorOnComputeChecksum(t *testing.T) {
	lines := strings.Split(fixture["src/upload.go"], "\n")
	if cursorLine >= len(lines) {
		t.Fatalf("cursor line %d: upload.go has %d lines", cursorLine, len(lines))
	}
	l := lines[cursorLine]
	if cursorChar > len(l) || !strings.Contains(l, "computeChecksum") ||
		strings.Index(l, "computeChecksum") > cursorChar || cursorChar >= strings.Index(l, "computeChecksum")+len("computeChecksum") {
		t.Errorf("cursor %d:%d is not on computeChecksum in %q", cursorLine, cursorChar, l)
	}
}
