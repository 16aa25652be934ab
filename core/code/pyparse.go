package code

import (
	"fmt"
	"strings"
)

// Python is read by a scanner written here, about seven times cheaper than
// tree-sitter's Python grammar for the same drawers (a cut of Python
// 3.11's standard library on one core: 44 to 54 against 6.1 to 7.4 MB per
// CPU second; BenchmarkParse). Like goparse.go for Go, it shapes what it
// reads as tree-sitter-python (v0.23) shapes it: the named nodes each
// construct has, at the same depths, with the same spans, and each comment
// and line continuation where tree-sitter puts it, so that the cutting,
// the definitions and the identifiers come out as tree-sitter's tree gives
// them. It is a tokenizer that follows tree-sitter's external scanner
// (indentation, the zero-width NEWLINE, INDENT and DEDENT tokens and where
// they fall among comment lines, the pieces it cuts a string into) and a
// recursive descent over Python 3's grammar with tree-sitter's precedences
// (where & binds looser than ^, and -a ** b is -(a ** b)).
//
// Whatever it is not sure of it refuses, and tree-sitter cuts the file as
// before: Python 2 (print and exec statements, backticks, <>, 0777, 10L,
// except E, e), tabs after spaces in an indentation, unbalanced brackets,
// unterminated strings, any syntax error, and what tree-sitter reads
// otherwise than Python or in a way not checked here: match statements,
// type parameters, except*, f-strings nested in their own quotes or with
// expressions over lines, starred calls where tree-sitter calls the star
// (*f(x) in a bare list, in [*f(x)] and in print(...)), an as after a
// conditional expression, a tuple statement ending in a comma (a, b, then
// a line: tree-sitter reads on into it), a line in brackets indented less
// than its block (tree-sitter's scanner may end the block there). On
// Debian's Python 3.11 standard library it refuses 5 files of 666; each
// file it reads has tree-sitter's very tree, but where tree-sitter
// misreads type(obj).attr = value as a type alias statement
// (TestPyScannerTreesAsTreeSitter, withoutPyMisreads). It has no timeout:
// its time is linear in the text, which MaxBytes bounds, and it refuses
// nesting deeper than maxPyDepth before its recursion grows.

// pyRefusal is what the scanner panics with to refuse a file.
type pyRefusal struct{ why string }

// pyScratch is the memory a Parser's scanner reuses from file to file:
// the tokens, the slabs of nodes and child lists, the references. A tree
// lives only while its file is cut, so the next file's nodes may take
// its place; fresh memory for each file cost a fifth of the scan.
type pyScratch struct {
	toks         []pyTok
	stack        []*node
	refs         []ref
	nodes        [][]node
	lists        [][]*node
	nodeAt, list int // the next slab of each to hand out
	// strict lets a panic other than a refusal go on (tests): a mine
	// takes one for a refusal, and tree-sitter cuts the file.
	strict bool
}

const pySlab = 1024

func (sc *pyScratch) nodeSlab() []node {
	if sc.nodeAt == len(sc.nodes) {
		sc.nodes = append(sc.nodes, make([]node, pySlab))
	}
	sc.nodeAt++
	return sc.nodes[sc.nodeAt-1]
}

func (sc *pyScratch) listSlab(c int) []*node {
	if c > pySlab {
		return make([]*node, c)
	}
	if sc.list == len(sc.lists) {
		sc.lists = append(sc.lists, make([]*node, pySlab))
	}
	sc.list++
	return sc.lists[sc.list-1]
}

// pyTreeIn reads text as Python and returns it as a tree, or false when
// it refuses it (why says for what). The tree is in sc's memory: it is
// valid until sc's next use.
func pyTreeIn(text string, sc *pyScratch) (t *tree, why string, ok bool) {
	sc.nodeAt, sc.list = 0, 0
	if strings.IndexByte(text, 0) >= 0 {
		// Python refuses it; tree-sitter's scanner takes it for the end.
		return nil, "a NUL byte", false
	}
	p := pyParser{text: text, sc: sc, stack: sc.stack[:0]}
	defer func() {
		sc.stack = p.stack[:0]
		if r := recover(); r != nil {
			if f, isRefusal := r.(pyRefusal); isRefusal {
				t, why, ok = nil, f.why, false
				return
			}
			if sc.strict {
				panic(r)
			}
			t, why, ok = nil, "panic", false
		}
	}()
	p.t = newTree(text)
	if sc.refs == nil {
		sc.refs = make([]ref, 0, len(text)/16)
	}
	p.t.refs = sc.refs[:0]
	p.toks = p.lex(0, len(text), false, sc.toks[:0])
	sc.toks = p.toks
	p.file()
	p.place()
	p.define(p.t.top, "", 0)
	sc.refs = p.t.refs
	return p.t, "", true
}

// Token kinds.
const (
	tkEOF = iota
	tkName
	tkNumber
	tkString
	tkOp
	tkNewline
	tkIndent
	tkDedent
)

type pyTok struct {
	kind       uint8
	code       uint8 // the operator's or keyword's
	start, end int32
}

// Token codes: each operator and keyword has one, set by the tokenizer,
// so that the parser compares bytes, not text.
const (
	codeNone uint8 = iota
	opPowEq
	opFloorDivEq
	opRShiftEq
	opLShiftEq
	opEllipsis
	opArrow
	opWalrus
	opPow
	opFloorDiv
	opLShift
	opRShift
	opLe
	opGe
	opEq
	opNe
	opPlusEq
	opMinusEq
	opStarEq
	opSlashEq
	opPercentEq
	opAmpEq
	opPipeEq
	opCaretEq
	opAtEq
	opPlus
	opMinus
	opStar
	opSlash
	opPercent
	opAt
	opAmp
	opPipe
	opCaret
	opTilde
	opLt
	opGt
	opLParen
	opRParen
	opLBrack
	opRBrack
	opLBrace
	opRBrace
	opComma
	opColon
	opDot
	opSemi
	opAssign
	kwFalse
	kwNone
	kwTrue
	kwAnd
	kwAs
	kwAssert
	kwAsync
	kwAwait
	kwBreak
	kwClass
	kwContinue
	kwDef
	kwDel
	kwElif
	kwElse
	kwExcept
	kwFinally
	kwFor
	kwFrom
	kwGlobal
	kwIf
	kwImport
	kwIn
	kwIs
	kwLambda
	kwNonlocal
	kwNot
	kwOr
	kwPass
	kwRaise
	kwReturn
	kwTry
	kwWhile
	kwWith
	kwYield
	kwFuture
	kwPrint
	kwExec
)

