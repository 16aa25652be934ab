// Package termsafe is the one terminal sanitiser of the command-line
// binaries (palace, palace-bench): what they print of stored text, names and
// arguments never carries a control a terminal would act on.
package termsafe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Stored text comes from files, transcripts and agents Palace does not
// control: a file name or a line holding ESC ] 52 writes the clipboard, ESC [
// 2 J clears the screen, a CR or LF forges an output line. Human output
// passes every stored string through Line (one-line fields: names,
// citations, ids, snippets) or Text (verbatim content, where LF and TAB
// are the text's own). JSON output (--json, export) stays exact: it passes
// through JSON, which writes as \u escapes the characters encoding/json
// leaves raw.

// Line renders s for one line of terminal output: every control
// character (C0, DEL, C1), including CR, LF and TAB, the Unicode bidi
// overrides and line separators, and each byte of invalid UTF-8 is shown as
// a visible escape (\n, \x1b, \u202e, \xff).
func Line(s string) string { return escape(s, false) }

// Text renders multi-line content for a terminal: LF and TAB are kept,
// everything Line escapes otherwise is escaped (CR too, since it
// overwrites the line already printed).
func Text(s string) string { return escape(s, true) }

func escape(s string, multiline bool) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafe(r, n, multiline) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s // the common case: nothing to escape, no copy
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case !unsafe(r, n, multiline):
			b.WriteString(s[i : i+n])
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// unsafe reports whether the rune r (n bytes long) must be escaped.
func unsafe(r rune, n int, multiline bool) bool {
	switch {
	case r == utf8.RuneError && n == 1: // invalid UTF-8 (a lone 0x9b is CSI on some terminals)
		return true
	case r == '\n' || r == '\t':
		return !multiline
	case r < 0x20 || r == 0x7f: // C0 and DEL
		return true
	case r >= 0x80 && r <= 0x9f: // C1
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	}
	return false
}

// Lines applies Line to each string of ss.
func Lines(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Line(s)
	}
	return out
}

// JSON escapes, in JSON text, what encoding/json writes raw and a
// terminal would act on: DEL, the C1 controls (U+009B is CSI) and the bidi
// controls (encoding/json escapes the C0 controls, U+2028 and U+2029
// itself). In JSON text these can only stand inside a string, where a \u
// escape means the same character, so the output decodes to the same
// values. b is returned as it is when nothing needs escaping.
func JSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		if b[i] < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		// Invalid UTF-8 is left alone: a \x escape is not JSON, and
		// encoding/json never writes it.
		if (r != utf8.RuneError || n > 1) && unsafe(r, n, true) {
			out = append(out, b[last:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			last = i + n
		}
		i += n
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// JSONWriter passes JSON written in pieces (an export, through a
// bufio.Writer) through JSON. A character cut between two writes is
// held back until its rest arrives; flush writes what is left.
type JSONWriter struct {
	w    io.Writer
	tail []byte
}

// NewJSONWriter writes to w through JSON.
func NewJSONWriter(w io.Writer) *JSONWriter { return &JSONWriter{w: w} }

func (t *JSONWriter) Write(p []byte) (int, error) {
	b := append(t.tail, p...)
	keep := 0
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				keep = len(b) - i
			}
			break
		}
	}
	t.tail = append([]byte(nil), b[len(b)-keep:]...)
	if _, err := t.w.Write(JSON(b[:len(b)-keep])); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the bytes held back: none, unless the JSON ended inside a
// character.
func (t *JSONWriter) Flush() error {
	if len(t.tail) == 0 {
		return nil
	}
	_, err := t.w.Write(t.tail)
	t.tail = nil
	return err
}

// WriteJSON writes v as indented JSON, the form every --json flag prints,
// through JSON.
func WriteJSON(out io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := out.Write(JSON(b.Bytes()))
	return err
}
