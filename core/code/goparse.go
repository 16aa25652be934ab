package code

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
)

// Go is parsed by the standard library's go/parser, about nine times
// cheaper than tree-sitter's Go grammar for the same declarations and
// comments. Its syntax tree is shaped here as tree-sitter-go (v0.23) shapes
// it: the named nodes each construct has, at the same depths, with the
// same spans, and each comment a node where tree-sitter puts it (in the
// deepest node with a token on either side of it), so that the cutting,
// the definitions and the identifiers come out as tree-sitter's tree gives
// them. A file go/parser reports an error in is parsed by tree-sitter, as
// before: its error recovery is what an editor's half-typed file is cut by.
// go/parser has no timeout; MaxBytes bounds its time instead (it is linear
// in the text and refuses nesting over 100,000 levels; TestGoPathological).

// goTree parses text with go/parser and returns it as a tree, or false
// when go/parser reports an error.
func goTree(text string) (*tree, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", text, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil || f == nil {
		return nil, false
	}
	t := newTree(text)
	t.refs = make([]ref, 0, len(text)/12) // about one a dozen bytes of Go
	b := goBuilder{t: t, base: fset.File(f.Package).Base()}
	b.file(f)
	return t, true
}

// goBuilder makes tree-sitter-go's named nodes of a go/ast file.
type goBuilder struct {
	t    *tree
	base int
	// stmtCases are the case clauses with statements: tree-sitter ends
	// those with their terminator, so a comment on the line of the last
	// statement is theirs.
	stmtCases map[*node]bool
	// nodes and lists are slabs the nodes and their child lists are cut
	// from: a node and a list allocated each on its own made shaping the
	// tree cost more than go/parser's parse.
	nodes []node
	lists []*node
}

func (b *goBuilder) off(p token.Pos) int { return int(p) - b.base }

// mk is a node of kind spanning start..end with the children given (nil
// ones left out).
func (b *goBuilder) mk(kind string, start, end token.Pos, kids ...*node) *node {
	if len(b.nodes) == 0 {
		b.nodes = make([]node, 2048)
	}
	n := &b.nodes[0]
	b.nodes = b.nodes[1:]
	*n = node{kind: kind, start: b.off(start), end: b.off(end)}
	c := 0
	for _, k := range kids {
		if k != nil {
			c++
		}
	}
	if c == 0 {
		return n
	}
	if len(b.lists) < c {
		b.lists = make([]*node, max(2048, c))
	}
	// Capped: a comment put in the list later copies it, not its
	// neighbour's.
	n.children, b.lists = b.lists[:0:c], b.lists[c:]
	for _, k := range kids {
		if k != nil {
			n.children = append(n.children, k)
		}
	}
	return n
}

// of is mk spanning an ast node.
func (b *goBuilder) of(kind string, x ast.Node, kids ...*node) *node {
	return b.mk(kind, x.Pos(), x.End(), kids...)
}

// ident is an identifier's leaf, recorded as a reference unless
// tree-sitter reads it as a keyword or a label.
func (b *goBuilder) ident(kind string, id *ast.Ident) *node {
	if id == nil {
		return nil
	}
	named := kind != "label_name"
	switch id.Name {
	case "nil", "true", "false", "iota":
		if kind == "identifier" {
			kind, named = id.Name, false
		}
	}
	if kind == "name" { // a declared name: tree-sitter reads no keyword there
		kind = "identifier"
	}
	n := b.of(kind, id)
	if named && n.end-n.start >= 2 && n.end-n.start <= 100 {
		b.t.refs = append(b.t.refs, ref{name: id.Name, at: n.start})
	}
	return n
}

func (b *goBuilder) def(name *ast.Ident, kind string, at token.Pos) {
	if name != nil && name.Name != "" {
		b.t.defs = append(b.t.defs, def{Symbol: Symbol{Name: name.Name, Kind: kind}, at: b.off(at)})
	}
}

func (b *goBuilder) file(f *ast.File) {
	top := []*node{b.mk("package_clause", f.Package, f.Name.End(), b.ident("package_identifier", f.Name))}
	for _, d := range f.Decls {
		top = append(top, b.decl(d))
	}
	root := &node{start: 0, end: len(b.t.text), children: top}
	for _, g := range f.Comments {
		for _, c := range g.List {
			b.comment(root, &node{kind: "comment", start: b.off(c.Pos()), end: b.off(c.End())})
		}
	}
	b.t.top = root.children
	sort.SliceStable(b.t.refs, func(i, j int) bool { return b.t.refs[i].at < b.t.refs[j].at })
}

