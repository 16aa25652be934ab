package aaak

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Print writes doc in canonical form: the header, then one line per zettel,
// tunnel and arc in that order, joined by LF with no final newline (as
// mempal writes it). For a valid document Parse(Print(doc)) equals doc.
//
// Print does not validate: it writes values as they are, except that it
// turns CR and LF inside values into spaces so that no value can spill onto
// a line of its own and pose as another element, and every other character
// AAAK text may not hold (an escape, a C1 control, a bidi override) into
// U+FFFD, so that printed AAAK never acts on the terminal that shows it.
// Call [Validate] to learn
// whether a hand-built document survives printing; [Encode] always returns
// valid documents.
func Print(doc *Document) string {
	if doc == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(formatHeader(doc.Header))
	for _, z := range doc.Zettels {
		line, _ := formatZettel(z)
		b.WriteByte('\n')
		b.WriteString(line)
	}
	for _, t := range doc.Tunnels {
		b.WriteByte('\n')
		b.WriteString(formatTunnel(t))
	}
	for _, a := range doc.Arcs {
		b.WriteByte('\n')
		b.WriteString(formatArc(a))
	}
	return b.String()
}

// StreamSeparator goes between the documents of a stream: a blank line,
// for people; [ParseStream] needs none, since each header starts a
// document.
const StreamSeparator = "\n\n"

// PrintStream writes docs as a stream: each in canonical form, separated
// by [StreamSeparator]. For valid documents ParseStream(PrintStream(docs))
// equals docs, and a stream of one document is Print of that document.
func PrintStream(docs []*Document) string {
	parts := make([]string, len(docs))
	for i, d := range docs {
		parts[i] = Print(d)
	}
	return strings.Join(parts, StreamSeparator)
}

// String returns Print(d).
func (d *Document) String() string { return Print(d) }

// oneLine keeps a value on its line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return ' '
		}
		return r
	}, s)
}

// printValue is how Print writes a value: on its line (oneLine), and with
// each terminal control but CR and LF shown as U+FFFD. The mark stays
// visible, and a value holding one no longer reads back as written, which
// Validate reports.
func printValue(s string) string {
	s = oneLine(s)
	if strings.IndexFunc(s, isTerminalControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isTerminalControl(r) {
			return utf8.RuneError
		}
		return r
	}, s)
}

func formatHeader(h Header) string {
	return "V" + strconv.Itoa(h.Version) + "|" + printValue(h.Wing) + "|" + printValue(h.Room) + "|" +
		printValue(h.Date) + "|" + printValue(h.Source)
}

// formatZettel returns the zettel's line and the byte offset of each of its
// six fields, which Validate uses to point at a field.
func formatZettel(z Zettel) (string, [6]int) {
	var (
		b   strings.Builder
		off [6]int
	)
	b.WriteString(strconv.FormatUint(z.ID, 10))
	b.WriteByte(':')
	off[0] = b.Len()
	b.WriteString(printValue(strings.Join(z.Entities, "+")))
	b.WriteByte('|')
	off[1] = b.Len()
	b.WriteString(printValue(strings.Join(z.Topics, "_")))
	b.WriteByte('|')
	off[2] = b.Len()
	b.WriteByte('"')
	b.WriteString(printValue(z.Quote))
	b.WriteString(`"|`)
	off[3] = b.Len()
	// Out-of-range star counts print as an invalid field (none, or six)
	// rather than being silently clamped into a valid one.
	b.WriteString(strings.Repeat("★", min(max(z.Stars, 0), 6)))
	b.WriteByte('|')
	off[4] = b.Len()
	b.WriteString(printValue(strings.Join(z.Emotions, "+")))
	b.WriteByte('|')
	off[5] = b.Len()
	for i, f := range z.Flags {
		if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(printValue(string(f)))
	}
	return b.String(), off
}

func formatTunnel(t Tunnel) string {
	return "T:" + strconv.FormatUint(t.From, 10) + "<->" + strconv.FormatUint(t.To, 10) + "|" + printValue(t.Label)
}

func formatArc(a Arc) string {
	return "ARC:" + printValue(strings.Join(a.Emotions, "->"))
}
