package search

import (
	"context"
	"slices"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// seedFiles stores file drawers (source → content) with their index text
// derived as mining derives it.
func seedFiles(t *testing.T, files map[string]string) *palace.Palace {
	t.Helper()
	p, err := palace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	var ds []store.Drawer
	i := 0
	for src, text := range files {
		idx, err := p.IndexText(text, src)
		if err != nil {
			t.Fatal(err)
		}
		h := store.ContentHash(text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("w", src, i, h), Wing: "w", Room: "r", Kind: store.KindFile,
			Source: src, Content: text, IndexText: idx, ContentHash: h})
		i++
	}
	if _, err := p.Store.InsertDrawers(context.Background(), ds); err != nil {
		t.Fatal(err)
	}
	return p
}

var identFiles = map[string]string{
	"/src/app/core/store/search.go": "// SearchFTS runs an FTS5 MATCH expression.\nfunc (db *DB) SearchFTS(ctx context.Context, match string) ([]Hit, error) {\n\treturn nil, nil\n}",
	"/src/app/core/ops/ops.go":      "// Search is what the search operation does: the search request, search limits and search results.\nfunc Search(req Request) Result { return run(req) }",
	"/src/app/docs/notes.md":        "We talked about search fts and how search should rank.",
	"/src/app/net/http2/frame.go":   "func parse_http2_frame(b []byte) (Frame, error) { return readFrame(b) }",
	"/src/app/net/server/server.go": "type HTTPServer struct{}\n\nfunc getUserID(r *Request) string { return r.user }",
	"/src/app/core/mine/walk.go":    "// walk collects the files of a tree.\nfunc walk(root string) []string { return nil }",
}

// ranks returns the sources of the hits for q, best first.
func ranks(t *testing.T, p *palace.Palace, q string) []string {
	t.Helper()
	res, err := Run(context.Background(), p, Request{Query: q, Mode: ModeLexical})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Source)
	}
	return out
}

func TestIdentifierPartsFound(t *testing.T) {
	p := seedFiles(t, identFiles)
	for _, c := range []struct{ q, want string }{
		{"http server", "/src/app/net/server/server.go"}, // HTTPServer
		{"user id", "/src/app/net/server/server.go"},     // getUserID
		{"getUserID", "/src/app/net/server/server.go"},   // the exact name
		{"http2 frame", "/src/app/net/http2/frame.go"},   // snake_case and digits
		{"parse_http2_frame", "/src/app/net/http2/frame.go"},
		{"parseHttp2Frame", "/src/app/net/http2/frame.go"}, // camelCase query, snake_case code
	} {
		got := ranks(t, p, c.q)
		if len(got) == 0 || got[0] != c.want {
			t.Errorf("search %q ranks %q, want %s first", c.q, got, c.want)
		}
	}
}

func TestIdentifierWordsFindIt(t *testing.T) {
	p := seedFiles(t, identFiles)
	// Before identifier splitting, search.go held only the token searchfts
	// and ranked below ops.go, which says search four times but never fts.
	got := ranks(t, p, "fts search")
	want := []string{"/src/app/docs/notes.md", "/src/app/core/store/search.go", "/src/app/core/ops/ops.go"}
	if !slices.Equal(got, want) {
		t.Errorf("search \"fts search\" ranks %q, want %q: both drawers with both words above the one with search alone", got, want)
	}
}

func TestExactIdentifierRanksFirst(t *testing.T) {
	p := seedFiles(t, identFiles)
	got := ranks(t, p, "SearchFTS")
	if len(got) < 2 || got[0] != "/src/app/core/store/search.go" || got[1] != "/src/app/docs/notes.md" {
		t.Errorf("search SearchFTS ranks %q, want the drawer holding the name, then the one with its words", got)
	}
}

func TestPathWordsFound(t *testing.T) {
	p := seedFiles(t, identFiles)
	if got := ranks(t, p, "store search"); len(got) == 0 || got[0] != "/src/app/core/store/search.go" {
		t.Errorf("search \"store search\" ranks %q, want core/store/search.go first", got)
	}
	if got := ranks(t, p, "mine"); len(got) == 0 || got[0] != "/src/app/core/mine/walk.go" {
		t.Errorf("search mine ranks %q, want core/mine/walk.go first", got)
	}
}
