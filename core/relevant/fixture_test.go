package relevant_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/relevant"
)

// The workspaces under testdata/ws are small shops in Go, Python,
// TypeScript and Rust, each with a function defined twice (the one a file imports
// and a legacy one), callers in source and in tests. Each case opens a
// file, puts the cursor on a call, and states the first row (the
// definition, and why that one), which files come before which (source
// callers above tests, unless the open file is a test), and a caller whose
// why says it calls the name.
func TestDefinitionFirstInWorkspaces(t *testing.T) {
	cases := []struct {
		name, ws, open, marker string
		exclude                []relevant.Span // lines on screen besides the cursor's
		first, firstWhy        string
		before                 [][2]string
		calls                  string
		// other is the file of the other definition, whose why says so.
		other string
		// none: the name at the cursor is another package's (its
		// qualifier is bound by an import the palace has no definition
		// in), so no row is a definition.
		none bool
	}{
		{name: "go: a qualifier bound to another package", ws: "go", open: "cart/checkout.go", marker: "New(\"no item\")", none: true},
		{name: "go: the package the qualifier names", ws: "go", open: "cart/cart.go", marker: "Apply(it.Price",
			first: "pricing/pricing.go", firstWhy: "definition of Apply (1 of 2: the one in pricing, as pricing.Apply says)",
			before: [][2]string{{"cart/checkout.go", "pricing/pricing_test.go"}, {"cart/checkout.go", "pricing/bulk_test.go"}},
			calls:  "cart/checkout.go", other: "legacy/pricing.go"},
		{name: "go: elsewhere in the same file", ws: "go", open: "cart/cart.go", marker: "roundCents(sum)",
			exclude: []relevant.Span{{Start: 1, End: 24}},
			first:   "cart/cart.go", firstWhy: "definition of roundCents"},
		{name: "go: from a test, tests rank as source", ws: "go", open: "pricing/pricing_test.go", marker: "Apply(c.price",
			first: "pricing/pricing.go", firstWhy: "definition of Apply (1 of 2: the nearest by path)",
			before: [][2]string{{"pricing/bulk_test.go", "cart/checkout.go"}}, calls: "pricing/bulk_test.go"},
		{name: "python: the module imported", ws: "py", open: "shop/cart.py", marker: "apply_discount(price, rate) *",
			first: "shop/pricing.py", firstWhy: "definition of apply_discount (1 of 2: the one in a package this file imports)",
			before: [][2]string{{"shop/checkout.py", "tests/test_pricing.py"}, {"shop/checkout.py", "tests/test_bulk.py"}},
			calls:  "shop/checkout.py", other: "shop/legacy.py"},
		{name: "python: a method named like a stop word", ws: "py", open: "shop/checkout.py", marker: "done():",
			first: "shop/order.py", firstWhy: "definition of done"},
		{name: "python: from a test", ws: "py", open: "tests/test_bulk.py", marker: "apply_discount(2",
			first: "shop/pricing.py", firstWhy: "definition of apply_discount (1 of 2: the one in a package this file imports)",
			before: [][2]string{{"tests/test_pricing.py", "shop/checkout.py"}}, calls: "tests/test_pricing.py"},
		{name: "typescript: the relative import", ws: "ts", open: "src/cart.ts", marker: "applyDiscount(line.price",
			first: "src/pricing.ts", firstWhy: "definition of applyDiscount (1 of 2: the one in a package this file imports)",
			before: [][2]string{{"src/checkout.ts", "src/pricing.test.ts"}, {"src/checkout.ts", "src/bulk.test.ts"}},
			calls:  "src/checkout.ts", other: "src/legacy/pricing.ts"},
		{name: "typescript: from a test", ws: "ts", open: "src/bulk.test.ts", marker: "applyDiscount(2",
			first: "src/pricing.ts", firstWhy: "definition of applyDiscount (1 of 2: the one in a package this file imports)",
			before: [][2]string{{"src/pricing.test.ts", "src/checkout.ts"}}, calls: "src/pricing.test.ts"},
		{name: "rust: a type a braced use imports", ws: "rs", open: "src/cart.rs", marker: "from_bytes_lossy(raw)",
			first: "src/text/mod.rs", firstWhy: "definition of from_bytes_lossy (1 of 2: the one in src/text, as Label::from_bytes_lossy says)",
			before: [][2]string{{"src/text/mod.rs", "tests/labels.rs"}}, other: "src/legacy.rs"},
		{name: "rust: a type a test imports from the crate", ws: "rs", open: "tests/labels.rs", marker: "from_bytes_lossy(b",
			first: "src/text/mod.rs", firstWhy: "definition of from_bytes_lossy (1 of 2: the one in src/text, as Label::from_bytes_lossy says)",
			other: "src/legacy.rs"},
	}
	roots := map[string]*workspace{}
	outer := t
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := roots[c.ws]
			if w == nil {
				w = mineWorkspace(outer, c.ws) // kept for the cases after

				roots[c.ws] = w
			}
			path := filepath.Join(w.root, filepath.FromSlash(c.open))
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			pos := relevant.Position{Line: -1}
			for i, l := range strings.Split(text, "\n") {
				if j := strings.Index(l, c.marker); j >= 0 {
					pos = relevant.Position{Line: i, Col: j + 1}
					break
				}
			}
			if pos.Line < 0 {
				t.Fatalf("%q not in %s", c.marker, c.open)
			}
			res, err := relevant.Find(context.Background(), w.p, relevant.Request{Path: path, Root: w.root, Text: text,
				Start: pos, End: pos, Wing: w.wing, Exclude: c.exclude})
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			firstAt := map[string]int{}
			for i, h := range res.Hits {
				rel, _ := filepath.Rel(w.root, h.Source)
				rel = filepath.ToSlash(rel)
				files = append(files, rel)
				if _, ok := firstAt[rel]; !ok {
					firstAt[rel] = i
				}
				if rel == c.other && !strings.HasPrefix(h.Why, "also defines "+res.Clues.Identifier) {
					t.Errorf("%s: why %q, want it to say it also defines %s", rel, h.Why, res.Clues.Identifier)
				}
				if rel == c.calls && firstAt[rel] == i && !strings.HasPrefix(h.Why, "calls "+res.Clues.Identifier) {
					t.Errorf("%s: why %q, want it to say it calls %s", rel, h.Why, res.Clues.Identifier)
				}
			}
			if c.none {
				for _, h := range res.Hits {
					if strings.HasPrefix(h.Why, "definition of") {
						t.Errorf("%s: %q", h.Citation, h.Why)
					}
				}
				return
			}
			if len(res.Hits) == 0 {
				t.Fatalf("no hits")
			}
			if files[0] != c.first || res.Hits[0].Why != c.firstWhy {
				t.Errorf("first row %s (%q), want %s (%q)\nhits: %q", files[0], res.Hits[0].Why, c.first, c.firstWhy, files)
			}
			if !strings.Contains(res.Hits[0].Content, res.Clues.Identifier) {
				t.Errorf("first row does not hold %s: %q", res.Clues.Identifier, res.Hits[0].Content)
			}
			for _, b := range c.before {
				i, ok1 := firstAt[b[0]]
				j, ok2 := firstAt[b[1]]
				if !ok1 || !ok2 || i > j {
					t.Errorf("%s should come before %s: hits %q", b[0], b[1], files)
				}
			}
			for _, f := range []string{c.calls, c.other} {
				if _, ok := firstAt[f]; f != "" && !ok {
					t.Errorf("%s is not among the hits %q", f, files)
				}
			}
		})
	}
}

type workspace struct {
	p          *palace.Palace
	root, wing string
}

// mineWorkspace copies testdata/ws/NAME to a temporary folder (below
// testdata every file would read as a test) and mines it as ops.Mine does
// for every front.
func mineWorkspace(t *testing.T, name string) *workspace {
	t.Helper()
	root := filepath.Join(t.TempDir(), "shop")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "ws", name))); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	p := palacetest.Open(t, home, palace.Options{Embed: &embed.Config{Backend: embed.BackendNone, Home: home}})
	res, err := ops.Mine(context.Background(), p, ops.MineRequest{Path: root, NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	return &workspace{p: p, root: root, wing: res.Wing}
}