// comment puts c in the deepest node under n with a token on either side
// of it, among its children in order.
func (b *goBuilder) comment(n *node, c *node) {
	for {
		ks := n.children
		i := sort.Search(len(ks), func(i int) bool { return ks[i].start >= c.start })
		if i > 0 {
			p := ks[i-1]
			if c.end < p.end || b.stmtCases[p] && c.start >= p.end && b.t.lineOf(c.start) == b.t.lastLine(p) && b.sameLineAfter(p.end, c.start) {
				n = p
				continue
			}
		}
		n.children = append(n.children, nil)
		copy(n.children[i+1:], n.children[i:])
		n.children[i] = c
		return
	}
}

// sameLineAfter reports whether only spaces and comments lie between
// offsets a and z (a comment's start) on one line.
func (b *goBuilder) sameLineAfter(a, z int) bool {
	for _, ch := range b.t.text[a:z] {
		if ch == '\n' {
			return false
		}
	}
	return true
}

func (b *goBuilder) decl(d ast.Decl) *node {
	switch d := d.(type) {
	case *ast.FuncDecl:
		kind, sym := "function_declaration", "func"
		var kids []*node
		if d.Recv != nil {
			kind, sym = "method_declaration", "method"
			kids = append(kids, b.params(d.Recv))
			kids = append(kids, b.ident("field_identifier", d.Name))
		} else {
			kids = append(kids, b.ident("identifier", d.Name))
			kids = append(kids, b.typeParams(d.Type.TypeParams))
		}
		b.def(d.Name, sym, d.Pos())
		kids = append(kids, b.params(d.Type.Params), b.results(d.Type.Results))
		if d.Body != nil {
			kids = append(kids, b.block(d.Body))
		}
		return b.of(kind, d, kids...)
	case *ast.GenDecl:
		return b.genDecl(d, true)
	}
	return nil
}

// genDecl is an import, const, var or type declaration; top says whether
// it is at the top level (where its definitions count).
func (b *goBuilder) genDecl(d *ast.GenDecl, top bool) *node {
	var kids []*node
	switch d.Tok {
	case token.IMPORT:
		for _, s := range d.Specs {
			s := s.(*ast.ImportSpec)
			var name *node
			if s.Name != nil {
				switch s.Name.Name {
				case ".":
					name = b.of("dot", s.Name)
				case "_":
					name = b.of("blank_identifier", s.Name)
				default:
					name = b.ident("package_identifier", s.Name)
				}
			}
			kids = append(kids, b.of("import_spec", s, name, b.expr(s.Path)))
		}
		if d.Lparen.IsValid() {
			kids = []*node{b.mk("import_spec_list", d.Lparen, d.Rparen+1, kids...)}
		}
		return b.of("import_declaration", d, kids...)
	case token.CONST, token.VAR:
		kind := "const"
		if d.Tok == token.VAR {
			kind = "var"
		}
		for _, s := range d.Specs {
			s := s.(*ast.ValueSpec)
			var sk []*node
			for _, nm := range s.Names {
				sk = append(sk, b.ident("name", nm))
				if top {
					b.def(nm, kind, s.Pos())
				}
			}
			sk = append(sk, b.typ(s.Type), b.exprList(s.Values))
			kids = append(kids, b.of(kind+"_spec", s, sk...))
		}
		if d.Tok == token.VAR && d.Lparen.IsValid() {
			kids = []*node{b.mk("var_spec_list", d.Lparen, d.Rparen+1, kids...)}
		}
		return b.of(kind+"_declaration", d, kids...)
	case token.TYPE:
		for _, s := range d.Specs {
			s := s.(*ast.TypeSpec)
			kind, sym := "type_spec", "type"
			if s.Assign.IsValid() {
				kind = "type_alias"
			} else if _, ok := s.Type.(*ast.InterfaceType); ok {
				sym = "interface"
			}
			if top {
				b.def(s.Name, sym, s.Pos())
			}
			kids = append(kids, b.of(kind, s, b.ident("type_identifier", s.Name), b.typeParams(s.TypeParams), b.typ(s.Type)))
		}
		return b.of("type_declaration", d, kids...)
	}
	return nil
}

