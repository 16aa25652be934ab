package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openFrom writes a palace at schema version, runs stmts on it, and opens
// it as Open does, migrating it to the current version.
func openFrom(t *testing.T, version int, stmts ...string) *Store {
	t.Helper()
	home := t.TempDir()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(home, DBName))
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateTo(context.Background(), db, version); err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// schema lists the database's objects, for comparing migration paths.
func schema(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query(`SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, sqlText string
		if err := rows.Scan(&typ, &name, &sqlText); err != nil {
			t.Fatal(err)
		}
		b.WriteString(typ + " " + name + " " + sqlText + "\n")
	}
	return b.String()
}

func TestMigrateFromEachVersion(t *testing.T) {
	fresh := openTemp(t)
	want := schema(t, fresh.w)
	if v, _ := fresh.SchemaVersionOf(context.Background()); v != SchemaVersion() {
		t.Fatalf("fresh schema version %d, want %d", v, SchemaVersion())
	}
	for from := 0; from <= SchemaVersion(); from++ {
		home := t.TempDir()
		db, err := sql.Open("sqlite3", "file:"+filepath.Join(home, DBName))
		if err != nil {
			t.Fatal(err)
		}
		if err := migrateTo(context.Background(), db, from); err != nil {
			t.Fatalf("migrate to %d: %v", from, err)
		}
		db.Close()
		s, err := Open(home)
		if err != nil {
			t.Fatalf("open at version %d: %v", from, err)
		}
		if got := schema(t, s.w); got != want {
			t.Errorf("schema migrated from v%d differs from a fresh one:\n%s\nwant\n%s", from, got, want)
		}
		s.Close()
	}
}

func TestRefusesNewerSchema(t *testing.T) {
	home := t.TempDir()
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`PRAGMA user_version = 999`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Open(home)
	if err == nil || !strings.Contains(err.Error(), "newer than this palace binary") {
		t.Fatalf("want a clear error for a newer schema, got %v", err)
	}
}

func TestFileModes(t *testing.T) {
	home := filepath.Join(t.TempDir(), "p")
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for path, want := range map[string]os.FileMode{home: 0o700, filepath.Join(home, DBName): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}

func TestDrawerIDStable(t *testing.T) {
	h := ContentHash("same text")
	a := DrawerID("w", "/a.go", 0, h)
	if a != DrawerID("w", "/a.go", 0, h) {
		t.Fatal("id not deterministic")
	}
	for name, other := range map[string]string{
		"other source":   DrawerID("w", "/b.go", 0, h),
		"other position": DrawerID("w", "/a.go", 1, h),
		"other wing":     DrawerID("x", "/a.go", 0, h),
		"other content":  DrawerID("w", "/a.go", 0, ContentHash("changed")),
	} {
		if other == a {
			t.Errorf("%s gives the same id %s", name, a)
		}
	}
}

func drawer(wing, source string, pos int, content string) Drawer {
	h := ContentHash(content)
	return Drawer{ID: DrawerID(wing, source, pos, h), Wing: wing, Room: "general", Kind: KindFile,
		Source: source, LineStart: pos + 1, LineEnd: pos + 1, Content: content, ContentHash: h}
}

func count(t *testing.T, s *Store, match string) int {
	t.Helper()
	hits, err := s.SearchFTS(context.Background(), match, Filter{}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	return len(hits)
}

func TestFTSFollowsInsertReplaceDelete(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	src := Source{Wing: "w", Path: "/p/a.txt", Kind: KindFile, ContentHash: "h1", Size: 1, Mtime: 1}
	// Filler keeps BM25's IDF above zero for the terms under test.
	filler := []Drawer{drawer("w", "/p/f1", 0, "unrelated filler one"), drawer("w", "/p/f2", 0, "unrelated filler two")}
	if _, err := s.InsertDrawers(ctx, filler); err != nil {
		t.Fatal(err)
	}
	_, err := s.ApplySources(ctx, []SourceUpdate{{Source: src, Drawers: []Drawer{drawer("w", src.Path, 0, "alpha bravo")}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `"alpha"`); n != 1 {
		t.Fatalf("after insert: %d hits for alpha, want 1", n)
	}
	src.ContentHash = "h2"
	r, err := s.ApplySources(ctx, []SourceUpdate{{Source: src, Drawers: []Drawer{drawer("w", src.Path, 0, "charlie delta")}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Added != 1 || r.Removed != 1 {
		t.Errorf("replace: %+v, want 1 added 1 removed", r)
	}
	if n := count(t, s, `"alpha"`); n != 0 {
		t.Errorf("after replace: old content still found (%d)", n)
	}
	if n := count(t, s, `"charlie"`); n != 1 {
		t.Errorf("after replace: new content found %d times, want 1", n)
	}
	removed, err := s.PruneSources(ctx, "w", []string{src.Path})
	if err != nil || removed != 1 {
		t.Fatalf("prune: %d, %v", removed, err)
	}
	if n := count(t, s, `"charlie"`); n != 0 {
		t.Errorf("after prune: content still found")
	}
	wantIndexesOK(t, s)
}

func TestSoftDelete(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	d := drawer("w", "note", 0, "remember the zebra decision")
	ds := []Drawer{d, drawer("w", "n2", 0, "other words"), drawer("w", "n3", 0, "more words")}
	if _, err := s.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDrawer(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `"zebra"`); n != 0 {
		t.Errorf("deleted drawer still searchable")
	}
	got, err := s.GetDrawer(ctx, d.ID)
	if err != nil || got.DeletedAt == nil || got.Content != d.Content {
		t.Fatalf("deleted drawer not kept verbatim: %+v %v", got, err)
	}
	if err := s.DeleteDrawer(ctx, d.ID); err == nil || !strings.Contains(err.Error(), "already deleted") {
		t.Errorf("second delete: %v", err)
	}
	if err := s.DeleteDrawer(ctx, "d_nope"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown id: %v", err)
	}
	wantIndexesOK(t, s)
}

func TestIndexTextIsSearchedContentIsKept(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	d := drawer("w", "c", 0, "<system-reminder>noise</system-reminder> real words")
	d.IndexText = "real words"
	if _, err := s.InsertDrawers(ctx, []Drawer{d, drawer("w", "x", 0, "filler"), drawer("w", "y", 0, "filler two")}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `"noise"`); n != 0 {
		t.Errorf("index text ignored: noise found")
	}
	hits, err := s.SearchFTS(ctx, `"real"`, Filter{}, 10, nil)
	if err != nil || len(hits) != 1 || hits[0].Content != d.Content {
		t.Fatalf("hit should carry verbatim content: %+v %v", hits, err)
	}
}

func TestSearchFilters(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	mk := func(wing, room, kind, source, text string) Drawer {
		d := drawer(wing, source, 0, text)
		d.Room, d.Kind = room, kind
		return d
	}
	ds := []Drawer{
		mk("a", "api", KindFile, "/x/api/h.go", "shared term one"),
		mk("a", "db", KindFile, "/x/db/q.go", "shared term two"),
		mk("b", "api", KindNote, "note:1", "shared term three"),
		mk("b", "misc", KindNote, "note:2", "filler"),
		mk("b", "misc", KindNote, "note:3", "filler again"),
	}
	if _, err := s.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		f    Filter
		want int
	}{
		{Filter{}, 3},
		{Filter{Wing: "a"}, 2},
		{Filter{Room: "api"}, 2},
		{Filter{Wing: "a", Room: "api"}, 1},
		{Filter{Kind: KindNote}, 1},
		{Filter{SourcePrefix: "/x/db/"}, 1},
		{Filter{Wing: "zzz"}, 0},
	}
	for _, c := range cases {
		hits, err := s.SearchFTS(ctx, `"shared"`, c.f, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != c.want {
			t.Errorf("filter %+v: %d hits, want %d", c.f, len(hits), c.want)
		}
	}
}

func TestDuplicateIDIsNotInsertedTwice(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	d := drawer("w", "s", 0, "once")
	n, err := s.InsertDrawers(ctx, []Drawer{d, d})
	if err != nil || n != 1 {
		t.Fatalf("inserted %d, %v; want 1", n, err)
	}
}

func TestTaxonomyRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	rooms := []Room{{Room: "db", Keywords: []string{"sql", "query"}}, {Room: "api", DisplayName: "API", Keywords: []string{"http"}}}
	if err := s.ReplaceTaxonomy(ctx, "w", rooms); err != nil {
		t.Fatal(err)
	}
	got, err := s.Taxonomy(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Room != "api" || got[0].DisplayName != "API" || got[1].Keywords[1] != "query" {
		t.Fatalf("taxonomy = %+v", got)
	}
}

func TestSwapMeta(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if ok, err := s.SwapMeta(ctx, "k", "", "one"); !ok || err != nil {
		t.Fatalf("swap an unset key: %v %v", ok, err)
	}
	if ok, err := s.SwapMeta(ctx, "k", "", "two"); ok || err != nil {
		t.Errorf("swap from a stale value: %v %v", ok, err)
	}
	if ok, err := s.SwapMeta(ctx, "k", "one", "two"); !ok || err != nil {
		t.Errorf("swap from the current value: %v %v", ok, err)
	}
	if v, _, _ := s.Meta(ctx, "k"); v != "two" {
		t.Errorf("value %q", v)
	}
}

// A symbolic link planted as palace.db is refused: Open neither creates
// its target nor opens the file it names.
func TestOpenRefusesSymlinkedDatabase(t *testing.T) {
	home := t.TempDir()
	target := filepath.Join(t.TempDir(), "elsewhere.db")
	if err := os.Symlink(target, filepath.Join(home, DBName)); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(home); err == nil {
		s.Close()
		t.Fatal("Open followed a symlinked palace.db")
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("the link's target was created: %v", err)
	}
}

// Read commands open with CheckExists first: a home without palace.db is
// an error naming it, and nothing is created.
func TestCheckExists(t *testing.T) {
	home := filepath.Join(t.TempDir(), "typo")
	err := CheckExists(home)
	if !errors.Is(err, ErrNoPalace) || !strings.Contains(err.Error(), home) {
		t.Errorf("CheckExists(%s) = %v", home, err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("CheckExists created %s", home)
	}
}

// TestWriterKeepsTemporaryFilesInMemory: the writer's statement journals
// (one per drawer insert, for the FTS5 triggers) must not go to files, a
// reopened connection included.
func TestWriterKeepsTemporaryFilesInMemory(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 2; i++ {
		var mode int
		if err := s.w.QueryRow(`PRAGMA temp_store`).Scan(&mode); err != nil || mode != 2 {
			t.Fatalf("writer temp_store = %d (%v), want 2 (MEMORY)", mode, err)
		}
		// A connection database/sql opens again gets the same setting.
		s.w.SetMaxIdleConns(0)
		s.w.SetMaxIdleConns(1)
	}
}

// Checkpoint moves committed writes from the WAL into the database file:
// the file alone, copied without its WAL, holds them afterwards and not
// before.
func TestCheckpointMovesTheWALIntoTheFile(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	d := Drawer{ID: DrawerID("w", "/p/a.md", 0, "h"), Wing: "w", Room: "r", Kind: KindFile, Source: "/p/a.md",
		Content: "checkpointed words", ContentHash: "h"}
	if _, err := s.InsertDrawers(ctx, []Drawer{d}); err != nil {
		t.Fatal(err)
	}
	fileAlone := func() int {
		b, err := os.ReadFile(s.Path())
		if err != nil {
			t.Fatal(err)
		}
		copyPath := filepath.Join(t.TempDir(), DBName)
		if err := os.WriteFile(copyPath, b, 0o600); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite3", "file:"+copyPath+"?mode=ro&immutable=1")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int
		// Before any checkpoint the file may not even hold the schema.
		if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'drawers'`).Scan(&n); err != nil || n == 0 {
			return 0
		}
		if err := db.QueryRow(`SELECT count(*) FROM drawers`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := fileAlone(); n != 0 {
		t.Fatalf("the database file alone holds %d drawers before the checkpoint; the test needs the write in the WAL", n)
	}
	if err := s.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	if n := fileAlone(); n != 1 {
		t.Errorf("the database file alone holds %d drawers after the checkpoint, want 1", n)
	}
}

// TestPageSize: a new palace has pageSize pages in WAL mode, with its
// files private; a palace made with SQLite's default 4 KiB pages keeps
// them, and is migrated, written and searched as before.
func TestPageSize(t *testing.T) {
	ctx := context.Background()
	pragma := func(db *sql.DB, name string) string {
		var v string
		if err := db.QueryRow(`PRAGMA ` + name).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	s := openTemp(t)
	if got := pragma(s.w, "page_size"); got != strconv.Itoa(pageSize) {
		t.Errorf("new palace page_size = %s, want %d", got, pageSize)
	}
	if got := pragma(s.w, "journal_mode"); got != "wal" {
		t.Errorf("new palace journal_mode = %s, want wal", got)
	}
	for _, p := range []string{s.path, s.path + "-wal", s.path + "-shm"} {
		if fi, err := os.Stat(p); err != nil {
			t.Error(err)
		} else if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", p, fi.Mode().Perm())
		}
	}

	// openFrom writes the palace as SQLite does by default, in 4 KiB pages.
	old := openFrom(t, 1)
	if got := pragma(old.w, "page_size"); got != "4096" {
		t.Errorf("existing palace page_size = %s, want its own 4096", got)
	}
	d := drawer("w", "a", 0, "the page size stays")
	if _, err := old.InsertDrawers(ctx, []Drawer{d}); err != nil {
		t.Fatal(err)
	}
	hits, err := old.SearchFTS(ctx, `("page" AND "stays")`, Filter{}, 5, nil)
	if err != nil || len(hits) != 1 || hits[0].ID != d.ID {
		t.Fatalf("search in the 4 KiB palace = %+v, %v", hits, err)
	}
}

// TestFTSAutomerge: a new palace's full-text index merges at
// ftsAutomerge segments of a level, and a palace that has FTS5's default
// gets the setting when it is next opened.
func TestFTSAutomerge(t *testing.T) {
	automerge := func(s *Store) int {
		t.Helper()
		var v int
		if err := s.w.QueryRow(`SELECT v FROM drawers_fts_config WHERE k = 'automerge'`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	s := openTemp(t)
	if got := automerge(s); got != ftsAutomerge {
		t.Fatalf("new palace automerge = %d, want %d", got, ftsAutomerge)
	}
	if _, err := s.w.Exec(`INSERT INTO drawers_fts (drawers_fts, rank) VALUES ('automerge', 4)`); err != nil {
		t.Fatal(err)
	}
	home := s.home
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := automerge(again); got != ftsAutomerge {
		t.Errorf("reopened palace automerge = %d, want %d", got, ftsAutomerge)
	}
}
