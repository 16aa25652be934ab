package lang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// elsewhere are the files outside core/lang allowed a list of extensions
// this table knows (by the end of their path in the module), each with its
// reason. Keep it short.
var elsewhere = map[string]string{
	// Which names a chat format has is the format's rule, written once in
	// its detection (and its help: `palace split` lists a folder by it).
	"core/convo/detect.go": "TextName: the names of FormatText transcripts",
}

// allowed reports whether the module file rel may hold such a list.
func allowed(rel string) bool {
	for k := range elsewhere {
		if rel == k || strings.HasSuffix(rel, "/"+k) {
			return true
		}
	}
	return false
}

// TestNoOtherTable fails when a table of file extensions appears in the
// module's Go code outside core/lang: a map or slice literal, or a switch
// case, holding two or more extensions the table knows. Which file is which
// language is said once, here.
func TestNoOtherTable(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	var found []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			switch name := d.Name(); {
			case p == root:
			case strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules",
				rel == "vscode-extension", rel == "core/lang":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		if allowed(rel) {
			return nil
		}
		hits, err := tablesIn(p)
		if err != nil {
			return err
		}
		for _, h := range hits {
			found = append(found, rel+":"+h)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: a table of extensions outside core/lang: ask core/lang (ByPath, ByExt, Of, IsCodeExt, Fence), or add a row there", f)
	}
}

// The scan finds each form of table it looks for, and leaves alone what
// only looks like one.
func TestTablesInFindsEachForm(t *testing.T) {
	src := `package x
var m = map[string]string{".go": "go", ".py": "python"}
var s = []string{".rs", ".c"}
var dirs = map[string]bool{".git": true, ".hg": true, ".go": true}
var one = map[string]bool{".json": true, ".jsonl": true}
func f(e string) bool {
	switch e {
	case ".md", ".markdown":
		return true
	}
	return e == ".go"
}
`
	p := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	hits, err := tablesIn(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"2 (.go, .py)", "3 (.rs, .c)", "8 (.md, .markdown)"}; strings.Join(hits, "; ") != strings.Join(want, "; ") {
		t.Errorf("tablesIn = %q, want %q", hits, want)
	}
}

// tablesIn lists the extension tables of one Go file, each as its line
// and the extensions it holds.
func tablesIn(file string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	check := func(at token.Pos, exprs []ast.Expr) {
		var exts []string
		for _, e := range exprs {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Key
			}
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				continue
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && strings.HasPrefix(s, ".") && ByExt(s).Name != "" {
				exts = append(exts, s)
			}
		}
		if len(exts) >= 2 {
			out = append(out, fmt.Sprintf("%d (%s)", fset.Position(at).Line, strings.Join(exts, ", ")))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			check(n.Pos(), n.Elts)
		case *ast.CaseClause:
			check(n.Pos(), n.List)
		}
		return true
	})
	return out, nil
}
