// Package core_test holds the dependency test of the whole module, in the
// style of the Go tree's go/build/deps_test.go: which package may import
// which, written down once, checked against the real import graph.
package core_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/palace-dev/palace"

// layers is the module's import DAG, lowest layer first. A rule
//
//	a, b < c, d;
//
// says that c and d may import a and b and everything a and b may import.
// Every package of the module is on the right of exactly one rule, after
// every rule that defines a name on its left, so the text reads bottom-up.
//
// Names on the left are module packages (their path inside the module),
// groups in capitals defined by a rule of their own, or these:
//
//	STD   the standard library, less the packages this table names
//	EXT   an external package this table does not name
//	a standard package or an external package (or tree, x/...) by its path
//
// The layers say how the engine is stacked. Since a layer grants everything
// beneath it, which packages alone may import the SQLite driver, the store,
// aaak, protocol libraries or os/exec is said by boundaries below.
const layers = `
	# External libraries that only their owners may use (see boundaries).
	github.com/mattn/go-sqlite3, github.com/asg017/sqlite-vec-go-bindings/... < SQLITE;
	github.com/knights-analytics/hugot/..., github.com/yalue/onnxruntime_go,
	github.com/sugarme/tokenizer/... < EMBEDRT;
	github.com/tree-sitter/... < TREESITTER;
	github.com/mark3labs/mcp-go/... < MCPLIB;
	go.lsp.dev/... < LSPLIB;
	github.com/spf13/cobra/... < CLILIB;
	github.com/jackc/pgx/... < PGX;

	# Engine leaves: the standard library only.
	STD < aaak, core/input, core/secrets, core/dates, core/chunk, core/fsx, core/audit, core/lang;
	core/input < core/query, core/picture;

	# Engine leaves that wrap one library.
	STD, EXT < core/cjk;
	core/cjk < core/cjk/internal/cjkprobe;
	core/cjk < core/extract;
	core/chunk < core/convo;
	core/chunk, core/lang, TREESITTER < core/code;
	core/audit, SQLITE < core/store;
	STD, EXT, EMBEDRT < core/embed;

	# The engine, bottom to top.
	core/cjk, core/embed, core/query, core/store < core/palace;
	core/palace < core/palace/palacetest; # tests' throwaway palaces
	core/input, core/query, core/store < core/route;
	core/dates, core/extract, core/input, core/store, EXT < core/kg;
	core/dates, core/input, core/lang, core/palace, core/query, core/route < core/search;
	core/code, core/convo, core/dates, core/palace, core/route, core/secrets, EXT < core/mine;
	core/search < core/vectors;
	aaak, core/search < core/compress;
	core/search < core/relevant;
	core/compress, core/fsx, core/kg, core/secrets, core/vectors < core/memory;
	core/convo, core/memory < core/transfer;
	core/transfer, PGX < core/team;

	# The contract every front speaks: one request type per operation,
	# over any of the engine.
	core/memory, core/mine, core/picture, core/relevant, core/team, core/transfer < core/ops;
	core/ops < ENGINE;

	# Fronts: adapters over the engine (never over each other: see boundaries).
	# A layer grants all below it; core/fronts_test.go narrows the fronts to
	# core/ops and the values it hands over.
	ENGINE, MCPLIB < server/mcp;
	ENGINE, LSPLIB < server/lsp;
	ENGINE < server/hook;
	# What the command-line binaries share: the terminal sanitiser; and
	# their tests' harness (the sandbox their children run in).
	STD < cmd/internal/termsafe;
	STD, os/exec < cmd/internal/clitest;
	server/mcp, server/lsp, server/hook, cmd/internal/termsafe, CLILIB, os/exec < cmd/palace;

	# The benchmarks: a binary of their own, which palace does not link
	# (TestProductLinksNoBench); 'palace bench' runs it.
	ENGINE, MCPLIB, LSPLIB, EMBEDRT, os/exec < cmd/palace-bench/internal/bench;
	cmd/palace-bench/internal/bench, cmd/internal/termsafe, CLILIB < cmd/palace-bench;
`

// boundary is a rule about who imports one package (or tree), whatever the
// layers allow. Patterns: a module package, a tree (x/...), or one file
// (pkg/file.go) when a single file has a reason the rest of its package
// does not.
type boundary struct {
	imp  string   // the imported package or tree
	only []string // when set, the only importers allowed
	not  []string // importers that may not import it
	why  string
}

