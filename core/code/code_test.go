package code

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/palace-dev/palace/core/chunk"
)

var update = flag.Bool("update", false, "rewrite the .want files of testdata")

// fixtureSize is small enough that every fixture is cut into several
// drawers, one of them a definition split at its statements.
var fixtureSize = chunk.Options{Size: 400}

// describe writes one line per drawer: its line range, then what it
// defines as name:kind.
func describe(cs []Chunk) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%d-%d", c.LineStart, c.LineEnd)
		for _, d := range c.Defines {
			fmt.Fprintf(&b, " %s:%s", d.Name, d.Kind)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestFixtures states, per language, the drawers a source file is cut
// into and the symbols each defines (testdata/*.want, one drawer a line).
func TestFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/*.*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		lang := Language(f)
		if lang == "" {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := Split(string(src), lang, fixtureSize)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			checkExact(t, string(src), cs, fixtureSize.Size)
			got := describe(cs)
			if *update {
				if err := os.WriteFile(f+".want", []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(f + ".want")
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s drawers:\n%s\nwant:\n%s", f, got, want)
			}
		})
	}
	if n < 5 {
		t.Fatalf("%d fixtures, want one per language", n)
	}
}

// TestBrokenFallsBack: a file broken at its top level is left to the line
// chunker, with a reason.
func TestBrokenFallsBack(t *testing.T) {
	for lang, src := range map[string]string{
		"go":         "package x\n\nfunc f() {\n\treturn 1\n}\n}}} ))) func {{\n",
		"python":     "def f(:\n    return )\n\nclass\n",
		"typescript": "function f( {\n  return ]\n}\n}}}\n",
		"cpp":        "namespace x {\nint f() { return 1; }\n}\n}}} ))) class {{\n",
		"java":       "class A {\n  int f() { return 1; }\n}\n}}} ))) class {{\n",
		"ruby":       "def f\n  1\nend\nend end ))) class\n",
	} {
		if _, err := Split(src, lang, chunk.Default); !errors.Is(err, ErrFallback) {
			t.Errorf("%s: err %v, want ErrFallback", lang, err)
		}
	}
	// A generated table of 300 KB: over the limit.
	big := "package x\n" + strings.Repeat("var a = 1\n", 30000)
	if _, err := Split(big, "go", chunk.Default); !errors.Is(err, ErrFallback) || !strings.Contains(err.Error(), "parse limit") {
		t.Errorf("large file: err %v, want ErrFallback over the parse limit", err)
	}
}

// TestCPlusPlusHeader: a .h holding C++ is parsed as C++. The C grammar
// reads namespace node { ... } as a function named node without an error
// at the top level, so its definitions would be wrong.
func TestCPlusPlusHeader(t *testing.T) {
	headers := []struct{ src, defines string }{
		{"#pragma once\nnamespace node {\nvoid Init(int argc);\n}  // namespace node\n", "node:module"},
		{"template <typename T>\nT max_of(T a, T b) { return a > b ? a : b; }\n", "max_of:func"},
		{"class Env : public Base {\n public:\n  int id;\n};\n", "Env:class"},
	}
	for _, h := range headers {
		lang := LanguageOf("node.h", h.src)
		cs, err := Split(h.src, lang, chunk.Default)
		if err != nil {
			t.Fatalf("%q: %v", h.src, err)
		}
		if got := strings.TrimSpace(describe(cs)); lang != "cpp" || got != "1-"+fmt.Sprint(strings.Count(h.src, "\n"))+" "+h.defines {
			t.Errorf("C++ in a .h %q: %s, drawers %q; want cpp, one drawer defining %s", h.src, lang, got, h.defines)
		}
	}
	// C that says extern "C" for C++ readers, and a field named class, is C.
	c := "#ifdef __cplusplus\nextern \"C\" {\n#endif\nstruct s { int class; };\nint f(void) { return 0; }\n#ifdef __cplusplus\n}\n#endif\n"
	if lang := LanguageOf("s.h", c); lang != "c" {
		t.Errorf("C header: %s, want c", lang)
	}
	if _, err := Split(c, "c", chunk.Default); err != nil {
		t.Errorf("C header: %v", err)
	}
}

// TestRefs: a drawer lists the identifiers it uses, once each, without
// those it defines.
func TestRefs(t *testing.T) {
	src := "package x\n\n// Twice doubles n.\nfunc Twice(n int) int {\n\treturn add(n, n)\n}\n"
	cs, err := Split(src, "go", chunk.Default)
	if err != nil || len(cs) != 1 {
		t.Fatalf("%v %v", cs, err)
	}
	if got := fmt.Sprint(cs[0].Defines, cs[0].Refs); got != "[{Twice func}] [int add]" {
		t.Errorf("defines and refs: %s", got)
	}
}

// checkExact asserts what mining relies on: drawers come in order; a
// drawer of several lines is exactly those lines, and a piece of one long
// line lies in that line, pieces in order with only whitespace between;
// no line is in two drawers and every line with something on it is in
// one; no drawer is blank or over size characters.
func checkExact(t *testing.T, text string, cs []Chunk, size int) {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	covered := make([]bool, len(lines)+1)
	pos := make([]int, len(lines)+1)
	last := 0 // last line of the previous drawer
	for i, c := range cs {
		if c.LineStart < 1 || c.LineStart > c.LineEnd || c.LineEnd > len(lines) {
			t.Fatalf("drawer %d: bad range %d-%d of %d lines", i, c.LineStart, c.LineEnd, len(lines))
		}
		if strings.TrimSpace(c.Text) == "" {
			t.Fatalf("drawer %d is blank", i)
		}
		if n := len([]rune(c.Text)); n > size {
			t.Fatalf("drawer %d (%d-%d): %d characters, over %d", i, c.LineStart, c.LineEnd, n, size)
		}
		whole := strings.Join(lines[c.LineStart-1:c.LineEnd], "")
		if c.Text == whole && pos[c.LineStart] == 0 {
			if c.LineStart <= last {
				t.Fatalf("drawer %d (%d-%d) overlaps or precedes line %d", i, c.LineStart, c.LineEnd, last)
			}
			for l := last + 1; l < c.LineStart; l++ {
				if strings.TrimSpace(lines[l-1]) != "" {
					t.Fatalf("line %d %q is in no drawer", l, lines[l-1])
				}
			}
			for l := c.LineStart; l <= c.LineEnd; l++ {
				covered[l] = true
			}
			last = c.LineEnd
			continue
		}
		if c.LineStart != c.LineEnd {
			t.Fatalf("drawer %d (%d-%d) is not its lines verbatim:\n%q\nwant\n%q", i, c.LineStart, c.LineEnd, c.Text, whole)
		}
		no := c.LineStart
		if no < last || no == last && pos[no] == 0 {
			t.Fatalf("drawer %d, a piece of line %d, comes after line %d", i, no, last)
		}
		at := strings.Index(whole[pos[no]:], c.Text)
		if at < 0 || strings.TrimSpace(whole[pos[no]:pos[no]+at]) != "" {
			t.Fatalf("drawer %d %q is not the next piece of line %d %q", i, c.Text, no, whole)
		}
		pos[no] += at + len(c.Text)
		covered[no] = true
		last = no
	}
	for no, l := range lines {
		if strings.TrimSpace(l) != "" && !covered[no+1] {
			t.Fatalf("line %d %q is in no drawer", no+1, l)
		}
		if pos[no+1] > 0 && strings.TrimSpace(l[pos[no+1]:]) != "" {
			t.Fatalf("the pieces of line %d stop before %q", no+1, l[pos[no+1]:])
		}
	}
}

// TestNodeLayout: flatNodes reads go-tree-sitter's Node as tree-sitter's
// TSNode and walks with tree-sitter's cursor in C; a version that changed
// either must fail here, not corrupt a walk. Each fixture's named nodes
// must come out as go-tree-sitter's own cursor reports them.
func TestNodeLayout(t *testing.T) {
	if got := unsafe.Sizeof(sitter.Node{}); got != nodeSize {
		t.Fatalf("go-tree-sitter Node is %d bytes, TSNode as declared %d", got, nodeSize)
	}
	files, err := filepath.Glob("testdata/*.*")
	if err != nil {
		t.Fatal(err)
	}
	ps := NewParser()
	defer ps.Close()
	n := 0
	for _, f := range files {
		lang := Language(f)
		if lang == "" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := ps.setLanguage(lang); err != nil {
			t.Fatal(err)
		}
		st := ps.p.Parse(src, nil)
		got, want := flatNodes(st.RootNode()), cursorNodes(st.RootNode())
		st.Close()
		if len(want) < 4*50 {
			t.Fatalf("%s: %d named nodes, want a fixture of some size", f, len(want)/4)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: flatNodes differs from go-tree-sitter's cursor:\n%v\nwant\n%v", f, got, want)
		}
		n++
	}
	if n < 5 {
		t.Fatalf("%d fixtures, want one per language", n)
	}
}

// cursorNodes is flatNodes through go-tree-sitter's cursor, a cgo call
// per step.
func cursorNodes(root *sitter.Node) []uint32 {
	var out []uint32
	c := root.Walk()
	defer c.Close()
	depth := uint32(0)
	for {
		if c.GotoFirstChild() {
			depth++
		} else {
			for !c.GotoNextSibling() {
				if depth == 0 || !c.GotoParent() {
					return out
				}
				depth--
				if depth == 0 {
					return out
				}
			}
		}
		if n := c.Node(); n.IsNamed() {
			out = append(out, uint32(n.KindId()), depth, uint32(n.StartByte()), uint32(n.EndByte()))
		}
	}
}

// TestParserTimeout: a parse over its time limit falls back, and the same
// Parser then cuts the next file from its own start, not by resuming the
// parse that timed out.
func TestParserTimeout(t *testing.T) {
	ps := NewParser()
	defer ps.Close()
	slow := "package x\n\n" + strings.Repeat("func f() { a(b(c(1, 2), 3)) }\n", 20000)
	if _, err := ps.parse("", slow, "go", time.Microsecond); !errors.Is(err, ErrFallback) || !strings.Contains(err.Error(), "took over") {
		t.Fatalf("err %v, want ErrFallback for the time limit", err)
	}
	src := "package x\n\n// Twice doubles n.\nfunc Twice(n int) int {\n\treturn add(n, n)\n}\n"
	cs, err := ps.Split(src, "go", chunk.Default)
	if err != nil || len(cs) != 1 {
		t.Fatalf("after a timeout: %v %v", cs, err)
	}
	if got := fmt.Sprint(cs[0].Defines, cs[0].Refs); got != "[{Twice func}] [int add]" {
		t.Errorf("after a timeout, defines and refs: %s", got)
	}
}

// TestTreesIncremental: a file cut again with its previous tree kept (an
// editor's saves: lines changed, added and removed, anywhere, and a
// different language under the same path) is cut exactly as a fresh parse
// cuts it.
func TestTreesIncremental(t *testing.T) {
	src, err := os.ReadFile("testdata/sample.go")
	if err != nil {
		t.Fatal(err)
	}
	base := strings.Split(string(src), "\n")
	edits := []func([]string) []string{
		func(l []string) []string { return l },
		func(l []string) []string { l[len(l)/2] = "\t// a comment edited here"; return l },
		func(l []string) []string { return append([]string{"// Package doc.", ""}, l...) },
		func(l []string) []string { return append(l, "func Added(x int) int { return x * 2 }") },
		func(l []string) []string { return append(l[:len(l)/3], l[len(l)/3+4:]...) },
		func(l []string) []string { return append(l, "func broken( {") },
		func(l []string) []string { l[0] = strings.ToUpper(l[0]); return l },
	}
	ps, trees := keptParser(t, 2)
	const path = "/w/sample.go"
	for i, e := range edits {
		text := strings.Join(e(append([]string(nil), base...)), "\n")
		got, gerr := ps.SplitFile(path, text, "go", fixtureSize)
		want, werr := Split(text, "go", fixtureSize)
		if (gerr == nil) != (werr == nil) || describe(got) != describe(want) {
			t.Errorf("edit %d: incremental %v\n%s\nfresh %v\n%s", i, gerr, describe(got), werr, describe(want))
		}
	}
	// Another language under the same path is parsed afresh.
	py, err := os.ReadFile("testdata/sample.py")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := ps.SplitFile(path, string(py), "python", fixtureSize)
	want, _ := Split(string(py), "python", fixtureSize)
	if describe(got) != describe(want) {
		t.Errorf("python under a Go file's path:\n%s\nwant\n%s", describe(got), describe(want))
	}
	// At most two trees are kept.
	for _, p := range []string{"/w/a.go", "/w/b.go", "/w/c.go"} {
		if _, err := ps.SplitFile(p, string(src), "go", fixtureSize); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(trees.kept); n != 2 || len(trees.order) != 2 {
		t.Errorf("%d trees kept (%d in order), want 2", n, len(trees.order))
	}
}

// TestTreesKeepTheCut: the same text cut again at the same size is the
// kept cut, not a new parse (the kept tree stays the one parsed first),
// broken text included (go/parser's cut of the whole, tree-sitter's of
// the broken); another size or another text is cut afresh.
func TestTreesKeepTheCut(t *testing.T) {
	src, err := os.ReadFile("testdata/sample.go")
	if err != nil {
		t.Fatal(err)
	}
	ps, trees := keptParser(t, 2)
	const path = "/w/sample.go"
	text, broken := string(src), string(src)+"\n}}} ))) func {{\n"
	for _, tx := range []string{text, broken} {
		first, ferr := ps.SplitFile(path, tx, "go", fixtureSize)
		parsed := trees.kept[path].seq
		if len(first) > 0 {
			first[0].LineStart = -1 // a caller's change to its slice is its own
		}
		again, aerr := ps.SplitFile(path, tx, "go", fixtureSize)
		want, werr := Split(tx, "go", fixtureSize)
		if trees.kept[path].seq != parsed {
			t.Errorf("the same text was parsed again")
		}
		if fmt.Sprint(aerr) != fmt.Sprint(werr) || fmt.Sprint(ferr) != fmt.Sprint(werr) || describe(again) != describe(want) {
			t.Errorf("kept cut %v\n%s\nwant %v\n%s", aerr, describe(again), werr, describe(want))
		}
		if _, err := ps.SplitFile(path, tx, "go", chunk.Default); err == nil && trees.kept[path].seq == parsed {
			t.Errorf("another drawer size reused the cut")
		}
	}
}

// keptParser is a parser keeping the trees of at most n files, both freed
// when the test ends.
func keptParser(t *testing.T, n int) (*Parser, *Trees) {
	trees := NewTrees(n)
	ps := NewParser()
	ps.Trees = trees
	t.Cleanup(func() {
		ps.Close()
		trees.Close()
	})
	return ps, trees
}
