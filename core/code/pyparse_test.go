package code

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/chunk"
)

// pyCorpus is the Python standard library the scanner is compared on.
const pyCorpus = "/usr/lib/python3.11"

// comparePy cuts each file with the scanner and with tree-sitter at size
// and returns the files whose cuts differ, with the difference, and the
// files the scanner refuses, by reason.
func comparePy(files map[string]string, o chunk.Options) (same int, diffs []string, refused map[string][]string) {
	sc, ts := NewParser(), NewParser()
	defer sc.Close()
	defer ts.Close()
	ts.treeSitterPython = true
	refused = map[string][]string{}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		src := files[p]
		if _, why, ok := pyTree(src); !ok {
			refused[why] = append(refused[why], p)
			continue // tree-sitter cuts it, as before
		}
		g, gerr := sc.Split(src, "python", o)
		w, werr := ts.Split(src, "python", o)
		g, w = withoutPyMisreads(g), withoutPyMisreads(w)
		if gerr == nil && werr == nil && full(g) == full(w) {
			same++
			continue
		}
		d := strings.Replace(lineDiff(full(g), full(w)), "go/parser  ", "scanner    ", 1)
		diffs = append(diffs, fmt.Sprintf("%s: scanner %v, tree-sitter %v\n%s", p, gerr, werr, d))
	}
	return same, diffs, refused
}

// typeAssignRe finds an assignment to an attribute or an item of a call
// of type (type(obj).attr = value), which tree-sitter-python (v0.23)
// misreads as Python 3.12's type alias statement (type X = Y, with
// (obj).attr as X): type is then a keyword, not a reference, and the
// statement's nodes are a type alias's. The scanner reads the
// assignment Python reads.
var typeAssignRe = regexp.MustCompile(`(?m)^[ \t]*type[ \t]*[(\[][^\n#]*[^=!<>:]=[^=]`)

// withoutPyMisreads drops, from a cut by either reader, what
// tree-sitter-python misreads: the reference to type in a drawer with a
// type(obj).attr = value. Its other misread the scanner refuses instead
// (a starred call in a bare list or in print(...), see starOrExpression),
// as it does the constructs tree-sitter reads with an ERROR node.
func withoutPyMisreads(cs []Chunk) []Chunk {
	for i := range cs {
		if typeAssignRe.MatchString(cs[i].Text) {
			cs[i].Refs = slices.DeleteFunc(slices.Clone(cs[i].Refs), func(r string) bool { return r == "type" })
		}
	}
	return cs
}

// pyTree is pyTreeIn in fresh memory, strict: a panic of the scanner
// other than a refusal fails the test that meets it.
func pyTree(text string) (t *tree, why string, ok bool) {
	return pyTreeIn(text, &pyScratch{strict: true})
}

// TestPyScannerCutsAsTreeSitter: Python read by the scanner is cut into
// the same drawers, with the same definitions and references, as
// tree-sitter's tree of it gives, on the fixture and on the standard
// library, at the mine's size and a small one; few files are refused.
func TestPyScannerCutsAsTreeSitter(t *testing.T) {
	files := map[string]string{}
	fixtures, _ := filepath.Glob("testdata/*.py")
	for _, p := range fixtures {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = string(src)
	}
	_, noCorpus := os.Stat(pyCorpus)
	if noCorpus == nil {
		for p, src := range sourceFiles(t, pyCorpus, "python") {
			files[p] = src
		}
	}
	sizes := []chunk.Options{chunk.Default, {Size: 300}}
	if testing.Short() {
		sizes = sizes[:1] // make check's share; make test compares both
	}
	for _, o := range sizes {
		same, diffs, refused := comparePy(files, o)
		n := 0
		var reasons []string
		for why, ps := range refused {
			n += len(ps)
			reasons = append(reasons, fmt.Sprintf("%d %s (%s)", len(ps), why, strings.Join(ps, " ")))
		}
		sort.Strings(reasons)
		t.Logf("size %d: %d files cut the same, %d differently, %d refused:\n  %s", o.Size, same, len(diffs), n, strings.Join(reasons, "\n  "))
		if len(diffs) > 0 {
			t.Errorf("size %d: %d of %d files cut differently:\n%s", o.Size, len(diffs), same+len(diffs), strings.Join(diffs[:min(len(diffs), 10)], "\n"))
		}
		if n*20 > len(files) {
			t.Errorf("size %d: %d of %d files refused, over 5%%", o.Size, n, len(files))
		}
	}
	if noCorpus != nil {
		t.Skipf("no %s: the fixtures only", pyCorpus)
	}
}