// pyWords are the codes' texts.
var pyWords = [...]string{"", "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=", "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "__future__", "print", "exec"}

// pyCodes are the codes by text.
var pyCodes = func() map[string]uint8 {
	m := map[string]uint8{}
	for i, w := range pyWords[1:] {
		m[w] = uint8(i + 1)
	}
	return m
}()

// isKeyword reports whether code is a keyword's: never an identifier.
func isKeyword(code uint8) bool { return code >= kwFalse && code <= kwYield }

// pyParser reads one file.
type pyParser struct {
	sc   *pyScratch
	text string
	t    *tree
	toks []pyTok
	pos  int
	// nodes and lists are slabs the nodes and their child lists are cut
	// from, as in goBuilder; stack holds the children of the nodes being
	// built.
	nodes  []node
	lists  []*node
	stack  []*node
	extras []*node // comments and line continuations, in order
	inF    uint8   // the quotes of the f-strings being read (quoteBit)
	depth  int     // recursion depth of the expression parser
}

func (p *pyParser) fail(why string) {
	if pyDebug && p.pos < len(p.toks) {
		why += fmt.Sprintf(" (line %d)", p.t.lineOf(int(p.toks[p.pos].start)))
	}
	panic(pyRefusal{why})
}

// pyDebug adds the line to a refusal's reason (tests).
var pyDebug = false

// maxPyDepth bounds the nesting of brackets and expressions the scanner
// reads (tree-sitter reads deeper ones).
const maxPyDepth = 200

// node returns a node from the slab.
func (p *pyParser) newNode(kind string, start, end int) *node {
	if len(p.nodes) == 0 {
		p.nodes = p.sc.nodeSlab()
	}
	n := &p.nodes[0]
	p.nodes = p.nodes[1:]
	*n = node{kind: kind, start: start, end: end}
	return n
}

// mk makes a node of kind spanning start..end whose children are the
// stack's nodes from mark on.
func (p *pyParser) mk(kind string, start, end, mark int) *node {
	n := p.newNode(kind, start, end)
	if c := len(p.stack) - mark; c > 0 {
		if len(p.lists) < c {
			p.lists = p.sc.listSlab(c)
		}
		n.children, p.lists = p.lists[:c:c], p.lists[c:]
		copy(n.children, p.stack[mark:])
		p.stack = p.stack[:mark]
	}
	return n
}

func (p *pyParser) push(n *node) { p.stack = append(p.stack, n) }

// leaf pushes a node without children.
func (p *pyParser) leaf(kind string, start, end int) *node {
	n := p.newNode(kind, start, end)
	p.push(n)
	return n
}

// ident pushes an identifier, recorded as a reference.
func (p *pyParser) ident(start, end int) *node {
	if end-start >= 2 && end-start <= 100 {
		p.t.refs = append(p.t.refs, ref{name: p.text[start:end], at: start})
	}
	return p.leaf("identifier", start, end)
}

// ---- tokens

func (p *pyParser) tok() pyTok { return p.toks[p.pos] }
func (p *pyParser) src(k pyTok) string {
	return p.text[k.start:k.end]
}

// is reports whether the current token is the operator or keyword c.
func (p *pyParser) is(c uint8) bool { return p.toks[p.pos].code == c }

func (p *pyParser) isAt(i int, c uint8) bool {
	return i < len(p.toks) && p.toks[i].code == c
}

// next consumes the current token.
func (p *pyParser) next() pyTok {
	k := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return k
}

// expect consumes the operator or keyword c.
func (p *pyParser) expect(c uint8) pyTok {
	if !p.is(c) {
		p.fail("expected " + pyWords[c])
	}
	return p.next()
}

// end is the end of the last token consumed.
func (p *pyParser) end() int { return int(p.toks[p.pos-1].end) }

// isName reports whether the current token is a name tree-sitter reads
// as an identifier.
func (p *pyParser) isName() bool {
	k := p.tok()
	return k.kind == tkName && !isKeyword(k.code)
}

func (p *pyParser) name() *node {
	if !p.isName() {
		p.fail("expected a name")
	}
	k := p.next()
	return p.ident(int(k.start), int(k.end))
}

// ---- the tokenizer

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameChar(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }
func isDigit(c byte) bool     { return c >= '0' && c <= '9' }
func isHex(c byte) bool       { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// pyOps are the operators by their first character, longest first.
var pyOps = func() (ops [128][]string) {
	for _, o := range []string{
		"**=", "//=", ">>=", "<<=", "...",
		"->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
		"+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=",
	} {
		ops[o[0]] = append(ops[o[0]], o)
	}
	return ops
}()

// opOf is the operator s starts with, or "".
func opOf(s string) string {
	if s[0] >= 128 {
		return ""
	}
	for _, o := range pyOps[s[0]] {
		if strings.HasPrefix(s, o) {
			return o
		}
	}
	return ""
}

// lex tokenizes text[from:to]. At the top (inner false) it follows
// tree-sitter's scanner: a NEWLINE at the end of each logical line, where
// the last token or the comment after it ends, an INDENT after a line
// ending in a colon, and DEDENTs placed among the comment lines that
// follow as the scanner places them; comments and line continuations are
// kept as extras. Inner text (an f-string's expression) is a bracketed
// expression: no lines, no comments.
func (p *pyParser) lex(from, to int, inner bool, toks []pyTok) []pyTok {
	text := p.text
	if toks == nil || cap(toks) == 0 {
		toks = make([]pyTok, 0, (to-from)/5+4)
	}
	i := from
	if !inner && strings.HasPrefix(text, "\ufeff") {
		i = 3
	}
	var brackets []byte
	indents := []int{0}
	lineHasTok := false // a token on the current logical line
	lastEnd := 0        // where the line's last token or trailing comment ends
	lastColon := false  // the line's last token is a colon
	first := true       // no logical line yet
	lineAt := false     // the line is a decorator's
	emit := func(kind uint8, s, e int) {
		var code uint8
		if kind == tkOp || kind == tkName {
			code = pyCodes[text[s:e]]
		}
		if !lineHasTok && !inner {
			lineAt = code == opAt
			if first && s > 0 && text[s-1] != '\n' && !(s == 3 && strings.HasPrefix(text, "\ufeff")) {
				p.fail("indented first line")
			}
			first = false
		}
		toks = append(toks, pyTok{kind: kind, code: code, start: int32(s), end: int32(e)})
		lineHasTok, lastEnd = true, e
		lastColon = kind == tkOp && e-s == 1 && text[s] == ':'
	}
	// endLine ends the logical line at i ('\n' or the end), and reads on
	// to the next line with code, returning where it starts.
	endLine := func(i int) int {
		x := lastEnd
		type cline struct{ ind, start, end int }
		var comments []cline
		j, l := i, 0
		for {
			if j >= to {
				l = 0
				break
			}
			j++ // past the '\n'
			ind, space := 0, false
			for j < to {
				c := text[j]
				if c == ' ' {
					ind++
					space = true
				} else if c == '\t' {
					if space {
						p.fail("tab after spaces")
					}
					ind += 8
				} else if c == '\f' {
					ind, space = 0, false
				} else {
					break
				}
				j++
			}
			if j >= to {
				l = 0
				break
			}
			c := text[j]
			if c == '\n' {
				continue
			}
			if c == '\r' {
				if j+1 < to && text[j+1] == '\n' {
					j++
					continue
				}
				p.fail("a lone carriage return")
			}
			if c == '#' {
				e := strings.IndexByte(text[j:to], '\n')
				if e < 0 {
					e = to - j
				}
				comments = append(comments, cline{ind, j, j + e})
				p.extras = append(p.extras, p.newNode("comment", j, j+e))
				j += e
				continue
			}
			if c == '\\' {
				p.fail("a continuation at a line's start")
			}
			l = ind
			break
		}
		if ind := indents[len(indents)-1]; lastColon {
			if l <= ind || j >= to {
				p.fail("an empty block")
			}
			toks = append(toks, pyTok{kind: tkIndent, start: int32(x), end: int32(x)})
			if l > 255 {
				p.fail("an indentation over 255 columns") // tree-sitter keeps them in a byte
			}
			indents = append(indents, l)
		} else {
			if lineAt {
				// After a decorator, tree-sitter reads a comment line
				// indented less than the block as an error.
				for _, c := range comments {
					if c.ind < indents[len(indents)-1] {
						p.fail("a comment dedented after a decorator")
					}
				}
			}
			toks = append(toks, pyTok{kind: tkNewline, start: int32(x), end: int32(x)})
			at, ci := x, 0
			for l < indents[len(indents)-1] {
				if ci < len(comments) && comments[ci].ind >= indents[len(indents)-1] {
					at = comments[ci].end
					ci++
					continue
				}
				toks = append(toks, pyTok{kind: tkDedent, start: int32(at), end: int32(at)})
				indents = indents[:len(indents)-1]
			}
			if l != indents[len(indents)-1] {
				p.fail("an inconsistent indentation")
			}
		}
		lineHasTok, lastColon = false, false
		return j
	}
	for {
		if i >= to {
			if inner {
				break
			}
			if len(brackets) > 0 {
				p.fail("unclosed brackets")
			}
			if lineHasTok {
				endLine(to)
			}
			break
		}
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '\r':
			if i+1 < to && text[i+1] == '\n' {
				i++
				continue
			}
			p.fail("a lone carriage return")
		case c == '\n':
			if inner {
				p.fail("a line break in an f-string's expression")
			}
			if len(brackets) > 0 && !inner {
				// tree-sitter's scanner takes a line in brackets indented
				// less than the block for a DEDENT where no closing
				// bracket may come next (after a + or a dot): refused
				// wherever it comes.
				ind, next := nextIndent(text, i+1, to)
				if ind < indents[len(indents)-1] {
					p.fail("a line in brackets dedented")
				}
				i = next // past the blank lines: each read once
				continue
			}
			if len(brackets) > 0 || !lineHasTok {
				i++
				continue
			}
			i = endLine(i)
		case c == '#':
			if inner {
				p.fail("a comment in an f-string")
			}
			e := strings.IndexByte(text[i:to], '\n')
			if e < 0 {
				e = to - i
			}
			p.extras = append(p.extras, p.newNode("comment", i, i+e))
			if lineHasTok {
				lastEnd = i + e
			}
			i += e
		case c == '\\':
			if inner || !lineHasTok {
				p.fail("a continuation")
			}
			j := i + 1
			if j < to && text[j] == '\r' {
				j++
			}
			if j >= to || text[j] != '\n' {
				p.fail("a backslash outside a string")
			}
			j++
			k := j
			for k < to && (text[k] == ' ' || text[k] == '\t') {
				k++
			}
			if k >= to || text[k] == '\n' || text[k] == '\r' || text[k] == '#' || text[k] == '\\' || text[k] == '\f' {
				p.fail("a continuation before a blank line")
			}
			// Before a string, tree-sitter's scanner skips the
			// continuation as it looks for the string's start: no node.
			if _, ok := p.stringStart(k, to); !ok {
				p.extras = append(p.extras, p.newNode("line_continuation", i, j))
			}
			i = j
		case c == '"' || c == '\'':
			e := p.stringEnd(i, to)
			emit(tkString, i, e)
			i = e
		case isNameStart(c):
			j := i + 1
			for j < to && isNameChar(text[j]) {
				j++
			}
			if j < to && (text[j] == '"' || text[j] == '\'') {
				if _, ok := p.stringStart(i, to); !ok {
					p.fail("an odd string prefix")
				}
				e := p.stringEnd(i, to)
				emit(tkString, i, e)
				i = e
				continue
			}
			if j < to && text[j] >= 0x80 {
				p.fail("a non-ASCII name")
			}
			emit(tkName, i, j)
			i = j
		case isDigit(c) || c == '.' && i+1 < to && isDigit(text[i+1]):
			j := p.number(i, to)
			emit(tkNumber, i, j)
			i = j
		default:
			op := opOf(text[i:to])
			if op == "" || op == "<" && strings.HasPrefix(text[i:to], "<>") {
				p.fail("an unknown character")
			}
			switch op {
			case "(", "[", "{":
				brackets = append(brackets, op[0])
				if len(brackets) > maxPyDepth {
					p.fail("brackets nested too deep")
				}
			case ")", "]", "}":
				open := map[string]byte{")": '(', "]": '[', "}": '{'}[op]
				if len(brackets) == 0 || brackets[len(brackets)-1] != open {
					p.fail("unbalanced brackets")
				}
				brackets = brackets[:len(brackets)-1]
			}
			emit(tkOp, i, i+len(op))
			i += len(op)
		}
	}
	toks = append(toks, pyTok{kind: tkEOF, start: int32(to), end: int32(to)})
	return toks
}

// nextIndent is the indentation of the first line with text from i on, as
// tree-sitter's scanner counts it, and where that text starts.
func nextIndent(text string, i, to int) (int, int) {
	ind := 0
	for ; i < to; i++ {
		switch text[i] {
		case ' ':
			ind++
		case '\t':
			ind += 8
		case '\n', '\f':
			ind = 0
		case '\r':
			if i+1 >= to || text[i+1] != '\n' {
				return ind, i // a lone one: the tokenizer refuses it
			}
			ind = 0
		default:
			return ind, i
		}
	}
	return 0, to
}

// number returns where the number at i ends.
func (p *pyParser) number(i, to int) int {
	text := p.text
	j := i
	digits := func(ok func(byte) bool) {
		for j < to && (ok(text[j]) || text[j] == '_' && j+1 < to && ok(text[j+1])) {
			j++
		}
	}
	if text[j] == '0' && j+1 < to && strings.IndexByte("xXoObB", text[j+1]) >= 0 {
		ok := isHex
		switch text[j+1] {
		case 'o', 'O':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		case 'b', 'B':
			ok = func(c byte) bool { return c == '0' || c == '1' }
		}
		j += 2
		if j < to && text[j] == '_' {
			j++ // 0x_ff
		}
		if j >= to || !ok(text[j]) {
			p.fail("an odd number")
		}
		digits(ok)
	} else {
		digits(isDigit)
		if j < to && text[j] == '.' {
			j++
			digits(isDigit)
		}
		if j < to && (text[j] == 'e' || text[j] == 'E') {
			j++
			if j < to && (text[j] == '+' || text[j] == '-') {
				j++
			}
			if j >= to || !isDigit(text[j]) {
				p.fail("an odd number")
			}
			digits(isDigit)
		}
		if j < to && (text[j] == 'j' || text[j] == 'J') {
			j++
		}
		if text[i] == '0' && j-i > 1 && strings.Trim(text[i:j], "0_") != "" && !strings.ContainsAny(text[i:j], ".eEjJ") {
			p.fail("an old octal number")
		}
	}
	if j < to && (isNameChar(text[j]) || text[j] == '.' || text[j] >= 0x80) {
		p.fail("an odd number")
	}
	return j
}

// strFlags are a string's prefix.
type strFlags struct {
	raw, bytes, format, triple bool
	quote                      byte
	body                       int // where the body starts
}

// stringStart reads the prefix and opening quotes of a string at i.
func (p *pyParser) stringStart(i, to int) (strFlags, bool) {
	text := p.text
	var f strFlags
	j := i
	for j < to && j-i < 3 {
		switch text[j] {
		case 'r', 'R':
			if f.raw {
				return f, false
			}
			f.raw = true
		case 'b', 'B':
			if f.bytes || f.format {
				return f, false
			}
			f.bytes = true
		case 'f', 'F':
			if f.format || f.bytes {
				return f, false
			}
			f.format = true
		case 'u', 'U':
			if j != i || j+1 >= to || text[j+1] != '"' && text[j+1] != '\'' {
				return f, false
			}
		case '"', '\'':
			f.quote = text[j]
			if j+2 < to && text[j+1] == f.quote && text[j+2] == f.quote {
				f.triple = true
				f.body = j + 3
			} else {
				f.body = j + 1
			}
			return f, true
		default:
			return f, false
		}
		j++
	}
	return f, false
}

// stringEnd returns where the string at i ends.
func (p *pyParser) stringEnd(i, to int) int {
	f, ok := p.stringStart(i, to)
	if !ok {
		p.fail("an odd string")
	}
	if f.format {
		// Python 3.11 ends an f-string at its quote even in an
		// expression nested in it; tree-sitter reads on (as 3.12).
		saved := p.inF
		p.inF |= quoteBit(f.quote)
		defer func() { p.inF = saved }()
	}
	text := p.text
	j := f.body
	for {
		if j >= to {
			p.fail("an unterminated string")
		}
		c := text[j]
		switch {
		case c == '\\':
			j += 2
			if j <= to && text[j-1] == '\r' && j < to && text[j] == '\n' {
				j++
			}
			continue
		case c == '\n' && !f.triple:
			p.fail("an unterminated string")
		case c == f.quote:
			if !f.triple {
				return j + 1
			}
			if j+2 < to && text[j+1] == c && text[j+2] == c {
				return j + 3
			}
		case f.format && c == '{':
			if j+1 < to && text[j+1] == '{' {
				j += 2
				continue
			}
			j = p.interpolationEnd(j, to, f.quote)
			continue
		case f.format && c == '}':
			if j+1 < to && text[j+1] == '}' {
				j += 2
				continue
			}
			p.fail("a lone } in an f-string")
		}
		j++
	}
}

func quoteBit(q byte) uint8 {
	if q == '"' {
		return 2
	}
	return 1
}

// interpolationEnd returns where the f-string interpolation at i ({)
// ends, past its }.
func (p *pyParser) interpolationEnd(i, to int, quote byte) int {
	text := p.text
	depth := 0 // brackets open in the expression
	for j := i + 1; j < to; {
		c := text[j]
		switch {
		case c == '{' || c == '(' || c == '[':
			depth++
		case c == ')' || c == ']' || c == '}' && depth > 0:
			depth--
			if depth < 0 {
				p.fail("unbalanced brackets in an f-string")
			}
		case c == '}':
			return j + 1
		case c == ':' && depth == 0:
			// The format specifier: text, and interpolations.
			for j++; j < to; j++ {
				switch text[j] {
				case '{':
					j = p.interpolationEnd(j, to, quote) - 1
				case '}':
					return j + 1
				case '\n', '\\':
					p.fail("an odd format specifier")
				}
			}
			p.fail("an unterminated f-string")
		case c == '\n' || c == '\\':
			// (A comment is refused by the expression's own tokenizer.)
			p.fail("an f-string expression over lines")
		case c == '"' || c == '\'':
			if c == quote || p.inF&quoteBit(c) != 0 {
				p.fail("an f-string's quote in its expression")
			}
			k := j
			for k > i && isNameChar(text[k-1]) {
				k--
			}
			j = p.stringEnd(k, to)
			continue
		}
		j++
	}
	p.fail("an unterminated f-string")
	return 0
}

// ---- statements

func (p *pyParser) file() {
	mark := len(p.stack)
	for p.tok().kind != tkEOF {
		p.statement()
	}
	p.t.top = append([]*node(nil), p.stack[mark:]...)
	p.stack = p.stack[:mark]
}

// statement pushes the statements at the current token: a compound
// statement, or the simple statements of one line.
func (p *pyParser) statement() {
	k := p.tok()
	switch k.kind {
	case tkName:
		switch p.src(k) {
		case "if":
			p.ifStatement()
			return
		case "while":
			p.whileStatement()
			return
		case "for":
			p.forStatement(int(k.start))
			return
		case "try":
			p.tryStatement()
			return
		case "with":
			p.withStatement(int(k.start))
			return
		case "def":
			p.funcDef(int(k.start))
			return
		case "class":
			p.classDef()
			return
		case "match":
			// A statement match x: (not the name match) ends its line
			// with a colon.
			for i := p.pos; i < len(p.toks); i++ {
				if k := p.toks[i].kind; k == tkIndent {
					p.fail("a match statement")
				} else if k == tkNewline || k == tkEOF || p.toks[i].code == opSemi {
					break // (a ; ends it too: one look at each token)
				}
			}
		case "async":
			p.next()
			switch {
			case p.is(kwDef):
				p.funcDef(int(k.start))
			case p.is(kwFor):
				p.forStatement(int(k.start))
			case p.is(kwWith):
				p.withStatement(int(k.start))
			default:
				p.fail("async")
			}
			return
		}
	case tkOp:
		if p.is(opAt) {
			p.decorated()
			return
		}
	case tkNewline, tkIndent, tkDedent:
		p.fail("an unexpected line")
	}
	p.simpleStatements()
}

// simpleStatements pushes the statements of one line and returns where
// its NEWLINE is.
func (p *pyParser) simpleStatements() int {
	for {
		p.simpleStatement()
		if !p.is(opSemi) {
			break
		}
		p.next()
		if p.tok().kind == tkNewline {
			break
		}
	}
	if p.tok().kind != tkNewline {
		p.fail("expected the end of the line")
	}
	return int(p.next().start)
}

// suite pushes a block: an indented one, or the simple statements after
// the colon.
func (p *pyParser) suite() {
	mark := len(p.stack)
	if p.tok().kind == tkIndent {
		p.next()
		for p.tok().kind != tkDedent {
			if p.tok().kind == tkEOF {
				p.fail("no dedent")
			}
			p.statement()
		}
		at := int(p.next().start)
		p.push(p.mk("block", p.stack[mark].start, at, mark))
		return
	}
	if p.tok().kind == tkNewline {
		p.fail("an empty block")
	}
	at := p.simpleStatements()
	p.push(p.mk("block", p.stack[mark].start, at, mark))
}

func (p *pyParser) ifStatement() {
	mark := len(p.stack)
	start := int(p.next().start)
	p.expression()
	p.expect(opColon)
	p.suite()
	for p.is(kwElif) {
		m := len(p.stack)
		s := int(p.next().start)
		p.expression()
		p.expect(opColon)
		p.suite()
		p.push(p.mk("elif_clause", s, p.stack[len(p.stack)-1].end, m))
	}
	p.elseClause()
	p.push(p.mk("if_statement", start, p.stack[len(p.stack)-1].end, mark))
}

func (p *pyParser) elseClause() {
	if p.is(kwElse) {
		m := len(p.stack)
		s := int(p.next().start)
		p.expect(opColon)
		p.suite()
		p.push(p.mk("else_clause", s, p.stack[len(p.stack)-1].end, m))
	}
}

func (p *pyParser) whileStatement() {
	mark := len(p.stack)
	start := int(p.next().start)
	p.expression()
	p.expect(opColon)
	p.suite()
	p.elseClause()
	p.push(p.mk("while_statement", start, p.stack[len(p.stack)-1].end, mark))
}

func (p *pyParser) forStatement(start int) {
	mark := len(p.stack)
	p.expect(kwFor)
	p.targets()
	p.expect(kwIn)
	p.expressions(false)
	p.expect(opColon)
	p.suite()
	p.elseClause()
	p.push(p.mk("for_statement", start, p.stack[len(p.stack)-1].end, mark))
}

func (p *pyParser) tryStatement() {
	mark := len(p.stack)
	start := int(p.next().start)
	p.expect(opColon)
	p.suite()
	handlers := 0
	for p.is(kwExcept) {
		m := len(p.stack)
		s := int(p.next().start)
		if p.is(opStar) {
			p.fail("except*")
		}
		if !p.is(opColon) {
			p.expression()
			if p.is(kwAs) {
				p.asPattern(m)
			} else if p.is(opComma) {
				p.fail("except E, e")
			}
		}
		p.expect(opColon)
		p.suite()
		p.push(p.mk("except_clause", s, p.stack[len(p.stack)-1].end, m))
		handlers++
	}
	if handlers > 0 {
		p.elseClause()
	}
	if p.is(kwFinally) {
		m := len(p.stack)
		s := int(p.next().start)
		p.expect(opColon)
		p.suite()
		p.push(p.mk("finally_clause", s, p.stack[len(p.stack)-1].end, m))
	} else if handlers == 0 {
		p.fail("try without except")
	}
	p.push(p.mk("try_statement", start, p.stack[len(p.stack)-1].end, mark))
}

// asPattern makes the expression on the stack (from m) and the target
// after "as" an as_pattern.
func (p *pyParser) asPattern(m int) {
	if k := p.stack[m].kind; k == "conditional_expression" || k == "lambda" {
		// tree-sitter binds the as to the last expression in it
		p.fail("as after a conditional expression")
	}
	p.expect(kwAs)
	t := len(p.stack)
	p.expression()
	tn := p.stack[t]
	p.push(p.mk("as_pattern_target", tn.start, tn.end, t))
	p.push(p.mk("as_pattern", p.stack[m].start, p.end(), m))
}

func (p *pyParser) withStatement(start int) {
	mark := len(p.stack)
	p.expect(kwWith)
	m := len(p.stack)
	if p.is(opLParen) && p.parenthesizedWith() {
		s := int(p.next().start)
		p.withItems()
		p.expect(opRParen)
		p.push(p.mk("with_clause", s, p.end(), m))
	} else {
		p.withItems()
		p.push(p.mk("with_clause", p.stack[m].start, p.end(), m))
	}
	p.expect(opColon)
	p.suite()
	p.push(p.mk("with_statement", start, p.stack[len(p.stack)-1].end, mark))
}

// parenthesizedWith reports whether the parenthesis at the current token
// holds the with items (with (a as b, c):) rather than starting the first
// item's expression (with (a): or with (a, b) as c:).
func (p *pyParser) parenthesizedWith() bool {
	depth, comma, as := 0, false, false
	for i := p.pos; i < len(p.toks); i++ {
		k := p.toks[i]
		if k.kind == tkEOF || k.kind == tkNewline {
			return false
		}
		if k.kind != tkOp && k.kind != tkName {
			continue
		}
		s := p.text[k.start:k.end]
		switch s {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				if !p.isAt(i+1, opColon) {
					return false
				}
				if p.isAt(i-1, opComma) {
					p.fail("with (a,):")
				}
				return comma || as
			}
		case ",":
			comma = comma || depth == 1
		case "as":
			as = as || depth == 1
		}
	}
	return false
}

