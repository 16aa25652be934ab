package store

import (
	"context"
	"testing"
)

// Sources mined before v5 kept their secrets (redaction did not exist), so
// they read as not redacted, and the next default mine redoes them.
func TestMigrationMarksOldSourcesNotRedacted(t *testing.T) {
	ctx := context.Background()
	s := openFrom(t, 4, `INSERT INTO sources (wing, path, kind, content_hash, mtime, size, drawers, mined_at)
		VALUES ('w', '/p/.env', 'file', 'h', 1, 2, 1, '2026-01-01T00:00:00Z')`)
	srcs, err := s.Sources(ctx, "w", "")
	if err != nil {
		t.Fatal(err)
	}
	if src, ok := srcs["/p/.env"]; !ok || src.Redacted {
		t.Fatalf("old source after migration: %+v (found %v), want it kept and not redacted", src, ok)
	}
}

// ApplySources records the mode, replaces it on a new mine, and a touch
// (same content) leaves it alone.
func TestApplySourcesRecordsRedaction(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	redacted := func() bool {
		t.Helper()
		srcs, err := s.Sources(ctx, "w", "")
		if err != nil {
			t.Fatal(err)
		}
		return srcs["/p/a.txt"].Redacted
	}
	src := Source{Wing: "w", Path: "/p/a.txt", Kind: KindFile, ContentHash: "h1", Size: 1, Mtime: 1, Redacted: true}
	apply := func(u SourceUpdate) {
		t.Helper()
		if _, err := s.ApplySources(ctx, []SourceUpdate{u}); err != nil {
			t.Fatal(err)
		}
	}
	apply(SourceUpdate{Source: src, Drawers: []Drawer{drawer("w", "/p/a.txt", 0, "[REDACTED:env-secret]")}})
	if !redacted() {
		t.Fatal("a redacted mine is not recorded as one")
	}
	src.Redacted = false
	apply(SourceUpdate{Source: src, Drawers: []Drawer{drawer("w", "/p/a.txt", 0, "the secret itself")}})
	if redacted() {
		t.Fatal("a mine that kept secrets is recorded as redacted")
	}
	src.Mtime, src.Redacted = 2, true
	apply(SourceUpdate{Source: src, Touch: true})
	if redacted() {
		t.Error("a touch changed the recorded mode; it only moves size and mtime")
	}
}
