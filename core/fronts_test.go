package core_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// fronts adapt a protocol (flags, MCP tools, LSP methods, agent hooks) to
// core/ops. The layers table grants a front all that core/ops imports,
// the whole engine; this rule narrows it: of the module a front imports
// only the contract and the values it hands over, so a rule, a limit or a
// default can live nowhere but in an operation.
var fronts = []string{"cmd/palace", "server/mcp", "server/lsp", "server/hook"}

// frontValues are what a front may import of the module beside core/ops,
// each with its reason.
var frontValues = []struct{ pkg, why string }{
	{"core/ops", "the contract: every operation's request, validation, result and outcome class"},
	{"core/palace", "the handle a front opens and passes to every operation (its store is not for fronts: TestFrontsDoNotSelectTheStore)"},
	{"core/input", "the bad-input error every operation returns, which a front renames to its own names (a flag, a tool argument)"},
	{"core/lang", "the table of languages and file types: a file's language, a hover's fence name"},
	{"core/fsx", "path confinement: a server reads a client's files only inside the roots the client gave"},
	{"aaak", "`palace aaak` checks and decodes the dialect (cmd/palace/aaak.go alone, by the aaak boundary)"},
	{"server/...", "`palace serve` and `palace hook` start the servers (cmd/palace alone, by the server boundary)"},
	{"cmd/internal/...", "what the command-line binaries share: the terminal sanitiser"},
}

// frontViolations lists every module import of a front outside
// frontValues, one line each, sorted.
func frontViolations(g graph) []string {
	var bad []string
	for _, f := range fronts {
		p := g[f]
		if p == nil {
			bad = append(bad, f+": no such package (update fronts)")
			continue
		}
		for imp, files := range p.Imports {
			if _, ours := g[imp]; !ours {
				continue // the standard library and other modules: the layers table's business
			}
			if slices.ContainsFunc(frontValues, func(v struct{ pkg, why string }) bool { return covers(v.pkg, imp) }) {
				continue
			}
			bad = append(bad, fmt.Sprintf("%s imports %s in %s: a front imports core/ops and the values it hands over (frontValues); add the operation or the name it needs to core/ops", f, imp, strings.Join(files, ", ")))
		}
	}
	sort.Strings(bad)
	return bad
}

func TestFrontsImportOnlyTheContract(t *testing.T) {
	for _, line := range frontViolations(loadGraph(t)) {
		t.Error(line)
	}
}

// The rule catches a front importing the engine, and lets the values by.
func TestFrontsRuleIsNotVacuous(t *testing.T) {
	g := graph{
		"core/ops":    {Name: "ops", Imports: map[string][]string{}},
		"core/search": {Name: "search", Imports: map[string][]string{}},
		"core/input":  {Name: "input", Imports: map[string][]string{}},
		"server/mcp":  {Name: "mcp", Imports: map[string][]string{"core/ops": {"a.go"}, "core/input": {"a.go"}, "strings": {"a.go"}}},
		"server/lsp":  {Name: "lsp", Imports: map[string][]string{"core/ops": {"a.go"}, "core/search": {"hits.go"}}},
		"server/hook": {Name: "hook", Imports: map[string][]string{}},
		"cmd/palace":  {Name: "main", Imports: map[string][]string{"server/mcp": {"serve.go"}}},
	}
	bad := frontViolations(g)
	if len(bad) != 1 || !strings.HasPrefix(bad[0], "server/lsp imports core/search in hits.go: a front imports core/ops") {
		t.Errorf("got %q; want server/lsp's import of core/search alone reported", bad)
	}
}

// storeSelections lists where a Go file selects a field or method named
// Store: the palace's store, which fronts may not reach.
func storeSelections(fset *token.FileSet, f *ast.File) []string {
	var at []string
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok && s.Sel.Name == "Store" {
			at = append(at, fset.Position(s.Sel.Pos()).String())
		}
		return true
	})
	return at
}

// A front never selects the palace's store (p.Store): what it needs of
// the database is an operation. The layers table cannot see this (no
// import is needed to select a field), so the fronts' sources are read.
func TestFrontsDoNotSelectTheStore(t *testing.T) {
	cmd := exec.Command("go", "list", "-json=ImportPath,Dir,GoFiles", module+"/cmd/palace", module+"/server/...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	seen := 0
	for dec.More() {
		var lp struct {
			ImportPath, Dir string
			GoFiles         []string
		}
		if err := dec.Decode(&lp); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(fronts, rel(lp.ImportPath)) {
			continue
		}
		seen++
		fset := token.NewFileSet()
		for _, name := range lp.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(lp.Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, at := range storeSelections(fset, f) {
				t.Errorf("%s: a front selects .Store: call an operation of core/ops instead", at)
			}
		}
	}
	if seen != len(fronts) {
		t.Errorf("read %d of the %d fronts", seen, len(fronts))
	}
	// The check sees a selection where there is one.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", "package x\nfunc f(p *P) { p.Store.Home() }\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	if at := storeSelections(fset, f); len(at) != 1 || at[0] != "x.go:2:18" {
		t.Errorf("p.Store found at %v, want x.go:2:18", at)
	}
}