// TestPyScannerOnCorpus is TestPyScannerCutsAsTreeSitter on any Python
// tree (slow: PALACE_PY_COMPARE=dir).
func TestPyScannerOnCorpus(t *testing.T) {
	dir := os.Getenv("PALACE_PY_COMPARE")
	if dir == "" {
		t.Skip("set PALACE_PY_COMPARE=dir")
	}
	same, diffs, refused := comparePy(sourceFiles(t, dir, "python"), chunk.Default)
	t.Logf("%d files cut the same, %d differently", same, len(diffs))
	for why, ps := range refused {
		t.Logf("refused %d: %s (%s)", len(ps), why, ps[0])
	}
	for _, d := range diffs[:min(len(diffs), 40)] {
		t.Log(d)
	}
}

// TestPyScannerReadsWhatTreeSitterMisreads: type(obj).attr = value is an
// assignment referring to type (tree-sitter-python reads a type alias
// statement, type a keyword). Cut with tree-sitter, as without the
// scanner's dispatch, the drawer would not refer to type.
func TestPyScannerReadsWhatTreeSitterMisreads(t *testing.T) {
	src := "def patch(obj, sig):\n    type(obj).signature = sig\n"
	cs, err := Split(src, "python", chunk.Default)
	if err != nil || len(cs) != 1 {
		t.Fatalf("%v %v", full(cs), err)
	}
	want := "1-2 [{patch func}] [obj sig type signature]\n"
	if got := full(cs); got != want {
		t.Errorf("got %swant %s", got, want)
	}
	ts := NewParser()
	defer ts.Close()
	ts.treeSitterPython = true
	if w, _ := ts.Split(src, "python", chunk.Default); full(w) == want {
		t.Errorf("tree-sitter reads it as the scanner does now: %s", full(w))
	}
}

// TestPyScannerRefuses: what the scanner is not sure of goes to
// tree-sitter, which still cuts it (at its definitions, as before).
func TestPyScannerRefuses(t *testing.T) {
	for name, src := range map[string]string{
		"print statement":  "def f(x):\n    print x\n",
		"print chevron":    "def f(x):\n    print >>sys.stderr, x\n",
		"exec statement":   "def f(x):\n    exec x in ns\n",
		"backticks":        "def f(x):\n    return `x`\n",
		"not equal":        "def f(x):\n    return x <> 1\n",
		"tab after spaces": "def f(x):\n    if x:\n    \treturn 1\n",
		"unbalanced":       "def f(x):\n    return (x\n\ndef g():\n    pass\n",
		"unterminated":     "def f(x):\n    return 'x\n\ndef g():\n    pass\n",
		"match":            "def f(x):\n    match x:\n        case 1:\n            pass\n",
		"type parameters":  "def f[T](x: T) -> T:\n    return x\n",
		"old octal":        "def f(x):\n    return 0777\n",
		"starred call":     "def f(x):\n    return *g(x), 1\n",
		"starred print":    "def f(x):\n    print(1, *x.split())\n",
		"dedent in parens": "def f(x):\n    return (x +\n1)\n",
		"0x":               "def f(x):\n    return 0x\n",
	} {
		if _, _, ok := pyTree(src); ok {
			t.Errorf("%s: the scanner reads it", name)
			continue
		}
		cs, err := Split(src, "python", chunk.Default)
		if err != nil && !errors.Is(err, ErrFallback) {
			t.Errorf("%s: %v", name, err)
		}
		if err == nil {
			checkExact(t, src, cs, chunk.Default.Size)
		}
	}
}

