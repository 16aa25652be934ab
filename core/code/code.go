// Package code cuts source files into drawers at definitions, using
// tree-sitter grammars (Go read by the standard library's go/parser, see
// goparse.go, and Python by a scanner of its own, see pyparse.go, each
// shaped as tree-sitter shapes its tree), and says what each drawer
// defines and which identifiers it references. A drawer is whole lines of
// the file, verbatim; files in a language it does not know, or that do not
// parse, are left to the line chunker (core/chunk).
package code

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/chunk"
	"github.com/palace-dev/palace/core/lang"
)

// Symbol is a name a drawer defines.
type Symbol struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // func, method, type, class, interface, const, var, module, macro
}

// Chunk is a drawer of a source file: whole lines (or, for a line longer
// than the size limit, a piece of one) with what they define and use.
type Chunk struct {
	chunk.Chunk
	Defines []Symbol
	Refs    []string
}

// Limits on what is parsed and recorded. A file over MaxBytes or slower to
// parse than MaxParse is left to the line chunker, so one odd file can
// neither stall a mine nor hold a large tree in memory. Source files over
// 256 KiB are nearly all generated tables and bundles (37 of the 41 in Go's
// src, where they are 16 of the 84 MB of Go a mine parsed), and
// tree-sitter's tree of one of 500 KB takes 20 MB. go/parser, which reads
// Go, has no time limit: MaxBytes bounds it (its time is linear in the
// text and it refuses nesting over 100,000 levels: 60,000 nested
// parentheses, 120 KB, take it about 0.1 s), and Go it refuses goes to
// tree-sitter under MaxParse.
const (
	MaxBytes = 256 << 10
	MaxParse = 2 * time.Second
	// MaxRefs bounds the identifiers recorded per drawer.
	MaxRefs = 64
)

// cPlusPlusRe finds a line only C++ has: a .h is often a C++ header, and
// tree-sitter's C grammar reads much of one without an error at the top
// level (namespace node { ... } as a function named node), so its
// definitions would be wrong rather than missing. Such a file is parsed
// as C++.
var cPlusPlusRe = regexp.MustCompile(`(?m)^[ \t]*(?:namespace(?:[ \t]+[\w:]+)?[ \t]*\{|template[ \t]*<|class[ \t]+\w+[^;{()]*\{|(?:public|private|protected)[ \t]*:|using[ \t]+namespace\b|extern[ \t]+"C\+\+")`)

// ErrFallback is wrapped by every error Split returns for a file in a
// known language that it leaves to the line chunker.
var ErrFallback = errors.New("not parsed")

// Language names the tree-sitter grammar of path by its extension (as
// core/lang's table says), or "" when it has none.
func Language(path string) string {
	return lang.ByExt(filepath.Ext(path)).Grammar
}

// LanguageOf is Language for the file at path holding text: a C file
// (a .h, mostly) with a line only C++ has is C++.
func LanguageOf(path, text string) string {
	lang := Language(path)
	if lang == "c" && cPlusPlusRe.MatchString(text) {
		return "cpp"
	}
	return lang
}

// Split cuts text, the content of a file in lang (as Language names it),
// at definitions: each top-level definition with the comments right above
// it starts a drawer; small neighbours share one up to o.Size characters;
// a larger definition is cut at its statements (at the deepest level that
// offers a cut), its first lines in the first piece. Every line with
// something on it is in exactly one drawer, in order; blank lines go with
// the drawer before them. A file that is too large, too slow or broken at
// its top level gives an error wrapping ErrFallback.
func Split(text, lang string, o chunk.Options) ([]Chunk, error) {
	ps := NewParser()
	defer ps.Close()
	return ps.Split(text, lang, o)
}

// Split is the package's Split with this parser.
func (ps *Parser) Split(text, lang string, o chunk.Options) ([]Chunk, error) {
	return ps.SplitFile("", text, lang, o)
}

// SplitFile is Split of the file at path: with ps.Trees set, the file's
// previous tree, if kept, makes the parse incremental, and its new tree and
// cut are kept; the same text cut again at the same size is not parsed.
func (ps *Parser) SplitFile(path, text, lang string, o chunk.Options) ([]Chunk, error) {
	if cs, err, ok := ps.Trees.cutOf(path, text, lang, o.Size); ok {
		return cs, err
	}
	cs, err := ps.splitFile(path, text, lang, o)
	ps.Trees.keepCut(path, text, lang, o.Size, cs, err)
	return cs, err
}

