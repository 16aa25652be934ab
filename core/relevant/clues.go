package relevant

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/lang"
	"github.com/palace-dev/palace/core/query"
)

// Position is a place in a document: a 0-based line and a byte offset into
// that line. Fronts convert their own units (LSP counts UTF-16 code units)
// before calling, so the core needs no knowledge of any editor protocol.
type Position struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// Clues are what a place in a document says about what the reader is
// looking for, strongest first. They become the query, and each kind
// weighs differently when hits are ranked.
type Clues struct {
	// Identifier is the word under the cursor (empty for a keyword or white
	// space).
	Identifier string `json:"identifier,omitempty"`
	// Qualifier is the word joined to Identifier by '.' or '::' before it
	// (a package, module, receiver or object): it tells which of several
	// definitions of Identifier is meant.
	Qualifier string `json:"qualifier,omitempty"`
	// Selection holds the most distinctive identifiers of a selection.
	Selection []string `json:"selection,omitempty"`
	// Enclosing names the function, then the type or section, that contain
	// the place.
	Enclosing []string `json:"enclosing,omitempty"`
	// Nearby are distinctive identifiers from the lines around.
	Nearby []string `json:"nearby,omitempty"`
	// Path are words of the document's path below its folder.
	Path []string `json:"path,omitempty"`
	// Skipped is the word under the cursor left out as noise (an error
	// variable, a receiver, a hash); noise says which kind, also when the
	// cursor is on a package line, a licence header or a URL.
	Skipped string `json:"skipped,omitempty"`
	noise   string
}

// Weights of each clue kind when hits are ranked: the word the reader points
// at matters most, the path least (it mostly says where the reader already
// is).
const (
	weightIdentifier = 4.0
	weightEnclosing  = 2.0
	weightNearby     = 1.0
	weightPath       = 0.5
)

// Bounds on how much of a document is read, so a huge file costs no more
// than a normal one.
const (
	maxEnclosingScan  = 2000 // lines scanned upwards for definitions (and Markdown headings)
	maxSelectionLines = 400  // lines of a selection read
	maxLineBytes      = 1024 // of a line away from the place: its start, where definitions are
	maxPlaceBytes     = 8192 // of the cursor's line, around it
	nearbyLines       = 6    // lines either side read for nearby identifiers
	frequencyLines    = 400  // lines either side counted to judge distinctiveness
	maxNearby         = 4
	maxSelection      = 3
	maxPathWords      = 3
	minNearbyLen      = 3
)

// terms lists the clues as (term, weight) pairs, without repeats; the first
// occurrence of a word (case-insensitively) keeps its stronger weight.
func (c Clues) terms() []weighted {
	var out []weighted
	seen := map[string]bool{}
	add := func(role string, w float64, ts ...string) {
		for _, t := range ts {
			k := strings.ToLower(t)
			if t == "" || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, weighted{term: t, role: role, weight: w, tokens: tokens(t)})
		}
	}
	add(roleCursor, weightIdentifier, c.Identifier)
	add("selected", weightIdentifier, c.Selection...)
	add("enclosing", weightEnclosing, c.Enclosing...)
	add("", weightNearby, c.Nearby...)
	add("path", weightPath, c.Path...)
	return out
}

// roleCursor is the role of the identifier at the cursor.
const roleCursor = "at cursor"

type weighted struct {
	term   string
	role   string // shown in a hit's why; "" for nearby words
	weight float64
	tokens []string // as the full-text index splits and folds the term
}