func (p *pyParser) withItems() {
	for {
		m := len(p.stack)
		p.expression()
		if p.is(kwAs) {
			p.asPattern(m)
		}
		p.push(p.mk("with_item", p.stack[m].start, p.end(), m))
		if !p.is(opComma) {
			return
		}
		p.next()
		if p.is(opRParen) {
			return
		}
	}
}

func (p *pyParser) funcDef(start int) {
	mark := len(p.stack)
	p.expect(kwDef)
	p.name()
	if p.is(opLBrack) {
		p.fail("type parameters")
	}
	p.parameters()
	if p.is(opArrow) {
		p.next()
		p.typ()
	}
	p.expect(opColon)
	p.suite()
	p.push(p.mk("function_definition", start, p.stack[len(p.stack)-1].end, mark))
}

func (p *pyParser) classDef() {
	mark := len(p.stack)
	start := int(p.next().start)
	p.name()
	if p.is(opLBrack) {
		p.fail("type parameters")
	}
	if p.is(opLParen) {
		p.arguments()
	}
	p.expect(opColon)
	p.suite()
	p.push(p.mk("class_definition", start, p.stack[len(p.stack)-1].end, mark))
}

func (p *pyParser) decorated() {
	mark := len(p.stack)
	start := int(p.tok().start)
	for p.is(opAt) {
		m := len(p.stack)
		s := int(p.next().start)
		p.expression()
		if p.tok().kind != tkNewline {
			p.fail("a decorator's end")
		}
		at := int(p.next().start)
		p.push(p.mk("decorator", s, at, m))
	}
	k := p.tok()
	switch {
	case p.is(kwDef):
		p.funcDef(int(k.start))
	case p.is(kwClass):
		p.classDef()
	case p.is(kwAsync):
		p.next()
		p.funcDef(int(k.start))
	default:
		p.fail("a decorator on no definition")
	}
	p.push(p.mk("decorated_definition", start, p.stack[len(p.stack)-1].end, mark))
}

