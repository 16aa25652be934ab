package aaak

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parse reads one AAAK V1 document strictly. On failure it returns nil and
// an [Errors] value holding every error found, each with its line, rune
// column and reason; lines are checked independently, so one bad line does
// not hide the others. A second header is an error: read a stream of
// documents with [ParseStream].
func Parse(src string) (*Document, error) {
	p := &parser{}
	lines := p.scan(src)
	doc := p.document(lines)
	if len(p.errs) > 0 {
		p.errs.sort()
		return nil, p.errs
	}
	return doc, nil
}

// ParseStream reads a stream of one or more AAAK V1 documents, as
// [PrintStream] writes them: every line that starts with 'V' is the
// header of the next document. Each document is read and checked as
// [Parse] reads one (ids are unique and tunnels resolve within their
// document); error positions are lines of the whole stream.
func ParseStream(src string) ([]*Document, error) {
	p := &parser{}
	lines := p.scan(src)
	var docs []*Document
	for len(lines) > 0 || docs == nil {
		n := 1
		for n < len(lines) && !isHeaderLine(lines[n]) {
			n++
		}
		n = min(n, len(lines))
		docs = append(docs, p.document(lines[:n]))
		lines = lines[n:]
	}
	if len(p.errs) > 0 {
		p.errs.sort()
		return nil, p.errs
	}
	return docs, nil
}

// ParseReader reads all of r and parses it with [Parse].
func ParseReader(r io.Reader) (*Document, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("aaak: reading document: %w", err)
	}
	return Parse(string(b))
}

// isHeaderLine: no body line starts with 'V' (a zettel starts with its id,
// a tunnel with "T:", an arc with "ARC:"), so one that does is a header.
func isHeaderLine(l srcLine) bool { return !l.bad && strings.HasPrefix(l.text, "V") }

type parser struct {
	errs Errors
}

func (p *parser) fail(line, col int, rule, format string, args ...any) {
	p.errs = append(p.errs, &ParseError{Line: line, Col: col, Rule: rule, Reason: fmt.Sprintf(format, args...)})
}

// span is a piece of a line and its byte offset within that line, kept so
// errors can point at the piece.
type span struct {
	text string
	off  int
}

// splitSpans splits s at every sep; base is the offset of s in its line.
func splitSpans(s, sep string, base int) []span {
	var out []span
	for {
		i := strings.Index(s, sep)
		if i < 0 {
			return append(out, span{s, base})
		}
		out = append(out, span{s[:i], base})
		s = s[i+len(sep):]
		base += i + len(sep)
	}
}

// endCol is the column just past the last rune of line, where a missing
// piece would have been.
func endCol(line string) int { return utf8.RuneCountInString(line) + 1 }

// tunnelRef remembers where a tunnel named its endpoints, for the semantic
// check that runs after the whole body is read (forward references are fine).
type tunnelRef struct {
	line           int
	fromCol, toCol int
	from, to       uint64
	fromOK, toOK   bool
}

// scan splits src into lines, recording encoding errors.
func (p *parser) scan(src string) []srcLine {
	lines, errs := scanLines(src)
	p.errs = append(p.errs, errs...)
	return lines
}

// document reads one document from lines, the first of which should be
// its header.
func (p *parser) document(lines []srcLine) *Document {
	doc := &Document{}
	if len(lines) == 0 {
		p.fail(1, 1, RuleHeader, "empty document: want a header V1|wing|room|date|source")
		return doc
	}
	first, body := lines[0], lines[1:]
	switch {
	case first.bad:
		// Already reported; do not pile a header error on top.
	case strings.HasPrefix(first.text, "V"):
		p.header(first, &doc.Header)
	case strings.HasPrefix(first.text, "\uFEFFV"):
		// Rejected (the printer never writes one), but read the header
		// behind it so the rest is checked as usual.
		p.fail(first.num, 1, RuleHeader, "byte order mark before the header")
		first.text = strings.TrimPrefix(first.text, "\uFEFF")
		p.header(first, &doc.Header)
	default:
		p.fail(first.num, 1, RuleHeader, "missing header: the first line must be V<version>|wing|room|date|source")
		body = lines // read the rest anyway, to report its errors too
	}
	if len(body) == 0 && !first.bad {
		p.fail(first.num+1, 1, RuleBody, "no body: want at least one zettel, tunnel or arc line")
	}

	idLine := map[uint64]int{}
	var refs []tunnelRef
	for _, l := range body {
		if l.bad {
			continue
		}
		switch {
		case isHeaderLine(l):
			p.fail(l.num, 1, RuleHeader, "a second header: this is a stream of documents (read it with ParseStream, or 'palace aaak check')")
		case strings.HasPrefix(l.text, "T:"):
			t, ref, ok := p.tunnel(l)
			refs = append(refs, ref)
			if ok {
				doc.Tunnels = append(doc.Tunnels, t)
			}
		case strings.HasPrefix(l.text, "ARC:"):
			if a, ok := p.arc(l); ok {
				doc.Arcs = append(doc.Arcs, a)
			}
		default:
			z, idOK, ok := p.zettel(l)
			if idOK {
				if prev, dup := idLine[z.ID]; dup {
					p.fail(l.num, 1, RuleDuplicate, "duplicate zettel id %d (first used on line %d)", z.ID, prev)
				} else {
					idLine[z.ID] = l.num
				}
			}
			if ok {
				doc.Zettels = append(doc.Zettels, z)
			}
		}
	}
	for _, r := range refs {
		if _, found := idLine[r.from]; r.fromOK && !found {
			p.fail(r.line, r.fromCol, RuleEndpoint, "tunnel start %d names no zettel of this document", r.from)
		}
		if _, found := idLine[r.to]; r.toOK && !found {
			p.fail(r.line, r.toCol, RuleEndpoint, "tunnel end %d names no zettel of this document", r.to)
		}
	}
	return doc
}