// params is a parameter_list.
func (b *goBuilder) params(fl *ast.FieldList) *node {
	if fl == nil {
		return nil
	}
	var kids []*node
	for _, f := range fl.List {
		if e, ok := f.Type.(*ast.Ellipsis); ok {
			var name *node
			if len(f.Names) > 0 {
				name = b.ident("name", f.Names[0])
			}
			kids = append(kids, b.of("variadic_parameter_declaration", f, name, b.typ(e.Elt)))
			continue
		}
		var fk []*node
		for _, nm := range f.Names {
			fk = append(fk, b.ident("name", nm))
		}
		fk = append(fk, b.typ(f.Type))
		kids = append(kids, b.of("parameter_declaration", f, fk...))
	}
	return b.mk("parameter_list", fl.Opening, fl.Closing+1, kids...)
}

// results is a function's result: a parameter_list in parentheses, or a
// type alone.
func (b *goBuilder) results(fl *ast.FieldList) *node {
	if fl == nil || len(fl.List) == 0 && !fl.Opening.IsValid() {
		return nil
	}
	if !fl.Opening.IsValid() {
		return b.typ(fl.List[0].Type)
	}
	return b.params(fl)
}

func (b *goBuilder) typeParams(fl *ast.FieldList) *node {
	if fl == nil {
		return nil
	}
	var kids []*node
	for _, f := range fl.List {
		var fk []*node
		for _, nm := range f.Names {
			fk = append(fk, b.ident("name", nm))
		}
		fk = append(fk, b.typeElem("type_constraint", f.Type))
		kids = append(kids, b.of("type_parameter_declaration", f, fk...))
	}
	return b.mk("type_parameter_list", fl.Opening, fl.Closing+1, kids...)
}

// typeElem is a union of types (a | b) as one node of kind.
func (b *goBuilder) typeElem(kind string, e ast.Expr) *node {
	var kids []*node
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		if x, ok := e.(*ast.BinaryExpr); ok && x.Op == token.OR {
			walk(x.X)
			walk(x.Y)
			return
		}
		kids = append(kids, b.typ(e))
	}
	walk(e)
	return b.of(kind, e, kids...)
}

// typ is e read as a type.
func (b *goBuilder) typ(e ast.Expr) *node {
	switch e := e.(type) {
	case nil:
		return nil
	case *ast.Ident:
		return b.ident("type_identifier", e)
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return b.of("qualified_type", e, b.ident("package_identifier", x), b.ident("type_identifier", e.Sel))
		}
	case *ast.StarExpr:
		return b.of("pointer_type", e, b.typ(e.X))
	case *ast.ParenExpr:
		return b.of("parenthesized_type", e, b.typ(e.X))
	case *ast.ArrayType:
		switch l := e.Len.(type) {
		case nil:
			return b.of("slice_type", e, b.typ(e.Elt))
		case *ast.Ellipsis:
			return b.of("implicit_length_array_type", e, b.typ(e.Elt))
		default:
			return b.of("array_type", e, b.expr(l), b.typ(e.Elt))
		}
	case *ast.MapType:
		return b.of("map_type", e, b.typ(e.Key), b.typ(e.Value))
	case *ast.ChanType:
		return b.of("channel_type", e, b.typ(e.Value))
	case *ast.FuncType:
		return b.of("function_type", e, b.params(e.Params), b.results(e.Results))
	case *ast.StructType:
		var kids []*node
		for _, f := range e.Fields.List {
			var fk []*node
			for _, nm := range f.Names {
				fk = append(fk, b.ident("field_identifier", nm))
			}
			ft := f.Type
			if s, ok := ft.(*ast.StarExpr); ok && len(f.Names) == 0 {
				ft = s.X // an embedded *T: the star is a token of the field
			}
			fk = append(fk, b.typ(ft))
			if f.Tag != nil {
				fk = append(fk, b.expr(f.Tag))
			}
			kids = append(kids, b.of("field_declaration", f, fk...))
		}
		return b.of("struct_type", e, b.mk("field_declaration_list", e.Fields.Opening, e.Fields.Closing+1, kids...))
	case *ast.InterfaceType:
		var kids []*node
		for _, f := range e.Methods.List {
			if ft, ok := f.Type.(*ast.FuncType); ok && len(f.Names) > 0 {
				kids = append(kids, b.of("method_elem", f, b.ident("field_identifier", f.Names[0]), b.params(ft.Params), b.results(ft.Results)))
				continue
			}
			kids = append(kids, b.typeElem("type_elem", f.Type))
		}
		return b.of("interface_type", e, kids...)
	case *ast.IndexExpr:
		return b.of("generic_type", e, b.typ(e.X), b.mk("type_arguments", e.Lbrack, e.Rbrack+1, b.typeElem("type_elem", e.Index)))
	case *ast.IndexListExpr:
		var args []*node
		for _, x := range e.Indices {
			args = append(args, b.typeElem("type_elem", x))
		}
		return b.of("generic_type", e, b.typ(e.X), b.mk("type_arguments", e.Lbrack, e.Rbrack+1, args...))
	case *ast.UnaryExpr:
		if e.Op == token.TILDE {
			return b.of("negated_type", e, b.typ(e.X))
		}
	}
	return b.expr(e)
}