// parameters pushes a def's parameters.
func (p *pyParser) parameters() {
	m := len(p.stack)
	s := int(p.expect(opLParen).start)
	for !p.is(opRParen) {
		p.parameter(true)
		if !p.is(opComma) {
			break
		}
		p.next()
	}
	p.expect(opRParen)
	p.push(p.mk("parameters", s, p.end(), m))
}

// parameter pushes one parameter; typed says whether it may have an
// annotation (not in a lambda).
func (p *pyParser) parameter(typed bool) {
	m := len(p.stack)
	k := p.tok()
	s := int(k.start)
	switch {
	case p.is(opStar) || p.is(opPow):
		p.next()
		if p.is(opComma) || p.is(opRParen) || p.is(opColon) && !typed {
			if p.src(k) == "**" {
				p.fail("a bare **")
			}
			p.leaf("keyword_separator", s, int(k.end))
			return
		}
		p.name()
		kind := "list_splat_pattern"
		if p.src(k) == "**" {
			kind = "dictionary_splat_pattern"
		}
		p.push(p.mk(kind, s, p.end(), m))
		if typed && p.is(opColon) {
			p.next()
			p.typ()
			p.push(p.mk("typed_parameter", s, p.end(), m))
		}
		return
	case p.is(opSlash):
		p.next()
		p.leaf("positional_separator", s, int(k.end))
		return
	}
	p.name()
	if typed && p.is(opColon) {
		p.next()
		p.typ()
		if p.is(opAssign) {
			p.next()
			p.expression()
			p.push(p.mk("typed_default_parameter", s, p.end(), m))
			return
		}
		p.push(p.mk("typed_parameter", s, p.end(), m))
		return
	}
	if p.is(opAssign) {
		p.next()
		p.expression()
		p.push(p.mk("default_parameter", s, p.end(), m))
	}
}

// typ pushes a type: an expression, or tree-sitter's generic_type (a
// name subscripted) and union_type (one of those or'ed).
func (p *pyParser) typ() {
	m := len(p.stack)
	start := int(p.tok().start)
	if !p.typeOperand() {
		return // an expression, which took any | as its operators
	}
	// A generic type's | makes a union_type, left associative; an
	// expression after it takes the |s after it.
	for p.is(opPipe) {
		p.next()
		p.typeOperand()
		p.push(p.mk("union_type", start, p.end(), m))
		p.push(p.mk("type", start, p.end(), m))
	}
	switch {
	case p.is(opComma) || p.is(opRBrack) || p.is(opRParen) || p.is(opAssign) || p.is(opColon) || p.tok().kind == tkNewline:
	default:
		p.fail("a generic type followed by more")
	}
}