func (ps *Parser) splitFile(path, text, lang string, o chunk.Options) ([]Chunk, error) {
	if len(text) > MaxBytes {
		return nil, fmt.Errorf("%w: %d bytes, over the %d byte parse limit", ErrFallback, len(text), MaxBytes)
	}
	if lang == "go" && !ps.treeSitterGo {
		if t, ok := goTree(text); ok {
			ps.Trees.keepText(path, text, lang)
			return t.split(o), nil
		}
	}
	if lang == "python" && !ps.treeSitterPython {
		if ps.py == nil {
			ps.py = &pyScratch{}
		}
		if t, _, ok := pyTreeIn(text, ps.py); ok {
			ps.Trees.keepText(path, text, lang)
			return t.split(o), nil
		}
	}
	t, err := ps.parse(path, text, lang, MaxParse)
	if err != nil {
		return nil, err
	}
	if t.broken {
		return nil, fmt.Errorf("%w: syntax errors at the top level (line %d)", ErrFallback, t.lineOf(t.brokenAt))
	}
	return t.split(o), nil
}

// node is a named syntax node, copied out of tree-sitter so the cutting is
// plain Go.
type node struct {
	kind       string
	start, end int // byte offsets, end exclusive
	children   []*node
}

// def is a definition found in the tree.
type def struct {
	Symbol
	at int // byte offset of the definition (not of its doc comment)
}

// ref is an identifier used in the tree.
type ref struct {
	name string
	at   int
}

// tree is a parsed file.
type tree struct {
	text      string
	lineStart []int // byte offset of each line's start
	runesTo   []int // runes before each line; one more entry than lines
	top       []*node
	defs      []def
	refs      []ref
	broken    bool
	brokenAt  int
}

func newTree(text string) *tree {
	t := &tree{text: text}
	n := strings.Count(text, "\n") + 1
	t.lineStart, t.runesTo = make([]int, 0, n), make([]int, 0, n+1)
	runes := 0
	for off := 0; off < len(text); {
		t.lineStart = append(t.lineStart, off)
		t.runesTo = append(t.runesTo, runes)
		k := strings.IndexByte(text[off:], '\n')
		end := len(text)
		if k >= 0 {
			end = off + k + 1
		}
		runes += utf8.RuneCountInString(text[off:end])
		off = end
	}
	t.runesTo = append(t.runesTo, runes)
	return t
}

// lines is how many lines the text has.
func (t *tree) lines() int { return len(t.lineStart) }

// lineOf is the 1-based line of byte offset off.
func (t *tree) lineOf(off int) int {
	return sort.Search(len(t.lineStart), func(i int) bool { return t.lineStart[i] > off })
}

// lastLine is the 1-based line of n's last byte.
func (t *tree) lastLine(n *node) int {
	if n.end > n.start {
		return t.lineOf(n.end - 1)
	}
	return t.lineOf(n.start)
}

// runes counts the characters of lines a..b (1-based, inclusive).
func (t *tree) runes(a, b int) int { return t.runesTo[b] - t.runesTo[a-1] }

// textOf is lines a..b verbatim.
func (t *tree) textOf(a, b int) string {
	end := len(t.text)
	if b < t.lines() {
		end = t.lineStart[b]
	}
	return t.text[t.lineStart[a-1]:end]
}

// piece is a drawer before it gets its text: lines a..b, or a piece of
// one over-long line.
type piece struct {
	a, b int
	part string // set for a piece of one long line
}

func (t *tree) split(o chunk.Options) []Chunk {
	if o.Size <= 0 {
		o = chunk.Default
	}
	if t.lines() == 0 || strings.TrimSpace(t.text) == "" {
		return nil
	}
	var ps []piece
	t.cut(1, t.lines(), [][]*node{t.top}, o.Size, &ps)
	// Neighbours the cutting left apart (a class's header and its first
	// method, the last piece of a long function and a small one after it)
	// share a drawer when they fit in one.
	merged := ps[:0]
	for _, p := range ps {
		if k := len(merged) - 1; k >= 0 && p.part == "" && merged[k].part == "" && t.runes(merged[k].a, p.b) <= o.Size {
			merged[k].b = p.b
			continue
		}
		merged = append(merged, p)
	}
	out := make([]Chunk, 0, len(merged))
	for _, p := range merged {
		c := Chunk{Chunk: chunk.Chunk{Text: p.part, LineStart: p.a, LineEnd: p.b}}
		if p.part == "" {
			c.Text = t.textOf(p.a, p.b)
		}
		if strings.TrimSpace(c.Text) == "" {
			continue // blank lines alone carry nothing worth a drawer
		}
		out = append(out, c)
	}
	t.attach(out)
	return out
}

