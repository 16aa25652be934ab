package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
)

// purgeSecret is a word no filler shares a prefix with, so FTS5's prefix
// compression of terms cannot hide it from a byte search.
const purgeSecret = "qqpurgemesecretqq"

// purgeVector is the purged drawer's embedding: its bytes are distinctive
// enough to look for in the file.
var purgeVector = []float32{0.123456, 0.654321, 0.111111, 0.777777}

// purgePalace holds a mined file of three chunks, the second holding
// purgeSecret, plus filler drawers (enough to give the full-text index
// several segments), every drawer with a vector.
func purgePalace(t *testing.T) (*Store, Source, []Drawer) {
	t.Helper()
	ctx := context.Background()
	s := openTemp(t)
	var filler []Drawer
	for i := range 300 {
		filler = append(filler, drawer("w", fmt.Sprintf("/p/filler%d", i), 0, fmt.Sprintf("filler text number %d about apples and pears", i)))
	}
	for i := 0; i < len(filler); i += 50 {
		// Separate transactions make separate FTS5 segments.
		if _, err := s.InsertDrawers(ctx, filler[i:i+50]); err != nil {
			t.Fatal(err)
		}
	}
	src := Source{Wing: "w", Path: "/p/config.md", Kind: KindFile, ContentHash: "h1", Size: 1, Mtime: 1, Redacted: true}
	chunks := []Drawer{
		drawer("w", src.Path, 0, "# Config\nhow to connect"),
		// Longer than a page, so the row has overflow pages too.
		drawer("w", src.Path, 1, strings.Repeat("lorem ipsum ", 400)+"the prod db password is "+purgeSecret+" do not share"+strings.Repeat(" dolor sit", 400)),
		drawer("w", src.Path, 2, "the end of the config notes"),
	}
	if _, err := s.ApplySources(ctx, []SourceUpdate{{Source: src, Drawers: chunks}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnsureVectors(ctx, "m1", len(purgeVector)); err != nil {
		t.Fatal(err)
	}
	ps, err := s.PendingVectors(ctx, "m1", 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	vs := make([][]float32, len(ps))
	for i, p := range ps {
		vs[i] = []float32{0.5, 0.5, 0.5, 0.5}
		if p.ID == chunks[1].ID {
			vs[i] = purgeVector
		}
	}
	if _, err := s.PutVectors(ctx, "m1", ps, vs); err != nil {
		t.Fatal(err)
	}
	return s, src, chunks
}

// fileHolds reports whether the palace's database file or its WAL holds
// needle, as it is or in ASCII lower case (FTS5 stores words lower-cased).
func fileHolds(t *testing.T, s *Store, needle []byte) bool {
	t.Helper()
	for _, p := range []string{s.path, s.path + "-wal"} {
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, needle) || bytes.Contains(asciiLower(b), asciiLower(needle)) {
			return true
		}
	}
	return false
}

// asciiLower lower-cases ASCII letters only: bytes.ToLower would read the
// file as UTF-8 and change its length.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func vectorBytes(t *testing.T) []byte {
	t.Helper()
	b, err := sqlitevec.SerializeFloat32(purgeVector)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exported(t *testing.T, s *Store) string {
	t.Helper()
	var b strings.Builder
	_, err := s.ExportRows(context.Background(), "", func(r Row) error {
		j, err := json.Marshal(r)
		b.Write(j)
		b.WriteByte('\n')
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// wantPurged checks that nothing of the purged drawer's content is left:
// not in its row, the full-text index, the vectors, an export or the file.
func wantPurged(t *testing.T, s *Store, id string) {
	t.Helper()
	ctx := context.Background()
	d, err := s.GetDrawer(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if d.PurgedAt == nil || d.DeletedAt == nil || d.Content != "" || d.IndexText != "" || d.Metadata != "{}" {
		t.Errorf("purged drawer: purged %v deleted %v content %q index %q metadata %s", d.PurgedAt, d.DeletedAt, d.Content, d.IndexText, d.Metadata)
	}
	if n := count(t, s, purgeSecret); n != 0 {
		t.Errorf("search still finds the purged word: %d hits", n)
	}
	var vecs int
	if err := s.r.QueryRow(`SELECT count(*) FROM vec_drawers WHERE drawer_seq = ?`, seqOf(t, s, id)).Scan(&vecs); err != nil {
		t.Fatal(err)
	}
	if vecs != 0 {
		t.Error("the purged drawer still has a vector")
	}
	if e := exported(t, s); strings.Contains(e, purgeSecret) {
		t.Error("the export carries the purged content")
	} else if !strings.Contains(e, id) || !strings.Contains(e, `"purged_at"`) {
		t.Error("the export does not carry the tombstone")
	}
	if fileHolds(t, s, []byte(purgeSecret)) {
		t.Error("the database file still holds the purged word")
	}
	if fileHolds(t, s, vectorBytes(t)) {
		t.Error("the database file still holds the purged drawer's vector")
	}
	wantHealthy(t, s, "after a purge")
	es := auditEntries(t, s)
	last := es[len(es)-1]
	if last.Op != "drawer.purge" || len(last.IDs) != 1 || last.IDs[0] != id || last.Hash != "" || last.Size != 0 {
		t.Errorf("audit line of the purge: %+v", last)
	}
}

func TestPurgeErasesContent(t *testing.T) {
	ctx := context.Background()
	s, _, chunks := purgePalace(t)
	if !fileHolds(t, s, []byte(purgeSecret)) || !fileHolds(t, s, vectorBytes(t)) {
		t.Fatal("the test cannot see the content or vector in the file before the purge")
	}
	at, already, err := s.PurgeDrawer(ctx, chunks[1].ID)
	if err != nil || already || at.IsZero() {
		t.Fatalf("purge: already %v, %v", already, err)
	}
	wantPurged(t, s, chunks[1].ID)
	if n := count(t, s, "config"); n != 2 {
		t.Errorf("the other chunks of the file: %d hits, want 2", n)
	}
	d, _ := s.GetDrawer(ctx, chunks[1].ID)
	if d.ContentHash != chunks[1].ContentHash {
		t.Error("a mined drawer's tombstone lost its content hash, which keeps a re-mine from bringing it back")
	}
	lines := len(auditEntries(t, s))
	if again, already, err := s.PurgeDrawer(ctx, chunks[1].ID); err != nil || !already || !again.Equal(at) {
		t.Errorf("second purge: already %v at %v (first %v), %v", already, again, at, err)
	}
	if n := len(auditEntries(t, s)); n != lines {
		t.Errorf("a second purge wrote %d audit lines", n-lines)
	}
	if _, _, err := s.PurgeDrawer(ctx, "d_nosuch"); !errors.Is(err, ErrNotFound) {
		t.Errorf("purge of an unknown id: %v", err)
	}
}

// A drawer forgotten first left its words in the index's older segments;
// purging it must still erase them.
func TestPurgeAfterForget(t *testing.T) {
	ctx := context.Background()
	s, _, chunks := purgePalace(t)
	if err := s.DeleteDrawer(ctx, chunks[1].ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PurgeDrawer(ctx, chunks[1].ID); err != nil {
		t.Fatal(err)
	}
	wantPurged(t, s, chunks[1].ID)
}

func TestPurgedChunkNotMinedAgain(t *testing.T) {
	ctx := context.Background()
	s, src, chunks := purgePalace(t)
	if _, _, err := s.PurgeDrawer(ctx, chunks[1].ID); err != nil {
		t.Fatal(err)
	}
	// The file changed above the secret: every chunk moves one position,
	// so the secret's chunk gets another id but keeps its content.
	src.ContentHash, src.Mtime = "h2", 2
	moved := []Drawer{
		drawer("w", src.Path, 0, "# Config, edited"),
		drawer("w", src.Path, 1, chunks[0].Content),
		drawer("w", src.Path, 2, chunks[1].Content),
		drawer("w", src.Path, 3, chunks[2].Content),
	}
	res, err := s.ApplySources(ctx, []SourceUpdate{{Source: src, Drawers: moved}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 3 {
		t.Errorf("re-mine added %d drawers, want 3 (the purged chunk skipped)", res.Added)
	}
	if n := count(t, s, purgeSecret); n != 0 {
		t.Fatalf("a re-mine brought the purged chunk back (%d hits)", n)
	}
	if _, err := s.GetDrawer(ctx, chunks[1].ID); err != nil {
		t.Errorf("the re-mine removed the tombstone: %v", err)
	}
	// Gone from disk and back: the tombstone outlives the prune.
	if _, err := s.PruneSources(ctx, "w", []string{src.Path}); err != nil {
		t.Fatal(err)
	}
	src.ContentHash = "h3"
	if _, err := s.ApplySources(ctx, []SourceUpdate{{Source: src, Drawers: moved}}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, purgeSecret); n != 0 {
		t.Fatalf("the file came back and so did the purged chunk (%d hits)", n)
	}

	// The user asks for it back: the next mine writes it again.
	if err := s.UnpurgeDrawer(ctx, chunks[1].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetDrawer(ctx, chunks[1].ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the tombstone stayed after unpurge: %v", err)
	}
	srcs, err := s.Sources(ctx, "w", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := srcs[src.Path]; got.Mtime != 0 || got.ContentHash != "" {
		t.Errorf("unpurge left the source looking unchanged (%+v): the next mine would skip it", got)
	}
	if _, err := s.ApplySources(ctx, []SourceUpdate{{Source: src, Drawers: moved}}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, purgeSecret); n != 1 {
		t.Errorf("after unpurge the re-mine did not bring the chunk back (%d hits)", n)
	}
	if err := s.UnpurgeDrawer(ctx, moved[2].ID); !errors.Is(err, ErrNotPurged) {
		t.Errorf("unpurge of a live drawer: %v", err)
	}
	wantHealthy(t, s, "after unpurge and re-mine")
}

func TestPurgeNote(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	n := drawer("w", "note", 0, "remember "+purgeSecret)
	n.Kind = KindNote
	if _, err := s.InsertNote(ctx, n, true); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PurgeDrawer(ctx, n.ID); err != nil {
		t.Fatal(err)
	}
	d, err := s.GetDrawer(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Content != "" || d.ContentHash != "" {
		t.Errorf("a purged note keeps content %q or hash %q; nothing is mined from a note, so it needs neither", d.Content, d.ContentHash)
	}
	if err := s.UnpurgeDrawer(ctx, n.ID); err == nil || errors.Is(err, ErrNotPurged) {
		t.Errorf("unpurge of a note: %v, want a refusal (no source to mine it from)", err)
	}
	if fileHolds(t, s, []byte(purgeSecret)) {
		t.Error("the database file still holds the purged note")
	}
}

// A conversation drawer's index text ends with the exchange before it;
// purging that exchange cuts it off, line-bounded, and nothing else.
func TestCutContext(t *testing.T) {
	for _, c := range []struct {
		index, purged, want string
		ok                  bool
	}{
		{"user: b\n\nassistant: c\nuser: a secret", "user: a secret\nuser: z", "user: b\n\nassistant: c", true},
		{"user: b\nuser: a secret\n\nassistant: ok", "user: a secret\n\nassistant: ok", "user: b", true},
		// The first exchange has no context of its own.
		{"user: b\nuser: a secret", "user: a secret", "user: b", true},
		// A start of the purged text that ends inside a line is no context.
		{"user: b\nuser: a sec", "user: a secret", "user: b\nuser: a sec", false},
		{"user: b", "user: a secret", "user: b", false},
		{"", "x", "", false},
	} {
		got, ok := cutContext(c.index, c.purged)
		if got != c.want || ok != c.ok {
			t.Errorf("cutContext(%q, %q) = %q, %v; want %q, %v", c.index, c.purged, got, ok, c.want, c.ok)
		}
	}
}
