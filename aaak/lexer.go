package aaak

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// srcLine is one line of AAAK input, without its terminator.
type srcLine struct {
	num  int
	text string
	bad  bool // failed an encoding check; not parsed further
}

// scanLines splits src at LF, drops one trailing CR per line (CRLF input is
// accepted on read) and skips blank lines. Lines with invalid UTF-8 or a CR
// anywhere else are reported and marked bad: the printer never writes them,
// so accepting them would break the print/parse round trip. A line holding
// a terminal control (isTerminalControl) is reported too.
func scanLines(src string) ([]srcLine, Errors) {
	var (
		lines []srcLine
		errs  Errors
	)
	num := 0
	for rest := src; ; {
		num++
		text, tail, found := strings.Cut(rest, "\n")
		text = strings.TrimSuffix(text, "\r")
		l := srcLine{num: num, text: text}
		if i := invalidUTF8At(text); i >= 0 {
			errs = append(errs, &ParseError{Line: num, Col: colAt(text, i), Rule: RuleEncoding,
				Reason: "invalid UTF-8"})
			l.bad = true
		} else if i := strings.IndexByte(text, '\r'); i >= 0 {
			errs = append(errs, &ParseError{Line: num, Col: colAt(text, i), Rule: RuleEncoding,
				Reason: "carriage return inside a line (only CRLF line ends are accepted)"})
			l.bad = true
		} else if i := strings.IndexFunc(text, isTerminalControl); i >= 0 {
			// Reported, but the line is still read: its other errors are
			// worth seeing too. The reason names the character by its code
			// point, never the character itself.
			r, _ := utf8.DecodeRuneInString(text[i:])
			errs = append(errs, &ParseError{Line: num, Col: colAt(text, i), Rule: RuleEncoding,
				Reason: fmt.Sprintf("control character %U (a terminal showing the text would act on it)", r)})
		}
		if l.bad || !isBlank(text) {
			lines = append(lines, l)
		}
		if !found {
			break
		}
		rest = tail
	}
	return lines, errs
}

// invalidUTF8At returns the byte offset of the first invalid UTF-8 sequence
// in s, or -1.
func invalidUTF8At(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// colAt converts a byte offset in line to a 1-based rune column. It counts
// from the start of the line: for the many errors one line may hold, use
// columns.
func colAt(line string, off int) int {
	return utf8.RuneCountInString(line[:off]) + 1
}

// columns converts byte offsets in one line to rune columns, counting on
// from the previous offset: the errors of a line are found in order of
// position, so a line with n errors is counted once rather than n times
// (which made checking quadratic in the errors on a line).
type columns struct {
	line     string
	off, col int // col is the column of byte offset off
}

func newColumns(line string) *columns { return &columns{line: line, col: 1} }

// at is colAt(c.line, off).
func (c *columns) at(off int) int {
	if off < c.off {
		c.off, c.col = 0, 1
	}
	c.col += utf8.RuneCountInString(c.line[c.off:off])
	c.off = off
	return c.col
}

func isBlank(s string) bool {
	return strings.TrimFunc(s, unicode.IsSpace) == ""
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