func (p *parser) header(l srcLine, h *Header) {
	fields := splitSpans(l.text, "|", 0)
	if len(fields) != 5 {
		col := endCol(l.text)
		if len(fields) > 5 {
			col = colAt(l.text, fields[5].off-1) // the fifth '|'
		}
		p.fail(l.num, col, RuleHeader, "header has %d fields, want 5: V<version>|wing|room|date|source", len(fields))
		return
	}
	ver := strings.TrimPrefix(fields[0].text, "V")
	switch n, err := strconv.ParseUint(ver, 10, 31); {
	case !isDigits(ver):
		p.fail(l.num, 2, RuleVersion, "version %q is not a number: the header starts V<digits>", ver)
	case err != nil:
		p.fail(l.num, 2, RuleVersion, "version %s is out of range", ver)
	case n != Version:
		p.fail(l.num, 2, RuleVersion, "unsupported version V%d: this reader reads V%d", n, Version)
	default:
		h.Version = int(n)
	}
	h.Wing, h.Room, h.Date, h.Source = fields[1].text, fields[2].text, fields[3].text, fields[4].text
}

// zettel parses id:ENTITIES|topics|"quote"|stars|emotions|flags. idOK says
// whether the id was readable even if a field was not, so duplicate and
// endpoint checks still see it.
func (p *parser) zettel(l srcLine) (z Zettel, idOK, ok bool) {
	t := l.text
	colon := strings.IndexByte(t, ':')
	if colon < 0 {
		p.fail(l.num, 1, RuleBody, "unrecognised line: want a zettel <id>:..., a tunnel T:... or an arc ARC:...")
		return z, false, false
	}
	id, err := strconv.ParseUint(t[:colon], 10, 64)
	switch {
	case !isDigits(t[:colon]):
		p.fail(l.num, 1, RuleZettel, "zettel id %q is not an unsigned integer", t[:colon])
		return z, false, false
	case err != nil:
		p.fail(l.num, 1, RuleZettel, "zettel id %s is out of range", t[:colon])
		return z, false, false
	}
	z.ID = id
	cols := newColumns(t)
	fields := splitSpans(t[colon+1:], "|", colon+1)
	if len(fields) != 6 {
		col := endCol(t)
		if len(fields) > 6 {
			col = cols.at(fields[6].off - 1) // the sixth '|'
		}
		p.fail(l.num, col, RuleZettel, "zettel has %d fields, want 6: entities|topics|\"quote\"|stars|emotions|flags", len(fields))
		return z, true, false
	}
	before := len(p.errs)

	for _, e := range splitSpans(fields[0].text, "+", fields[0].off) {
		switch {
		case e.text == "":
			p.fail(l.num, cols.at(e.off), RuleEntity, "empty entity code")
		case !IsEntityCode(e.text):
			p.fail(l.num, cols.at(e.off), RuleEntity, "entity code %q must be exactly 3 uppercase letters A-Z", e.text)
		default:
			z.Entities = append(z.Entities, e.text)
		}
	}

	for _, tp := range strings.Split(fields[1].text, "_") {
		if tp != "" { // empty items are dropped on read, as in mempal
			z.Topics = append(z.Topics, tp)
		}
	}
	if len(z.Topics) == 0 {
		p.fail(l.num, cols.at(fields[1].off), RuleTopic, "topics field has no topic")
	}

	q := fields[2]
	switch {
	case q.text == "":
		p.fail(l.num, cols.at(q.off), RuleQuote, "quote field is empty: want \"...\"")
	case q.text[0] != '"':
		p.fail(l.num, cols.at(q.off), RuleQuote, "quote must start with '\"'")
	case len(q.text) < 2 || q.text[len(q.text)-1] != '"':
		p.fail(l.num, cols.at(q.off+len(q.text)), RuleQuote, "quote must end with '\"'")
	default:
		z.Quote = q.text[1 : len(q.text)-1]
	}

	z.Stars = p.stars(l, fields[3], cols)

	for _, e := range splitSpans(fields[4].text, "+", fields[4].off) {
		switch {
		case e.text == "":
			p.fail(l.num, cols.at(e.off), RuleEmotion, "empty emotion code")
		case !IsEmotionCode(e.text):
			p.fail(l.num, cols.at(e.off), RuleEmotion, "emotion code %q must be 3 to 7 lowercase letters a-z", e.text)
		default:
			z.Emotions = append(z.Emotions, e.text)
		}
	}

	for _, f := range splitSpans(fields[5].text, "+", fields[5].off) {
		switch {
		case f.text == "":
			p.fail(l.num, cols.at(f.off), RuleFlag, "empty flag")
		case !Flag(f.text).Valid():
			p.fail(l.num, cols.at(f.off), RuleFlag, "unknown flag %q: want DECISION, ORIGIN, CORE, PIVOT, TECHNICAL or SENSITIVE", f.text)
		default:
			z.Flags = append(z.Flags, Flag(f.text))
		}
	}
	return z, true, len(p.errs) == before
}