// Extract reads the clues at [start, end) of text (a cursor when start ==
// end). path and root give the path words: path's folders below root and
// its file name without extension.
func Extract(text string, start, end Position, path, root string) Clues {
	v := view(text, start, end)
	lines, start, end := v.lines, v.start, v.end
	header := licenceHeader(lines, v.first, isMarkdown(path))
	clean := withoutNoise(lines, header)
	var c Clues
	if start == end {
		c.Identifier = identifierAt(lines[start.Line], start.Col)
		called, qualified := usedAsCode(lines[start.Line], start.Col)
		if isKeyword(c.Identifier) && !qualified || query.IsStopWord(c.Identifier) && !called && !qualified {
			c.Identifier = ""
		}
		if c.noise = atCursorNoise(lines, header, start.Line, start.Col, c.Identifier, called, qualified); c.noise != "" {
			c.Skipped, c.Identifier = c.Identifier, ""
		} else if c.Identifier != "" {
			c.Qualifier = qualifierAt(lines[start.Line], start.Col)
		}
	} else {
		c.Selection = selectionWords(clean, start, end)
	}
	exclude := map[string]bool{strings.ToLower(c.Identifier): true}
	for _, s := range c.Selection {
		exclude[strings.ToLower(s)] = true
	}
	c.Enclosing = enclosing(lines, start.Line, isMarkdown(path), exclude)
	for _, e := range c.Enclosing {
		exclude[strings.ToLower(e)] = true
	}
	c.Nearby = nearby(clean, start.Line, end.Line, exclude)
	for _, n := range c.Nearby {
		exclude[strings.ToLower(n)] = true
	}
	c.Path = pathWords(path, root, exclude)
	return c
}

// textView is the part of a document Extract reads: lines, cut, and the
// place within them.
type textView struct {
	lines      []string
	start, end Position
	// bytes is how many bytes of the document lines holds: what the
	// clues cost, whatever the document's size.
	bytes int
	// first is the document line lines[0] is.
	first int
}

// view cuts text to what the clues need, so a huge document, or a 10 MB
// minified line, costs no more than a normal one: the lines from
// maxEnclosingScan above the place to frequencyLines below it (at most
// maxSelectionLines of a selection), each line cut to its first
// maxLineBytes, and the place's own lines to maxPlaceBytes around it. Cuts
// fall on rune boundaries. Positions past a line's end or the last line
// move inside the document, as LSP asks.
func view(text string, start, end Position) textView {
	if end.Line < start.Line || (end.Line == start.Line && end.Col < start.Col) {
		start, end = end, start
	}
	n := strings.Count(text, "\n") // the last line's index
	start.Line, end.Line = max(0, min(start.Line, n)), max(0, min(end.Line, n))
	if end.Line-start.Line > maxSelectionLines {
		end = Position{Line: start.Line + maxSelectionLines, Col: maxPlaceBytes}
	}
	first, last := max(0, start.Line-maxEnclosingScan), end.Line+frequencyLines
	var v textView
	rest := text
	for i := 0; i <= last; i++ {
		line := rest
		j := strings.IndexByte(rest, '\n')
		if j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		}
		if i >= first {
			v.lines = append(v.lines, strings.TrimSuffix(line, "\r"))
		}
		if j < 0 {
			break
		}
	}
	v.first = first
	start.Line, end.Line = start.Line-first, end.Line-first
	start, end = clamp(v.lines, start), clamp(v.lines, end)
	for i, l := range v.lines {
		switch {
		case i == start.Line || i == end.Line:
			from, to := 0, len(l)
			if i == start.Line {
				from = start.Col - maxPlaceBytes/2
			}
			if i == end.Line {
				to = end.Col + maxPlaceBytes/2
			}
			if i == start.Line && i != end.Line {
				to = start.Col + maxPlaceBytes/2
			}
			if i == end.Line && i != start.Line {
				from = end.Col - maxPlaceBytes/2
			}
			from, to = max(0, from), min(len(l), to, max(0, from)+maxPlaceBytes)
			from, to = runeFloor(l, from), runeFloor(l, to)
			v.lines[i] = l[from:to]
			if i == start.Line {
				start.Col = min(start.Col, to) - from
			}
			if i == end.Line {
				end.Col = min(end.Col, to) - from
			}
		case len(l) > maxLineBytes:
			v.lines[i] = l[:runeFloor(l, maxLineBytes)]
		}
		v.bytes += len(v.lines[i])
	}
	v.start, v.end = start, end
	return v
}

