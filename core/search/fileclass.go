package search

import (
	"encoding/json"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/palace-dev/palace/core/lang"
	"github.com/palace-dev/palace/core/store"
)

// fileClass says what a mined file is beside source: tests, generated
// code, lock files and changelogs hold the names a query looks for as often
// as the source does (a test calls a function twenty times, a changelog
// names it in every release), prose documents hold the words of a
// question more often than the code that answers it, and build files
// (configure.ac, Makefile.in, meson.build) name every option, library and
// platform the code handles, but a query that does not ask for them wants
// the source.
type fileClass int

const (
	classSource fileClass = iota
	classTest
	classGenerated
	classLockfile
	classChangelog
	classDocs
	classExample
	classVendored
	classBuild
	classCount
)

// demoteFactor is the file-class rule: in each ranked list (BM25 or
// vector) a drawer of a test, generated file, lock file, changelog or
// prose document keeps this share of its score, unless the query asks for
// its class. A third
// lets a source drawer naming the word once pass a test naming it in every
// line (BM25's term-frequency part ranges over about 3x), and a test that
// alone matches still comes back.
const demoteFactor = 1.0 / 3

// demotePool is how many times deeper than asked a list is read when its
// first hits include a demoted one, so source ranked below a crowd of tests
// can come up past them.
const demotePool = 5

// metaGenerated is the metadata key core/mine sets on the drawers of a file
// whose first lines carry a generated-code marker ("Code generated ... DO
// NOT EDIT.", "@generated"); the path alone cannot tell.
const metaGenerated = "generated"

var (
	lockfiles = map[string]bool{
		"go.sum": true, "package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true,
		"cargo.lock": true, "poetry.lock": true, "composer.lock": true, "gemfile.lock": true, "pipfile.lock": true,
	}
	testDirs    = map[string]bool{"test": true, "tests": true, "testdata": true, "__tests__": true, "spec": true, "specs": true}
	exampleDirs = map[string]bool{"example": true, "examples": true, "_example": true, "_examples": true}
	vendorDirs  = map[string]bool{"vendor": true, "third_party": true, "third-party": true, "thirdparty": true, "node_modules": true}
	docDirs     = map[string]bool{"doc": true, "docs": true, "documentation": true}
	// testName matches test files by each language's naming rule;
	// testClass JVM, .NET, PHP and Swift test classes (FooTest.java,
	// FooTests.cs), case-sensitive, so "Latest.java" is not one.
	testName = regexp.MustCompile(`(?i)(` +
		`_test\.(go|py|rb|exs|dart|c|cc|cpp)$` + // Go, Python, Ruby, Elixir, Dart, C/C++
		`|^test_[^/]*\.py$|^conftest\.py$` + // pytest
		`|[._](test|spec)\.[cm]?[jt]sx?$` + // Jest, Mocha, Vitest
		`|_spec\.rb$|_unittest\.cc$` +
		`|\.t$` + // Perl (prove runs t/*.t)
		`)`)
	testClass  = regexp.MustCompile(`Tests?\.(java|kt|scala|groovy|cs|php|swift)$`)
	changelogs = []string{"changelog", "changes", "history", "news", "releases", "release-notes", "release_notes",
		"releasenotes", "whatsnew"}
	// proseNames are documents whatever their extension (README.tun,
	// INSTALL, COPYING), unless it is a language's: install.sh is code.
	proseNames = map[string]bool{"readme": true, "install": true, "copying": true, "license": true, "licence": true,
		"authors": true, "contributors": true, "contributing": true, "hacking": true, "notice": true,
		"thanks": true, "credits": true, "todo": true}
	// manPage matches roff manual pages by their section extension
	// (ssh_config.5, curl.1, php-fpm.8.in, perlfunc.3pm), not a version
	// (v1.2).
	manPage = regexp.MustCompile(`[^0-9.]\.([1-9][a-z]*|man)(\.in)?$`)
	// askWords are the query words that ask for a class: such a query
	// ranks that class like source.
	askWords = map[string]fileClass{
		"test": classTest, "tests": classTest, "testing": classTest, "tested": classTest, "spec": classTest,
		"specs": classTest, "unittest": classTest, "fixture": classTest, "fixtures": classTest, "testdata": classTest,
		"generated": classGenerated, "generate": classGenerated, "generator": classGenerated, "codegen": classGenerated,
		"lock": classLockfile, "lockfile": classLockfile, "lockfiles": classLockfile, "dependency": classLockfile,
		"dependencies": classLockfile, "deps": classLockfile, "checksum": classLockfile, "checksums": classLockfile,
		"changelog": classChangelog, "changelogs": classChangelog, "history": classChangelog, "release": classChangelog,
		"releases": classChangelog, "news": classChangelog,
		"doc": classDocs, "docs": classDocs, "documentation": classDocs, "documented": classDocs, "readme": classDocs,
		"guide": classDocs, "manual": classDocs, "tutorial": classDocs, "howto": classDocs,
		"example": classExample, "examples": classExample, "sample": classExample, "samples": classExample,
		"demo": classExample, "demos": classExample,
		"vendor": classVendored, "vendored": classVendored, "thirdparty": classVendored,
		"build": classBuild, "builds": classBuild, "building": classBuild, "buildsystem": classBuild,
		"makefile": classBuild, "makefiles": classBuild, "cmake": classBuild, "meson": classBuild,
		"autoconf": classBuild, "automake": classBuild, "autotools": classBuild, "m4": classBuild,
		"bazel": classBuild, "kconfig": classBuild,
	}
)