// typeOperand pushes a type without a union: a generic type (true) or an
// expression.
func (p *pyParser) typeOperand() bool {
	m := len(p.stack)
	k := p.tok()
	if p.is(opStar) || p.is(opPow) {
		p.fail("a splat type")
	}
	if !p.isName() || !p.isAt(p.pos+1, opLBrack) {
		p.expression()
		p.push(p.mk("type", int(k.start), p.end(), m))
		return false
	}
	p.next()
	p.ident(int(k.start), int(k.end))
	tm := len(p.stack)
	ts := int(p.expect(opLBrack).start)
	for {
		p.typ()
		if p.is(opColon) {
			p.fail("a slice in a generic type")
		}
		if !p.is(opComma) {
			break
		}
		p.next()
		if p.is(opRBrack) {
			break
		}
	}
	p.expect(opRBrack)
	p.push(p.mk("type_parameter", ts, p.end(), tm))
	p.push(p.mk("generic_type", int(k.start), p.end(), m))
	p.push(p.mk("type", int(k.start), p.end(), m))
	return true
}

// simpleStatement pushes one simple statement.
func (p *pyParser) simpleStatement() {
	k := p.tok()
	s, e := int(k.start), int(k.end)
	if k.kind == tkName {
		switch p.src(k) {
		case "pass", "break", "continue":
			p.next()
			p.leaf(p.src(k)+"_statement", s, e)
			return
		case "return", "del":
			m := len(p.stack)
			p.next()
			if p.src(k) == "del" || p.tok().kind != tkNewline && !p.is(opSemi) {
				p.expressions(true)
			}
			kind := "return_statement"
			if p.src(k) == "del" {
				kind = "delete_statement"
			}
			p.push(p.mk(kind, s, p.end(), m))
			return
		case "raise":
			m := len(p.stack)
			p.next()
			if p.tok().kind != tkNewline && !p.is(opSemi) {
				p.expression()
				if p.is(opComma) {
					p.fail("raise E, v")
				}
				if p.is(kwFrom) {
					p.next()
					p.expression()
				}
			}
			p.push(p.mk("raise_statement", s, p.end(), m))
			return
		case "global", "nonlocal":
			m := len(p.stack)
			p.next()
			for {
				p.name()
				if !p.is(opComma) {
					break
				}
				p.next()
			}
			p.push(p.mk(p.src(k)+"_statement", s, p.end(), m))
			return
		case "assert":
			m := len(p.stack)
			p.next()
			for {
				p.expression()
				if !p.is(opComma) {
					break
				}
				p.next()
			}
			p.push(p.mk("assert_statement", s, p.end(), m))
			return
		case "import":
			m := len(p.stack)
			p.next()
			p.importList(false)
			p.push(p.mk("import_statement", s, p.end(), m))
			return
		case "from":
			p.fromImport()
			return
		case "print", "exec":
			// Python 2's statements: tree-sitter reads print x as a
			// print_statement, and prefers one where both readings fit.
			if !p.isAt(p.pos+1, opLParen) && !p.isAt(p.pos+1, opAssign) && !p.isAt(p.pos+1, opDot) {
				p.fail("a print or exec statement")
			}
			if p.isAt(p.pos+1, opLParen) {
				m, from := len(p.stack), p.pos
				p.expression()
				if p.stack[m].kind != "call" || p.tok().kind != tkNewline && !p.is(opSemi) {
					p.fail("a print or exec statement")
				}
				// Read as a print statement too, a call's starred
				// argument comes out as a call of a list_splat.
				for i := from + 1; i < p.pos; i++ {
					if (p.isAt(i, opStar) || p.isAt(i, opPow)) && (p.isAt(i-1, opLParen) || p.isAt(i-1, opComma)) &&
						!(p.toks[i+1].kind == tkName && (p.isAt(i+2, opComma) || p.isAt(i+2, opRParen))) {
						p.fail("a starred argument to print")
					}
				}
				p.push(p.mk("expression_statement", s, p.end(), m))
				return
			}
		}
	}
	p.expressionStatement()
}

// importList pushes the names of an import (dotted, or aliased).
func (p *pyParser) importList(paren bool) {
	for {
		m := len(p.stack)
		p.dottedName()
		if p.is(kwAs) {
			p.next()
			p.name()
			p.push(p.mk("aliased_import", p.stack[m].start, p.end(), m))
		}
		if !p.is(opComma) {
			return
		}
		p.next()
		if p.tok().kind == tkNewline || p.is(opSemi) {
			if !paren {
				p.fail("a trailing comma")
			}
			return
		}
		if paren && p.is(opRParen) {
			return
		}
	}
}

func (p *pyParser) dottedName() {
	m := len(p.stack)
	for {
		p.name()
		if !p.is(opDot) {
			break
		}
		p.next()
	}
	p.push(p.mk("dotted_name", p.stack[m].start, p.end(), m))
}

func (p *pyParser) fromImport() {
	m := len(p.stack)
	s := int(p.next().start)
	kind := "import_from_statement"
	if p.is(kwFuture) && p.isAt(p.pos+1, kwImport) {
		p.next() // a keyword to tree-sitter: no node
		kind = "future_import_statement"
	} else if p.is(opDot) || p.is(opEllipsis) {
		rm := len(p.stack)
		ps := int(p.tok().start)
		for p.is(opDot) || p.is(opEllipsis) {
			p.next()
		}
		p.leaf("import_prefix", ps, p.end())
		if !p.is(kwImport) {
			p.dottedName()
		}
		p.push(p.mk("relative_import", ps, p.end(), rm))
	} else {
		p.dottedName()
	}
	p.expect(kwImport)
	switch {
	case p.is(opStar):
		if kind != "import_from_statement" {
			p.fail("from __future__ import *")
		}
		k := p.next()
		p.leaf("wildcard_import", int(k.start), int(k.end))
	case p.is(opLParen):
		p.next()
		p.importList(true)
		p.expect(opRParen)
	default:
		p.importList(false)
	}
	p.push(p.mk(kind, s, p.end(), m))
}

// isAugmented reports whether code is an augmented assignment's.
func isAugmented(code uint8) bool {
	switch code {
	case opPowEq, opFloorDivEq, opRShiftEq, opLShiftEq, opPlusEq, opMinusEq, opStarEq, opSlashEq,
		opPercentEq, opAmpEq, opPipeEq, opCaretEq, opAtEq:
		return true
	}
	return false
}

// expressionStatement pushes an expression_statement: expressions, an
// assignment, an augmented assignment or a yield.
func (p *pyParser) expressionStatement() {
	m := len(p.stack)
	s := int(p.tok().start)
	if p.is(kwYield) {
		p.yield()
		p.push(p.mk("expression_statement", s, p.end(), m))
		return
	}
	n := p.starList()
	switch {
	case p.is(opAssign):
		p.listNode(m, n, "pattern_list")
		p.assignment(m)
	case p.is(opColon):
		if n != 1 || p.isAt(p.pos-1, opComma) {
			p.fail("an annotated tuple")
		}
		p.pattern(p.stack[m])
		p.next()
		p.typ()
		if p.is(opAssign) {
			p.next()
			p.rightHandSide()
		}
		p.push(p.mk("assignment", s, p.end(), m))
	case isAugmented(p.tok().code):
		if n != 1 || p.isAt(p.pos-1, opComma) {
			p.fail("an augmented tuple")
		}
		p.pattern(p.stack[m])
		p.next()
		p.rightHandSide()
		p.push(p.mk("augmented_assignment", s, p.end(), m))
	case p.isAt(p.pos-1, opComma):
		// a, b, at a line's end: tree-sitter reads on into the next
		// line, as the targets of an assignment there.
		p.fail("a tuple statement ending in a comma")
	}
	p.push(p.mk("expression_statement", s, p.end(), m))
}

// assignment makes the pattern on the stack (from m) the left of an
// assignment, at its "=".
func (p *pyParser) assignment(m int) {
	p.pattern(p.stack[m])
	p.expect(opAssign)
	r := len(p.stack)
	p.rightHandSide()
	if p.is(opAssign) {
		p.assignment(r)
	}
	p.push(p.mk("assignment", p.stack[m].start, p.end(), m))
}

// rightHandSide pushes a yield or expressions (an expression_list for
// several).
func (p *pyParser) rightHandSide() {
	if p.is(kwYield) {
		p.yield()
		return
	}
	m := len(p.stack)
	n := p.starList()
	p.listNode(m, n, "expression_list")
}

// listNode wraps the n expressions on the stack from m in a node of kind
// when there are several (or one with a comma after it).
func (p *pyParser) listNode(m, n int, kind string) {
	if n > 1 || n == 1 && p.toks[p.pos-1].kind == tkOp && p.src(p.toks[p.pos-1]) == "," {
		p.push(p.mk(kind, p.stack[m].start, p.end(), m))
	}
}

// starList pushes expressions (and starred ones) separated by commas and
// returns how many.
func (p *pyParser) starList() int {
	n := 0
	for {
		p.starOrExpression(true)
		n++
		if !p.is(opComma) {
			return n
		}
		p.next()
		if !p.startsExpression() {
			return n
		}
	}
}

