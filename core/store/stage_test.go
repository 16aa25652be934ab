package store

import (
	"context"
	"fmt"
	"testing"
)

// fileDrawers are n drawers of one mined file, as a mine cuts them.
func fileDrawers(wing, path string, n int, salt string) []Drawer {
	ds := make([]Drawer, n)
	for i := range ds {
		text := fmt.Sprintf("func part%d%s() { return word%d and %s }", i, salt, i, salt)
		h := ContentHash(text)
		ds[i] = Drawer{ID: DrawerID(wing, path, i, h), Wing: wing, Room: "src", Kind: KindFile, Source: path,
			LineStart: i + 1, LineEnd: i + 1, Content: text, ContentHash: h,
			Code: CodeIndex{Symbols: fmt.Sprintf("part%d", i), Path: "a go"}}
	}
	return ds
}

// segments is how many segments the full-text index is made of.
func segments(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.r.QueryRow(`SELECT count(DISTINCT segid) FROM drawers_fts_idx`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A batch's drawers enter the full-text index as one segment: inserted
// one by one, each drawer was a segment of its own, which FTS5 then spent
// most of a mine's writing time merging.
func TestBatchIsOneIndexSegment(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var batch []SourceUpdate
	for f := range 10 {
		path := fmt.Sprintf("/p/f%d.go", f)
		batch = append(batch, SourceUpdate{Source: Source{Wing: "w", Path: path, Kind: KindFile, ContentHash: "h"},
			Drawers: fileDrawers("w", path, 30, "")})
	}
	r, err := s.ApplySources(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	if r.Added != 300 {
		t.Fatalf("added %d drawers, want 300", r.Added)
	}
	if n := segments(t, s); n != 1 {
		t.Errorf("the index of one batch has %d segments, want 1", n)
	}
	checkFTS(t, s)
}

// checkFTS fails the test unless doctor's fts check passes.
func checkFTS(t *testing.T, s *Store) {
	t.Helper()
	ok, msg, err := s.checkFTS(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatalf("fts check: %s", msg)
	}
}

// A batch that holds a source twice, or replaces drawers a source had,
// ends as one drawer at a time did: the second update's drawers, counted
// the same, the index agreeing with the table.
func TestBatchReplacesAsOneByOne(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	src := Source{Wing: "w", Path: "/p/a.go", Kind: KindFile, ContentHash: "h1"}
	other := Source{Wing: "w", Path: "/p/b.go", Kind: KindFile, ContentHash: "h1"}
	r, err := s.ApplySources(ctx, []SourceUpdate{
		{Source: src, Drawers: fileDrawers("w", src.Path, 3, "one")},
		{Source: other, Drawers: fileDrawers("w", other.Path, 2, "one")},
		{Source: src, Drawers: fileDrawers("w", src.Path, 4, "two")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Added != 9 || r.Removed != 3 {
		t.Errorf("added %d, removed %d; want 9 and 3", r.Added, r.Removed)
	}
	// Replaced again in a later batch: one drawer kept, three go, one comes.
	next := append(fileDrawers("w", src.Path, 1, "two"), fileDrawers("w", src.Path, 2, "three")[1])
	r, err = s.ApplySources(ctx, []SourceUpdate{{Source: src, Drawers: next}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Added != 1 || r.Removed != 3 {
		t.Errorf("re-mine: added %d, removed %d; want 1 and 3", r.Added, r.Removed)
	}
	ids, err := s.SourceDrawerIDs(ctx, "w", src.Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2 || !ids[next[0].ID] || !ids[next[1].ID] {
		t.Errorf("drawers of %s: %v, want %s and %s", src.Path, ids, next[0].ID, next[1].ID)
	}
	checkFTS(t, s)
	// The staged rows got their seq in the order they were given.
	rows, err := s.r.Query(`SELECT id FROM drawers ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id string
		rows.Scan(&id)
		got = append(got, id)
	}
	want := []string{}
	for _, d := range fileDrawers("w", other.Path, 2, "one") {
		want = append(want, d.ID)
	}
	for _, d := range fileDrawers("w", src.Path, 1, "two") {
		want = append(want, d.ID)
	}
	want = append(want, next[1].ID)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("drawers in seq order:\n%v\nwant\n%v", got, want)
	}
}

// The writer checkpoints the WAL every walAutocheckpoint pages, not
// SQLite's 1,000 (see walAutocheckpoint).
func TestWriterCheckpointLimit(t *testing.T) {
	s := openTemp(t)
	var n int
	if err := s.w.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != walAutocheckpoint {
		t.Errorf("wal_autocheckpoint %d, want %d", n, walAutocheckpoint)
	}
}