// runeFloor moves i back onto the start of a rune of s.
func runeFloor(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// clamp moves p inside the document, as LSP asks of positions past a line's
// end or the last line, and onto a rune boundary.
func clamp(lines []string, p Position) Position {
	p.Line = max(0, min(p.Line, len(lines)-1))
	l := lines[p.Line]
	p.Col = max(0, min(p.Col, len(l)))
	for p.Col > 0 && p.Col < len(l) && !utf8.RuneStart(l[p.Col]) {
		p.Col--
	}
	return p
}

func isIdentRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$'
}

// identifierAt is the identifier the cursor at col touches: the one it is
// inside, else the one just before it (the cursor sits after a word just
// typed), else the one just after.
func identifierAt(line string, col int) string {
	s, e := identSpan(line, col)
	return trimIdent(line[s:e])
}

// usedAsCode reports whether the identifier the cursor at col touches is
// called (done(), followed by '(') or qualified (fut.done, io::empty,
// after '.' or '::'). At the cursor, a stop word is a clue only when
// called or qualified, and a reserved word only when qualified: "done" in
// asyncio's fut.done() names a method, "here" in a sentence nothing, and
// "if (" is a statement.
func usedAsCode(line string, col int) (called, qualified bool) {
	s, e := identSpan(line, col)
	if s == e {
		return false, false
	}
	_, qualified = joined(line[:s])
	return strings.HasPrefix(strings.TrimLeft(line[e:], " \t"), "("), qualified
}

// joined cuts the '.' or '::' that joins a name to what comes before it
// from the end of before.
func joined(before string) (string, bool) {
	if b, ok := strings.CutSuffix(before, "::"); ok {
		return b, true
	}
	return strings.CutSuffix(before, ".")
}

// qualifierAt is the identifier before the one the cursor at col touches
// when a '.' or '::' joins them: store in store.Open, self in
// self.flush(), io in io::Read.
func qualifierAt(line string, col int) string {
	s, e := identSpan(line, col)
	if s == e {
		return ""
	}
	before, ok := joined(line[:s])
	if !ok || before == "" {
		return ""
	}
	qs, qe := identSpan(before, len(before))
	return trimIdent(before[qs:qe])
}

// identSpan is the byte range of the identifier the cursor at col
// touches (see identifierAt); empty when it touches none.
func identSpan(line string, col int) (int, int) {
	at := func(i int) (rune, bool) {
		if i < 0 || i >= len(line) {
			return 0, false
		}
		r, _ := utf8.DecodeRuneInString(line[i:])
		return r, isIdentRune(r)
	}
	pos := -1
	if _, ok := at(col); ok {
		pos = col
	} else if col > 0 {
		_, size := utf8.DecodeLastRuneInString(line[:col])
		if _, ok := at(col - size); ok {
			pos = col - size
		}
	}
	if pos < 0 {
		return 0, 0
	}
	s := pos
	for s > 0 {
		r, size := utf8.DecodeLastRuneInString(line[:s])
		if !isIdentRune(r) {
			break
		}
		s -= size
	}
	e := pos
	for e < len(line) {
		r, size := utf8.DecodeRuneInString(line[e:])
		if !isIdentRune(r) {
			break
		}
		e += size
	}
	return s, e
}

// trimIdent drops leading '$' and digits-only words, which say nothing.
func trimIdent(w string) string {
	w = strings.TrimLeft(w, "$")
	if w == "" || strings.IndexFunc(w, unicode.IsLetter) < 0 {
		return ""
	}
	return w
}

var identRe = regexp.MustCompile(`[\p{L}\p{N}_$]+`)

