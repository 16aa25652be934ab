package search

import (
	"testing"

	"github.com/palace-dev/palace/core/store"
)

// A file hit's lang comes from its extension, in any case; other kinds and
// unknown extensions have none (issue #17).
func TestLang(t *testing.T) {
	for _, c := range []struct{ kind, source, want string }{
		{store.KindFile, "/src/core/search.go", "go"},
		{store.KindFile, "/src/app/Main.TSX", "typescript"},
		{store.KindFile, "/src/tool.py", "python"},
		{store.KindFile, "/src/lib.rs", "rust"},
		{store.KindFile, "/src/index.mjs", "javascript"},
		{store.KindFile, "/src/README.md", "markdown"},
		{store.KindFile, "/src/Makefile", ""},
		{store.KindFile, "/src/data.xyz", ""},
		{store.KindConversation, "/chats/session.jsonl", ""},
		{store.KindNote, "note.md", ""},
	} {
		if got := Lang(c.kind, c.source); got != c.want {
			t.Errorf("Lang(%s, %s) = %q, want %q", c.kind, c.source, got, c.want)
		}
	}
}
