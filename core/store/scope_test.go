package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// ftsCount counts what FTS5 alone matches for SearchFTS's expression, with
// no filtering on the drawers table.
func ftsCount(t *testing.T, s *Store, match string, f Filter) int {
	t.Helper()
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM drawers_fts WHERE drawers_fts MATCH ?`, ftsMatch(match, f)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestScopeFiltersInsideFTS(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	mk := func(wing, kind, source, text string) Drawer {
		d := drawer(wing, source, 0, text)
		d.Kind = kind
		return d
	}
	// Wings whose names are prefixes of each other, hold spaces, quotes,
	// operators or CJK: each must stay one scope of its own.
	wings := []string{"a", "ab", "my wing", `qu"o'te`, "知识", "AND", "x:y*"}
	var ds []Drawer
	for _, w := range wings {
		ds = append(ds,
			mk(w, KindFile, "f", "shared word file"),
			mk(w, KindNote, "n", "shared word note"),
			mk(w, KindNote, "m", "filler text"),
		)
	}
	if _, err := s.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	all, err := s.SearchFTS(ctx, `"shared"`, Filter{}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2*len(wings) {
		t.Fatalf("no filter: %d hits, want %d", len(all), 2*len(wings))
	}
	score := map[string]float64{}
	for _, h := range all {
		score[h.ID] = h.Score
	}
	for _, w := range wings {
		for _, c := range []struct {
			f    Filter
			want int
		}{
			{Filter{Wing: w}, 2},
			{Filter{Wing: w, Kind: KindNote}, 1},
			{Filter{Wing: w, Kind: KindDiary}, 0},
		} {
			if n := ftsCount(t, s, `"shared"`, c.f); n != c.want {
				t.Errorf("filter %+v: FTS5 alone matches %d, want %d", c.f, n, c.want)
			}
			hits, err := s.SearchFTS(ctx, `"shared"`, c.f, 100, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != c.want {
				t.Errorf("filter %+v: %d hits, want %d", c.f, len(hits), c.want)
			}
			for _, h := range hits {
				if h.Wing != w || (c.f.Kind != "" && h.Kind != c.f.Kind) {
					t.Errorf("filter %+v: hit from %s/%s", c.f, h.Wing, h.Kind)
				}
				if h.Score != score[h.ID] {
					t.Errorf("filter %+v changed a score: %v, want %v", c.f, h.Score, score[h.ID])
				}
				if h.Snippet == "" {
					t.Errorf("filter %+v: no snippet", c.f)
				}
			}
		}
	}
	// Words never match the scope column.
	var tok string
	if err := s.r.QueryRow(`SELECT scope FROM drawers_search LIMIT 1`).Scan(&tok); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `"`+tok+`"`); n != 0 {
		t.Errorf("searching the scope token %s found %d drawers", tok, n)
	}
	if n := count(t, s, `"shared" NOT "`+tok+`"`); n != 2*len(wings) {
		t.Errorf("excluding the scope token %s left %d drawers, want %d", tok, n, 2*len(wings))
	}
}

func TestScopeFollowsWingAndKindUpdates(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	ds := []Drawer{drawer("old", "s", 0, "moving words"), drawer("old", "t", 0, "filler"), drawer("other", "u", 0, "filler too")}
	if _, err := s.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`UPDATE drawers SET wing = 'new', kind = 'note' WHERE id = ?`, ds[0].ID); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    Filter
		want int
	}{
		{Filter{Wing: "old"}, 0},
		{Filter{Wing: "new"}, 1},
		{Filter{Wing: "new", Kind: KindNote}, 1},
		{Filter{Wing: "new", Kind: KindFile}, 0},
	} {
		if n := ftsCount(t, s, `"moving"`, c.f); n != c.want {
			t.Errorf("after the update, filter %+v: FTS5 matches %d, want %d", c.f, n, c.want)
		}
	}
	wantIndexesOK(t, s)
}

// A palace written at v3 gets its FTS index rebuilt with scopes by v4.
func TestMigrationRebuildsFTSWithScope(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(home, DBName))
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateTo(ctx, db, 3); err != nil {
		t.Fatal(err)
	}
	for i, r := range []struct{ wing, text string }{{"a", "legacy words"}, {"b", "legacy words"}, {"b", "filler"}, {"c", "more filler"}} {
		if _, err := db.Exec(`INSERT INTO drawers (id, wing, room, kind, source, content, content_hash, created_at)
			VALUES (?, ?, 'r', 'file', 's', ?, 'h', '2026-01-01T00:00:00Z')`, i, r.wing, r.text); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`UPDATE drawers SET deleted_at = '2026-01-02T00:00:00Z' WHERE id = '1'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := ftsCount(t, s, `"legacy"`, Filter{Wing: "a"}); n != 1 {
		t.Errorf("wing a after migration: %d, want 1", n)
	}
	if n := ftsCount(t, s, `"legacy"`, Filter{Wing: "b"}); n != 0 {
		t.Errorf("wing b after migration: %d, want 0 (its drawer is deleted)", n)
	}
	wantIndexesOK(t, s)
}
