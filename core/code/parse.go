package code

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// grammars are the tree-sitter languages by the names Language gives.
var grammars = map[string]func() unsafe.Pointer{
	"go": tsgo.Language, "python": tspython.Language, "javascript": tsjs.Language,
	"typescript": tsts.LanguageTypescript, "tsx": tsts.LanguageTSX, "rust": tsrust.Language,
	"c": tsc.Language, "cpp": tscpp.Language, "java": tsjava.Language, "ruby": tsruby.Language,
}

// defKinds maps the syntax node kinds that define a symbol to the
// symbol's kind, per grammar family. Kinds decided by context (methods,
// JS variables, Go types) are settled in walker.define.
var defKinds = map[string]map[string]string{
	"go": {
		"function_declaration": "func", "method_declaration": "method",
		"type_spec": "type", "type_alias": "type", "const_spec": "const", "var_spec": "var",
	},
	"python": {
		"function_definition": "func", "class_definition": "class", "assignment": "var",
	},
	"js": {
		"function_declaration": "func", "generator_function_declaration": "func",
		"class_declaration": "class", "abstract_class_declaration": "class",
		"method_definition": "method", "abstract_method_signature": "method",
		"variable_declarator": "var", "interface_declaration": "interface",
		"type_alias_declaration": "type", "enum_declaration": "type",
		"internal_module": "module", "module": "module",
	},
	"rust": {
		"function_item": "func", "function_signature_item": "method",
		"struct_item": "type", "enum_item": "type", "union_item": "type", "type_item": "type",
		"trait_item": "interface", "const_item": "const", "static_item": "var",
		"mod_item": "module", "macro_definition": "macro",
	},
	// C: a struct, union or enum counts only with its body (struct s *p
	// names one); a typedef defines its declarators; prototypes and
	// globals are declarations, left out.
	"c": {
		"function_definition": "func", "struct_specifier": "type", "union_specifier": "type",
		"enum_specifier": "type", "type_definition": "type", "enumerator": "const",
		"preproc_def": "macro", "preproc_function_def": "macro",
	},
	// C++: C's definitions, and classes (a struct may have methods too),
	// namespaces and using aliases; a function defined with its class's
	// name (void Table::put) is a method. Templates are looked into.
	"cpp": {
		"function_definition": "func", "class_specifier": "class", "struct_specifier": "class",
		"union_specifier": "type", "enum_specifier": "type", "type_definition": "type",
		"alias_declaration": "type", "enumerator": "const", "namespace_definition": "module",
		"preproc_def": "macro", "preproc_function_def": "macro",
	},
	// Java: fields are named too (static final ones are constants);
	// locals are inside methods, which are not looked into.
	"java": {
		"class_declaration": "class", "record_declaration": "class", "enum_declaration": "class",
		"interface_declaration": "interface", "annotation_type_declaration": "interface",
		"method_declaration": "method", "constructor_declaration": "method",
		"field_declaration": "var", "constant_declaration": "const", "enum_constant": "const",
	},
	// Ruby: a def is a method in a class or module, a func at the top; a
	// constant assigned in a class, a module or at the top is a const.
	"ruby": {
		"method": "func", "singleton_method": "method", "class": "class", "module": "module",
		"assignment": "const",
	},
}

// identKinds are the leaf kinds that name something a drawer refers to.
var identKinds = map[string]bool{
	"identifier": true, "type_identifier": true, "field_identifier": true,
	"property_identifier": true, "package_identifier": true,
	"shorthand_property_identifier": true, "namespace_identifier": true,
	"constant": true, // Ruby's capitalised names: classes, modules, constants
}

// bodyKinds are the definitions whose insides hold no further definitions
// worth naming (locals, nested helpers).
var bodyKinds = map[string]bool{"func": true, "method": true, "var": true, "const": true}

func family(lang string) string {
	switch lang {
	case "javascript", "typescript", "tsx":
		return "js"
	}
	return lang
}

// Parser cuts source files. It keeps one tree-sitter parser, whose
// buffers are reused from file to file: a new parser per file cost its
// setup and fresh allocations each time. A Parser is for one goroutine at
// a time; Close frees it.
type Parser struct {
	p     *sitter.Parser
	langs map[string]*sitter.Language  // grammars loaded, by language
	names map[string]map[uint16]string // node kind names by language and id
	cur   string                       // the language p is set to
	// treeSitterGo parses Go with tree-sitter too, not go/parser first
	// (tests and benchmarks compare the two).
	treeSitterGo bool
	// treeSitterPython parses Python with tree-sitter too, not the
	// scanner of pyparse.go first.
	treeSitterPython bool
	py               *pyScratch // the Python scanner's memory
	// Trees, when set, keeps each file's tree for the next parse of the
	// same path (see Trees); shared by a mine's parsers.
	Trees *Trees
}

