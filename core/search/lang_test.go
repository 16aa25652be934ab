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

// A drawer's language is the one it was parsed as: a .h holding C++ is
// cpp, though its extension says c.
func TestHitLang(t *testing.T) {
	for _, c := range []struct{ kind, source, metadata, want string }{
		{store.KindFile, "/src/ledger.h", `{"lang":"cpp","defines":[{"name":"Ledger","kind":"class"}]}`, "cpp"},
		{store.KindFile, "/src/table.h", `{"lang":"c"}`, "c"},
		{store.KindFile, "/src/table.h", "", "c"},
		{store.KindFile, "/src/table.h", `{"generated":true,"lang":"cpp"}`, "cpp"},
		{store.KindFile, "/src/App.tsx", `{"lang":"tsx"}`, "typescript"},
		{store.KindFile, "/src/gen.go", `{"generated":true}`, "go"},
		{store.KindNote, "note.md", `{"lang":"cpp"}`, ""},
	} {
		if got := hitLang(c.kind, c.source, c.metadata); got != c.want {
			t.Errorf("hitLang(%s, %s, %s) = %q, want %q", c.kind, c.source, c.metadata, got, c.want)
		}
	}
}

// Hits and file classes ask core/lang: every source file names its
// language (Lua, Zsh and Emacs Lisp were code to the bench but had no
// language in a hit), build files name none, and every Markdown dialect
// (.mdx, .mkd, as core/relevant reads them) is a document.
func TestLangAsksTheRegistry(t *testing.T) {
	for _, c := range []struct{ source, want string }{
		{"/src/nvim/lua/palace/map.lua", "lua"},
		{"/src/bin/setup.zsh", "shell"},
		{"/src/bin/setup.bash", "shell"},
		{"/src/editors/palace-eglot.el", "elisp"},
		{"/src/core/table.cxx", "cpp"},
		{"/src/CMakeLists.txt", ""},
		{"/src/Makefile.in", ""},
	} {
		if got := Lang(store.KindFile, c.source); got != c.want {
			t.Errorf("Lang(file, %s) = %q, want %q", c.source, got, c.want)
		}
	}
	for p, want := range map[string]fileClass{
		"/r/site/intro.mdx":     classDocs,
		"/r/notes/plan.mkd":     classDocs,
		"/r/lisp/palace.el":     classSource,
		"/r/tasks/db.rake":      classSource,
		"/r/src/CMakeLists.txt": classBuild,
	} {
		if got := classOfPath(p); got != want {
			t.Errorf("classOfPath(%q) = %d, want %d", p, got, want)
		}
	}
}
