package ops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// filesPalace holds, in wing "proj", drawers of four files and a note,
// each a drawer of the given lines and text; big.go has twelve drawers
// that all hold "ledger" many times, so they outrank every other file's.
func filesPalace(t *testing.T) *palace.Palace {
	t.Helper()
	p := palacetest.OpenPalace(t, palace.Options{Embed: &embed.Config{Backend: embed.BackendNone}})
	type d struct {
		kind, source string
		start, end   int
		text         string
	}
	in := []d{
		{store.KindFile, "/src/cache.go", 1, 20, "type Cache struct holds the cache entries"},
		{store.KindFile, "/src/cache.go", 40, 60, "evict cache entries: evict the cache when the cache is full, evict oldest"},
		{store.KindFile, "/src/cache.go", 61, 80, "func size returns how many entries"},
		{store.KindFile, "/src/store.go", 10, 30, "the store may evict a cache line when it writes a long record to disk and waits"},
		{store.KindFile, "/src/README.md", 1, 5, "a cache for the project and many other words that dilute the cache mention here"},
		{store.KindNote, "adr", 0, 0, "decision: evict from the cache in LRU order, we evict the cache oldest first"},
	}
	for i := range 12 {
		in = append(in, d{store.KindFile, "/src/big.go", 100*i + 1, 100*i + 90, fmt.Sprintf("ledger ledger ledger ledger entry %d", i)})
	}
	in = append(in, d{store.KindFile, "/src/small.go", 1, 9, "one ledger mention among many other words in a longer drawer text of small"})
	var ds []store.Drawer
	for i, x := range in {
		h := store.ContentHash(x.text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("proj", x.source, i, h), Wing: "proj", Room: "code",
			Kind: x.kind, Source: x.source, LineStart: x.start, LineEnd: x.end, Content: x.text, ContentHash: h})
	}
	if _, err := p.Store.InsertDrawers(context.Background(), ds); err != nil {
		t.Fatal(err)
	}
	return p
}

// rows renders hits as "source lines" with each range in line order.
func rows(hs []search.Hit) []string {
	var out []string
	for _, h := range hs {
		s := h.Kind + " " + h.Source + " " + h.Lang
		for _, r := range h.Ranges {
			s += fmt.Sprintf(" %d-%d#%d", r.LineStart, r.LineEnd, r.Rank)
		}
		out = append(out, s)
	}
	return out
}

// A search by file gives one row per file in the rank of its best drawer,
// the best drawer's citation and snippet, and every matched drawer's lines
// in line order with its rank; a note stays its own row; lang names the
// language of file rows only (issue #17).
func TestSearchByFile(t *testing.T) {
	p := filesPalace(t)
	ctx := context.Background()
	res, err := Search(ctx, p, SearchRequest{Query: "evict cache", By: ByFile, Route: RouteOff})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"file /src/cache.go go 1-20#4 40-60#1",
		"note adr ",
		"file /src/store.go go 10-30#3",
		"file /src/README.md markdown 1-5#5",
	}
	if got := rows(res.Hits); fmt.Sprint(got) != fmt.Sprint(want) || res.By != ByFile {
		t.Errorf("by file (%s):\n got %q\nwant %q", res.By, got, want)
	}
	if h := res.Hits[0]; h.Citation != "/src/cache.go:40-60" || h.LineStart != 40 || h.Snippet == "" {
		t.Errorf("a file row is its best drawer: %+v", h)
	}
	// The limit counts files.
	res, err = Search(ctx, p, SearchRequest{Query: "evict cache", By: ByFile, Route: RouteOff, Limit: 2})
	if err != nil || len(res.Hits) != 2 || res.Hits[1].Kind != KindNote {
		t.Errorf("limit 2 by file: %q, %v", rows(res.Hits), err)
	}
	// big.go's twelve drawers outrank small.go's one: the first read
	// (2 x fileDepth drawers) holds only big.go, so the search reads deeper.
	res, err = Search(ctx, p, SearchRequest{Query: "ledger", By: ByFile, Route: RouteOff, Limit: 2})
	if err != nil || len(res.Hits) != 2 || res.Hits[0].Source != "/src/big.go" || len(res.Hits[0].Ranges) != 12 ||
		res.Hits[1].Source != "/src/small.go" || res.Hits[1].Ranges[0].Rank != 13 {
		t.Errorf("ledger by file, limit 2: %q, %v", rows(res.Hits), err)
	}
	// By drawer (the default) is unchanged, and says so.
	res, err = Search(ctx, p, SearchRequest{Query: "evict cache", Route: RouteOff})
	if err != nil || res.By != ByDrawer || len(res.Hits) != 5 || res.Hits[0].Ranges != nil || res.Hits[0].Lang != "go" {
		t.Errorf("by drawer: %s %q, %v", res.By, rows(res.Hits), err)
	}
	wantClass(t, "by bogus", SearchRequest{Query: "x", By: "bogus"}.Validate(), Invalid, "by")
}

// A relative source naming a file or folder below the caller's folder is
// that path, its trailing separator kept; any other (a note's source, no
// folder) is compared as written.
func TestSourcePrefix(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ source, dir, want string }{
		{"", dir, ""},
		{"/abs/x", dir, "/abs/x"},
		{"src/", dir, dir + "/src/"},
		{"src/a.go", dir, dir + "/src/a.go"},
		{"src/../src/", dir, dir + "/src/"},
		{"ADR", dir, "ADR"},
		{"src/", "", "src/"},
		{"src/", "rel", "src/"},
	} {
		if got, err := sourcePrefix(c.source, c.dir); got != c.want || err != nil {
			t.Errorf("sourcePrefix(%q, %q) = %q, %v; want %q", c.source, c.dir, got, err, c.want)
		}
	}
}