// startsExpression reports whether the current token can start an
// expression.
func (p *pyParser) startsExpression() bool {
	k := p.tok()
	switch k.kind {
	case tkName:
		switch k.code {
		case kwNot, kwLambda, kwAwait, kwNone, kwTrue, kwFalse:
			return true
		}
		return !isKeyword(k.code)
	case tkNumber, tkString:
		return true
	case tkOp:
		switch p.src(k) {
		case "(", "[", "{", "-", "+", "~", "*", "...":
			return true
		}
	}
	return false
}

// expressions pushes an expression, or several in an expression_list.
func (p *pyParser) expressions(star bool) {
	m := len(p.stack)
	n := 0
	for {
		if star {
			p.starOrExpression(true)
		} else {
			p.expression()
		}
		n++
		if !p.is(opComma) {
			break
		}
		p.next()
		if !p.startsExpression() {
			break
		}
	}
	p.listNode(m, n, "expression_list")
}

// starOrExpression pushes an expression or a starred one. bare says the
// star is outside brackets or in a subscript, where tree-sitter has only
// its list_splat_pattern for it (a name, an attribute or a subscript,
// which it then calls or subscripts: *f(x) is a call of *f), so the
// scanner reads only a starred name there.
func (p *pyParser) starOrExpression(bare bool) {
	if p.is(opStar) {
		m := len(p.stack)
		s := int(p.next().start)
		if bare && (!p.isName() || p.isAt(p.pos+1, opDot) || p.isAt(p.pos+1, opLParen) || p.isAt(p.pos+1, opLBrack)) {
			p.fail("a starred expression tree-sitter reads otherwise")
		}
		p.binary(14)
		p.push(p.mk("list_splat", s, p.end(), m))
		return
	}
	p.expression()
}

func (p *pyParser) yield() {
	m := len(p.stack)
	s := int(p.expect(kwYield).start)
	if p.is(kwFrom) {
		p.next()
		p.expression()
	} else if p.startsExpression() {
		p.expressions(true)
	}
	p.push(p.mk("yield", s, p.end(), m))
}

// pattern turns an expression read where a target is into tree-sitter's
// pattern kinds, or refuses it.
func (p *pyParser) pattern(n *node) {
	switch n.kind {
	case "identifier", "attribute", "subscript":
	case "tuple", "parenthesized_expression": // tree-sitter reads (x) as a tuple there
		n.kind = "tuple_pattern"
		if len(n.children) == 0 {
			p.fail("an empty tuple pattern")
		}
	case "list":
		n.kind = "list_pattern"
	case "expression_list", "pattern_list":
		n.kind = "pattern_list"
	case "list_splat":
		n.kind = "list_splat_pattern"
		if c := n.children[0].kind; c != "identifier" && c != "attribute" && c != "subscript" {
			p.fail("an odd starred target")
		}
		return
	default:
		p.fail("an odd target")
	}
	if n.kind != "identifier" && n.kind != "attribute" && n.kind != "subscript" {
		for _, c := range n.children {
			p.pattern(c)
		}
	}
}

// targets pushes the targets of a for (before its "in"): a pattern or a
// pattern_list.
func (p *pyParser) targets() {
	m := len(p.stack)
	n := 0
	for {
		if p.is(opStar) {
			tm := len(p.stack)
			s := int(p.next().start)
			p.binary(14)
			p.push(p.mk("list_splat", s, p.end(), tm))
		} else {
			p.binary(14)
		}
		n++
		if !p.is(opComma) {
			break
		}
		p.next()
		if p.is(kwIn) {
			break
		}
	}
	p.listNode(m, n, "pattern_list")
	p.pattern(p.stack[m])
}

// ---- expressions

func (p *pyParser) enter() {
	p.depth++
	if p.depth > maxPyDepth {
		p.fail("expressions nested too deep")
	}
}

func (p *pyParser) leave() { p.depth-- }

// expression pushes an expression: a lambda, a named expression, a
// conditional one, or a disjunction.
func (p *pyParser) expression() {
	p.enter()
	defer p.leave()
	m := len(p.stack)
	if p.is(kwLambda) {
		p.lambda()
		return
	}
	if p.isName() && p.isAt(p.pos+1, opWalrus) {
		k := p.next()
		p.ident(int(k.start), int(k.end))
		p.next()
		p.expression()
		p.push(p.mk("named_expression", int(k.start), p.end(), m))
		return
	}
	p.or()
	if p.is(kwIf) {
		p.next()
		p.or()
		p.expect(kwElse)
		p.expression()
		p.push(p.mk("conditional_expression", p.stack[m].start, p.end(), m))
	}
}

func (p *pyParser) lambda() {
	m := len(p.stack)
	s := int(p.next().start)
	if !p.is(opColon) {
		pm := len(p.stack)
		for {
			p.parameter(false)
			if !p.is(opComma) {
				break
			}
			p.next()
			if p.is(opColon) {
				break
			}
		}
		p.push(p.mk("lambda_parameters", p.stack[pm].start, p.end(), pm))
	}
	p.expect(opColon)
	p.expression()
	p.push(p.mk("lambda", s, p.end(), m))
}

func (p *pyParser) or() {
	m := len(p.stack)
	p.and()
	for p.is(kwOr) {
		p.next()
		p.and()
		p.push(p.mk("boolean_operator", p.stack[m].start, p.end(), m))
	}
}

func (p *pyParser) and() {
	m := len(p.stack)
	p.not()
	for p.is(kwAnd) {
		p.next()
		p.not()
		p.push(p.mk("boolean_operator", p.stack[m].start, p.end(), m))
	}
}

func (p *pyParser) not() {
	if p.is(kwNot) {
		p.enter()
		defer p.leave()
		m := len(p.stack)
		s := int(p.next().start)
		p.not()
		p.push(p.mk("not_operator", s, p.end(), m))
		return
	}
	p.comparison()
}

func (p *pyParser) comparison() {
	m := len(p.stack)
	p.binary(14)
	n := 0
	for {
		switch {
		case p.is(opLt) || p.is(opGt) || p.is(opEq) || p.is(opGe) || p.is(opLe) || p.is(opNe) || p.is(kwIn):
			p.next()
		case p.is(kwNot) && p.isAt(p.pos+1, kwIn):
			p.next()
			p.next()
		case p.is(kwIs):
			p.next()
			if p.is(kwNot) {
				p.next()
			}
		default:
			if n > 0 {
				p.push(p.mk("comparison_operator", p.stack[m].start, p.end(), m))
			}
			return
		}
		p.binary(14)
		n++
	}
}

// binPrec are the binary operators' precedences in tree-sitter-python
// (where & binds looser than ^, unlike Python).
var binPrec = [256]int{
	opPipe: 14, opAmp: 15, opCaret: 16, opLShift: 17, opRShift: 17, opPlus: 18, opMinus: 18,
	opStar: 19, opAt: 19, opSlash: 19, opPercent: 19, opFloorDiv: 19, opPow: 21,
}

// binary pushes an expression of binary operators of at least precedence
// min.
func (p *pyParser) binary(min int) {
	p.enter()
	defer p.leave()
	m := len(p.stack)
	p.unary()
	for chain := 0; ; chain++ {
		k := p.tok()
		if k.kind != tkOp {
			return
		}
		prec := binPrec[k.code]
		if prec == 0 || prec < min {
			return
		}
		if chain > 2000 {
			p.fail("a long chain of operators")
		}
		p.next()
		if prec == 21 {
			p.binary(21) // right associative
		} else {
			p.binary(prec + 1)
		}
		p.push(p.mk("binary_operator", p.stack[m].start, p.end(), m))
	}
}

// unary pushes a unary operator's expression, an await, or a primary.
func (p *pyParser) unary() {
	if p.is(opMinus) || p.is(opPlus) || p.is(opTilde) || p.is(kwAwait) {
		m := len(p.stack)
		k := p.next()
		p.binary(21)
		kind := "unary_operator"
		if p.src(k) == "await" {
			kind = "await"
		}
		p.push(p.mk(kind, int(k.start), p.end(), m))
		return
	}
	p.primary()
}

// primary pushes an atom and what follows it: attributes, calls,
// subscripts.
func (p *pyParser) primary() {
	m := len(p.stack)
	p.atom()
	for chain := 0; ; chain++ {
		if chain > 2000 {
			p.fail("a long chain of calls")
		}
		switch {
		case p.is(opDot):
			p.next()
			p.name()
			p.push(p.mk("attribute", p.stack[m].start, p.end(), m))
		case p.is(opLParen):
			p.arguments()
			p.push(p.mk("call", p.stack[m].start, p.end(), m))
		case p.is(opLBrack):
			p.subscript()
			p.push(p.mk("subscript", p.stack[m].start, p.end(), m))
		default:
			return
		}
	}
}