// classOfPath classifies a file by its path: lock files and changelogs by
// name, generated code by suffix, tests by the naming rules of each
// language (IsTestName) and the generic test folders, then what sits in a
// vendored, examples or docs folder, then build files by name, then prose
// by its extension.
func classOfPath(p string) fileClass {
	parts := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
	if len(parts) == 0 {
		return classSource
	}
	base := parts[len(parts)-1] // as written: FooTest.java is a test, Latest.java not
	for i, d := range parts {
		parts[i] = strings.ToLower(d)
	}
	name, dirs := parts[len(parts)-1], parts[:len(parts)-1]
	in := func(set map[string]bool) bool {
		return slices.ContainsFunc(dirs, func(d string) bool { return set[d] })
	}
	ext := path.Ext(name)
	// A changelog or a document may carry a language or version as its
	// extension (CHANGES.ru, ChangeLog-1.9.3) and a number before its name
	// (00-RELEASENOTES); only a language's extension (code, or data such
	// as JSON and HTML) makes it code.
	kind := lang.ByExt(ext).Kind
	notCode := kind != lang.Code && kind != lang.Data
	// Build files by name (Makefile, CMakeLists.txt, Makefile.in) or
	// extension (.mk, .m4, .bzl); a Makefile.PL or build.rs is code, so
	// only files of no language's extension are build files.
	build := lang.ByName(name).Kind == lang.Build || kind == lang.Build
	stem := strings.TrimLeftFunc(name, func(r rune) bool { return !unicode.IsLetter(r) })
	switch {
	case lockfiles[name]:
		return classLockfile
	case notCode && slices.ContainsFunc(changelogs, func(c string) bool { return namedAs(stem, c) }):
		return classChangelog
	case strings.HasSuffix(name, ".pb.go") || strings.HasSuffix(name, "_gen.go") ||
		strings.HasSuffix(name, ".min.js") || strings.HasSuffix(name, ".min.css"):
		return classGenerated
	case IsTestName(base), strings.Contains(name, ".test.") || strings.Contains(name, ".spec."), in(testDirs):
		return classTest
	case in(vendorDirs):
		return classVendored
	case in(exampleDirs):
		return classExample
	case notCode && build:
		return classBuild
	case kind == lang.Prose, in(docDirs), notCode && (proseNames[strings.SplitN(stem, ".", 2)[0]] || manPage.MatchString(name)):
		return classDocs
	}
	return classSource
}

// IsTestName reports whether a file's base name is a test's by its
// language's naming rule (foo_test.go, test_foo.py, foo.spec.ts,
// foo_spec.rb, FooTest.java, ...).
func IsTestName(base string) bool {
	return testName.MatchString(base) || testClass.MatchString(base)
}

// NotSourceDir reports whether a folder of this name holds no source:
// tests, vendored code, examples or documentation.
func NotSourceDir(name string) bool {
	d := strings.ToLower(name)
	return testDirs[d] || vendorDirs[d] || exampleDirs[d] || docDirs[d]
}

// namedAs says whether a file name is word, maybe followed by a version or
// an extension (CHANGELOG-1.2.md), not a longer word (newsletter.md).
func namedAs(name, word string) bool {
	rest, ok := strings.CutPrefix(name, word)
	return ok && (rest == "" || !unicode.IsLetter(rune(rest[0])))
}