// isType reports whether e can only be a type (tree-sitter reads a call
// of one as a conversion).
func isType(e ast.Expr) bool {
	switch e.(type) {
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.StructType, *ast.InterfaceType:
		return true
	}
	return false
}

func (b *goBuilder) exprList(es []ast.Expr) *node {
	if len(es) == 0 {
		return nil
	}
	kids := make([]*node, len(es))
	for i, e := range es {
		kids[i] = b.expr(e)
	}
	return b.mk("expression_list", es[0].Pos(), es[len(es)-1].End(), kids...)
}

func (b *goBuilder) expr(e ast.Expr) *node {
	switch e := e.(type) {
	case nil:
		return nil
	case *ast.Ident:
		return b.ident("identifier", e)
	case *ast.BasicLit:
		kind := "int_literal"
		switch e.Kind {
		case token.FLOAT:
			kind = "float_literal"
		case token.IMAG:
			kind = "imaginary_literal"
		case token.CHAR:
			kind = "rune_literal"
		case token.STRING:
			kind = "interpreted_string_literal"
			if len(e.Value) > 0 && e.Value[0] == '`' {
				kind = "raw_string_literal"
			}
		}
		return b.of(kind, e)
	case *ast.CompositeLit:
		return b.of("composite_literal", e, b.typ(e.Type), b.literalValue(e))
	case *ast.FuncLit:
		return b.of("func_literal", e, b.params(e.Type.Params), b.results(e.Type.Results), b.block(e.Body))
	case *ast.ParenExpr:
		return b.of("parenthesized_expression", e, b.expr(e.X))
	case *ast.SelectorExpr:
		return b.of("selector_expression", e, b.expr(e.X), b.ident("field_identifier", e.Sel))
	case *ast.IndexExpr:
		return b.of("index_expression", e, b.expr(e.X), b.typOrExpr(e.Index))
	case *ast.IndexListExpr:
		kids := []*node{b.expr(e.X)}
		for _, x := range e.Indices {
			kids = append(kids, b.typ(x))
		}
		return b.of("type_instantiation_expression", e, kids...)
	case *ast.SliceExpr:
		return b.of("slice_expression", e, b.expr(e.X), b.expr(e.Low), b.expr(e.High), b.expr(e.Max))
	case *ast.TypeAssertExpr:
		return b.of("type_assertion_expression", e, b.expr(e.X), b.typ(e.Type))
	case *ast.CallExpr:
		if isType(e.Fun) || isParenType(e.Fun) {
			var arg *node
			if len(e.Args) > 0 {
				arg = b.expr(e.Args[0])
			}
			return b.of("type_conversion_expression", e, b.typ(e.Fun), arg)
		}
		args := make([]*node, 0, len(e.Args))
		for i, a := range e.Args {
			if i == 0 {
				args = append(args, b.typOrExpr(a))
			} else {
				args = append(args, b.expr(a))
			}
		}
		if e.Ellipsis.IsValid() && len(args) > 0 {
			last := e.Args[len(e.Args)-1]
			args[len(args)-1] = b.mk("variadic_argument", last.Pos(), e.Ellipsis+3, args[len(args)-1])
		}
		return b.of("call_expression", e, b.expr(e.Fun), b.mk("argument_list", e.Lparen, e.Rparen+1, args...))
	case *ast.StarExpr:
		return b.of("unary_expression", e, b.expr(e.X))
	case *ast.UnaryExpr:
		return b.of("unary_expression", e, b.expr(e.X))
	case *ast.BinaryExpr:
		return b.of("binary_expression", e, b.expr(e.X), b.expr(e.Y))
	case *ast.KeyValueExpr:
		return b.of("keyed_element", e, b.expr(e.Key), b.expr(e.Value))
	case *ast.Ellipsis:
		return b.of("variadic_argument", e, b.expr(e.Elt))
	}
	if isType(e) {
		return b.typ(e)
	}
	return nil
}