// arguments pushes a call's argument_list, or its generator_expression.
func (p *pyParser) arguments() {
	p.enter()
	defer p.leave()
	m := len(p.stack)
	s := int(p.expect(opLParen).start)
	n := 0
	for !p.is(opRParen) {
		am := len(p.stack)
		as := int(p.tok().start)
		switch {
		case p.is(opStar):
			p.next()
			p.expression()
			p.push(p.mk("list_splat", as, p.end(), am))
		case p.is(opPow):
			p.next()
			p.expression()
			p.push(p.mk("dictionary_splat", as, p.end(), am))
		case p.isName() && p.isAt(p.pos+1, opAssign):
			p.name()
			p.next()
			p.expression()
			p.push(p.mk("keyword_argument", as, p.end(), am))
		default:
			p.expression()
			if p.is(kwFor) || p.is(kwAsync) {
				if n > 0 {
					p.fail("a generator among arguments")
				}
				p.comprehension(am)
				p.expect(opRParen)
				if p.toks[p.pos-2].kind == tkOp && p.src(p.toks[p.pos-2]) == "," {
					p.fail("a generator with a comma")
				}
				p.push(p.mk("generator_expression", s, p.end(), m))
				return
			}
		}
		n++
		if !p.is(opComma) {
			break
		}
		p.next()
	}
	p.expect(opRParen)
	p.push(p.mk("argument_list", s, p.end(), m))
}

// comprehension pushes the for and if clauses after a comprehension's
// body.
func (p *pyParser) comprehension(m int) {
	for {
		cm := len(p.stack)
		s := int(p.tok().start)
		switch {
		case p.is(kwAsync) || p.is(kwFor):
			if p.is(kwAsync) {
				p.next()
			}
			p.expect(kwFor)
			p.targets()
			p.expect(kwIn)
			p.or()
			if p.is(opComma) {
				p.fail("a tuple in a comprehension's for")
			}
			p.push(p.mk("for_in_clause", s, p.end(), cm))
		case p.is(kwIf):
			p.next()
			p.or()
			p.push(p.mk("if_clause", s, p.end(), cm))
		default:
			return
		}
	}
}

func (p *pyParser) subscript() {
	p.enter()
	defer p.leave()
	p.expect(opLBrack)
	for {
		s := int(p.tok().start)
		m := len(p.stack)
		if p.is(opStar) {
			p.starOrExpression(true)
		} else {
			if !p.is(opColon) {
				p.expression()
			}
			if p.is(opColon) {
				p.next()
				if !p.is(opColon) && !p.is(opRBrack) && !p.is(opComma) {
					p.expression()
				}
				if p.is(opColon) {
					p.next()
					if !p.is(opRBrack) && !p.is(opComma) {
						p.expression()
					}
				}
				p.push(p.mk("slice", s, p.end(), m))
			}
		}
		if !p.is(opComma) {
			break
		}
		p.next()
		if p.is(opRBrack) {
			break
		}
	}
	p.expect(opRBrack)
}

// atom pushes a name, a literal, or a bracketed expression.
func (p *pyParser) atom() {
	k := p.tok()
	s, e := int(k.start), int(k.end)
	switch k.kind {
	case tkName:
		switch p.src(k) {
		case "True":
			p.next()
			p.leaf("true", s, e)
			return
		case "False":
			p.next()
			p.leaf("false", s, e)
			return
		case "None":
			p.next()
			p.leaf("none", s, e)
			return
		}
		p.name()
		return
	case tkNumber:
		p.next()
		kind := "integer"
		if t := p.src(k); !strings.HasPrefix(t, "0x") && !strings.HasPrefix(t, "0X") && strings.ContainsAny(t, ".eE") {
			kind = "float"
		}
		p.leaf(kind, s, e)
		return
	case tkString:
		m := len(p.stack)
		p.string()
		if p.tok().kind == tkString {
			for p.tok().kind == tkString {
				p.string()
			}
			p.push(p.mk("concatenated_string", s, p.end(), m))
		}
		return
	case tkOp:
		switch p.src(k) {
		case "...":
			p.next()
			p.leaf("ellipsis", s, e)
			return
		case "(":
			p.paren()
			return
		case "[":
			p.bracket()
			return
		case "{":
			p.brace()
			return
		}
	}
	p.fail("expected an expression")
}

// loneStar refuses a list or set of one starred element of more than a
// name ([*f(x)]): tree-sitter reads its list_splat_pattern there, and
// calls it (*f)(x).
func (p *pyParser) loneStar(m int, close uint8) {
	if n := p.stack[m]; n.kind == "list_splat" && n.children[0].kind != "identifier" && p.is(close) {
		p.fail("a lone starred call")
	}
}

// element pushes an element of a list, tuple or set.
func (p *pyParser) element() {
	if p.is(opStar) {
		p.starOrExpression(false)
		return
	}
	if p.is(kwYield) {
		p.fail("a yield in a collection")
	}
	p.expression()
}

// elements pushes the rest of a collection's elements after its first,
// up to close.
func (p *pyParser) elements(close uint8) {
	for p.is(opComma) {
		p.next()
		if p.is(close) {
			break
		}
		p.element()
	}
}

func (p *pyParser) paren() {
	p.enter()
	defer p.leave()
	m := len(p.stack)
	s := int(p.next().start)
	if p.is(opRParen) {
		p.next()
		p.push(p.mk("tuple", s, p.end(), m))
		return
	}
	if p.is(kwYield) {
		p.yield()
		p.expect(opRParen)
		p.push(p.mk("parenthesized_expression", s, p.end(), m))
		return
	}
	p.element()
	switch {
	case p.is(kwFor) || p.is(kwAsync):
		p.comprehension(m)
		p.expect(opRParen)
		p.push(p.mk("generator_expression", s, p.end(), m))
	case p.is(opComma):
		p.elements(opRParen)
		p.expect(opRParen)
		p.push(p.mk("tuple", s, p.end(), m))
	default:
		if p.stack[m].kind == "list_splat" {
			p.fail("a parenthesized splat")
		}
		p.expect(opRParen)
		p.push(p.mk("parenthesized_expression", s, p.end(), m))
	}
}

func (p *pyParser) bracket() {
	p.enter()
	defer p.leave()
	m := len(p.stack)
	s := int(p.next().start)
	if p.is(opRBrack) {
		p.next()
		p.push(p.mk("list", s, p.end(), m))
		return
	}
	p.element()
	if p.is(kwFor) || p.is(kwAsync) {
		p.comprehension(m)
		p.expect(opRBrack)
		p.push(p.mk("list_comprehension", s, p.end(), m))
		return
	}
	p.loneStar(m, opRBrack)
	p.elements(opRBrack)
	p.expect(opRBrack)
	p.push(p.mk("list", s, p.end(), m))
}

func (p *pyParser) brace() {
	p.enter()
	defer p.leave()
	m := len(p.stack)
	s := int(p.next().start)
	if p.is(opRBrace) {
		p.next()
		p.push(p.mk("dictionary", s, p.end(), m))
		return
	}
	// dictEntry pushes a pair or a dictionary_splat; it reports false
	// for a set's element.
	dictEntry := func(first bool) bool {
		em := len(p.stack)
		es := int(p.tok().start)
		if p.is(opPow) {
			p.next()
			p.binary(14)
			p.push(p.mk("dictionary_splat", es, p.end(), em))
			return true
		}
		if first && p.is(opStar) {
			p.element()
			return false
		}
		p.expression()
		if !p.is(opColon) {
			if !first {
				p.fail("a set element in a dictionary")
			}
			return false
		}
		p.next()
		p.expression()
		p.push(p.mk("pair", es, p.end(), em))
		return true
	}
	if dictEntry(true) {
		if p.is(kwFor) || p.is(kwAsync) {
			if p.stack[m].kind != "pair" {
				p.fail("a splat in a comprehension")
			}
			p.comprehension(m)
			p.expect(opRBrace)
			p.push(p.mk("dictionary_comprehension", s, p.end(), m))
			return
		}
		for p.is(opComma) {
			p.next()
			if p.is(opRBrace) {
				break
			}
			dictEntry(false)
		}
		p.expect(opRBrace)
		p.push(p.mk("dictionary", s, p.end(), m))
		return
	}
	if p.is(kwFor) || p.is(kwAsync) {
		p.comprehension(m)
		p.expect(opRBrace)
		p.push(p.mk("set_comprehension", s, p.end(), m))
		return
	}
	p.loneStar(m, opRBrace)
	p.elements(opRBrace)
	p.expect(opRBrace)
	p.push(p.mk("set", s, p.end(), m))
}

// ---- strings

// string pushes the string token at the current position, shaped as
// tree-sitter's scanner cuts it: its start, runs of content (with the
// escape sequences in them), interpolations, and its end.
func (p *pyParser) string() {
	k := p.next()
	s, e := int(k.start), int(k.end)
	f, _ := p.stringStart(s, e)
	m := len(p.stack)
	p.leaf("string_start", s, f.body)
	text := p.text
	run, runStart, runEnd := -1, 0, 0 // the stack mark, start and end of the open content run
	open := func(at, end int) {
		if run < 0 {
			run, runStart = len(p.stack), at
		}
		runEnd = end
	}
	shut := func() {
		if run >= 0 {
			p.push(p.mk("string_content", runStart, runEnd, run))
			run = -1
		}
	}
	// Each turn is one token of tree-sitter's: the scanner's content or
	// end, or, where it returns nothing, the lexer's escape sequence,
	// lone backslash, or interpolation.
	for i := f.body; ; {
		if i >= e {
			p.fail("a string read past its end")
		}
		c := text[i]
		if f.format && (c == '{' || c == '}') {
			if i+1 < e && text[i+1] == c {
				open(i, i+2)
				p.leaf("escape_interpolation", i, i+2)
				i += 2
				continue
			}
			if c == '}' {
				p.fail("a lone }")
			}
			shut()
			i = p.interpolation(i, e, "interpolation")
			continue
		}
		kind, end := p.stringScan(i, e, f)
		switch kind {
		case "content":
			open(i, end)
			i = end
		case "end":
			if end != e {
				p.fail("a string ending early")
			}
			shut()
			// A raw string's end takes the backslashes before it that
			// the scanner stepped over with no content yet.
			p.leaf("string_end", i, e)
			p.push(p.mk("string", s, e, m))
			return
		default: // a backslash the scanner leaves to the lexer
			if n := p.escape(i, e); n > 0 {
				open(i, i+n)
				p.leaf("escape_sequence", i, i+n)
				i += n
				continue
			}
			open(i, i+1) // a backslash that escapes nothing
			i++
		}
	}
}

