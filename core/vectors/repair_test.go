package vectors

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Vectors lost from the index are found by the check, and Repair embeds
// them again with the palace's model.
func TestRepairRefillsLostVectors(t *testing.T) {
	ctx := context.Background()
	dir, err := filepath.Abs(filepath.Join("..", "embed", "testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := embed.Config{ModelDir: dir, Backend: embed.BackendGo, LibDirs: []string{}}
	home := t.TempDir()
	p, err := palace.Open(home, palace.Options{Embed: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var ds []store.Drawer
	for i, c := range []string{"the parser leaks goroutines", "a cache for query vectors", "build scripts and filler"} {
		h := store.ContentHash(c)
		ds = append(ds, store.Drawer{ID: store.DrawerID("w", "notes", i, h), Wing: "w", Room: "r", Kind: store.KindNote,
			Source: "notes", Content: c, ContentHash: h})
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if sum, err := Fill(ctx, p, Options{}); err != nil || sum.Embedded != 3 {
		t.Fatalf("fill: %+v %v", sum, err)
	}
	// Lose two vectors behind the store's back, as damage would.
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(home, store.DBName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DELETE FROM vec_drawers WHERE drawer_seq IN (1, 2)`); err != nil {
		t.Fatal(err)
	}
	cs, err := p.Store.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	vec := slices.IndexFunc(cs, func(c store.HealthCheck) bool { return c.Name == "vectors" })
	if fmt.Sprint(store.FailedChecks(cs)) != "[vectors]" || vec < 0 || !strings.Contains(cs[vec].Detail, "2 drawers marked as embedded have no vector") {
		t.Fatalf("checks after the damage: %+v", cs)
	}
	res, err := Repair(ctx, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.VectorsUnmarked != 2 || res.Vectors.Embedded != 2 || res.Vectors.Pending != 0 {
		t.Errorf("repair: %+v", res)
	}
	if vi, _ := p.Store.VecInfo(ctx); vi.Vectors != 3 || vi.Pending != 0 {
		t.Errorf("after repair: %+v", vi)
	}
	near, err := Nearest(ctx, p, "the parser leaks goroutines", store.Filter{}, 1)
	if err != nil || len(near) != 1 || near[0].Content != "the parser leaks goroutines" || near[0].Similarity < 0.999 {
		t.Errorf("nearest after repair: %+v %v", near, err)
	}
}

// A palace mined before cjk.IndexVersion 2 holds index text whose
// sub-words straddle word boundaries (识图 in 知识图谱). Repair rewrites it
// once, without the source text, and records the version.
func TestRepairResegmentsChinese(t *testing.T) {
	ctx := context.Background()
	p, err := palace.Open(t.TempDir(), palace.Options{Embed: &embed.Config{LibDirs: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	content := "我们决定使用知识图谱。"
	h := store.ContentHash(content)
	d := store.Drawer{ID: store.DrawerID("w", "notes", 0, h), Wing: "w", Room: "r", Kind: store.KindNote,
		Source: "notes", Content: content, ContentHash: h,
		IndexText: "我们 决定 使用 知识 识图 图谱 知识图谱 。"} // as version 1 wrote it
	if _, err := p.Store.InsertDrawers(ctx, []store.Drawer{d}); err != nil {
		t.Fatal(err)
	}
	found := func(word string) bool {
		hits, err := p.Store.SearchFTS(ctx, `"`+word+`"`, store.Filter{}, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		return len(hits) == 1
	}
	if !found("识图") {
		t.Fatal("the version 1 index does not hold 识图: the test no longer shows the old state")
	}
	res, err := Repair(ctx, p, Options{})
	if err != nil || !res.OK || res.Resegmented != 1 {
		t.Fatalf("repair: %+v, %v", res, err)
	}
	if found("识图") || !found("图谱") || !found("知识图谱") || !found("知识") {
		t.Errorf("after repair: 识图 %v, 图谱 %v, 知识图谱 %v, 知识 %v; want only the words found",
			found("识图"), found("图谱"), found("知识图谱"), found("知识"))
	}
	if v, _, _ := p.Store.Meta(ctx, palace.MetaCJKIndex); v != "2" {
		t.Errorf("index version after repair: %q", v)
	}
	if res, err := Repair(ctx, p, Options{}); err != nil || res.Resegmented != 0 {
		t.Errorf("second repair: %+v, %v; want nothing re-segmented", res, err)
	}
}
