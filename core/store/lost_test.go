package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/audit"
)

// lostPalace writes a palace of n drawers at a new home (each insert an
// audited write), closes it and returns the home and each drawer's
// content by id.
func lostPalace(t *testing.T, n int) (string, map[string]string) {
	t.Helper()
	home := t.TempDir()
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	var batch []Drawer
	for i := range n {
		d := drawer("proj", fmt.Sprintf("notes/f%05d.md", i), 0,
			fmt.Sprintf("drawer %d says %s", i, strings.Repeat("alpha beta gamma ", 8)))
		want[d.ID] = d.Content
		if batch = append(batch, d); len(batch) == 500 || i == n-1 {
			if _, err := s.InsertDrawers(context.Background(), batch); err != nil {
				t.Fatal(err)
			}
			batch = nil
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return home, want
}

// snapshot is every file under dir with its bytes: what a refused open
// must leave exactly as it was.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameFiles(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, b := range before {
		if a, ok := after[p]; !ok || a != b {
			t.Errorf("%s changed %s (present %v)", what, p, ok)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s created %s", what, p)
		}
	}
}

// A palace database emptied, deleted or replaced by a database without
// tables, beside an audit log of committed writes, is lost, not new:
// Open and CheckExists refuse it with ErrLostPalace, naming the log's
// count and last write and how to recover, and nothing under the home
// changes (no schema, no WAL, no audit correction).
func TestLostPalaceIsRefused(t *testing.T) {
	for _, c := range []struct {
		name, state string
		damage      func(t *testing.T, path string)
	}{
		{"empty", "is empty (0 bytes)", func(t *testing.T, path string) {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
		}},
		{"missing", "does not exist", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}},
		{"no tables", "holds no tables", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			db, err := sql.Open("sqlite3", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`VACUUM`); err != nil { // writes the header of an empty database
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			home, _ := lostPalace(t, 3)
			c.damage(t, filepath.Join(home, DBName))
			n, _, err := audit.ReadOnly(home).Committed()
			if err != nil || n != 1 {
				t.Fatalf("the audit log records %d committed writes (%v); want the one insert", n, err)
			}
			before := snapshot(t, home)
			for name, open := range map[string]func() error{
				"Open":        func() error { s, err := Open(home); closeIf(s); return err },
				"CheckExists": func() error { return CheckExists(home) },
				"OpenForCheck": func() error {
					s, err := OpenForCheck(home)
					closeIf(s)
					return err
				},
			} {
				err := open()
				if !errors.Is(err, ErrLostPalace) {
					t.Fatalf("%s: %v; want ErrLostPalace", name, err)
				}
				for _, say := range []string{c.state, "records committed writes (1;", "drawer.add", "backup", "import", "palace repair --into"} {
					if !strings.Contains(err.Error(), say) {
						t.Errorf("%s: %q does not say %q", name, err, say)
					}
				}
			}
			sameFiles(t, "a refused open", before, snapshot(t, home))
		})
	}
}

func closeIf(s *Store) {
	if s != nil {
		s.Close()
	}
}

// A database without tables whose WAL holds frames is read through SQLite
// before the migration, which would create the schema: with committed
// writes in the log it is lost as well.
func TestSchemaLostBehindWAL(t *testing.T) {
	home, _ := lostPalace(t, 1)
	path := filepath.Join(home, DBName)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	// A connection kept open keeps its WAL, with the frames of a table
	// created and dropped: the file's own page 1 is then no evidence.
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{`CREATE TABLE t (x)`, `DROP TABLE t`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("no WAL frames to test with: %v", err)
	}
	s, err := Open(home)
	closeIf(s)
	if !errors.Is(err, ErrLostPalace) || !strings.Contains(err.Error(), "holds no tables") {
		t.Fatalf("Open: %v; want ErrLostPalace, holds no tables", err)
	}
	var tables int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&tables); err != nil || tables != 0 {
		t.Errorf("the lost palace's file holds %d objects (%v): a schema was created", tables, err)
	}
}

// A new home is not lost: without an audit log, or with one recording
// only writes that never committed, Open creates the palace.
func TestNewPalaceIsNotLost(t *testing.T) {
	for name, lines := range map[string][]audit.Entry{
		"no log": nil,
		"failed and corrected writes only": {
			{Op: "drawer.add", Status: audit.Failed, Error: "locked"},
			{Seq: 1, Op: "drawer.add", Status: audit.Applied},
			{Op: "repair", Status: audit.Failed, Corrects: 1},
		},
	} {
		t.Run(name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "new")
			if lines != nil {
				l, err := audit.Open(home)
				if err != nil {
					t.Fatal(err)
				}
				if err := l.Append(lines...); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Open(home)
			if err != nil {
				t.Fatalf("Open of a new home: %v", err)
			}
			defer s.Close()
			if _, err := s.InsertDrawers(context.Background(), []Drawer{drawer("w", "a.md", 0, "hello")}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A palace file cut to half is damaged, not unreadable: Open refuses it
// with ErrDamagedPalace and changes nothing, and ReadableCopy gives SQLite
// a copy it reads: every drawer whose pages the half still holds comes
// back exactly as written (opened in place, SQLite refuses the whole file
// and a salvage read none). A whole palace needs no copy.
func TestTruncatedPalaceIsDamagedAndReadable(t *testing.T) {
	home, want := lostPalace(t, 3000)
	path := filepath.Join(home, DBName)
	dir := t.TempDir()
	if copied, err := ReadableCopy(home, dir); err != nil || copied {
		t.Fatalf("ReadableCopy of a whole palace: %v %v; want no copy", copied, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, home)
	s, err := Open(home)
	closeIf(s)
	if !errors.Is(err, ErrDamagedPalace) || !strings.Contains(err.Error(), "pages its header records") ||
		!strings.Contains(err.Error(), "palace repair --into") {
		t.Fatalf("Open of a palace cut to half: %v; want ErrDamagedPalace saying how much is left and how to salvage", err)
	}
	sameFiles(t, "a refused open", before, snapshot(t, home))

	if copied, err := ReadableCopy(home, dir); err != nil || !copied {
		t.Fatalf("ReadableCopy: %v %v", copied, err)
	}
	sameFiles(t, "ReadableCopy", before, snapshot(t, home))
	c, err := OpenForCheck(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := 0
	if _, err := c.ExportRows(context.Background(), "", func(r Row) error {
		if r.Kind != "drawer" {
			return nil
		}
		id, _ := r.Cols["id"].(string)
		if content, ok := want[id]; !ok || r.Cols["content"] != content {
			t.Errorf("drawer %q read back as %q", id, r.Cols["content"])
		}
		got++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Drawers fill most of the file's pages, so a half keeps over a
	// third of them.
	if got < len(want)/3 || got >= len(want) {
		t.Errorf("read %d of %d drawers from a palace cut to half", got, len(want))
	}
	t.Logf("read %d of %d drawers from a palace cut to half", got, len(want))
}