// boundaries are the design's load-bearing edges, each with its reason.
var boundaries = []boundary{
	{imp: "github.com/mattn/go-sqlite3", only: []string{"core/store"},
		why: "all SQL lives in core/store; fronts tell a busy palace by ops.Classify, not by the driver's codes"},
	{imp: "github.com/asg017/sqlite-vec-go-bindings/...", only: []string{"core/store"},
		why: "the vector index is a store table like any other"},
	// The benchmarks (cmd/palace-bench/internal/bench) build and read their
	// palaces directly: they measure the engine and are not a front. The
	// suite's mines, the servers and the hooks run as palace children; in
	// process they keep what needs the store: the floor (a bare FTS5 table), palaces of
	// synthetic drawers and vectors at a chosen size (bench vectors, the
	// suite's search sizes), the files a mine recorded (the floor's input,
	// the LSP positions), the drawers relevant is asked about, the team
	// bench's bulk notes, and LoCoMo's reach (an in-memory FTS5 table with
	// the palace's tokenizer). What an operation gives (a palace's drawer
	// count, a hit's drawer) they ask core/ops for.
	{imp: "core/store", not: []string{"server/mcp", "server/lsp", "server/hook", "cmd/palace"},
		why: "fronts call core/ops, which owns validation, busy retries and orchestration"},
	{imp: "aaak", only: []string{"core/compress", "core/memory/wakeup.go", "core/ops/search_size.go", "cmd/palace/aaak.go"},
		why: "AAAK is an output dialect: compress and the wake-up write it, `palace aaak` checks and decodes it, and a search's token budget counts with its estimator, as the wake-up's does; mining, search and storage never see it"},
	{imp: "github.com/knights-analytics/hugot/...", only: []string{"core/embed"},
		why: "the embedding runtime is core/embed's business"},
	{imp: "github.com/yalue/onnxruntime_go", only: []string{"core/embed", "cmd/palace-bench/internal/bench"},
		why: "the embedding runtime is core/embed's business; the benchmark measures it directly"},
	{imp: "github.com/sugarme/tokenizer/...", only: []string{"core/embed", "cmd/palace-bench/internal/bench"},
		why: "the embedding runtime is core/embed's business; the benchmark measures it directly"},
	{imp: "github.com/tree-sitter/...", only: []string{"core/code"},
		why: "parsing source is core/code's business: the rest of the engine sees chunks, symbols and references"},
	{imp: "os/exec", only: []string{"cmd/palace/model.go", "cmd/palace/bench.go", "cmd/palace/bench_other.go", "cmd/palace-bench/...", "cmd/internal/clitest"},
		why: "the engine never spawns processes; `palace setup ort` runs its install script, `palace bench` finds and runs palace-bench, the benchmarks drive palace binaries, and the binaries' tests build and run them"},
	{imp: "github.com/mark3labs/mcp-go/...", only: []string{"server/mcp", "cmd/palace-bench/internal/bench"},
		why: "the MCP library belongs to the MCP front (and the benchmark's client)"},
	{imp: "go.lsp.dev/...", only: []string{"server/lsp", "cmd/palace-bench/internal/bench"},
		why: "the LSP libraries belong to the LSP front (and the benchmark's client)"},
	{imp: "github.com/jackc/pgx/...", only: []string{"core/team", "cmd/palace-bench/internal/bench"},
		why: "the team database is core/team's business; the store stays the only package that speaks SQL to the palace; the team benchmark creates and drops its own database and roles"},
	{imp: "github.com/spf13/cobra/...", only: []string{"cmd/palace", "cmd/palace-bench"},
		why: "flags and commands are the CLI's business (and the benchmarks' own binary's)"},
	{imp: "server/...", only: []string{"cmd/palace"},
		why: "the engine imports no front and fronts do not import each other; `palace serve` and `palace hook` start them"},
	{imp: "cmd/...", only: []string{"cmd/..."},
		why: "nothing imports the command line"},
}

// exceptions lift a boundary for one importer (a package or a file), each
// with its reason. Keep it short: each line is a place the design bends.
var exceptions = []struct{ importer, imp, why string }{}

// fixtures are trees of Go files that are sample content, not Palace code.
var fixtures = []string{
	"vscode-extension/...", // a workspace the extension's tests mine
}

// pkg is one package of the import graph: its name and, for each import
// of its non-test files, the files that import it. Module packages are
// named by their path inside the module.
type pkg struct {
	Name    string
	Imports map[string][]string
}

// graph is the module's import graph, keyed by path inside the module.
type graph map[string]*pkg