// NewParser returns a Parser for every language Language names.
func NewParser() *Parser {
	return &Parser{p: sitter.NewParser(), langs: map[string]*sitter.Language{}, names: map[string]map[uint16]string{}}
}

// Close frees the parser's memory.
func (ps *Parser) Close() { ps.p.Close() }

// setLanguage makes the parser read lang.
func (ps *Parser) setLanguage(lang string) error {
	if ps.cur == lang {
		return nil
	}
	l, ok := ps.langs[lang]
	if !ok {
		g, ok := grammars[lang]
		if !ok {
			return fmt.Errorf("%w: no grammar for %q", ErrFallback, lang)
		}
		l = sitter.NewLanguage(g())
		ps.langs[lang], ps.names[lang] = l, map[uint16]string{}
	}
	if err := ps.p.SetLanguage(l); err != nil {
		return fmt.Errorf("%w: %s grammar: %v", ErrFallback, lang, err)
	}
	ps.cur = lang
	return nil
}

// parse parses text, the content of path ("" for none), as lang within
// limit.
func (ps *Parser) parse(path, text, lang string, limit time.Duration) (*tree, error) {
	if err := ps.setLanguage(lang); err != nil {
		return nil, err
	}
	p := ps.p
	src := []byte(text)
	// The deprecated timeout, not a progress callback: tree-sitter calls
	// that back into Go every hundred steps, which cost a fifth of the
	// parse; v0.25 still honours the timeout, and go.mod pins v0.25.
	//lint:ignore SA1019 deliberate: a progress callback costs a fifth of the parse
	p.SetTimeoutMicros(uint64(limit.Microseconds()))
	var old *sitter.Tree
	if k, ok := ps.Trees.take(path); ok {
		if k.tree != nil {
			if k.lang == lang {
				edit(k.tree, k.text, text)
				old = k.tree
			}
			defer k.tree.Close()
		}
	}
	st := p.Parse(src, old)
	if st == nil {
		// A parser that timed out would resume that parse on the next
		// call, whatever text it is given.
		p.Reset()
		return nil, fmt.Errorf("%w: parsing took over %v", ErrFallback, limit)
	}
	if ps.Trees != nil && path != "" {
		defer ps.Trees.put(path, kept{text: text, lang: lang, tree: st})
	} else {
		defer st.Close()
	}
	t := newTree(text)
	w := walker{t: t, lang: ps.langs[lang], names: ps.names[lang],
		defs: defKinds[family(lang)], fam: family(lang)}
	root := st.RootNode()
	// A file broken at its top level goes to the line chunker (SplitFile):
	// copying its nodes and looking for definitions in its ERROR nodes
	// would be thrown away. An editor saves such files all the time.
	if root.IsError() {
		t.broken = true
		return t, nil
	}
	if at, ok := topError(root); ok {
		t.broken, t.brokenAt = true, at
		return t, nil
	}
	t.top = w.build(flatNodes(root))
	c := root.Walk()
	defer c.Close()
	w.define(c, "", 0)
	return t, nil
}

// walker copies a tree-sitter tree into nodes and collects its
// definitions and identifiers.
type walker struct {
	t     *tree
	lang  *sitter.Language
	names map[uint16]string // kind names by id, looked up once each
	defs  map[string]string
	fam   string
}

func (w *walker) kindOf(id uint16) string {
	k, ok := w.names[id]
	if !ok {
		k = w.lang.NodeKindForId(id)
		w.names[id] = k
	}
	return k
}

func (w *walker) kind(n *sitter.Node) string { return w.kindOf(n.KindId()) }

