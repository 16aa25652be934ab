package ops

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Every bad field of a mine is invalid input naming the field, on every
// front: `palace mine --mode bogus` exits 2 as `palace search --mode bogus`
// does.
func TestMineRequestValidate(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{})
	dir := writeTree(t, map[string]string{"a.md": "alpha\n"})
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		req   MineRequest
		field string
	}{
		{"blank path", MineRequest{Path: "  "}, "path"},
		{"long path", MineRequest{Path: "/" + strings.Repeat("a", MaxPathBytes)}, "path"},
		{"unknown mode", MineRequest{Path: dir, Mode: "bogus"}, "mode"},
		{"wing with a slash", MineRequest{Path: dir, Wing: "a/b"}, "wing"},
		{"default wing with a quote", MineRequest{Path: dir, DefaultWing: `a"b`}, "default_wing"},
		{"negative max size", MineRequest{Path: dir, MaxSize: -5}, "max_size"},
		{"negative max convo size", MineRequest{Path: dir, MaxConvoSize: -1}, "max_convo_size"},
		{"negative budget", MineRequest{Path: dir, EmbedBudget: -time.Second}, "embed_budget"},
		{"missing path", MineRequest{Path: filepath.Join(dir, "nope")}, "path"},
		{"not a file or folder", MineRequest{Path: fifo}, "path"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Mine(context.Background(), p, tt.req)
			var ie *input.Error
			if Classify(err) != Invalid || !errors.As(err, &ie) || ie.Field != tt.field {
				t.Errorf("Mine = %v (%s); want invalid input in %s", err, Classify(err), tt.field)
			}
			if res.Summary != nil && res.FilesMined != 0 {
				t.Errorf("a refused mine mined %d files", res.FilesMined)
			}
		})
	}
	for _, m := range append([]string{""}, MineModes...) {
		if err := (MineRequest{Path: dir, Mode: m}).Validate(); err != nil {
			t.Errorf("mode %q refused: %v", m, err)
		}
	}
}

// Mine is the whole job: the mine, then the embedding phase, unless the
// request skips it.
func TestMineThenEmbed(t *testing.T) {
	tiny, _ := filepath.Abs(filepath.Join("..", "embed", "testdata", "tiny"))
	cfg := embed.Config{ModelDir: tiny, Backend: embed.BackendGo, LibDirs: []string{}}
	p := palacetest.OpenPalace(t, palace.Options{Embed: &cfg})
	dir := writeTree(t, map[string]string{"a.md": "alpha words\n", "b.md": "beta words\n"})
	ctx := context.Background()
	res, err := Mine(ctx, p, MineRequest{Path: dir, NoVectors: true})
	if err != nil || res.FilesMined != 2 || res.Vectors != nil {
		t.Fatalf("no-vectors mine: %+v, %v", res, err)
	}
	var phases []string
	res, err = Mine(ctx, p, MineRequest{Path: dir,
		Progress:      func(int, int) { phases = append(phases, "mine") },
		EmbedProgress: func(int, int) { phases = append(phases, "embed") }})
	if err != nil || res.Vectors == nil || res.Vectors.Embedded != 2 || res.Vectors.Pending != 0 || res.FilesUnchanged != 2 {
		t.Fatalf("mine: %+v (vectors %+v), %v; want the two drawers of the first mine embedded now", res.Summary, res.Vectors, err)
	}
	if len(phases) == 0 || phases[0] != "mine" || phases[len(phases)-1] != "embed" {
		t.Errorf("progress by phase: %v", phases)
	}
}

// A partly readable export is mined (its valid part) and the result says
// so; it is not a failure.
func TestMineNoticesPartlyReadableExports(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{})
	line := `{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2025-09-02T08:14:55Z","message":{"role":"user","content":"hello there"}}`
	dir := writeTree(t, map[string]string{"s.jsonl": line + "\n{broken\n"})
	res, err := Mine(context.Background(), p, MineRequest{Path: dir, NoVectors: true})
	if err != nil || len(res.Errors) != 1 || !strings.Contains(res.Notice, "only partly readable") || !strings.Contains(res.Notice, "s.jsonl") {
		t.Errorf("Mine = %+v, %v; want a notice naming s.jsonl", res, err)
	}
}

// Files reports what became of each file asked about (an editor's saves).
func TestMineReportsFiles(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{})
	dir := writeTree(t, map[string]string{"a.md": "alpha\n", "palace.yaml": "wing: w\n", ".gitignore": "x.md\n", "x.md": "ignored\n"})
	a, cfg, x, gone := filepath.Join(dir, "a.md"), filepath.Join(dir, "palace.yaml"), filepath.Join(dir, "x.md"), filepath.Join(dir, "gone.md")
	res, err := Mine(context.Background(), p, MineRequest{Path: dir, NoVectors: true, Files: []string{a, cfg, x, gone}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]FileOutcome{a: {Drawers: 1}, cfg: {Skipped: mine.ReasonMetadata}, x: {Skipped: mine.ReasonIgnored}, gone: {Skipped: "deleted"}}
	for path, w := range want {
		if res.Files[path] != w {
			t.Errorf("%s: %+v, want %+v", filepath.Base(path), res.Files[path], w)
		}
	}
}

// retryBusy waits out a palace another connection is writing: SQLite's
// real "database is locked" error is retried until the lock goes, and a
// wait cancelled while busy is ErrBusy, nothing written.
func TestRetryBusyWaitsForAWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	holder, err := sql.Open("sqlite3", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.Exec(`CREATE TABLE t (v INTEGER)`); err != nil {
		t.Fatal(err)
	}
	// The writer retried gives up at once when the file is locked, so the
	// test need not wait out a busy timeout.
	writer, err := sql.Open("sqlite3", "file:"+path+"?_txlock=immediate&_busy_timeout=0")
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	write := func() (int, error) {
		_, err := writer.Exec(`INSERT INTO t (v) VALUES (1)`)
		return 1, err
	}
	hold := func() *sql.Tx {
		tx, err := holder.Begin()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO t (v) VALUES (0)`); err != nil {
			t.Fatal(err)
		}
		return tx
	}

	tx := hold()
	if _, err := write(); !store.IsBusy(err) {
		t.Fatalf("a write while another connection holds the lock: %v; want SQLite's busy error", err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		tx.Rollback()
	}()
	start := time.Now()
	if v, err := retryBusy(context.Background(), "test write", write); v != 1 || err != nil || time.Since(start) < 250*time.Millisecond {
		t.Errorf("retryBusy = %d, %v after %s; want the write done once the lock went", v, err, time.Since(start))
	}

	tx = hold()
	defer tx.Rollback()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = retryBusy(ctx, "test write", write)
	if Classify(err) != Busy || !strings.Contains(err.Error(), "test write") || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("busy until the context ended: %v (%s); want ErrBusy naming the write", err, Classify(err))
	}

	other := errors.New("disk on fire")
	if _, err := retryBusy(context.Background(), "test", func() (int, error) { return 0, other }); err != other {
		t.Errorf("a non-busy error must pass through unchanged: %v", err)
	}
}

// Open waits for a palace another process is creating or migrating, like
// any write, and resolves the home as every front does.
func TestOpen(t *testing.T) {
	home := t.TempDir()
	p, err := Open(context.Background(), home, palace.Options{Actor: "lsp"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Store.Home() != home {
		t.Errorf("opened %s, want %s", p.Store.Home(), home)
	}
}