// TestPyScannerHostile: on hostile text the scanner returns (refusing or
// cutting), without a panic or a loop, and every line with text lands in
// exactly one drawer whoever cuts it.
func TestPyScannerHostile(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	random := make([]byte, 64<<10)
	rnd.Read(random)
	ascii := make([]byte, 64<<10)
	const alphabet = "()[]{}'\"\\#:=,. \t\nabcfr01*@"
	for i := range ascii {
		ascii[i] = alphabet[rnd.Intn(len(alphabet))]
	}
	long := "x = [" + strings.Repeat("1, ", (MaxBytes-16)/3) + "]\n"
	cases := map[string]string{
		"random bytes":      string(random),
		"random python-ish": string(ascii),
		"unbalanced":        "def f():\n    return ((]\n" + strings.Repeat("x = {[(\n", 1000),
		"unbalanced quotes": "def f():\n    return 'a\" + \"b'''\n" + strings.Repeat("'\"", 1000),
		"deep nesting":      "x = " + strings.Repeat("(", 100000) + "\n",
		"blank lines open":  "def f():\n    x = (" + strings.Repeat("\n", MaxBytes-40) + "1)\n",
		"spaces open":       "def f():\n    x = (" + strings.Repeat(" \n", (MaxBytes-40)/2) + "1)\n",
		"many matches":      strings.Repeat("match;", (MaxBytes-10)/6) + "\n",
		"many with parens":  strings.Repeat("with (a, b):\n    pass\n", MaxBytes/24),
		"deep closed":       "x = " + strings.Repeat("(", 60000) + "1" + strings.Repeat(")", 60000) + "\n",
		"deep operators":    "x = " + strings.Repeat("-", 100000) + "1\n",
		"long chain":        "x = 1" + strings.Repeat(" + 1", 60000) + "\n",
		"deep indentation":  deepIndent(300),
		"unterminated":      "def f():\n    '''never closed\n" + strings.Repeat("x = 1\n", 1000),
		"long line":         long,
		"crlf":              "def f(a):\r\n    # c\r\n    return a  # d\r\n\r\nclass C:\r\n    x = f'{a!r:>{w}}' \\\r\n        'b'\r\n",
		"bom":               "\ufeff# c\ndef f():\n    pass\n",
		"tabs":              "def f():\n\tif x:\n\t\treturn 1\n\t  # c\n\treturn 2\n",
		"lone cr":           "def f():\r    pass\r",
		"nul":               "def f():\n    return '\x00'\x00\n",
		"continuation end":  "x = 1 + \\",
		"f-string nest":     "x = f'{f\"{1}\"}'\n" + strings.Repeat("f'{", 10000),
		"escape at end":     "x = b'\\N",
		"empty":             "",
		"only comments":     "# a\n  # b\n",
		"dedent to nowhere": "if x:\n        a\n    b\n",
		"indent at start":   "  x = 1\n",
		"colon at end":      "if x:",
		"decorator at end":  "@d\n",
		"many dedents":      deepIndent(50) + "# end\n",
	}
	if len(long) > MaxBytes {
		t.Fatalf("the long line is %d bytes, over MaxBytes", len(long))
	}
	for name, src := range cases {
		done := make(chan struct{})
		go func() {
			defer close(done)
			start := time.Now()
			tr, _, ok := pyTree(src)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("%s: the scanner took %v", name, d) // its time is linear: about 10 ms for MaxBytes
			}
			if ok {
				checkExact(t, src, tr.split(chunk.Default), chunk.Default.Size)
				checkExact(t, src, tr.split(chunk.Options{Size: 37}), 37)
			}
			cs, err := Split(src, "python", chunk.Default)
			if err != nil && !errors.Is(err, ErrFallback) {
				t.Errorf("%s: %v", name, err)
			}
			if err == nil {
				checkExact(t, src, cs, chunk.Default.Size)
			}
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: no return in 30 s", name)
		}
	}
}

// namedNodes describes a tree's named nodes in preorder, one a line: kind,
// depth and span.
func namedNodes(text string, top []*node) string {
	var b strings.Builder
	var walk func(ns []*node, d int)
	walk = func(ns []*node, d int) {
		for _, n := range ns {
			fmt.Fprintf(&b, "%d %s %d-%d\n", d, n.kind, n.start, n.end)
			walk(n.children, d+1)
		}
	}
	walk(top, 1)
	return b.String()
}

// treeSitterNodes is namedNodes of tree-sitter's tree of text.
func treeSitterNodes(ps *Parser, text string) string {
	if err := ps.setLanguage("python"); err != nil {
		panic(err)
	}
	st := ps.p.Parse([]byte(text), nil)
	defer st.Close()
	w := walker{names: ps.names["python"], lang: ps.langs["python"]}
	flat := flatNodes(st.RootNode())
	var b strings.Builder
	for i := 0; i < len(flat)/4; i++ {
		fmt.Fprintf(&b, "%d %s %d-%d\n", flat[4*i+1], w.kindOf(uint16(flat[4*i])), flat[4*i+2], flat[4*i+3])
	}
	return b.String()
}