// build makes the node tree from flatNodes' preorder list, recording the
// identifiers on the way, and returns the top-level nodes. The nodes and
// all child lists live in two slices: a node allocated on its own, and a
// child list grown by appends, made this walk cost as much as the
// cutting and the refs together.
func (w *walker) build(flat []uint32) []*node {
	nodes := make([]node, len(flat)/4)
	parent := make([]int32, len(nodes)) // index of each node's parent, -1 at the top
	kids := make([]int32, len(nodes))   // how many children each node has
	tops := 0
	var stack []int32 // stack[d-1] is the open node at depth d, -1 for an anonymous one
	for i := range nodes {
		k := w.kindOf(uint16(flat[4*i]))
		depth, start, end := int(flat[4*i+1]), int(flat[4*i+2]), int(flat[4*i+3])
		nodes[i] = node{kind: k, start: start, end: end}
		if identKinds[k] && end-start >= 2 && end-start <= 100 {
			w.t.refs = append(w.t.refs, ref{name: w.t.text[start:end], at: start})
		}
		// Anonymous nodes are skipped, so a named node's parent is the
		// nearest open node above its depth.
		for len(stack) > 0 && len(stack) >= depth {
			stack = stack[:len(stack)-1]
		}
		for len(stack) > 0 && stack[len(stack)-1] < 0 {
			stack = stack[:len(stack)-1]
		}
		parent[i] = -1
		if len(stack) == 0 {
			tops++
		} else {
			parent[i] = stack[len(stack)-1]
			kids[parent[i]]++
		}
		for len(stack) < depth-1 {
			stack = append(stack, -1)
		}
		stack = append(stack, int32(i))
	}
	top := make([]*node, 0, tops)
	lists := make([]*node, len(nodes)-tops)
	for i := range nodes {
		if c := int(kids[i]); c > 0 {
			nodes[i].children, lists = lists[:0:c], lists[c:]
		}
		if p := parent[i]; p < 0 {
			top = append(top, &nodes[i])
		} else {
			nodes[p].children = append(nodes[p].children, &nodes[i])
		}
	}
	return top
}

// maxDefDepth bounds how deep definitions are looked for: deep enough for
// a method in a class in an export in a module.
const maxDefDepth = 8

// define records the definitions under the cursor's node. owner is the
// symbol kind of the nearest enclosing definition ("" at the top, "class"
// in a class...). Inside a function or a value nothing more is named:
// those are locals.
func (w *walker) define(c *sitter.TreeCursor, owner string, depth int) {
	if depth >= maxDefDepth || !c.GotoFirstChild() {
		return
	}
	for {
		if n := c.Node(); n.IsNamed() {
			inner := owner
			if sk := w.defOf(n, w.kind(n), owner); sk != "" {
				inner = sk
			}
			if !bodyKinds[inner] {
				w.define(c, inner, depth+1)
			}
		}
		if !c.GotoNextSibling() {
			break
		}
	}
	c.GotoParent()
}

