package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// The Han flag is what keeps a Chinese query in a palace without Chinese
// from loading the segmenter: every way Han text reaches the index sets it.
func TestHoldsHan(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	holds := func() bool {
		t.Helper()
		ok, err := s.HoldsHan(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if holds() {
		t.Fatal("a fresh palace holds Han text")
	}
	if _, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "a.go", 0, "plain English, ｆｕｌｌｗｉｄｔｈ, かな、カナ。한국어")}); err != nil {
		t.Fatal(err)
	}
	if holds() {
		t.Fatal("a palace without Han text says it holds some")
	}
	d := drawer("w", "b.md", 0, "我爱北京天安门")
	d.IndexText = "我 爱 北京 天安门"
	if _, err := s.InsertDrawers(ctx, []Drawer{d}); err != nil {
		t.Fatal(err)
	}
	if !holds() {
		t.Fatal("a drawer with Han text did not set the flag")
	}
}

// A palace with drawers from before the flag counts as holding Han until
// RecordHan has read it; an import sets the flag like any write.
func TestHoldsHanAfterMigration(t *testing.T) {
	for name, content := range map[string]string{"han": "认证中间件", "extension B": "\U00020000", "none": "no Chinese, かな、한국어"} {
		home := t.TempDir()
		db, err := sql.Open("sqlite3", "file:"+filepath.Join(home, DBName))
		if err != nil {
			t.Fatal(err)
		}
		if err := migrateTo(context.Background(), db, 6); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO drawers (id, wing, room, kind, source, content, content_hash, created_at)
			VALUES ('d1', 'w', 'r', 'file', 's', ?, 'h', '2026-01-01T00:00:00Z')`, content); err != nil {
			t.Fatal(err)
		}
		db.Close()
		s, err := Open(home)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		unknown, err := s.HoldsHan(ctx)
		if err != nil || !unknown {
			t.Errorf("%s: HoldsHan = %v, %v before a scan, want true (unknown)", name, unknown, err)
		}
		if err := s.RecordHan(ctx); err != nil {
			t.Fatal(err)
		}
		ok, err := s.HoldsHan(ctx)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := name != "none"; ok != want {
			t.Errorf("%s: HoldsHan = %v after RecordHan, want %v", name, ok, want)
		}
	}
}
