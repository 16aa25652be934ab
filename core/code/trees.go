package code

import (
	"slices"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Trees keeps the syntax tree of each file last cut, so that a file cut
// again (an editor's save) is parsed incrementally: tree-sitter reuses the
// old tree around the edit. Cutting net/http's server.go again after a
// one-line change takes about half as long with its tree kept (go test
// -bench SplitSave ./core/code): the parse shrinks, reading the tree out
// and cutting it do not. It keeps the cut too, so the same text cut again
// (a save of what the editor's server cut while the user typed) is not
// parsed at all: tree-sitter reuses nothing of a file broken throughout,
// as a file mid-edit often is. It is safe for concurrent use; Close frees
// the trees.
type Trees struct {
	mu    sync.Mutex
	max   int
	kept  map[string]kept
	order []string // paths, least recently put first
	// reused counts the cuts SplitFile took from here, unparsed (Reused).
	reused int
	seq    int // parses kept so far
}

// kept is a file's last text and its tree (nil for Go that go/parser
// read: it has no incremental parse to feed), and the cut of that text
// once made. seq tells one parse from another.
type kept struct {
	text, lang string
	tree       *sitter.Tree
	cut        *cut
	seq        int
}

// cut is what SplitFile gave for a kept text at a drawer size.
type cut struct {
	size   int
	chunks []Chunk
	err    error
}

// NewTrees keeps the trees of at most max files, the most recent ones.
func NewTrees(max int) *Trees {
	return &Trees{max: max, kept: map[string]kept{}}
}

// take removes and returns path's kept tree: a tree is used by one parse
// at a time.
func (ts *Trees) take(path string) (kept, bool) {
	if ts == nil || path == "" {
		return kept{}, false
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	k, ok := ts.kept[path]
	if ok {
		delete(ts.kept, path)
		ts.order = slices.DeleteFunc(ts.order, func(q string) bool { return q == path })
	}
	return k, ok
}

// put keeps k as path's tree, freeing the least recent beyond max.
func (ts *Trees) put(path string, k kept) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.seq++
	k.seq = ts.seq
	if old, ok := ts.kept[path]; ok {
		closeTree(old.tree)
		ts.order = slices.DeleteFunc(ts.order, func(q string) bool { return q == path })
	}
	ts.kept[path] = k
	ts.order = append(ts.order, path)
	for len(ts.order) > ts.max {
		p := ts.order[0]
		ts.order = ts.order[1:]
		closeTree(ts.kept[p].tree)
		delete(ts.kept, p)
	}
}

// cutOf returns the cut kept for path's text in lang at size, if any.
// The chunks are the kept ones: callers only read them.
func (ts *Trees) cutOf(path, text, lang string, size int) ([]Chunk, error, bool) {
	if ts == nil || path == "" {
		return nil, nil, false
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	k, ok := ts.kept[path]
	if !ok || k.cut == nil || k.cut.size != size || k.lang != lang || k.text != text {
		return nil, nil, false
	}
	ts.reused++
	return slices.Clone(k.cut.chunks), k.cut.err, true
}

// Reused is how many times SplitFile took a kept cut instead of parsing:
// what tells a save of the text an editor's server cut while the user
// typed from a save that was parsed (server/lsp's tests read it).
func (ts *Trees) Reused() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.reused
}

// keepCut records the cut of path's kept text, if the kept tree is still
// that text's (another parse of the file may have replaced it).
func (ts *Trees) keepCut(path, text, lang string, size int, chunks []Chunk, err error) {
	if ts == nil || path == "" {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if k, ok := ts.kept[path]; ok && k.lang == lang && k.text == text {
		k.cut = &cut{size: size, chunks: slices.Clone(chunks), err: err}
		ts.kept[path] = k
	}
}

// Close frees every kept tree.
func (ts *Trees) Close() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for p, k := range ts.kept {
		closeTree(k.tree)
		delete(ts.kept, p)
	}
	ts.order = nil
}

// keepText keeps text as path's, parsed without a tree (Go by go/parser),
// freeing the tree kept before.
func (ts *Trees) keepText(path, text, lang string) {
	if ts == nil || path == "" {
		return
	}
	if k, ok := ts.take(path); ok {
		closeTree(k.tree)
	}
	ts.put(path, kept{text: text, lang: lang})
}

func closeTree(t *sitter.Tree) {
	if t != nil {
		t.Close()
	}
}

// edit tells tree, parsed from old, that the text is now new: the one
// range between their common prefix and common suffix changed.
func edit(tree *sitter.Tree, old, new string) {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	tree.Edit(&sitter.InputEdit{
		StartByte: uint(p), OldEndByte: uint(len(old) - s), NewEndByte: uint(len(new) - s),
		StartPosition: point(old, p), OldEndPosition: point(old, len(old)-s), NewEndPosition: point(new, len(new)-s),
	})
}

// point is the row and byte column of offset off in text.
func point(text string, off int) sitter.Point {
	line := strings.LastIndexByte(text[:off], '\n') + 1
	return sitter.Point{Row: uint(strings.Count(text[:off], "\n")), Column: uint(off - line)}
}
