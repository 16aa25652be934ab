package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

func TestClassOfPath(t *testing.T) {
	for p, want := range map[string]fileClass{
		"/r/core/store/search.go":            classSource,
		"/r/core/store/search_test.go":       classTest,
		"/r/pkg/test_parser.py":              classTest,
		"/r/pkg/parser_test.py":              classTest,
		"/r/conftest.py":                     classTest,
		"/r/lib/B/Deparse.t":                 classTest,
		"/r/web/cart.test.ts":                classTest,
		"/r/web/cart.spec.js":                classTest,
		"/r/web/__tests__/cart.js":           classTest,
		"/r/crate/tests/it.rs":               classTest,
		"/r/x/testdata/in.txt":               classTest,
		"/r/api/v1/api.pb.go":                classGenerated,
		"/r/x/tables_gen.go":                 classGenerated,
		"/r/web/app.min.js":                  classGenerated,
		"/r/go.sum":                          classLockfile,
		"/r/web/package-lock.json":           classLockfile,
		"/r/Cargo.lock":                      classLockfile,
		"/r/CHANGELOG.md":                    classChangelog,
		"/r/HISTORY.rst":                     classChangelog,
		"/r/NEWS":                            classChangelog,
		"/r/core/history.go":                 classSource, // code named history is source
		"/r/core/testing.go":                 classSource,
		`C:\r\pkg\tests\helpers.py`:          classTest,
		"/r/internal/latest/release.go":      classSource,
		"/r/docs/RELEASES.md":                classChangelog,
		"/r/CHANGELOG-1.2.md":                classChangelog,
		"/r/docs/newsletter.md":              classDocs,
		"/r/README.md":                       classDocs,
		"/r/docs/guide.rst":                  classDocs,
		"/r/Makefile":                        classBuild,
		"/r/template/Makefile.in":            classBuild,
		"/r/sapi/fpm/Makefile.frag":          classBuild,
		"/r/configure.ac":                    classBuild,
		"/r/ext/date/config0.m4":             classBuild,
		"/r/meson.build":                     classBuild,
		"/r/src/CMakeLists.txt":              classBuild,
		"/r/common.mk":                       classBuild,
		"/r/Makefile.SH":                     classSource, // a shell script that writes the Makefile
		"/r/Makefile.PL":                     classSource,
		"/r/compiler/rustc_llvm/build.rs":    classSource,
		"/r/00-RELEASENOTES":                 classChangelog,
		"/r/CHANGES.ru":                      classChangelog,
		"/r/doc/ChangeLog-2.0.0":             classChangelog,
		"/r/lib/changes.rb":                  classSource,
		"/r/README.tun":                      classDocs,
		"/r/INSTALL":                         classDocs,
		"/r/scripts/install.sh":              classSource,
		"/r/lua/history.lua":                 classSource, // a language langs does not name
		"/r/bin/install.pl":                  classSource,
		"/r/ssh_config.5":                    classDocs,
		"/r/sapi/fpm/php-fpm.8.in":           classDocs,
		"/r/lib/perlfunc.3pm":                classDocs,
		"/r/src/config.h.in":                 classSource,
		"/r/lib/v1.2":                        classSource,
		"/r/src/components/Contest.tsx":      classSource,
		"/r/src/components/attest_util.go":   classSource,
		"/r/src/main/java/x/ParserTest.java": classTest,
		"/r/src/main/java/x/Latest.java":     classSource,
		"/r/App/CartTests.cs":                classTest,
		"/r/lib/cart_spec.rb":                classTest,
		"/r/spec/models/user.rb":             classTest,
		"/r/src/cart_test.cc":                classTest,
		"/r/web/cart_test.js":                classTest,
		"/r/examples/hello/main.go":          classExample,
		"/r/crate/examples/client.rs":        classExample,
		"/r/third_party/zlib/inflate.c":      classVendored,
		"/r/docs/conf.py":                    classDocs,
	} {
		if got := classOfPath(p); got != want {
			t.Errorf("classOfPath(%q) = %d, want %d", p, got, want)
		}
	}
}