// rules is the layers table parsed: each name's allowed imports
// (transitively closed).
type rules struct {
	allowed map[string]map[string]bool
	defined map[string]bool // names on the right of a rule
	named   map[string]bool // every name in the table
}

// parseLayers reads the layers text. Module packages are told apart from
// standard ones by the graph's keys.
func parseLayers(text string) (*rules, error) {
	r := &rules{allowed: map[string]map[string]bool{}, defined: map[string]bool{}, named: map[string]bool{}}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	type rule struct{ from, to []string }
	var rs []rule
	onRight := map[string]bool{}
	for _, stmt := range strings.Split(strings.Join(lines, " "), ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		lhs, rhs, ok := strings.Cut(stmt, "<")
		if !ok || strings.Contains(rhs, "<") {
			return nil, fmt.Errorf("layers: rule %q: want \"a, b < c, d\"", strings.TrimSpace(stmt))
		}
		ru := rule{names(lhs), names(rhs)}
		if len(ru.from) == 0 || len(ru.to) == 0 {
			return nil, fmt.Errorf("layers: rule %q has an empty side", strings.TrimSpace(stmt))
		}
		for _, n := range ru.to {
			onRight[n] = true
		}
		rs = append(rs, ru)
	}
	for _, ru := range rs {
		grant := map[string]bool{}
		for _, n := range ru.from {
			// A name some rule defines must be defined before it is used,
			// so that what it brings along is known: the text reads
			// bottom-up, as the layers stack.
			if (onRight[n] || isGroup(n) && n != "STD" && n != "EXT") && !r.defined[n] {
				return nil, fmt.Errorf("layers: %s is used before a rule defines it", n)
			}
			r.named[n] = true
			grant[n] = true
			for m := range r.allowed[n] {
				grant[m] = true
			}
		}
		for _, n := range ru.to {
			if r.defined[n] {
				return nil, fmt.Errorf("layers: %s is on the right of two rules", n)
			}
			r.named[n], r.defined[n] = true, true
			r.allowed[n] = grant
		}
	}
	return r, nil
}

