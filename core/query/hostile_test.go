package query_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// hostile are queries that break naive FTS5 query building.
var hostile = []string{
	`"`, `""`, `"""`, `'`, `-`, `--`, `- -`, `*`, `**`, `a*b`, `*a`, `(`, `)`, `((a)`, `a)`, `{a}`, `[a]`,
	`AND`, `OR`, `NOT`, `a AND`, `OR b`, `NOT NOT`, `a NOT`, `NEAR(a b)`, `NEAR(`, `^a`, `a:b`, `body:x`,
	`col : "x"`, `+a`, `a + b`, `'; DROP TABLE drawers; --`, `" OR 1=1 --`, `\`, `\"`, `%`, `_`,
	`知识图谱`, `清华 大学`, `"清华`, `中文-英文`, `emoji 🙂 test`, "tab\tsep", "nul\x00byte", "\xff\xfe",
	`-"a b"`, `"a" -`, `a -b -c -d`, `-a -b`, `?`, `$1`, `@x`, `#tag`, `a|b`, `a&b`, `~a`, `a~`, `....`,
	`C++`, `x86-64`, `foo.bar()`, `map[string]int`, `func(ctx context.Context) error`,
}

func TestHostileQueriesNeverError(t *testing.T) {
	ctx := context.Background()
	p, err := palace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	st := p.Store
	var ds []store.Drawer
	for i, text := range []string{"a b c foo bar", "知识图谱 清华大学", "map[string]int and C++ x86-64", "filler text", "more filler"} {
		h := store.ContentHash(text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("w", "s", i, h), Wing: "w", Room: "r", Kind: store.KindNote, Source: "s", Content: text, ContentHash: h})
	}
	if _, err := st.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	for _, q := range hostile {
		if _, err := search.Run(ctx, p, search.Request{Query: q}); err != nil {
			t.Errorf("query %q: %v", q, err)
		}
		p, _ := query.Parse(q, nil)
		for _, m := range []string{p.All, p.Any} {
			if m == "" {
				continue
			}
			if _, err := st.SearchFTS(ctx, m, store.Filter{}, 5, nil); err != nil {
				t.Errorf("query %q built %s: %v", q, m, err)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, q := range hostile {
		f.Add(q)
	}
	ctx := context.Background()
	st, err := store.Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	defer st.Close()
	h := store.ContentHash("seed words")
	if _, err := st.InsertDrawers(ctx, []store.Drawer{{ID: "d1", Wing: "w", Room: "r", Kind: store.KindNote, Source: "s", Content: "seed words", ContentHash: h}}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, _ := query.Parse(q, nil)
		for _, m := range []string{p.All, p.Any} {
			if m == "" {
				continue
			}
			if _, err := st.SearchFTS(ctx, m, store.Filter{}, 5, nil); err != nil {
				t.Fatalf("query %q built %s: %v", q, m, err)
			}
		}
	})
}

// TestRepeatedWordSearchesAsTheWord: 'dial ' typed 4,000 times finds what
// 'dial' finds, in the same order (it once took 7.7 s on the CLI).
func TestRepeatedWordSearchesAsTheWord(t *testing.T) {
	ctx := context.Background()
	p, err := palace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var ds []store.Drawer
	for i, text := range []string{"net.Dial the server", "dial dial dial again", "nothing here", "redial later"} {
		h := store.ContentHash(text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("w", "s", i, h), Wing: "w", Room: "r", Kind: store.KindNote, Source: "s", Content: text, ContentHash: h})
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	ids := func(q string) []string {
		res, err := search.Run(ctx, p, search.Request{Query: q})
		if err != nil {
			t.Fatalf("search of %d bytes: %v", len(q), err)
		}
		var out []string
		for _, h := range res.Hits {
			out = append(out, h.ID)
		}
		return out
	}
	one, many := ids("dial"), ids(strings.Repeat("dial ", 4000))
	if len(one) != 2 || !slices.Equal(one, many) {
		t.Errorf("'dial' x 4000 found %v, 'dial' %v", many, one)
	}
}
