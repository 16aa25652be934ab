package search_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

// With the tiny test model the palace searches in hybrid mode, and without
// a model it falls back to lexical with a notice.
func TestHybridWithTinyModel(t *testing.T) {
	ctx := context.Background()
	p := openTinyPalace(t)
	var ds []store.Drawer
	for i, text := range []string{"the parser leaks goroutines", "a cache for query vectors", "filler text", "more filler"} {
		h := store.ContentHash(text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("w", "s", i, h), Wing: "w", Room: "r", Kind: store.KindNote, Source: "s", Content: text, ContentHash: h})
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	res, err := search.Run(ctx, p, search.Request{Query: "parser goroutines"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != search.ModeLexical || res.Notice == "" {
		t.Errorf("before any vector: mode %s notice %q, want lexical with a notice", res.Mode, res.Notice)
	}
	sum, err := vectors.Fill(ctx, p, vectors.Options{})
	if err != nil || sum.Embedded != 4 || sum.Pending != 0 {
		t.Fatalf("fill: %+v %v", sum, err)
	}
	res, err = search.Run(ctx, p, search.Request{Query: "parser goroutines"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != search.ModeHybrid || len(res.Hits) != 4 {
		t.Fatalf("mode %s, %d hits; want hybrid over all 4 drawers", res.Mode, len(res.Hits))
	}
	top := res.Hits[0]
	if top.Content != "the parser leaks goroutines" || top.Scores == nil || top.Scores.BM25 == nil || top.Scores.Vector == nil {
		t.Errorf("top hit should carry both scores: %+v", top)
	}
	res, err = search.Run(ctx, p, search.Request{Query: "parser goroutines", Mode: search.ModeVector, Limit: 2})
	if err != nil || res.Mode != search.ModeVector || len(res.Hits) != 2 || res.Hits[0].Scores.BM25 != nil {
		t.Errorf("vector mode: %+v %v", res, err)
	}
	// A second fill has nothing to do: unchanged drawers are never re-embedded.
	if sum, _ := vectors.Fill(ctx, p, vectors.Options{}); sum.Embedded != 0 {
		t.Errorf("second fill embedded %d", sum.Embedded)
	}
}

func TestVectorModeWithoutModel(t *testing.T) {
	cfg := embed.Config{LibDirs: []string{}}
	p, err := palace.Open(t.TempDir(), palace.Options{Embed: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := search.Run(context.Background(), p, search.Request{Query: "x", Mode: search.ModeVector}); err == nil {
		t.Error("vector mode without a model should fail clearly")
	}
	if _, err := search.Run(context.Background(), p, search.Request{Query: "x", Mode: "fuzzy"}); err == nil {
		t.Error("unknown mode accepted")
	}
}

// openTinyPalace opens a palace in a temporary folder that embeds with the
// tiny test model (pure-Go backend), closed when the test ends.
func openTinyPalace(t *testing.T) *palace.Palace {
	t.Helper()
	tiny, err := filepath.Abs(filepath.Join("..", "embed", "testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := embed.Config{ModelDir: tiny, Backend: embed.BackendGo, LibDirs: []string{}}
	p := palacetest.OpenPalace(t, palace.Options{Embed: &cfg})
	return p
}