func names(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func isGroup(n string) bool { return n == strings.ToUpper(n) && !strings.ContainsAny(n, "./") }

// node is the layers name an import falls under.
func (r *rules) node(g graph, imp string) string {
	if _, ok := g[imp]; ok {
		return imp
	}
	if r.named[imp] {
		return imp
	}
	best := ""
	for n := range r.named {
		if t, ok := strings.CutSuffix(n, "/..."); ok && (imp == t || strings.HasPrefix(imp, t+"/")) && len(n) > len(best) {
			best = n
		}
	}
	switch {
	case best != "":
		return best
	case isStd(imp):
		return "STD"
	}
	return "EXT"
}

// isStd: standard packages have no dot in their first path element.
func isStd(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

// match reports whether pattern (a package, a tree x/... or a file
// pkg/file.go) covers an importer package and one of its files.
func match(pattern, importer, file string) bool {
	if t, ok := strings.CutSuffix(pattern, "/..."); ok {
		return importer == t || strings.HasPrefix(importer, t+"/")
	}
	if strings.HasSuffix(pattern, ".go") {
		return pattern == importer+"/"+file
	}
	return pattern == importer
}

// covers reports whether pattern (a package or a tree) covers imp.
func covers(pattern, imp string) bool { return match(pattern, imp, "") }

func isFixture(p string) bool {
	for _, f := range fixtures {
		if covers(f, p) {
			return true
		}
	}
	return slices.Contains(strings.Split(p, "/"), "testdata")
}

// check returns every forbidden edge and misplaced package of g, one line
// each, sorted.
func check(g graph, layerText string) []string {
	r, err := parseLayers(layerText)
	if err != nil {
		return []string{err.Error()}
	}
	var bad []string
	for p, info := range g {
		if isFixture(p) {
			continue
		}
		if info.Name != "main" && info.Name != path.Base(p) {
			bad = append(bad, fmt.Sprintf("%s: package %s: name it %s, after its folder", p, info.Name, path.Base(p)))
		}
		if !r.defined[p] {
			bad = append(bad, fmt.Sprintf("%s: not in the layers table: add a rule saying what it may import", p))
			continue
		}
		for imp, files := range info.Imports {
			n := r.node(g, imp)
			if !r.allowed[p][n] {
				what := imp
				if n != imp {
					what += " (" + n + ")"
				}
				bad = append(bad, fmt.Sprintf("%s imports %s in %s: not allowed by the layers table", p, what, strings.Join(files, ", ")))
			}
			for _, b := range boundaries {
				if !covers(b.imp, imp) {
					continue
				}
				var offenders []string
				for _, f := range files {
					if forbidden(b, p, f) && !excepted(p, f, imp) {
						offenders = append(offenders, f)
					}
				}
				if len(offenders) > 0 {
					bad = append(bad, fmt.Sprintf("%s imports %s in %s: %s", p, imp, strings.Join(offenders, ", "), b.why))
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

func forbidden(b boundary, importer, file string) bool {
	if b.only != nil {
		for _, o := range b.only {
			if match(o, importer, file) {
				return false
			}
		}
		return true
	}
	for _, n := range b.not {
		if match(n, importer, file) {
			return true
		}
	}
	return false
}

func excepted(importer, file, imp string) bool {
	for _, e := range exceptions {
		if match(e.importer, importer, file) && covers(e.imp, imp) {
			return true
		}
	}
	return false
}

// loadGraph reads the module's packages with `go list` (so GOFLAGS' build
// tags apply, sqlite_fts5 included) and each non-test file's imports.
func loadGraph(t *testing.T) graph {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Name,Dir,GoFiles,CgoFiles,Error", module+"/...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	g := graph{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var lp struct {
			ImportPath, Name, Dir string
			GoFiles, CgoFiles     []string
			Error                 *struct{ Err string }
		}
		if err := dec.Decode(&lp); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if lp.Error != nil {
			t.Fatalf("go list %s: %s", lp.ImportPath, lp.Error.Err)
		}
		files := append(lp.GoFiles, lp.CgoFiles...)
		if len(files) == 0 {
			continue // tests only, like this one
		}
		p := &pkg{Name: lp.Name, Imports: map[string][]string{}}
		fset := token.NewFileSet()
		for _, f := range files {
			af, err := parser.ParseFile(fset, filepath.Join(lp.Dir, f), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, is := range af.Imports {
				imp, err := strconv.Unquote(is.Path.Value)
				if err != nil {
					t.Fatal(err)
				}
				imp = rel(imp)
				if !slices.Contains(p.Imports[imp], f) {
					p.Imports[imp] = append(p.Imports[imp], f)
				}
			}
		}
		g[rel(lp.ImportPath)] = p
	}
	if len(g) == 0 {
		t.Fatal("go list found no packages")
	}
	return g
}

// rel names a module package by its path inside the module.
func rel(imp string) string {
	if imp == module {
		return "."
	}
	if r, ok := strings.CutPrefix(imp, module+"/"); ok {
		return r
	}
	return imp
}

func TestDeps(t *testing.T) {
	g := loadGraph(t)
	for _, line := range check(g, layers) {
		t.Error(line)
	}
	// A rule or an exception naming a package that is gone is a stale
	// promise: remove it.
	r, err := parseLayers(layers)
	if err != nil {
		t.Fatal(err)
	}
	for n := range r.defined {
		if _, ok := g[n]; !ok && !isGroup(n) {
			t.Errorf("layers: %s is not a package of the module (any more?)", n)
		}
	}
	for _, e := range exceptions {
		p, file := e.importer, ""
		if strings.HasSuffix(p, ".go") {
			p, file = path.Dir(p), path.Base(p)
		}
		info := g[p]
		if info == nil || (file != "" && !slices.Contains(info.Imports[e.imp], file)) || (file == "" && info.Imports[e.imp] == nil) {
			t.Errorf("exception %s -> %s: it no longer imports it; remove the exception", e.importer, e.imp)
		}
	}
}

// TestDepsCatchesForbiddenImports proves the checker is not vacuous: each
// forbidden edge injected into a small, otherwise legal graph is reported.
func TestDepsCatchesForbiddenImports(t *testing.T) {
	legal := func() graph {
		return graph{
			"aaak":          {Name: "aaak", Imports: map[string][]string{"strings": {"aaak.go"}}},
			"core/input":    {Name: "input", Imports: map[string][]string{"errors": {"input.go"}}},
			"core/audit":    {Name: "audit", Imports: map[string][]string{"os": {"audit.go"}}},
			"core/store":    {Name: "store", Imports: map[string][]string{"core/audit": {"store.go"}, "github.com/mattn/go-sqlite3": {"store.go"}}},
			"core/compress": {Name: "compress", Imports: map[string][]string{"aaak": {"compress.go"}}},
			"server/mcp":    {Name: "mcp", Imports: map[string][]string{"core/input": {"errors.go"}, "github.com/mark3labs/mcp-go/server": {"server.go"}}},
			"cmd/palace":    {Name: "main", Imports: map[string][]string{"server/mcp": {"serve.go"}}},
		}
	}
	// Only the packages of the small graph need rules; the rest of the
	// table is not consulted.
	if bad := check(legal(), layers); len(bad) > 0 {
		t.Fatalf("the legal graph is refused:\n%s", strings.Join(bad, "\n"))
	}
	cases := []struct {
		name     string
		from, to string
		file     string
		want     string // a fragment of the report
	}{
		{"aaak to the store", "aaak", "core/store", "x.go", "aaak imports core/store in x.go: not allowed by the layers table"},
		{"aaak to a library", "aaak", "go.yaml.in/yaml/v3", "x.go", "aaak imports go.yaml.in/yaml/v3 (EXT) in x.go"},
		{"the engine to a front", "core/store", "server/mcp", "x.go", "core/store imports server/mcp in x.go: the engine imports no front"},
		{"the engine spawns", "core/store", "os/exec", "x.go", "core/store imports os/exec in x.go: the engine never spawns processes"},
		{"the engine speaks MCP", "core/compress", "github.com/mark3labs/mcp-go/client", "x.go", "core/compress imports github.com/mark3labs/mcp-go/client in x.go: the MCP library"},
		{"a front opens the driver", "server/mcp", "github.com/mattn/go-sqlite3", "busy.go", "server/mcp imports github.com/mattn/go-sqlite3 in busy.go: all SQL lives in core/store"},
		{"a front reaches the store", "server/mcp", "core/store", "tool.go", "server/mcp imports core/store in tool.go: fronts call core/ops"},
		{"the CLI reaches the store", "cmd/palace", "core/store", "search.go", "cmd/palace imports core/store in search.go"},
		{"a stray aaak", "core/store", "aaak", "x.go", "core/store imports aaak in x.go: AAAK is an output dialect"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := legal()
			g[c.from].Imports[c.to] = append(g[c.from].Imports[c.to], c.file)
			bad := check(g, layers)
			if !slices.ContainsFunc(bad, func(l string) bool { return strings.Contains(l, c.want) }) {
				t.Errorf("%s -> %s not reported as %q; got:\n%s", c.from, c.to, c.want, strings.Join(bad, "\n"))
			}
		})
	}
	t.Run("package named apart from its folder", func(t *testing.T) {
		g := legal()
		g["core/input"].Name = "inputs"
		if bad := check(g, layers); !slices.ContainsFunc(bad, func(l string) bool { return strings.Contains(l, "core/input: package inputs: name it input") }) {
			t.Errorf("misnamed package not reported; got:\n%s", strings.Join(bad, "\n"))
		}
	})
	t.Run("package missing from the table", func(t *testing.T) {
		g := legal()
		g["core/newthing"] = &pkg{Name: "newthing", Imports: map[string][]string{}}
		if bad := check(g, layers); !slices.ContainsFunc(bad, func(l string) bool { return strings.Contains(l, "core/newthing: not in the layers table") }) {
			t.Errorf("unlisted package not reported; got:\n%s", strings.Join(bad, "\n"))
		}
	})
	t.Run("malformed table", func(t *testing.T) {
		for _, text := range []string{"a < b < c;", "LATER < core/x;", "STD < a; STD < a;", "a < b; STD < a;"} {
			if bad := check(legal(), text); len(bad) != 1 || !strings.HasPrefix(bad[0], "layers:") {
				t.Errorf("table %q: want one layers error, got %q", text, bad)
			}
		}
	})
}

// notInProduct are packages the product binary, palace, must not link,
// directly or through anything it imports: the benchmarks are a binary of
// their own (cmd/palace-bench), and only they drive the servers as clients.
var notInProduct = []string{
	module + "/cmd/palace-bench/...",
	"github.com/mark3labs/mcp-go/client/...",
}

// TestProductLinksNoBench: everything cmd/palace links (go list -deps,
// with GOFLAGS' build tags) is outside notInProduct.
func TestProductLinksNoBench(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./cmd/palace")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/palace: %v\n%s", err, stderr.String())
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"/core/ops") {
		t.Fatalf("go list -deps ./cmd/palace: no core/ops among %d packages", len(deps))
	}
	for _, d := range deps {
		for _, p := range notInProduct {
			if covers(p, d) {
				t.Errorf("palace links %s (%s): the benchmarks and the MCP client belong to palace-bench", d, p)
			}
		}
	}
}