// defOf records the symbols n defines, if it is a definition, and
// returns its symbol kind ("" when it is none).
func (w *walker) defOf(n *sitter.Node, k, owner string) string {
	sk, ok := w.defs[k]
	if !ok {
		if k == "impl_item" || k == "trait_item" {
			return "class" // what a Rust impl holds are methods
		}
		return ""
	}
	start := int(n.StartByte())
	name := func(field string) string {
		if f := n.ChildByFieldName(field); f != nil {
			s, e := f.ByteRange()
			return w.t.text[s:e]
		}
		return ""
	}
	add := func(nm, kind string) {
		if nm != "" {
			w.t.defs = append(w.t.defs, def{Symbol: Symbol{Name: nm, Kind: kind}, at: start})
		}
	}
	switch {
	case w.fam == "cpp" && k == "function_definition":
		d := n.ChildByFieldName("declarator")
		if owner == "class" || w.qualified(d) {
			sk = "method"
		}
		add(w.cName(d), sk)
		return sk
	case w.fam == "cpp" && (k == "class_specifier" || k == "struct_specifier" || k == "union_specifier" || k == "enum_specifier"):
		if n.ChildByFieldName("body") == nil {
			return ""
		}
		add(w.lastName(n.ChildByFieldName("name")), sk)
		return sk
	case w.fam == "java" && (k == "field_declaration" || k == "constant_declaration"):
		if k == "field_declaration" && w.javaConstant(n) {
			sk = "const"
		}
		cur := n.Walk()
		for _, d := range n.ChildrenByFieldName("declarator", cur) {
			if f := d.ChildByFieldName("name"); f != nil {
				s, e := f.ByteRange()
				add(w.t.text[s:e], sk)
			}
		}
		cur.Close()
		return sk
	case w.fam == "ruby" && k == "assignment":
		if l := n.ChildByFieldName("left"); l == nil || w.kind(l) != "constant" || owner != "" && owner != "class" && owner != "module" {
			return ""
		}
		add(name("left"), sk)
		return sk
	case w.fam == "ruby" && k == "method":
		if owner == "class" || owner == "module" {
			sk = "method"
		}
	case w.fam == "ruby" && (k == "class" || k == "module"):
		add(w.lastName(n.ChildByFieldName("name")), sk)
		return sk
	case (w.fam == "c" || w.fam == "cpp") && k == "function_definition":
		add(w.cName(n.ChildByFieldName("declarator")), sk)
		return sk
	case (w.fam == "c" || w.fam == "cpp") && k == "type_definition":
		cur := n.Walk()
		for _, d := range n.ChildrenByFieldName("declarator", cur) {
			add(w.cName(&d), sk)
		}
		cur.Close()
		return sk
	case w.fam == "c" && (k == "struct_specifier" || k == "union_specifier" || k == "enum_specifier"):
		if n.ChildByFieldName("body") == nil {
			return ""
		}
	case w.fam == "go" && (k == "const_spec" || k == "var_spec"):
		cur := n.Walk()
		for _, f := range n.ChildrenByFieldName("name", cur) {
			s, e := f.ByteRange()
			add(w.t.text[s:e], sk)
		}
		cur.Close()
		return sk
	case k == "type_spec":
		if t := n.ChildByFieldName("type"); t != nil && w.kind(t) == "interface_type" {
			sk = "interface"
		}
	case k == "assignment": // Python: a module or class attribute
		if l := n.ChildByFieldName("left"); l == nil || w.kind(l) != "identifier" || owner != "" && owner != "class" {
			return ""
		}
		add(name("left"), sk)
		return sk
	case k == "function_definition" || k == "function_item":
		if owner == "class" || owner == "interface" {
			sk = "method"
		}
	case k == "variable_declarator":
		if owner != "" {
			return "" // a local, or a field of something already named
		}
		if v := n.ChildByFieldName("value"); v != nil {
			switch w.kind(v) {
			case "arrow_function", "function_expression", "function", "generator_function":
				sk = "func"
			}
		}
		if p := n.Parent(); sk == "var" && p != nil && w.kind(p) == "lexical_declaration" {
			if kw := p.Child(0); kw != nil && w.kind(kw) == "const" {
				sk = "const"
			}
		}
	}
	add(name("name"), sk)
	return sk
}

// cName is the name a C declarator declares: the identifier under its
// pointer, function, array and parenthesized declarators (the f of
// static char *(*f)(int)).
func (w *walker) cName(d *sitter.Node) string {
	for i := 0; d != nil && i < 16; i++ {
		switch w.kind(d) {
		case "identifier", "type_identifier", "field_identifier", "destructor_name", "operator_name":
			s, e := d.ByteRange()
			return w.t.text[s:e]
		case "parenthesized_declarator", "attributed_declarator", "reference_declarator":
			d = d.NamedChild(0)
		case "qualified_identifier", "template_function", "template_type", "template_method":
			d = d.ChildByFieldName("name") // C++: the put of Table::put, the max of max<T>
		default:
			d = d.ChildByFieldName("declarator")
		}
	}
	return ""
}

// qualified reports whether a C++ function declarator names its function
// through a scope (void Table::put(...)): a method defined outside its
// class, in the usual case.
func (w *walker) qualified(d *sitter.Node) bool {
	for i := 0; d != nil && i < 16; i++ {
		switch w.kind(d) {
		case "qualified_identifier":
			return true
		case "identifier", "field_identifier", "destructor_name", "operator_name":
			return false
		case "parenthesized_declarator", "attributed_declarator", "reference_declarator":
			d = d.NamedChild(0)
		default:
			d = d.ChildByFieldName("declarator")
		}
	}
	return false
}

// lastName is the name a possibly scoped name ends with: Bar of Foo::Bar
// (C++'s qualified_identifier, Ruby's scope_resolution), Map of Map<K, V>.
func (w *walker) lastName(n *sitter.Node) string {
	for i := 0; n != nil && i < 16; i++ {
		switch w.kind(n) {
		case "qualified_identifier", "scope_resolution", "template_type":
			n = n.ChildByFieldName("name")
		default:
			s, e := n.ByteRange()
			return w.t.text[s:e]
		}
	}
	return ""
}

// javaConstant reports whether a Java field declaration is static final.
func (w *walker) javaConstant(n *sitter.Node) bool {
	m := n.NamedChild(0)
	if m == nil || w.kind(m) != "modifiers" {
		return false
	}
	s, e := m.ByteRange()
	mods := strings.Fields(w.t.text[s:e])
	return slices.Contains(mods, "static") && slices.Contains(mods, "final")
}