// classOf classifies a drawer: only file drawers have a class besides
// source.
func classOf(h store.Hit) fileClass {
	if h.Kind != store.KindFile {
		return classSource
	}
	if c := classOfPath(h.Source); c != classSource {
		return c
	}
	if strings.Contains(h.Metadata, metaGenerated) {
		var m map[string]any
		if json.Unmarshal([]byte(h.Metadata), &m) == nil && m[metaGenerated] == true {
			return classGenerated
		}
	}
	return classSource
}

// demoter re-ranks lists by the demoteFactor rule; asked holds the
// classes the request asks for, which are not demoted.
type demoter struct {
	asked [classCount]bool
	// words are the query's words, for the speakers it names (unsaid).
	words map[string]bool
	// when: the query asks when something happened (asksWhen, timeless).
	when bool
}

// askMaxWords is the longest query whose words can ask for a class. In a
// longer one a class word is one topic among several ("dates the query
// names first; LoCoMo targets checked in tests"), and lifting the demotion
// for it let tests and fixtures crowd out the source the rest of the query
// names: on this repository's history, ignoring such words raised bench
// code R_any@10 from 0.947 to 0.961 on the commits tuned on and from 0.935
// to 0.948 on those held back, MRR@10 by 0.04 and 0.05.
const askMaxWords = 6

// newDemoter reads what req asks for: a query word naming a class, or a
// source filter pointing into one (a test file, a tests/ folder).
func newDemoter(req Request) demoter {
	d := demoter{words: queryWords(req.Query), when: asksWhen(req.Query)}
	words := strings.FieldsFunc(strings.ToLower(req.Query), notWordRune)
	for _, w := range words {
		if c, ok := askWords[w]; ok && len(words) <= askMaxWords {
			d.asked[c] = true
		}
	}
	// A class word as the query's label ("readme: how to install") asks
	// for it at any length.
	if label, _, ok := strings.Cut(strings.TrimSpace(strings.ToLower(req.Query)), ":"); ok {
		if c, ok := askWords[label]; ok {
			d.asked[c] = true
		}
	}
	if p := req.Filter.SourcePrefix; p != "" {
		d.asked[classOfPath(p)] = true
		d.asked[classOfPath(p+"/x")] = true
	}
	return d
}

// factor is the share of its score h keeps: demoteFactor for a class the
// query does not ask for; for a conversation drawer, speakerFactor where
// the person the query names does not say what it matched, times
// timelessFactor where the query asks when and the drawer refers to no
// day; else all.
func (d demoter) factor(h store.Hit) float64 {
	if c := classOf(h); c != classSource && !d.asked[c] {
		return demoteFactor
	}
	f := 1.0
	if unsaid(h, d.words) {
		f = speakerFactor
	}
	if d.when && timeless(h.Kind, []byte(h.Metadata)) {
		f *= timelessFactor
	}
	return f
}

// ranked returns fetch's list of at most limit hits, re-ranked: a demoted
// hit's score keeps its factor of its size (a negative score, possible
// for a vector, drops by as much). When the first limit hits hold a drawer
// of a demoted class, the list is read demotePool times deeper first. The
// speaker rule's milder factor re-ranks the list as read: on LoCoMo,
// reading it 2 or 5 times deeper ranked the same at limits 10 and 50, and
// cost 2x and 3x the search time.
func (d demoter) ranked(limit int, fetch func(n int) ([]store.Hit, error)) ([]store.Hit, error) {
	hs, err := fetch(limit)
	if err != nil {
		return nil, err
	}
	fs := d.factors(hs)
	low := slices.Min(append(fs, 1))
	if low == 1 {
		return hs, nil
	}
	if len(hs) == limit && low < speakerFactor {
		if hs, err = fetch(limit * demotePool); err != nil {
			return nil, err
		}
		fs = d.factors(hs)
	}
	for i := range hs {
		hs[i].Score -= math.Abs(hs[i].Score) * (1 - fs[i])
	}
	slices.SortStableFunc(hs, func(a, b store.Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return hs[:min(len(hs), limit)], nil
}

// factors are the factor of each of hs.
func (d demoter) factors(hs []store.Hit) []float64 {
	fs := make([]float64, len(hs))
	for i, h := range hs {
		fs[i] = d.factor(h)
	}
	return fs
}