// cut appends the pieces of lines a..b. groups are sibling lists of the
// syntax nodes that start in a..b, at one depth of the tree.
func (t *tree) cut(a, b int, groups [][]*node, size int, out *[]piece) {
	if t.runes(a, b) <= size {
		*out = append(*out, piece{a: a, b: b})
		return
	}
	if a == b {
		for _, c := range chunk.Split(t.textOf(a, a), chunk.Options{Size: size}) {
			*out = append(*out, piece{a: a, b: a, part: c.Text})
		}
		return
	}
	// The shallowest depth that offers a cut: definitions before their
	// statements, statements before their expressions.
	var cuts []int
	for len(groups) > 0 {
		if cuts = t.cuts(a, b, groups); len(cuts) > 0 {
			break
		}
		var next [][]*node
		for _, g := range groups {
			for _, n := range g {
				if len(n.children) > 0 {
					next = append(next, n.children)
				}
			}
		}
		groups = next
	}
	if len(cuts) == 0 {
		for l := a + 1; l <= b; l++ {
			cuts = append(cuts, l)
		}
	}
	bounds := append(append([]int{a}, cuts...), b+1)
	ga, gb := 0, -1 // the group of small segments being filled
	flush := func() {
		if gb >= ga {
			*out = append(*out, piece{a: ga, b: gb})
		}
		ga, gb = 0, -1
	}
	for i := 0; i+1 < len(bounds); i++ {
		sa, sb := bounds[i], bounds[i+1]-1
		if t.runes(sa, sb) > size {
			flush()
			t.cut(sa, sb, within(groups, t, sa, sb), size, out)
			continue
		}
		if gb >= ga && t.runes(ga, sb) > size {
			flush()
		}
		if gb < ga {
			ga = sa
		}
		gb = sb
	}
	flush()
}

// within keeps, of each group, the nodes that start in lines a..b.
func within(groups [][]*node, t *tree, a, b int) [][]*node {
	var out [][]*node
	for _, g := range groups {
		var k []*node
		for _, n := range g {
			if l := t.lineOf(n.start); l >= a && l <= b {
				k = append(k, n)
			}
		}
		if len(k) > 0 {
			out = append(out, k)
		}
	}
	return out
}

// cuts are the lines in a+1..b where a node of groups that has a sibling
// before it starts on a line of its own: not on a line that sibling is
// still on, and not right after a comment, which belongs to what follows.
func (t *tree) cuts(a, b int, groups [][]*node) []int {
	seen := map[int]bool{}
	var cs []int
	for _, g := range groups {
		for i, n := range g {
			if i == 0 {
				continue // a cut is between siblings, never inside a parent's first line
			}
			l := t.lineOf(n.start)
			if l <= a || l > b || seen[l] {
				continue
			}
			prev := g[i-1]
			if pl := t.lastLine(prev); pl >= l || isComment(prev.kind) && pl == l-1 {
				continue
			}
			seen[l] = true
			cs = append(cs, l)
		}
	}
	sort.Ints(cs)
	return cs
}

func isComment(kind string) bool {
	return kind == "comment" || kind == "line_comment" || kind == "block_comment"
}

// attach gives each chunk the definitions that start in it and the
// identifiers it uses, less those it defines, de-duplicated, at most
// MaxRefs. A definition or identifier on a line cut in pieces goes with
// the line's first piece. Definitions and identifiers come in the order
// of the text (a tree's preorder), so one pass over the lines and the
// chunks places them all: a binary search of both for each identifier,
// and a map for each chunk, cost a third of the cut.
func (t *tree) attach(cs []Chunk) {
	if len(cs) == 0 {
		return
	}
	if !sort.SliceIsSorted(t.defs, func(i, j int) bool { return t.defs[i].at < t.defs[j].at }) {
		sort.SliceStable(t.defs, func(i, j int) bool { return t.defs[i].at < t.defs[j].at })
	}
	if !sort.SliceIsSorted(t.refs, func(i, j int) bool { return t.refs[i].at < t.refs[j].at }) {
		sort.SliceStable(t.refs, func(i, j int) bool { return t.refs[i].at < t.refs[j].at })
	}
	// at places offsets given in increasing order: the index of the
	// chunk holding off's line, or -1.
	line, ci := 0, 0 // line: lines starting at or before the last offset
	at := func(off int) int {
		for line < len(t.lineStart) && t.lineStart[line] <= off {
			line++
		}
		for ci < len(cs) && cs[ci].LineEnd < line {
			ci++
		}
		if ci < len(cs) && cs[ci].LineStart <= line {
			return ci
		}
		return -1
	}
	defined := make([][]string, len(cs))
	for _, d := range t.defs {
		if i := at(d.at); i >= 0 {
			if slices.Contains(cs[i].Defines, d.Symbol) {
				continue // C's typedef struct table {...} table names it twice
			}
			cs[i].Defines = append(cs[i].Defines, d.Symbol)
			defined[i] = append(defined[i], d.Name)
		}
	}
	line, ci = 0, 0
	seen := map[string]bool{}
	cur := -1 // the chunk seen is of
	for _, r := range t.refs {
		i := at(r.at)
		if i < 0 || len(cs[i].Refs) >= MaxRefs {
			continue
		}
		if i != cur {
			clear(seen)
			for _, d := range defined[i] {
				seen[d] = true
			}
			cur = i
		}
		if !seen[r.name] {
			seen[r.name] = true
			cs[i].Refs = append(cs[i].Refs, r.name)
		}
	}
}
