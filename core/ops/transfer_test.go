package ops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// withoutModel keeps a palace from loading an embedding model: these tests do
// not embed.
func withoutModel(t *testing.T) palace.Options {
	return palace.Options{ModelDir: filepath.Join(t.TempDir(), "no-model")}
}

// fileNote files one note drawer in wing.
func fileNote(t *testing.T, p *palace.Palace, wing, text string) store.Drawer {
	t.Helper()
	h := store.ContentHash(text)
	d := store.Drawer{ID: store.DrawerID(wing, "note", 0, h), Wing: wing, Room: "general", Kind: store.KindNote,
		Source: "note", Content: text, ContentHash: h}
	if _, err := p.Store.InsertDrawers(context.Background(), []store.Drawer{d}); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestExportImport(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t, withoutModel(t))
	fileNote(t, a, "proj", "the release is on Friday")
	if _, err := kg.SetFunctional(ctx, a.Store, "leads", true); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res, err := Export(ctx, a, ExportRequest{}, &buf)
	if err != nil || res.Rows != 2 {
		t.Fatalf("export: %+v %v", res, err)
	}
	if _, err := Export(ctx, a, ExportRequest{Wing: "nope"}, discardWriter{}); Classify(err) != Invalid || !strings.Contains(err.Error(), "wing") {
		t.Errorf("export of an unknown wing: %v", err)
	}
	file := filepath.Join(t.TempDir(), "a.jsonl")
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	b := palacetest.OpenPalace(t, withoutModel(t))
	got, err := Import(ctx, b, ImportRequest{File: file})
	if err != nil || got.File != file || got.Added["setting"] != 1 || got.Added["drawer"] != 1 || len(got.Conflicts) != 0 {
		t.Fatalf("import: %+v %v", got, err)
	}
	if fn, _ := kg.Functional(ctx, b.Store); !strings.Contains(strings.Join(fn, " "), "leads") {
		t.Errorf("functional predicates after import: %v", fn)
	}
}

type discardWriter struct{}

func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }

func TestImportRefusals(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t, withoutModel(t))
	if _, err := Import(ctx, p, ImportRequest{File: " "}); Classify(err) != Invalid || !strings.HasPrefix(err.Error(), "file ") {
		t.Errorf("blank file: %v", err)
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "gone.jsonl")
	if _, err := Import(ctx, p, ImportRequest{File: missing}); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	body := `{"type":"header","format":"palace-export","version":2,"schema":1}` + "\n" +
		`{"type":"setting","row":{"key":"kg.functional","value":"[\"leads\"]"}}` + "\n" +
		`{"type":"drawer","row":` + "\n"
	if err := os.WriteFile(bad, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Import(ctx, p, ImportRequest{File: bad}); err == nil || !strings.Contains(err.Error(), bad+": line 3") {
		t.Errorf("malformed file: %v", err)
	}
	if _, set, _ := p.Store.KGFunctional(ctx); set {
		t.Error("a refused import wrote a setting")
	}
}

func TestRowKinds(t *testing.T) {
	want := []string{"setting", "taxonomy", "drawer", "entity", "triple", "proposal"}
	if strings.Join(RowKinds, " ") != strings.Join(want, " ") {
		t.Errorf("RowKinds %v, want %v", RowKinds, want)
	}
}

// A large import is one long transaction: it reports its progress.
func TestImportProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("files and imports 2,500 notes (about 7 s)")
	}
	ctx := context.Background()
	a := palacetest.OpenPalace(t, withoutModel(t))
	for i := range 2500 {
		fileNote(t, a, "proj", fmt.Sprintf("note number %d", i))
	}
	file := filepath.Join(t.TempDir(), "a.jsonl")
	var buf bytes.Buffer
	if _, err := Export(ctx, a, ExportRequest{}, &buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var calls [][2]int
	progress := func(done, total int) { calls = append(calls, [2]int{done, total}) }
	if _, err := Import(ctx, palacetest.OpenPalace(t, withoutModel(t)), ImportRequest{File: file, Progress: progress}); err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{0, 2500}, {1000, 2500}, {2000, 2500}, {2500, 2500}}
	if fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Errorf("progress calls %v, want %v", calls, want)
	}
}

// Salvage copies a palace into a new folder and checks it; it refuses a
// folder that holds anything.
func TestSalvage(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t, withoutModel(t))
	fileNote(t, a, "proj", "the release is on Friday")
	fileNote(t, a, "proj", "the freeze starts Thursday")
	into := filepath.Join(t.TempDir(), "new")
	res, err := Salvage(ctx, a, withoutModel(t), SalvageRequest{Into: into})
	if err != nil || res.Added["drawer"] != 2 || len(res.Unreadable) != 0 || !res.Doctor.OK || res.Into != into {
		t.Fatalf("salvage: %+v %v", res, err)
	}
	if entries, _ := os.ReadDir(into); len(entries) == 0 || strings.Contains(fmt.Sprint(entries), "salvage-") {
		t.Errorf("the new home holds %v, want a palace without the export", entries)
	}
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{into, full, a.Store.Home(), " "} {
		if _, err := Salvage(ctx, a, withoutModel(t), SalvageRequest{Into: dir}); Classify(err) != Invalid || !strings.HasPrefix(err.Error(), "into") {
			t.Errorf("salvage into %q: %v, want invalid into", dir, err)
		}
	}
}

// An import records Chinese text like any other write, so Chinese queries
// in the importing palace are segmented.
func TestImportRecordsHan(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t, withoutModel(t))
	fileNote(t, a, "proj", "我们在清华大学开会")
	var buf bytes.Buffer
	if _, err := Export(ctx, a, ExportRequest{}, &buf); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "a.jsonl")
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	b := palacetest.OpenPalace(t, withoutModel(t))
	if han, err := b.Store.HoldsHan(ctx); err != nil || han {
		t.Fatalf("a new palace holds Han text: %v %v", han, err)
	}
	if _, err := Import(ctx, b, ImportRequest{File: file}); err != nil {
		t.Fatal(err)
	}
	if han, err := b.Store.HoldsHan(ctx); err != nil || !han {
		t.Errorf("after importing Chinese, HoldsHan = %v %v", han, err)
	}
}