func TestQueryAsksForAClass(t *testing.T) {
	for _, tc := range []struct {
		req  Request
		want fileClass
	}{
		{Request{Query: "SearchWidgets tests"}, classTest},
		{Request{Query: "what changed in the last release"}, classChangelog},
		{Request{Query: "which generated code"}, classGenerated},
		{Request{Query: "acme dependency"}, classLockfile},
		{Request{Query: "where are the install docs"}, classDocs},
		{Request{Query: "an example of SearchWidgets"}, classExample},
		{Request{Query: "vendored zlib inflate"}, classVendored},
		{Request{Query: "sort object files in the Makefile"}, classBuild},
		// In a longer query a class word is one topic of several.
		{Request{Query: "search ranks drawers from a date the query names first, targets checked in tests"}, classSource},
		// ...unless it labels the query.
		{Request{Query: "Readme: widgets whose name holds, best match first"}, classDocs},
		{Request{Query: "widgets", Filter: store.Filter{SourcePrefix: "/r/tests"}}, classTest},
		{Request{Query: "widgets", Filter: store.Filter{SourcePrefix: "/r/CHANGELOG.md"}}, classChangelog},
	} {
		d := newDemoter(tc.req)
		for c := classTest; c < classCount; c++ {
			if d.asked[c] != (c == tc.want) {
				t.Errorf("%+v: asked[%d] = %v", tc.req, c, d.asked[c])
			}
		}
	}
}

// demoteFixture is a small Go module whose function SearchWidgets is
// defined once in store/search.go and named far more often by six tests,
// a generated file (marked only in its first line, not by its name), a
// changelog and a Makefile; a README describes it in the words a question would use; its module acme/widgets is named once in go.mod and many
// times in go.sum.
func demoteFixture(t *testing.T) (*palace.Palace, string) {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/shop\n\nrequire github.com/acme/widgets v1.2.0\n",
		"go.sum": strings.Repeat("github.com/acme/widgets v1.2.0 h1:abc=\ngithub.com/acme/widgets v1.2.0/go.mod h1:def=\n", 3),
		"store/search.go": `package store

// SearchWidgets returns the widgets whose name holds q, best match first.
// It reads the catalog once and keeps the order stable for equal scores.
func SearchWidgets(q string) []Widget {
	var out []Widget
	for _, w := range catalog() {
		if strings.Contains(w.Name, q) {
			out = append(out, w)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}
`,
		"internal/api/widgets_string.go": "// Code generated by stringer; DO NOT EDIT.\n\npackage api\n\n" +
			strings.Repeat("var _ = store.SearchWidgets\n", 8),
		"README.md": "# Shop\n\nSearch finds the widgets whose name holds a query, best match first.\n",
		// An example in the words of the README, twice over.
		"examples/search/main.go": "package main\n\n// Print the widgets whose name holds bolt, best match first,\n" +
			"// then the widgets whose name holds nut, best match first.\nfunc main() {\n" +
			"\tshow(store.SearchWidgets(\"bolt\")) // widgets whose name holds bolt\n\tshow(store.SearchWidgets(\"nut\"))\n}\n",
		// A build file naming the widgets catalog in every rule.
		"Makefile":     strings.Repeat("catalog: widgets.db\n\tgo run ./cmd/catalog --widgets widgets.db --catalog\n", 4),
		"CHANGELOG.md": "# Changelog\n\n## 1.2\n- SearchWidgets sorts stably.\n- SearchWidgets trims q.\n- SearchWidgets is faster.\n",
	}
	for i := range 6 {
		files[fmt.Sprintf("store/search%d_test.go", i)] = fmt.Sprintf("package store\n\nfunc TestSearchWidgets%d(t *testing.T) {\n%s}\n",
			i, strings.Repeat("\tSearchWidgets(\"x\")\n", 6))
	}
	files["store/empty_test.go"] = "package store\n\nfunc TestSearchWidgetsEmptyQuery(t *testing.T) {\n\tSearchWidgets(\"\")\n}\n"
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := palacetest.OpenPalace(t)
	if _, err := mine.Run(context.Background(), p, root, mine.Options{Wing: "shop"}); err != nil {
		t.Fatal(err)
	}
	return p, root
}