// stars reads 1 to 5 '★' (U+2605) and nothing else.
func (p *parser) stars(l srcLine, f span, cols *columns) int {
	if f.text == "" {
		p.fail(l.num, cols.at(f.off), RuleStars, "stars field is empty: want 1 to 5 '★'")
		return 0
	}
	n := 0
	for i, r := range f.text {
		if r != '★' {
			p.fail(l.num, cols.at(f.off+i), RuleStars, "stars must be 1 to 5 '★' (U+2605), found %q", r)
			return 0
		}
		n++
		if n > 5 {
			p.fail(l.num, cols.at(f.off+i), RuleStars, "more than 5 stars")
			return 0
		}
	}
	return n
}

// tunnel parses T:from<->to|label. The label runs to the end of the line and
// may contain '|'.
func (p *parser) tunnel(l srcLine) (Tunnel, tunnelRef, bool) {
	t := l.text
	ref := tunnelRef{line: l.num}
	const start = len("T:")
	arrow := strings.Index(t[start:], "<->")
	if arrow < 0 {
		p.fail(l.num, start+1, RuleTunnel, "tunnel must be T:<id><-><id>|<label>")
		return Tunnel{}, ref, false
	}
	arrow += start
	bar := strings.IndexByte(t[arrow+3:], '|')
	if bar < 0 {
		p.fail(l.num, endCol(t), RuleTunnel, "tunnel has no '|' before its label")
		return Tunnel{}, ref, false
	}
	bar += arrow + 3
	before := len(p.errs)
	ref.fromCol, ref.toCol = start+1, colAt(t, arrow+3)
	ref.from, ref.fromOK = p.endpoint(l, t[start:arrow], ref.fromCol, "start")
	ref.to, ref.toOK = p.endpoint(l, t[arrow+3:bar], ref.toCol, "end")
	label := t[bar+1:]
	if isBlank(label) {
		p.fail(l.num, colAt(t, bar+1), RuleTunnel, "tunnel label is blank")
	}
	return Tunnel{From: ref.from, To: ref.to, Label: label}, ref, len(p.errs) == before
}

func (p *parser) endpoint(l srcLine, s string, col int, which string) (uint64, bool) {
	if !isDigits(s) {
		p.fail(l.num, col, RuleTunnel, "tunnel %s %q is not a zettel id", which, s)
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		p.fail(l.num, col, RuleTunnel, "tunnel %s %s is out of range", which, s)
		return 0, false
	}
	return n, true
}

// arc parses ARC:emo->emo->...
func (p *parser) arc(l srcLine) (Arc, bool) {
	var a Arc
	before := len(p.errs)
	cols := newColumns(l.text)
	for _, e := range splitSpans(l.text[len("ARC:"):], "->", len("ARC:")) {
		switch {
		case e.text == "":
			p.fail(l.num, cols.at(e.off), RuleArc, "empty arc step: want ARC:emo->emo")
		case !IsEmotionCode(e.text):
			p.fail(l.num, cols.at(e.off), RuleArc, "arc emotion %q must be 3 to 7 lowercase letters a-z", e.text)
		default:
			a.Emotions = append(a.Emotions, e.text)
		}
	}
	return a, len(p.errs) == before
}