// stringScan is what tree-sitter-python's scanner returns for a string's
// content at i: "content" or "end" with where it ends, or "" for nothing
// (the lexer then reads a backslash).
func (p *pyParser) stringScan(i, e int, f strFlags) (string, int) {
	text := p.text
	has := false
	j := i
	at := func(k int) byte {
		if k >= e {
			p.fail("a string read past its end")
		}
		return text[k]
	}
	for {
		c := at(j)
		switch {
		case f.format && (c == '{' || c == '}'):
			if has {
				return "content", j
			}
			return "", j
		case c == '\\':
			if f.raw {
				j++
				if d := at(j); d == f.quote || d == '\\' {
					j++
				}
				if at(j) == '\r' {
					j++
					if at(j) == '\n' {
						j++
					}
				} else if at(j) == '\n' {
					j++
				}
				continue
			}
			if f.bytes && (at(j+1) == 'N' || at(j+1) == 'u' || at(j+1) == 'U') {
				// The scanner steps over the character after too,
				// whatever it is.
				if d := at(j + 2); d == f.quote || d == '\\' || d == '\n' || d == '\r' {
					p.fail("an odd escape in bytes")
				}
				j += 3
				has = true
				continue
			}
			if has {
				return "content", j
			}
			return "", j
		case c == f.quote:
			if !f.triple {
				if has {
					return "content", j
				}
				return "end", j + 1
			}
			if j+2 < e && text[j+1] == c && text[j+2] == c {
				if has {
					return "content", j
				}
				return "end", j + 3
			}
			if j+1 < e && text[j+1] == c {
				return "content", j + 2
			}
			return "content", j + 1
		case c == '\n' && has && !f.triple:
			p.fail("a line break in a string")
		}
		j++
		has = true
	}
}

// escape returns the length of the escape sequence at i (a backslash),
// or 0.
func (p *pyParser) escape(i, to int) int {
	text := p.text
	if i+1 >= to {
		return 0
	}
	hex := func(n int) int {
		if i+2+n > to {
			return 0
		}
		for j := i + 2; j < i+2+n; j++ {
			if !isHex(text[j]) {
				return 0
			}
		}
		return 2 + n
	}
	switch c := text[i+1]; {
	case c == 'u':
		return hex(4)
	case c == 'U':
		return hex(8)
	case c == 'x':
		return hex(2)
	case isDigit(c):
		n := 2
		for n < 4 && i+n < to && isDigit(text[i+n]) {
			n++
		}
		return n
	case c == '\n':
		return 2
	case c == '\r':
		if i+2 < to && text[i+2] == '\n' {
			return 3
		}
		return 0
	case strings.IndexByte("'\"abfrntv\\", c) >= 0:
		return 2
	case c == 'N':
		if i+2 < to && text[i+2] == '{' {
			j := strings.IndexByte(text[i+3:to], '}')
			if j < 0 || strings.ContainsAny(text[i+3:i+3+j], "\n\"'") {
				p.fail("an odd \\N escape")
			}
			if j == 0 {
				return 0
			}
			return 3 + j + 1
		}
	}
	return 0
}

// interpolation pushes the f-string interpolation at i ({) as kind and
// returns where it ends: its expression, read by a parse of its own, a
// conversion and a format specifier.
func (p *pyParser) interpolation(i, to int, kind string) int {
	text := p.text
	end := p.interpolationEnd(i, to, 0) // past its }
	// The expression ends at the first !x, : or = (self-documenting) at
	// its top level.
	depth, x := 0, end-1
	for j := i + 1; j < end-1; j++ {
		c := text[j]
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == '"' || c == '\'':
			k := j
			for k > i && isNameChar(text[k-1]) {
				k--
			}
			j = p.stringEnd(k, end) - 1
		case depth > 0:
		case c == '!':
			if text[j+1] == '=' {
				j++
				continue
			}
			x = j
		case c == ':':
			if text[j+1] == '=' {
				p.fail(":= in an f-string")
			}
			x = j
		case c == '=':
			if strings.IndexByte("=!<>", text[j-1]) >= 0 || text[j+1] == '=' {
				if text[j+1] == '=' {
					j++
				}
				continue
			}
			x = j
		case c == ',':
			p.fail("a tuple in an f-string")
		}
		if x != end-1 {
			break
		}
	}
	m := len(p.stack)
	// The expression: its own tokens, read by this parser.
	saved, savedPos := p.toks, p.pos
	p.toks, p.pos = p.lex(i+1, x, true, nil), 0
	if p.tok().kind == tkEOF {
		p.fail("an empty f-string expression")
	}
	if p.is(kwYield) || p.is(opStar) {
		p.fail("an odd f-string expression")
	}
	p.expression()
	if p.tok().kind != tkEOF {
		p.fail("more in an f-string expression")
	}
	p.toks, p.pos = saved, savedPos
	j := x
	if text[j] == '=' {
		j++
		for text[j] == ' ' {
			j++
		}
	}
	if text[j] == '!' {
		if j+1 >= end || text[j+1] < 'a' || text[j+1] > 'z' {
			p.fail("an odd conversion")
		}
		p.leaf("type_conversion", j, j+2)
		j += 2
		for text[j] == ' ' {
			p.fail("space after a conversion")
		}
	}
	if text[j] == ':' {
		fm := len(p.stack)
		fs, fe := j, j+1
		j++
		for j < end-1 {
			if text[j] == '{' {
				if text[j+1] == '{' {
					p.fail("{{ in a format specifier")
				}
				j = p.interpolation(j, end-1, "format_expression")
				fe = j
				continue
			}
			if text[j] == '}' {
				p.fail("} in a format specifier")
			}
			k := j
			for k < end-1 && text[k] != '{' {
				k++
			}
			if strings.TrimLeft(text[j:k], " \t") != "" {
				fe = k
			}
			j = k
		}
		p.push(p.mk("format_specifier", fs, fe, fm))
	}
	if j != end-1 {
		p.fail("an odd interpolation")
	}
	p.push(p.mk(kind, i, end, m))
	return end
}

// ---- comments, definitions

// place puts each extra (comment, line continuation) in the deepest node
// with a token on either side of it, as tree-sitter does: one that starts
// before it and ends at or after its end (a block or a decorator ends
// with a zero-width token after the comments it holds).
func (p *pyParser) place() {
	if len(p.extras) == 0 {
		return
	}
	p.t.top = p.placeIn(p.t.top, p.extras)
}

// placeIn places extras (sorted) among the siblings ns and returns the
// merged list.
func (p *pyParser) placeIn(ns []*node, extras []*node) []*node {
	// Each extra goes into the child that holds it, or stays here.
	var here []*node
	i := 0
	for k := 0; k < len(ns) && i < len(extras); k++ {
		n := ns[k]
		for i < len(extras) && extras[i].start <= n.start {
			here = append(here, extras[i])
			i++
		}
		j := i
		for j < len(extras) && extras[j].start > n.start && extras[j].end <= n.end {
			j++
		}
		if j > i {
			n.children = p.placeIn(n.children, extras[i:j])
			i = j
		}
	}
	here = append(here, extras[i:]...)
	if len(here) == 0 {
		return ns
	}
	out := make([]*node, 0, len(ns)+len(here))
	a, b := 0, 0
	for a < len(ns) || b < len(here) {
		if b >= len(here) || a < len(ns) && ns[a].start < here[b].start {
			out = append(out, ns[a])
			a++
		} else {
			out = append(out, here[b])
			b++
		}
	}
	return out
}

// define records the definitions under ns, as walker.define does for
// Python's tree.
func (p *pyParser) define(ns []*node, owner string, depth int) {
	if depth >= maxDefDepth {
		return
	}
	for _, n := range ns {
		inner := owner
		switch n.kind {
		case "function_definition":
			kind := "func"
			if owner == "class" {
				kind = "method"
			}
			p.def(n, kind)
			continue
		case "class_definition":
			p.def(n, "class")
			inner = "class"
		case "assignment":
			if l := n.children[0]; l.kind == "identifier" && (owner == "" || owner == "class") {
				p.def(n, "var")
				continue
			}
		case "comment", "line_continuation", "identifier", "string":
			continue
		}
		p.define(n.children, inner, depth+1)
	}
}

// def records n, a definition of kind, named by its first identifier.
func (p *pyParser) def(n *node, kind string) {
	var name *node
	for _, c := range n.children {
		if c.kind == "identifier" {
			name = c
			break
		}
	}
	if name == nil {
		return
	}
	p.t.defs = append(p.t.defs, def{Symbol: Symbol{Name: p.text[name.start:name.end], Kind: kind}, at: n.start})
}
