package bench

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCodeMetrics(t *testing.T) {
	gold := []string{"a.go", "b.go", "a.go"} // a gold file named twice counts once
	for _, c := range []struct {
		name                    string
		ranked                  []string
		any5, any10, all10, mrr float64
	}{
		// Duplicates take one rank: x, a, y, b are ranks 1-4.
		{"both, duplicates collapsed", []string{"x.go", "a.go", "a.go", "x.go", "y.go", "b.go"}, 1, 1, 1, 0.5},
		{"one at rank 6", []string{"1", "2", "3", "4", "5", "b.go", "7"}, 0, 1, 0, 1.0 / 6},
		// Eleven distinct files before b.go: it falls outside the ten.
		{"first at rank 1, other at 12", []string{"a.go", "1", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "b.go"}, 1, 1, 0, 1},
		{"none", []string{"x.go"}, 0, 0, 0, 0},
		{"empty", nil, 0, 0, 0, 0},
	} {
		m := codeMetrics(gold, c.ranked)
		want := map[string]float64{"R_any@5": c.any5, "R_any@10": c.any10, "R_all@10": c.all10, "MRR@10": c.mrr}
		if !reflect.DeepEqual(m, want) {
			t.Errorf("%s: %v, want %v", c.name, m, want)
		}
	}
	mean := meanMetrics([]map[string]float64{codeMetrics(gold, []string{"b.go"}), codeMetrics(gold, []string{"x", "a.go"})})
	if want := map[string]float64{"R_any@5": 1, "R_any@10": 1, "R_all@10": 0, "MRR@10": 0.75}; !reflect.DeepEqual(mean, want) {
		t.Errorf("mean %v, want %v", mean, want)
	}
	if got := collapse([]string{"a", "b", "a", "c"}, 2); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("collapse = %v", got)
	}
}

