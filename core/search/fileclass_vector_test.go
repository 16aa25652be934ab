package search_test

import (
	"context"
	"testing"

	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

// The vector side is demoted like BM25's: in vector and hybrid modes a
// test holding the query's very words still ranks below the source.
func TestTestsRankBelowSourceInVectorModes(t *testing.T) {
	ctx := context.Background()
	p := openTinyPalace(t)
	var ds []store.Drawer
	for i, f := range []struct{ source, text string }{
		{"/r/parse/parser_test.go", "parser goroutines"},
		{"/r/parse/parser.go", "the parser leaks goroutines when a read fails"},
		{"/r/build/notes.txt", "filler text"},
	} {
		h := store.ContentHash(f.text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("w", f.source, i, h), Wing: "w", Room: "r", Kind: store.KindFile,
			Source: f.source, Content: f.text, ContentHash: h, LineStart: 1, LineEnd: 1})
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if _, err := vectors.Fill(ctx, p, vectors.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{search.ModeVector, search.ModeHybrid} {
		res, err := search.Run(ctx, p, search.Request{Query: "parser goroutines", Mode: mode, NoRoute: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) < 2 || res.Hits[0].Source != "/r/parse/parser.go" {
			t.Errorf("%s: hits %+v, want parser.go first and the test still found", mode, res.Hits)
			continue
		}
		found := false
		for _, h := range res.Hits {
			found = found || h.Source == "/r/parse/parser_test.go"
		}
		if !found {
			t.Errorf("%s: the test is no longer found", mode)
		}
	}
}