// idents lists the identifiers of a line.
func idents(line string) []string {
	var out []string
	for _, w := range identRe.FindAllString(line, -1) {
		if w = trimIdent(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// selectionWords picks the most distinctive identifiers of a selection.
func selectionWords(lines []string, start, end Position) []string {
	var sel []string
	for i := start.Line; i <= end.Line; i++ {
		l := lines[i]
		from, to := 0, len(l)
		if i == start.Line {
			from = start.Col
		}
		if i == end.Line {
			to = end.Col
		}
		if from < to {
			sel = append(sel, l[from:to])
		}
	}
	counts := countIdents(sel)
	freq := countIdents(window(lines, start.Line, end.Line, frequencyLines))
	return distinctive(counts, freq, nil, maxSelection, 2)
}

func window(lines []string, from, to, pad int) []string {
	return lines[max(0, from-pad):min(len(lines), to+pad+1)]
}

func countIdents(lines []string) map[string]int {
	m := map[string]int{}
	for _, l := range lines {
		for _, w := range idents(l) {
			m[w]++
		}
	}
	return m
}

// distinctive ranks the words of counts by how much more often they occur
// here than in freq (the wider surroundings), longer words first on ties,
// and keeps n that are not keywords, common names or excluded.
func distinctive(counts, freq map[string]int, exclude map[string]bool, n, minLen int) []string {
	type cand struct {
		w     string
		score float64
	}
	var cs []cand
	for w, c := range counts {
		lw := strings.ToLower(w)
		if utf8.RuneCountInString(w) < minLen || isKeyword(w) || common[lw] || exclude[lw] || query.IsStopWord(lw) || looksLikeHash(w) {
			continue
		}
		cs = append(cs, cand{w, float64(c) / float64(1+freq[w])})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		if len(cs[i].w) != len(cs[j].w) {
			return len(cs[i].w) > len(cs[j].w)
		}
		return cs[i].w < cs[j].w
	})
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		if len(out) == n {
			break
		}
		if lw := strings.ToLower(c.w); !seen[lw] {
			seen[lw] = true
			out = append(out, c.w)
		}
	}
	return out
}

// nearby picks distinctive identifiers from the lines around [from, to].
func nearby(lines []string, from, to int, exclude map[string]bool) []string {
	counts := countIdents(window(lines, from, to, nearbyLines))
	freq := countIdents(window(lines, from, to, frequencyLines))
	return distinctive(counts, freq, exclude, maxNearby, minNearbyLen)
}

// Definition heuristics, for any language: a definition keyword followed by
// a name (func, def, class, fn, struct, ...), a C-like signature line
// (name followed by parameters, not ending in ';'), a method line ending in
// '{', a JavaScript function bound to a name, or a Markdown heading.
var (
	modifiers  = `(?:(?:export|public|private|protected|internal|static|async|abstract|final|override|virtual|inline|extern|unsafe|default|open|sealed|partial|declare|pub(?:\([^)]*\))?)\s+)*`
	keywordDef = regexp.MustCompile(`^\s*` + modifiers +
		`(func|function|def|fn|class|struct|interface|type|impl|trait|enum|union|module|mod|object|record|namespace|sub|proc|procedure|fun|defn|defun|defmacro|protocol|extension|actor|contract|service|message)\b\*?\s*` +
		`(\([^)]*\)\s*)?(?:<[^>]*>\s*)?([\p{L}_$][\p{L}\p{N}_$]*)`)
	receiverType = regexp.MustCompile(`^\(\s*(?:[\p{L}_][\p{L}\p{N}_]*\s+)?\*?([\p{L}_][\p{L}\p{N}_]*)`)
	cSignature   = regexp.MustCompile(`^\s*(?:[\p{L}_][\p{L}\p{N}_:<>,\[\]]*[\s*&]+)+([\p{L}_][\p{L}\p{N}_:]*)\s*\([^;]*$`)
	methodLine   = regexp.MustCompile(`^\s*(?:(?:async|static|get|set|public|private|protected|override)\s+)*([\p{L}_$][\p{L}\p{N}_$]*)\s*\([^;]*\)\s*(?::\s*[^{]+)?\{\s*$`)
	boundFunc    = regexp.MustCompile(`^\s*(?:export\s+)?(?:const|let|var)\s+([\p{L}_$][\p{L}\p{N}_$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\p{L}_$][\p{L}\p{N}_$]*\s*=>)`)
	mdHeading    = regexp.MustCompile(`^(#{1,6})\s+(.+?)\s*#*\s*$`)
)

// typeKeywords introduce types rather than functions.
var typeKeywords = map[string]bool{
	"class": true, "struct": true, "interface": true, "type": true, "impl": true, "trait": true,
	"enum": true, "union": true, "module": true, "mod": true, "object": true, "record": true,
	"namespace": true, "protocol": true, "extension": true, "actor": true, "contract": true,
	"service": true, "message": true,
}

// controlWords look like calls in a signature pattern but are statements,
// in some language: Go's select and range, Java's synchronized, C#'s using,
// lock and fixed, Ruby's elsif, Swift's guard, Kotlin's when, PHP's
// elseif. A line starting with one is a statement too, whatever follows:
// "if len(x) < y {" has the shape of a C signature named len.
var controlWords = wordSet(`
assert await case catch checked del delete do elif else elseif elsif except finally fixed for
foreach go guard if lock loop match new raise range repeat return select sizeof switch
synchronized throw try typeof unchecked unless until using when while with yield defer
`)

// builtins are the calls every file of a language makes (Go's len and make,
// Python's print and range, ...): a line that calls one is a statement,
// never the definition of a function of that name. A real definition of
// one is still found by its keyword (func, def, function).
var builtins = wordSet(`
append cap clear close complex copy imag len make panic print println real recover
isinstance enumerate sorted reversed zip super require printf sprintf fprintf malloc free
`)

// leadingWord is the first run of letters, digits and '_' on a line.
var leadingWord = regexp.MustCompile(`^\s*([\p{L}_][\p{L}\p{N}_]*)`)

// definition names what line defines, and whether it is a type.
func definition(line string) (name, recv string, isType, ok bool) {
	if m := keywordDef.FindStringSubmatch(line); m != nil {
		if m[2] != "" && m[1] == "func" { // a Go method: func (r *T) Name
			if r := receiverType.FindStringSubmatch(m[2]); r != nil {
				recv = r[1]
			}
		}
		return m[3], recv, typeKeywords[m[1]], true
	}
	if m := leadingWord.FindStringSubmatch(line); m != nil && controlWords[strings.ToLower(m[1])] {
		return "", "", false, false
	}
	for _, re := range []*regexp.Regexp{boundFunc, methodLine, cSignature} {
		if m := re.FindStringSubmatch(line); m != nil && !statementWord(m[1]) {
			return m[1], "", false, true
		}
	}
	return "", "", false, false
}

// statementWord reports whether a name a signature pattern found is a
// control word, a keyword or a builtin call rather than a function's name.
func statementWord(name string) bool {
	lw := strings.ToLower(name)
	return controlWords[lw] || builtins[lw] || isKeyword(name) || query.IsStopWord(lw)
}

func indent(line string) int {
	n := 0
	for _, r := range line {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// enclosing finds the function and the type (or Markdown sections) around
// line by indentation: walking up, each line less indented than the last
// one kept opens a block; definitions among those blocks enclose the line.
func enclosing(lines []string, line int, markdown bool, exclude map[string]bool) []string {
	if markdown {
		return headings(lines, line)
	}
	var fn, typ string
	keep := func(name, recv string, isType bool) {
		if name == "" || exclude[strings.ToLower(name)] {
			return
		}
		switch {
		case isType && typ == "":
			typ = name
		case !isType && fn == "":
			fn = name
			if recv != "" && typ == "" && !exclude[strings.ToLower(recv)] {
				typ = recv
			}
		}
	}
	// The line itself may be a definition (the cursor on "func" of
	// "func Foo"): its name encloses the cursor.
	if name, recv, isType, ok := definition(lines[line]); ok {
		keep(name, recv, isType)
	}
	threshold := -1
	for i := line; i >= 0 && i >= line-maxEnclosingScan; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			threshold = indent(lines[i])
			break
		}
	}
	if threshold < 0 {
		for i := line + 1; i < len(lines) && i <= line+nearbyLines; i++ {
			if strings.TrimSpace(lines[i]) != "" {
				threshold = indent(lines[i])
				break
			}
		}
	}
	for i := line - 1; i >= 0 && i >= line-maxEnclosingScan && threshold > 0 && typ == ""; i-- {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := indent(l)
		if ind >= threshold {
			continue
		}
		if t := strings.TrimSpace(l); t == "{" || t == "(" {
			// A brace on its own line (Allman style) opens the block of the
			// line above it, which sits at the same indentation.
			threshold = ind + 1
			continue
		}
		threshold = ind
		if name, recv, isType, ok := definition(l); ok {
			keep(name, recv, isType)
		}
	}
	var out []string
	for _, n := range []string{fn, typ} {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// isMarkdown says whether a document's sections are Markdown headings
// (core/lang's table names its language markdown); in code a line
// starting with '#' is a comment or a directive.
func isMarkdown(path string) bool { return lang.Of(path) == "markdown" }

// headings returns the Markdown section titles around line (innermost
// first, at most two).
func headings(lines []string, line int) []string {
	var out []string
	level := 7
	inFence := false
	// Fenced code is not headings: count fences from the top down to line.
	fenced := make([]bool, line+1)
	for i := 0; i <= line; i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
			inFence = !inFence
		}
		fenced[i] = inFence
	}
	for i := line; i >= 0 && len(out) < 2; i-- {
		if fenced[i] {
			continue
		}
		m := mdHeading.FindStringSubmatch(lines[i])
		if m == nil || len(m[1]) >= level {
			continue
		}
		level = len(m[1])
		if onlyStopWords(m[2]) {
			continue // "About", "Why we do it": no word of it says what the section is
		}
		out = append(out, m[2])
	}
	return out
}

// onlyStopWords reports whether every word of a heading is a stop word.
func onlyStopWords(heading string) bool {
	for _, w := range strings.FieldsFunc(heading, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !query.IsStopWord(w) {
			return false
		}
	}
	return true
}

// genericPathWords say where code lives, not what it is about.
var genericPathWords = map[string]bool{
	"src": true, "lib": true, "pkg": true, "internal": true, "cmd": true, "main": true, "index": true,
	"app": true, "test": true, "tests": true, "spec": true, "util": true, "utils": true, "common": true,
	"init": true, "mod": true, "source": true, "sources": true, "include": true,
}

// pathWords are the words of path below root: folder names and the file's
// name without its extension, the file's own words first.
func pathWords(path, root string, exclude map[string]bool) []string {
	if path == "" {
		return nil
	}
	rel := filepath.Base(path)
	if root != "" {
		if r, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(r, "..") {
			rel = r
		}
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	last := parts[len(parts)-1]
	if i := strings.IndexByte(last, '.'); i > 0 {
		last = last[:i]
	}
	parts[len(parts)-1] = last
	var out []string
	seen := map[string]bool{}
	for i := len(parts) - 1; i >= 0 && len(out) < maxPathWords; i-- {
		for _, w := range strings.FieldsFunc(parts[i], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			lw := strings.ToLower(w)
			if len(out) == maxPathWords || utf8.RuneCountInString(w) < minNearbyLen || genericPathWords[lw] ||
				exclude[lw] || seen[lw] || isKeyword(lw) || query.IsStopWord(lw) || strings.IndexFunc(w, unicode.IsLetter) < 0 {
				continue
			}
			seen[lw] = true
			out = append(out, w)
		}
	}
	return out
}