func isParenType(e ast.Expr) bool {
	p, ok := e.(*ast.ParenExpr)
	return ok && isType(p.X)
}

// typOrExpr reads e as a type when only a type can be it.
func (b *goBuilder) typOrExpr(e ast.Expr) *node {
	if isType(e) {
		return b.typ(e)
	}
	return b.expr(e)
}

// literalValue is a composite literal's body, each element in a
// literal_element (or a keyed_element of two).
func (b *goBuilder) literalValue(e *ast.CompositeLit) *node {
	kids := make([]*node, 0, len(e.Elts))
	for _, x := range e.Elts {
		if kv, ok := x.(*ast.KeyValueExpr); ok {
			kids = append(kids, b.of("keyed_element", kv, b.element(kv.Key), b.element(kv.Value)))
			continue
		}
		kids = append(kids, b.element(x))
	}
	return b.mk("literal_value", e.Lbrace, e.Rbrace+1, kids...)
}

func (b *goBuilder) element(x ast.Expr) *node {
	if c, ok := x.(*ast.CompositeLit); ok && c.Type == nil {
		return b.of("literal_element", x, b.literalValue(c))
	}
	return b.of("literal_element", x, b.expr(x))
}

// caseOf is a case clause of kind with its head's nodes and its
// statements.
func (b *goBuilder) caseOf(kind string, c ast.Node, head []*node, body []ast.Stmt) *node {
	n := b.of(kind, c, append(head, b.stmts(body)...)...)
	if len(body) > 0 {
		if b.stmtCases == nil {
			b.stmtCases = map[*node]bool{}
		}
		b.stmtCases[n] = true
	}
	return n
}

func (b *goBuilder) block(s *ast.BlockStmt) *node {
	if s == nil {
		return nil
	}
	return b.of("block", s, b.stmts(s.List)...)
}

func (b *goBuilder) stmts(list []ast.Stmt) []*node {
	out := make([]*node, 0, len(list))
	for _, s := range list {
		if n := b.stmt(s); n != nil {
			out = append(out, n)
		}
	}
	return out
}

// simple is a simple statement (an if's or a switch's initializer...).
func (b *goBuilder) simple(s ast.Stmt) *node {
	if s == nil {
		return nil
	}
	return b.stmt(s)
}