func TestCleanSubject(t *testing.T) {
	for _, c := range [][2]string{
		{"net/http: reject invalid header values (#123)", "reject invalid header values"},
		{"fix: handle empty input", "handle empty input"},
		{"feat(parser)!: accept trailing commas (#9) (#10)", "accept trailing commas"},
		{"fix(net/http): keep alive after errors", "keep alive after errors"},
		{"cmd/go, go/build: read  build tags\tonce", "read build tags once"},
		{"Add a cache for parsed templates", "Add a cache for parsed templates"},
		{"Fix bug: crash on start", "Fix bug: crash on start"}, // a phrase, not an area
		{"lsp, hook: resolve paths inside roots", "resolve paths inside roots"},
	} {
		if got := cleanSubject(c[0]); got != c[1] {
			t.Errorf("cleanSubject(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

func TestSkipSubject(t *testing.T) {
	for _, c := range [][2]string{
		{"net/http: reject invalid header values", ""},
		{"Merge branch 'main' into feature", "merge"},
		{"Revert \"net/http: reject invalid headers\"", "revert"},
		{"revert: undo the cache change", "revert"},
		{"Bump golang.org/x/net from 0.1.0 to 0.2.0", "version bump"},
		{"Release v1.4.2 to everyone", "version bump"},
		{"chore(release): publish packages now", "version bump"},
		{"v1.2.3", "version bump"},
		{"fix: typo in doc", "short"},  // "typo", "doc": two words of three letters
		{"os: add Getpid and Uid", ""}, // "add", "Getpid", "Uid"
		{"go: a b c", "short"},
	} {
		if got := skipSubject(c[0], cleanSubject(c[0])); got != c[1] {
			t.Errorf("skipSubject(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

func TestIsSource(t *testing.T) {
	for p, want := range map[string]bool{
		"net/http/server.go":          true,
		"net/http/server_test.go":     false,
		"pkg/test_util.py":            false,
		"pkg/util_test.py":            false,
		"pkg/conftest.py":             false,
		"pkg/util.py":                 true,
		"src/app.test.ts":             false,
		"src/app.spec.js":             false,
		"src/app.tsx":                 true,
		"src/__tests__/app.js":        false,
		"src/test/java/FooTest.java":  false,
		"src/main/java/FooTest.java":  false,
		"src/main/java/Latest.java":   true,
		"lib/foo_spec.rb":             false,
		"tests/integration.rs":        false,
		"net/http/testdata/x.go":      false,
		"vendor/github.com/x/y.go":    false,
		"third_party/zlib/inflate.c":  false,
		"docs/conf.py":                false,
		"examples/hello/main.go":      false,
		"README.md":                   false,
		"go.mod":                      false,
		"include/foo.h":               true,
		"scripts/gen.sh":              true,
		"Examples.go":                 true,
		"internal/testing/helpers.go": true,
	} {
		if got := isSource(p); got != want {
			t.Errorf("isSource(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestSelectQueries(t *testing.T) {
	head := map[string]bool{"a.go": true, "b.go": true, "c.go": true, "d.go": true, "e.go": true, "a_test.go": true}
	exists := func(f string) bool { return head[f] }
	all := func(string) bool { return true }
	commits := []codeCommit{
		{"1", "x: change the first file", []string{"a.go", "a_test.go", "README.md"}},
		{"2", "only tests change here", []string{"a_test.go"}},
		{"3", "five files change together", []string{"a.go", "b.go", "c.go", "d.go", "e.go"}},
		{"4", "a deleted file changed", []string{"a.go", "gone.go"}},
		{"5", "y: Change the first file (#4)", []string{"b.go"}}, // a repeat of 1
		{"6", "four files change together", []string{"a.go", "b.go", "c.go", "d.go"}},
		{"7", "refused by the search here", []string{"a.go"}},
		{"8", "the last one we take", []string{"e.go"}},
	}
	ok := func(q string) bool { return !strings.HasPrefix(q, "refused") }
	got, skipped := selectQueries(commits, exists, ok, 10)
	want := []codeQuery{
		{"1", "change the first file", []string{"a.go"}},
		{"6", "four files change together", []string{"a.go", "b.go", "c.go", "d.go"}},
		{"8", "the last one we take", []string{"e.go"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("selectQueries = %+v, want %+v", got, want)
	}
	wantSkipped := map[string]int{"no source file": 1, "more than 4 source files": 1, "source file gone at HEAD": 1,
		"repeat": 1, "refused by search": 1}
	if !reflect.DeepEqual(skipped, wantSkipped) {
		t.Errorf("skipped %v, want %v", skipped, wantSkipped)
	}
	if got, _ := selectQueries(commits, exists, all, 2); len(got) != 2 || got[1].Commit != "6" {
		t.Errorf("max 2: %+v", got)
	}
}

func TestRefTokens(t *testing.T) {
	got := refTokens("parseHTTPRequest utf8Decode the_foo-Bar2x IOError; Ünïcode and XML")
	want := []string{"parse", "http", "request", "utf8", "decode", "foo", "bar2x", "io", "error", "ünïcode", "xml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("refTokens = %q, want %q", got, want)
	}
}

// TestRefIndex checks BM25 scores on a two-chunk corpus by hand. Tokens
// with the path: a.go -> go alpha beta (3; "a" is a stop word),
// b.go -> b go beta beta gamma (5); N 2, avgdl 4.
func TestRefIndex(t *testing.T) {
	ix := newRefIndex(map[string]string{"a.go": "alpha beta", "b.go": "beta beta gamma"})
	if len(ix.chunks) != 2 || ix.avgLen != 4 {
		t.Fatalf("%d chunks, avgdl %v", len(ix.chunks), ix.avgLen)
	}
	idf := math.Log(1 + 0.5/2.5) // beta: df 2
	s := ix.score("beta")
	wantA := idf * 1 * 2.2 / (1 + 1.2*(0.25+0.75*3.0/4))
	wantB := idf * 2 * 2.2 / (2 + 1.2*(0.25+0.75*5.0/4))
	if math.Abs(s[0]-wantA) > 1e-12 || math.Abs(s[1]-wantB) > 1e-12 {
		t.Errorf("beta: scores %v, want a %v, b %v", s, wantA, wantB)
	}
	// A query term counts once, however often the query says it.
	if s2 := ix.score("beta Beta"); !reflect.DeepEqual(s, s2) {
		t.Errorf("repeated term: %v, want %v", s2, s)
	}
	for q, want := range map[string][]string{
		"beta":  {"b.go", "a.go"}, // b: tf 2 outweighs its length
		"go":    {"a.go", "b.go"}, // tf 1 each: the shorter chunk first
		"alpha": {"a.go"},
		"delta": {},
		"the":   {},
	} {
		if got := ix.search(q, 10); len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("search %q = %v, want %v", q, got, want)
		}
	}
	// 1700 characters make three chunks of 800, 800 and 100, each
	// prefixed with the path; a word only in the last is found there.
	long := strings.Repeat("x", 1600) + " needle " + strings.Repeat("y", 92)
	ix = newRefIndex(map[string]string{"long.txt": long, "empty.txt": ""})
	if len(ix.chunks) != 4 {
		t.Fatalf("%d chunks, want 3 of long.txt and 1 of empty.txt", len(ix.chunks))
	}
	if s := ix.score("needle"); len(s) != 1 || s[3] == 0 {
		t.Errorf("needle: %v, want chunk 3 only", s)
	}
	if s := ix.score("long"); len(s) != 3 {
		t.Errorf("every chunk of long.txt holds its path: %v", s)
	}
}

// TestCodeRepo builds a small repository and checks the queries, their
// gold files and the report's JSON shape, on the work tree and on a bare
// clone.
func TestCodeRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "work")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string, files map[string]string) {
		t.Helper()
		for name, text := range files {
			if text == "" {
				git("rm", "-q", name)
				continue
			}
			write(name, text)
		}
		git("add", "-A")
		git("commit", "-q", "-m", msg)
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q", "-b", "main")
	commit("initial import of the expression parser", map[string]string{
		"parser.go": "package calc\n\n// Parse reads an expression and reports a missing closing brace.\nfunc Parse(s string) error { return nil }\n",
		"lexer.go":  "package calc\n\n// Lex splits input into tokens, unicode identifiers included.\nfunc Lex(s string) []string { return nil }\n",
		"README.md": "# calc\n",
	})
	commit("lexer: handle unicode identifiers in tokens (#12)", map[string]string{
		"lexer.go":      "package calc\n\n// Lex splits input into tokens; unicode identifiers are letters.\nfunc Lex(s string) []string { return nil }\n",
		"lexer_test.go": "package calc\n",
	})
	commit("add a temporary helper for words", map[string]string{"old.go": "package calc\n"})
	commit("fix(parser): report missing closing brace position", map[string]string{
		"parser.go": "package calc\n\n// Parse reads an expression and reports where a closing brace is missing.\nfunc Parse(s string) error { return nil }\n",
	})
	commit("docs: explain the grammar of expressions", map[string]string{"README.md": "# calc\n\nGrammar.\n"})
	commit("Bump version to 1.2.3", map[string]string{"version.go": "package calc\n\nconst Version = \"1.2.3\"\n"})
	commit("remove the temporary helper again", map[string]string{"old.go": ""})
	commit("Revert \"lexer: handle unicode identifiers\"", map[string]string{"lexer.go": "package calc\n\n// Lex splits input into tokens.\nfunc Lex(s string) []string { return nil }\n"})
	commit("lexer: handle unicode identifiers in tokens", map[string]string{"lexer.go": "package calc\n\n// Lex splits an expression into tokens, unicode identifiers too.\nfunc Lex(s string) []string { return nil }\n"})

	bare := filepath.Join(dir, "bare.git")
	if out, err := exec.Command("git", "clone", "-q", "--bare", repo, bare).CombinedOutput(); err != nil {
		t.Fatalf("clone --bare: %v\n%s", err, out)
	}
	for _, r := range []string{repo, bare} {
		rep, err := Code(context.Background(), CodeOptions{Repo: r, TmpDir: t.TempDir()})
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		var got [][2]string
		for _, q := range rep.ByQuery {
			got = append(got, [2]string{q.Query, strings.Join(q.Gold, ",")})
		}
		// Newest first; the older repeat, the revert, the version bump,
		// the docs-only commit, the helper now deleted and the deletion
		// itself are left out.
		want := [][2]string{
			{"handle unicode identifiers in tokens", "lexer.go"},
			{"report missing closing brace position", "parser.go"},
			{"initial import of the expression parser", "lexer.go,parser.go"},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: queries %q, want %q", r, got, want)
		}
		wantSkipped := map[string]int{"revert": 1, "source file gone at HEAD": 2, "version bump": 1, "no source file": 1, "repeat": 1}
		if !reflect.DeepEqual(rep.Skipped, wantSkipped) {
			t.Errorf("%s: skipped %v, want %v", r, rep.Skipped, wantSkipped)
		}
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		var shape struct {
			Queries   *int               `json:"queries"`
			Palace    map[string]float64 `json:"palace"`
			Reference map[string]float64 `json:"reference"`
			ByQuery   []map[string]any   `json:"by_query"`
		}
		if err := json.Unmarshal(b, &shape); err != nil {
			t.Fatal(err)
		}
		if shape.Queries == nil || *shape.Queries != 3 || len(shape.ByQuery) != 3 {
			t.Fatalf("%s: queries %v, by_query %d, want 3", r, shape.Queries, len(shape.ByQuery))
		}
		for _, side := range []map[string]float64{shape.Palace, shape.Reference} {
			if len(side) != len(codeMetricKeys) {
				t.Errorf("%s: metrics %v, want %v", r, side, codeMetricKeys)
			}
			for _, k := range codeMetricKeys {
				if v, ok := side[k]; !ok || v < 0 || v > 1 {
					t.Errorf("%s: %s = %v (present %v)", r, k, v, ok)
				}
			}
		}
		for _, q := range shape.ByQuery {
			for _, k := range []string{"query", "gold", "palace", "reference"} {
				if _, ok := q[k]; !ok {
					t.Errorf("%s: a by_query entry lacks %s: %v", r, k, q)
				}
			}
		}
		// Each query names its files in distinctive words: both sides find
		// one of them first and every one within ten.
		for name, m := range map[string]map[string]float64{"palace": rep.Palace, "reference": rep.Reference} {
			if m["MRR@10"] != 1 || m["R_all@10"] != 1 {
				t.Errorf("%s: %s %v, want MRR@10 and R_all@10 of 1", r, name, m)
			}
		}
	}
}