// TestPyScannerTreesAsTreeSitter: on each file of the standard library the
// scanner reads, its tree is tree-sitter's, node for node (kind, depth,
// span), comments and line continuations included; but in the files
// where tree-sitter misreads type(obj).attr = value.
func TestPyScannerTreesAsTreeSitter(t *testing.T) {
	if _, err := os.Stat(pyCorpus); err != nil {
		t.Skipf("no %s", pyCorpus)
	}
	ts := NewParser()
	defer ts.Close()
	sc := &pyScratch{strict: true}
	same, misread := 0, 0
	for p, src := range sourceFiles(t, pyCorpus, "python") {
		tr, _, ok := pyTreeIn(src, sc)
		if !ok {
			continue
		}
		w := treeSitterNodes(ts, src)
		if g := namedNodes(src, tr.top); g != w {
			if strings.Contains(w, "type_alias_statement") {
				misread++
				continue
			}
			t.Errorf("%s: the trees differ:\n%s", p, lineDiff(g, w))
			continue
		}
		same++
	}
	t.Logf("%d files read into tree-sitter's tree, %d with its type alias misread", same, misread)
}

// TestPyScannerMutants: the standard library's files with random edits
// (brackets, quotes, colons, indentation, keywords put in, text cut out
// or repeated; lines dropped, repeated, reindented, swapped, joined, or
// a comment line put in), most of them broken: each one the scanner reads has the
// very tree tree-sitter reads, node for node (tree-sitter puts an ERROR
// node in what it cannot read: the scanner must have refused it).
func TestPyScannerMutants(t *testing.T) {
	if _, err := os.Stat(pyCorpus); err != nil {
		t.Skipf("no %s", pyCorpus)
	}
	files := sourceFiles(t, pyCorpus, "python")
	paths := make([]string, 0, len(files))
	for p, src := range files {
		if len(src) >= 10 && len(src) <= 20000 {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	ts := NewParser()
	defer ts.Close()
	rnd := rand.New(rand.NewSource(1))
	bits := []string{"(", ")", "[", "]", "{", "}", ":", ",", "*", "**", "\n", "    ", "\t", "#", "\\\n",
		"'", "\"", "\"\"\"", "f'{", "}", "=", " if ", " else ", "lambda", " as ", "yield", "print ", "@", ";", ".",
		"not ", " in ", "async ", "await ", "r'", "b'", "\\", "x", " ", "->", ":=", "...", "0x", "type", "match "}
	read, misread := 0, 0
	mutants := 3000
	if testing.Short() {
		mutants = 1000 // make check's share; make test reads all
	}
	for i := 0; i < mutants; i++ {
		src := files[paths[rnd.Intn(len(paths))]]
		if i%2 == 1 {
			src = mutateLines(rnd, src)
			goto read
		}
		for k := 0; k < 1+rnd.Intn(3); k++ {
			at := rnd.Intn(len(src))
			switch rnd.Intn(3) {
			case 0:
				src = src[:at] + bits[rnd.Intn(len(bits))] + src[at:]
			case 1:
				src = src[:at] + src[min(len(src), at+1+rnd.Intn(8)):]
			default:
				src = src[:at] + src[at:min(len(src), at+1+rnd.Intn(40))] + src[at:]
			}
		}
	read:
		tr, _, ok := pyTree(src)
		if !ok {
			continue
		}
		read++
		w := treeSitterNodes(ts, src)
		if g := namedNodes(src, tr.top); g != w {
			if strings.Contains(w, "type_alias_statement") {
				misread++ // type(obj).attr = value: see withoutPyMisreads
				continue
			}
			t.Errorf("mutant %d: the trees differ:\n%s", i, lineDiff(g, w))
		}
	}
	t.Logf("%d of %d mutants read (%d with tree-sitter's type alias misread), the rest refused", read, mutants, misread)
}

// mutateLines edits a few of src's lines: drops, repeats, reindents,
// swaps or joins one, or puts a comment line before it.
func mutateLines(rnd *rand.Rand, src string) string {
	ls := strings.SplitAfter(src, "\n")
	for k := 0; k < 1+rnd.Intn(3) && len(ls) > 1; k++ {
		a := rnd.Intn(len(ls))
		switch rnd.Intn(6) {
		case 0:
			ls = append(ls[:a], ls[a+1:]...)
		case 1:
			ls = append(ls[:a+1], ls[a:]...)
		case 2:
			ls[a] = strings.Repeat(" ", rnd.Intn(9)) + strings.TrimLeft(ls[a], " \t")
		case 3:
			b := rnd.Intn(len(ls))
			ls[a], ls[b] = ls[b], ls[a]
		case 4:
			ls[a] = strings.TrimRight(ls[a], "\n")
		default:
			ls[a] = strings.Repeat(" ", rnd.Intn(9)) + "# c\n" + ls[a]
		}
	}
	return strings.Join(ls, "")
}

// deepIndent is n blocks, each indented one space more.
func deepIndent(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%sif x:\n", strings.Repeat(" ", i))
	}
	fmt.Fprintf(&b, "%spass\n", strings.Repeat(" ", n))
	return b.String()
}