func (b *goBuilder) stmt(s ast.Stmt) *node {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return b.block(s)
	case *ast.ExprStmt:
		return b.of("expression_statement", s, b.expr(s.X))
	case *ast.SendStmt:
		return b.of("send_statement", s, b.expr(s.Chan), b.expr(s.Value))
	case *ast.IncDecStmt:
		kind := "inc_statement"
		if s.Tok == token.DEC {
			kind = "dec_statement"
		}
		return b.of(kind, s, b.expr(s.X))
	case *ast.AssignStmt:
		kind := "assignment_statement"
		if s.Tok == token.DEFINE {
			kind = "short_var_declaration"
		}
		return b.of(kind, s, b.exprList(s.Lhs), b.exprList(s.Rhs))
	case *ast.DeclStmt:
		if d, ok := s.Decl.(*ast.GenDecl); ok {
			return b.genDecl(d, false)
		}
	case *ast.GoStmt:
		return b.of("go_statement", s, b.expr(s.Call))
	case *ast.DeferStmt:
		return b.of("defer_statement", s, b.expr(s.Call))
	case *ast.ReturnStmt:
		return b.of("return_statement", s, b.exprList(s.Results))
	case *ast.BranchStmt:
		kind := map[token.Token]string{token.BREAK: "break_statement", token.CONTINUE: "continue_statement",
			token.GOTO: "goto_statement", token.FALLTHROUGH: "fallthrough_statement"}[s.Tok]
		return b.of(kind, s, b.ident("label_name", s.Label))
	case *ast.LabeledStmt:
		if e, ok := s.Stmt.(*ast.EmptyStmt); ok && e.Implicit {
			return b.mk("labeled_statement", s.Pos(), s.Colon+1, b.ident("label_name", s.Label))
		}
		return b.of("labeled_statement", s, b.ident("label_name", s.Label), b.stmt(s.Stmt))
	case *ast.EmptyStmt:
		if !s.Implicit {
			return b.of("empty_statement", s)
		}
	case *ast.IfStmt:
		var alt *node
		if s.Else != nil {
			alt = b.stmt(s.Else)
		}
		return b.of("if_statement", s, b.simple(s.Init), b.expr(s.Cond), b.block(s.Body), alt)
	case *ast.ForStmt:
		var head *node
		if s.Init != nil || s.Post != nil {
			start, end := token.NoPos, token.NoPos
			for _, x := range []ast.Node{s.Init, s.Cond, s.Post} {
				if x != nil {
					if !start.IsValid() {
						start = x.Pos()
					}
					end = x.End()
				}
			}
			head = b.mk("for_clause", start, end, b.simple(s.Init), b.expr(s.Cond), b.simple(s.Post))
		} else {
			head = b.expr(s.Cond)
		}
		return b.of("for_statement", s, head, b.block(s.Body))
	case *ast.RangeStmt:
		var left []ast.Expr
		if s.Key != nil {
			left = append(left, s.Key)
		}
		if s.Value != nil {
			left = append(left, s.Value)
		}
		start := s.Range
		if len(left) > 0 {
			start = left[0].Pos()
		}
		clause := b.mk("range_clause", start, s.X.End(), b.exprList(left), b.expr(s.X))
		return b.of("for_statement", s, clause, b.block(s.Body))
	case *ast.SwitchStmt:
		kids := []*node{b.simple(s.Init), b.expr(s.Tag)}
		for _, c := range s.Body.List {
			c := c.(*ast.CaseClause)
			if c.List == nil {
				kids = append(kids, b.caseOf("default_case", c, nil, c.Body))
				continue
			}
			kids = append(kids, b.caseOf("expression_case", c, []*node{b.exprList(c.List)}, c.Body))
		}
		return b.of("expression_switch_statement", s, kids...)
	case *ast.TypeSwitchStmt:
		kids := []*node{b.simple(s.Init)}
		switch a := s.Assign.(type) {
		case *ast.AssignStmt:
			kids = append(kids, b.exprList(a.Lhs))
			if len(a.Rhs) == 1 {
				if ta, ok := a.Rhs[0].(*ast.TypeAssertExpr); ok {
					kids = append(kids, b.expr(ta.X))
				}
			}
		case *ast.ExprStmt:
			if ta, ok := a.X.(*ast.TypeAssertExpr); ok {
				kids = append(kids, b.expr(ta.X))
			}
		}
		for _, c := range s.Body.List {
			c := c.(*ast.CaseClause)
			if c.List == nil {
				kids = append(kids, b.caseOf("default_case", c, nil, c.Body))
				continue
			}
			var ck []*node
			for _, x := range c.List {
				ck = append(ck, b.typ(x))
			}
			kids = append(kids, b.caseOf("type_case", c, ck, c.Body))
		}
		return b.of("type_switch_statement", s, kids...)
	case *ast.SelectStmt:
		var kids []*node
		for _, c := range s.Body.List {
			c := c.(*ast.CommClause)
			if c.Comm == nil {
				kids = append(kids, b.caseOf("default_case", c, nil, c.Body))
				continue
			}
			var comm *node
			switch x := c.Comm.(type) {
			case *ast.SendStmt:
				comm = b.stmt(x)
			case *ast.ExprStmt:
				comm = b.of("receive_statement", x, b.expr(x.X))
			case *ast.AssignStmt:
				var right *node
				if len(x.Rhs) > 0 {
					right = b.expr(x.Rhs[0])
				}
				comm = b.of("receive_statement", x, b.exprList(x.Lhs), right)
			}
			kids = append(kids, b.caseOf("communication_case", c, []*node{comm}, c.Body))
		}
		return b.of("select_statement", s, kids...)
	}
	return nil
}
