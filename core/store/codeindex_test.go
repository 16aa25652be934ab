package store

import (
	"context"
	"testing"
)

// Files mined before v9 are marked changed, so the next mine cuts them
// again and fills their code index; conversations are left alone.
func TestMigrationRemarksMinedFiles(t *testing.T) {
	ctx := context.Background()
	s := openFrom(t, 8, `INSERT INTO sources (wing, path, kind, content_hash, mtime, size, drawers, mined_at) VALUES
		('w', '/p/a.go', 'file', 'h', 1, 2, 1, '2026-01-01T00:00:00Z'),
		('w', '/p/chat.jsonl', 'conversation', 'h', 1, 2, 1, '2026-01-01T00:00:00Z')`)
	srcs, err := s.Sources(ctx, "w", "")
	if err != nil {
		t.Fatal(err)
	}
	if f := srcs["/p/a.go"]; f.ContentHash == "h" || f.Mtime != 0 {
		t.Errorf("mined file after v9: %+v, want it marked changed", f)
	}
	if c := srcs["/p/chat.jsonl"]; c.ContentHash != "h" || c.Mtime != 1 {
		t.Errorf("conversation after v9: %+v, want it untouched", c)
	}
}

// The code index columns are searched with their weights: a drawer that
// defines a name outranks one that mentions it more often, its parts find
// it, its path words find it, and a purge empties them.
func TestCodeIndexColumns(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	def := Drawer{ID: DrawerID("w", "/p/store/search.go", 0, "a"), Wing: "w", Room: "r", Kind: KindFile,
		Source: "/p/store/search.go", Content: "func (s *Store) SearchFTS() {}", ContentHash: "a",
		Code: CodeIndex{Symbols: "SearchFTS\nsearch fts", Path: "store search", Parts: "search fts"}}
	use := Drawer{ID: DrawerID("w", "/p/cmd/run.go", 0, "b"), Wing: "w", Room: "r", Kind: KindFile,
		Source: "/p/cmd/run.go", Content: "st.SearchFTS(); st.SearchFTS(); st.SearchFTS()", ContentHash: "b",
		Code: CodeIndex{Path: "cmd run", Parts: "search fts"}}
	if _, err := s.InsertDrawers(ctx, []Drawer{use, def}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{`"SearchFTS"`, `"search fts"`} {
		hs, err := s.SearchFTS(ctx, m, Filter{}, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(hs) != 2 || hs[0].ID != def.ID {
			t.Errorf("search %s: %v, want the definition first of 2", m, ids(hs))
		}
	}
	hs, err := s.SearchFTS(ctx, `"store"`, Filter{}, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 1 || hs[0].ID != def.ID {
		t.Errorf("search a path word: %v, want the drawer in store/", ids(hs))
	}
	if _, _, err := s.PurgeDrawer(ctx, def.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE id = ? AND
		(code_symbols IS NOT NULL OR code_path IS NOT NULL OR code_parts IS NOT NULL)`, def.ID).Scan(&n); err != nil || n != 0 {
		t.Errorf("a purged drawer keeps its code index (%d, %v)", n, err)
	}
	if hs, _ := s.SearchFTS(ctx, `"store"`, Filter{}, 10, nil); len(hs) != 0 {
		t.Errorf("a purged drawer is still found by its path words: %v", ids(hs))
	}
}

func ids(hs []Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.ID
	}
	return out
}

// A replacement's code index may be derived as each drawer is inserted
// (SourceUpdate.CodeLater): a re-mine keeps the drawers it cuts again,
// and only those the store inserts pay for their index, which they then
// hold.
func TestCodeLaterDerivesOnInsertOnly(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	src := Source{Wing: "w", Path: "/p/a.go", Kind: KindFile, ContentHash: "h1"}
	kept := Drawer{ID: DrawerID("w", src.Path, 0, "a"), Wing: "w", Room: "r", Kind: KindFile, Source: src.Path,
		Content: "func Alpha() {}", ContentHash: "a", Code: CodeIndex{Symbols: "alpha", Path: "p a", Parts: "alpha"}}
	if _, err := s.ApplySources(ctx, []SourceUpdate{{Source: src, Drawers: []Drawer{kept}}}); err != nil {
		t.Fatal(err)
	}
	added := Drawer{ID: DrawerID("w", src.Path, 1, "b"), Wing: "w", Room: "r", Kind: KindFile, Source: src.Path,
		Content: "func Beta() {}", ContentHash: "b"}
	var derived []string
	later := func(d Drawer) CodeIndex {
		derived = append(derived, d.ID)
		return CodeIndex{Symbols: "gammaword", Path: "p a", Parts: "gammaword"}
	}
	src.ContentHash = "h2"
	again := kept
	again.Code = CodeIndex{}
	if _, err := s.ApplySources(ctx, []SourceUpdate{{Source: src, Drawers: []Drawer{again, added}, CodeLater: later}}); err != nil {
		t.Fatal(err)
	}
	if len(derived) != 1 || derived[0] != added.ID {
		t.Errorf("CodeLater called for %v, want only the inserted drawer %s", derived, added.ID)
	}
	for word, want := range map[string]string{"gammaword": added.ID, "alpha": kept.ID} {
		hs, err := s.SearchFTS(ctx, `{symbols} : `+word, Filter{}, 10, nil)
		if err != nil || len(hs) != 1 || hs[0].ID != want {
			t.Errorf("symbols %s: %v %v, want %s", word, ids(hs), err, want)
		}
	}
}