func TestTestsGeneratedChangelogsAndDocsRankBelowSource(t *testing.T) {
	p, root := demoteFixture(t)
	for _, tc := range []struct {
		query string
		limit int
		first string
	}{
		// Eight drawers name SearchWidgets more often than its definition;
		// with a limit of 3 the source is still read and ranked first.
		{"SearchWidgets", 3, "store/search.go"},
		{"SearchWidgets", 10, "store/search.go"},
		{"acme widgets", 10, "go.mod"},
		// Asked for, a class ranks as source does.
		{"SearchWidgets test", 10, "store/search"}, // a test: checked below
		{"SearchWidgets changelog", 10, "CHANGELOG.md"},
		{"SearchWidgets generated", 10, "internal/api/widgets_string.go"},
		{"acme widgets lock dependencies", 10, "go.sum"},
		// A question in the README's words wants the code, unless it
		// asks for the docs.
		{"widgets whose name holds, best match first", 10, "store/search.go"},
		{"readme: widgets whose name holds, best match first", 10, "README.md"},
		// The code that reads the widgets catalog, not the build rules
		// that name it, unless the query asks for them.
		{"widgets catalog", 10, "store/search.go"},
		{"widgets catalog makefile", 10, "Makefile"},
		// A query only a test matches still finds it.
		{"TestSearchWidgetsEmptyQuery", 10, "store/empty_test.go"},
	} {
		res, err := Run(context.Background(), p, Request{Query: tc.query, Limit: tc.limit, Mode: ModeLexical})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			rel, _ := filepath.Rel(root, h.Source)
			got = append(got, filepath.ToSlash(rel))
		}
		switch {
		case len(got) == 0:
			t.Errorf("%q: no hits", tc.query)
		case tc.query == "SearchWidgets test" && classOfPath(got[0]) != classTest:
			t.Errorf("%q: first hit %s, want a test; hits %v", tc.query, got[0], got)
		case tc.query != "SearchWidgets test" && got[0] != tc.first:
			t.Errorf("%q: first hit %s, want %s; hits %v", tc.query, got[0], tc.first, got)
		}
		if tc.query == "SearchWidgets" && tc.limit == 10 && len(got) != 10 {
			t.Errorf("%q: %d hits, want 10 (tests, generated and changelog still found): %v", tc.query, len(got), got)
		}
	}
}

// Secondary is the file rule core/relevant orders a place's hits by:
// tests, generated files and changelogs come below source, except from a
// file of their own class; prose and build files rank as source there.
func TestSecondary(t *testing.T) {
	for _, c := range []struct {
		source, from string
		want         bool
	}{
		{"/r/store/search_test.go", "/r/store/search.go", true},
		{"/r/store/search_test.go", "/r/store/scope_test.go", false},
		{"/r/store/search_test.go", "", true},
		{"/r/CHANGELOG.md", "/r/store/search.go", true},
		{"/r/store/search.go", "/r/store/search_test.go", false},
		{"/r/README.md", "/r/store/search.go", false},
		{"/r/Makefile", "/r/store/search.go", false},
		{"/r/configure.ac", "", false},
	} {
		d := store.Drawer{Kind: store.KindFile, Source: c.source}
		if got := Secondary(d, c.from); got != c.want {
			t.Errorf("Secondary(%s, from %q) = %v, want %v", c.source, c.from, got, c.want)
		}
	}
}
