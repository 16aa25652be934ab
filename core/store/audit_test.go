package store

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/audit"
)

func auditEntries(t *testing.T, s *Store) []audit.Entry {
	t.Helper()
	es, err := s.AuditLog().Read(audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// Every write path leaves exactly one line; writes that change nothing
// leave none; a failed write is marked failed.
func TestAuditOneLinePerWrite(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	s.SetActor("mcp", "claude-code")
	d := drawer("w", "note", 0, "remember this")
	steps := []struct {
		op  string
		run func() error
	}{
		{"drawer.add", func() error { _, err := s.InsertDrawers(ctx, []Drawer{d}); return err }},
		{"drawer.delete", func() error { return s.DeleteDrawer(ctx, d.ID) }},
		{"source.replace", func() error {
			_, err := s.ApplySources(ctx, []SourceUpdate{{Source: Source{Wing: "w", Path: "/p/a", Kind: KindFile, ContentHash: "h"}, Drawers: []Drawer{drawer("w", "/p/a", 0, "x")}}})
			return err
		}},
		{"source.prune", func() error { _, err := s.PruneSources(ctx, "w", []string{"/p/a"}); return err }},
		{"taxonomy.replace", func() error { return s.ReplaceTaxonomy(ctx, "w", []Room{{Room: "r"}}) }},
		{"taxonomy.set", func() error { return s.SetRoom(ctx, Room{Wing: "w", Room: "s"}) }},
		{"taxonomy.rm", func() error { _, err := s.RemoveRoom(ctx, "w", "s"); return err }},
	}
	for i, st := range steps {
		if err := st.run(); err != nil {
			t.Fatalf("%s: %v", st.op, err)
		}
		es := auditEntries(t, s)
		if len(es) != i+1 {
			t.Fatalf("after %s: %d lines, want %d", st.op, len(es), i+1)
		}
		e := es[i]
		if e.Op != st.op || e.Status != audit.Applied || e.Actor != "mcp" || e.Client != "claude-code" || e.Seq != int64(i+1) {
			t.Errorf("line for %s: %+v", st.op, e)
		}
	}
	// Nothing changed: no line.
	if _, err := s.InsertDrawers(ctx, []Drawer{d}); err != nil {
		t.Fatal(err)
	}
	if n := len(auditEntries(t, s)); n != len(steps) {
		t.Errorf("a no-op insert left a line (%d lines)", n)
	}
	// A failing write: one line, marked failed.
	if err := s.DeleteDrawer(ctx, "d_nope"); err == nil {
		t.Fatal("want an error")
	}
	es := auditEntries(t, s)
	if last := es[len(es)-1]; len(es) != len(steps)+1 || last.Status != audit.Failed || !strings.Contains(last.Error, "not found") {
		t.Errorf("failed write: %+v", last)
	}
	// The log never holds content.
	b, _ := os.ReadFile(s.AuditLog().Path())
	if strings.Contains(string(b), "remember this") {
		t.Error("the audit log holds drawer content")
	}
	if fi, _ := os.Stat(s.AuditLog().Path()); fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v", fi.Mode().Perm())
	}
}

// A line whose write never committed (the process died in between) reads
// as failed once the next write has run.
func TestAuditCorrectsUncommitted(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "a", 0, "one")}); err != nil {
		t.Fatal(err)
	}
	// What a crash between the append and the commit leaves behind.
	if err := s.AuditLog().Append(audit.Entry{Seq: 2, Op: "drawer.add", Actor: "cli", Status: audit.Applied, IDs: []string{"d_ghost"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "b", 0, "two")}); err != nil {
		t.Fatal(err)
	}
	es := auditEntries(t, s)
	if len(es) != 3 {
		t.Fatalf("%d entries: %+v", len(es), es)
	}
	if es[1].IDs[0] != "d_ghost" || es[1].Status != audit.Failed {
		t.Errorf("the uncommitted write still looks applied: %+v", es[1])
	}
	if es[2].Seq != 3 || es[2].Status != audit.Applied {
		t.Errorf("the next write reused a sequence number: %+v", es[2])
	}
}

// When the log cannot be written, nothing is written to the palace either.
func TestAuditFailureWritesNothing(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := os.Remove(s.AuditLog().Path()); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.Mkdir(s.AuditLog().Path(), 0o700); err != nil { // a directory where the file should be
		t.Fatal(err)
	}
	if _, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "a", 0, "one")}); err == nil {
		t.Fatal("insert succeeded without an audit log")
	}
	if st, _ := s.Status(ctx); st.Drawers != 0 {
		t.Errorf("%d drawers written without an audit line", st.Drawers)
	}
}
