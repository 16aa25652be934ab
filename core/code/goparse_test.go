package code

import (
	"fmt"
	"go/build"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/chunk"
)

// full describes drawers with their references too.
func full(cs []Chunk) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%d-%d %v %v\n", c.LineStart, c.LineEnd, c.Defines, c.Refs)
	}
	return b.String()
}

// sourceFiles are the regular files in lang under root a mine would parse
// (no testdata, vendor or hidden folders, within MaxBytes), by path.
func sourceFiles(t testing.TB, root, lang string) map[string]string {
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || Language(p) != lang || !d.Type().IsRegular() {
			return nil
		}
		src, err := os.ReadFile(p)
		if err == nil && len(src) <= MaxBytes {
			out[p] = string(src)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// compareParsers cuts each file with go/parser and with tree-sitter at
// size and returns the files whose cuts differ, with the difference.
func compareParsers(files map[string]string, o chunk.Options) (same, differ int, diffs []string) {
	gp, ts := NewParser(), NewParser()
	defer gp.Close()
	defer ts.Close()
	ts.treeSitterGo = true
	for p, src := range files {
		if _, ok := goTree(src); !ok {
			continue // go/parser refuses it: tree-sitter cuts it, as before
		}
		g, gerr := gp.Split(src, "go", o)
		w, werr := ts.Split(src, "go", o)
		w = withoutMisreads(w)
		if gerr == nil && werr == nil && full(g) == full(w) {
			same++
			continue
		}
		differ++
		diffs = append(diffs, fmt.Sprintf("%s: go/parser %v, tree-sitter %v\n%s", p, gerr, werr, lineDiff(full(g), full(w))))
	}
	return same, differ, diffs
}

// withoutMisreads drops what tree-sitter-go (v0.23) misreads and
// go/parser does not: the comma of const a, b = ... named as a constant,
// and a keyword taken for a parameter's name ((int, map[int]T) read as
// two names, map among them) recorded as a reference.
func withoutMisreads(cs []Chunk) []Chunk {
	for i := range cs {
		cs[i].Defines = slices.DeleteFunc(cs[i].Defines, func(s Symbol) bool { return s.Name == "," })
		cs[i].Refs = slices.DeleteFunc(cs[i].Refs, func(r string) bool { return token.IsKeyword(r) })
	}
	return cs
}

// lineDiff is the first lines where a and b differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("  line %d:\n  go/parser   %s\n  tree-sitter %s", i+1, x, y)
		}
	}
	return ""
}

// TestGoParserCutsAsTreeSitter: Go read by go/parser is cut into the same
// drawers, with the same definitions and references, as tree-sitter's tree
// of it gives, on the fixture and on this module's own Go.
func TestGoParserCutsAsTreeSitter(t *testing.T) {
	files := sourceFiles(t, "../..", "go")
	src, err := os.ReadFile("testdata/sample.go")
	if err != nil {
		t.Fatal(err)
	}
	files["testdata/sample.go"] = string(src)
	sizes := []chunk.Options{fixtureSize, chunk.Default}
	if testing.Short() {
		sizes = sizes[1:] // make check: the mine's size
	}
	for _, o := range sizes {
		same, differ, diffs := compareParsers(files, o)
		if differ > 0 {
			t.Errorf("size %d: %d of %d files cut differently:\n%s", o.Size, differ, same+differ, strings.Join(diffs[:min(len(diffs), 5)], "\n"))
		}
	}
}

// TestGoParserOnGoSrc is TestGoParserCutsAsTreeSitter on Go's own src
// (slow: set PALACE_GOSRC_COMPARE=1).
func TestGoParserOnGoSrc(t *testing.T) {
	if os.Getenv("PALACE_GOSRC_COMPARE") == "" {
		t.Skip("set PALACE_GOSRC_COMPARE=1")
	}
	files := sourceFiles(t, filepath.Join(build.Default.GOROOT, "src"), "go")
	same, differ, diffs := compareParsers(files, chunk.Default)
	t.Logf("%d files cut the same, %d differently", same, differ)
	for _, d := range diffs[:min(len(diffs), 40)] {
		t.Log(d)
	}
}

// TestGoBrokenStillCut: Go that go/parser refuses (a file mid-edit) is
// still cut at its definitions, by tree-sitter's error recovery, as it was
// before go/parser; only a file broken at its top level falls back.
func TestGoBrokenStillCut(t *testing.T) {
	src := "package x\n\n// A is fine.\nfunc A() int {\n\treturn 1\n}\n\n// B is half typed.\nfunc B() {\n\tx := 1 +\n}\n\n// C is fine.\nfunc C() {}\n"
	if _, ok := goTree(src); ok {
		t.Fatal("go/parser accepts the broken file")
	}
	cs, err := Split(src, "go", chunk.Options{Size: 60})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, src, cs, 60)
	var defs []string
	for _, c := range cs {
		for _, d := range c.Defines {
			defs = append(defs, d.Name)
		}
	}
	if got := strings.Join(defs, " "); got != "A B C" {
		t.Errorf("definitions %q, want A B C:\n%s", got, full(cs))
	}
}

// TestGoParserReadsWhatTreeSitterMisreads: const a, b = ... defines a and
// b (tree-sitter-go also named the comma), and a result list (int,
// map[K]V) refers to no keyword (tree-sitter read map as a name).
func TestGoParserReadsWhatTreeSitterMisreads(t *testing.T) {
	src := "package x\n\nconst lo, hi = 1, 2\n\nfunc f() (int, map[int]string) { return lo, nil }\n"
	cs, err := Split(src, "go", chunk.Default)
	if err != nil || len(cs) != 1 {
		t.Fatalf("%v %v", full(cs), err)
	}
	want := "1-5 [{lo const} {hi const} {f func}] [int string]\n"
	if got := full(cs); got != want {
		t.Errorf("got %swant %s", got, want)
	}
}

// TestGoPathological: go/parser has no time limit, so MaxBytes bounds it:
// files at the limit nested as deep as text can be are cut (by go/parser,
// or by tree-sitter under MaxParse when go/parser refuses the nesting),
// every line in a drawer, and the test returns.
func TestGoPathological(t *testing.T) {
	for name, src := range map[string]string{
		"parentheses": "package x\n\nvar v = " + strings.Repeat("(", 60000) + "1" + strings.Repeat(")", 60000) + "\n",
		"too deep":    "package x\n\nvar v = " + strings.Repeat("(", 120000) + "1" + strings.Repeat(")", 120000) + "\n",
		"calls":       "package x\n\nvar v = " + strings.Repeat("f(", 60000) + strings.Repeat(")", 60000) + "\n",
		"comments":    "package x\n\nfunc f() {\n" + strings.Repeat("\tx(1, // c\n\t2)\n", 16000) + "}\n",
	} {
		if len(src) > MaxBytes {
			t.Fatalf("%s: %d bytes, over MaxBytes", name, len(src))
		}
		cs, err := Split(src, "go", chunk.Default)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		checkExact(t, src, cs, chunk.Default.Size)
	}
}
