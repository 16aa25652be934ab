package chunk

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSplitExact checks what mining relies on, for any text (invalid UTF-8
// and CR line ends included) and any options:
//
//   - a chunk of several lines is exactly those lines, and a chunk of one
//     line is a piece of that line; pieces of one line come in order, and
//     what lies between them is whitespace;
//   - every line with something on it is covered by a chunk;
//   - chunks are never over the (sanitized) size and never blank;
//   - chunks move forward: each starts at least one line after the last
//     whole-line chunk started, and repeats at most Overlap characters of
//     it.
func FuzzSplitExact(f *testing.F) {
	f.Add("a\nb\n\nc", 20, 5)
	f.Add(strings.Repeat("word ", 60)+"\n"+strings.Repeat("x", 90)+"\n\nnext", 40, 8)
	f.Add("\r\n\r\nword\r\n", 3, 1)
	f.Add("\xff\xfe\n\xc3\n"+strings.Repeat("é", 30), 7, 3)
	f.Add("line one\n  \n\tline three\n", 0, -1)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		size %= 4000 // keeps a run fast; <= 0 still means Default
		o := Options{Size: size, Overlap: overlap}
		cs := Split(text, o)
		eff := sanitized(o)
		lines := strings.SplitAfter(text, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		covered := make([]bool, len(lines)+1)
		pos := make([]int, len(lines)+1) // how far into each long line the pieces got
		lastStart, lastEnd := 0, 0
		for i, c := range cs {
			if c.LineStart < 1 || c.LineStart > c.LineEnd || c.LineEnd > len(lines) {
				t.Fatalf("chunk %d: bad range %d-%d of %d lines", i, c.LineStart, c.LineEnd, len(lines))
			}
			if n := utf8.RuneCountInString(c.Text); n > eff.Size {
				t.Fatalf("chunk %d: %d characters, over %d", i, n, eff.Size)
			}
			if strings.TrimSpace(c.Text) == "" {
				t.Fatalf("chunk %d is blank", i)
			}
			if i > 0 && c.LineStart < cs[i-1].LineStart {
				t.Fatalf("chunk %d starts at line %d, before chunk %d's %d", i, c.LineStart, i-1, cs[i-1].LineStart)
			}
			whole := strings.Join(lines[c.LineStart-1:c.LineEnd], "")
			if c.Text == whole {
				for l := c.LineStart; l <= c.LineEnd; l++ {
					covered[l] = true
				}
				if lastStart > 0 {
					if c.LineStart <= lastStart {
						t.Fatalf("chunk %d (%d-%d) does not advance past line %d", i, c.LineStart, c.LineEnd, lastStart)
					}
					if c.LineStart <= lastEnd {
						repeated := utf8.RuneCountInString(strings.Join(lines[c.LineStart-1:lastEnd], ""))
						if repeated > eff.Overlap {
							t.Fatalf("chunk %d repeats %d characters of the last, over %d", i, repeated, eff.Overlap)
						}
					}
				}
				lastStart, lastEnd = c.LineStart, c.LineEnd
				continue
			}
			if c.LineStart != c.LineEnd {
				t.Fatalf("chunk %d (%d-%d) is not its lines verbatim:\n%q\nwant\n%q", i, c.LineStart, c.LineEnd, c.Text, whole)
			}
			// A piece of a long line: next in the line, after whitespace.
			no := c.LineStart
			at := indexAtRunes(whole[pos[no]:], c.Text)
			if at < 0 {
				t.Fatalf("chunk %d %q is not a later piece of line %d %q", i, c.Text, no, whole)
			}
			if gap := whole[pos[no] : pos[no]+at]; strings.TrimSpace(gap) != "" {
				t.Fatalf("chunk %d skips %q of line %d", i, gap, no)
			}
			pos[no] += at + len(c.Text)
			covered[no] = true
		}
		for no, l := range lines {
			if strings.TrimSpace(l) != "" && !covered[no+1] {
				t.Fatalf("line %d %q is in no chunk", no+1, l)
			}
			if pos[no+1] > 0 && strings.TrimSpace(l[pos[no+1]:]) != "" {
				t.Fatalf("the pieces of line %d stop before %q", no+1, l[pos[no+1]:])
			}
		}
	})
}

// indexAtRunes is strings.Index for a match that starts and ends on rune
// boundaries as ranging over s decodes them: bytewise, "\x80" is found
// inside the encoding of U+2000, where no chunk can start.
func indexAtRunes(s, sub string) int {
	starts := map[int]bool{len(s): true}
	for i := range s {
		starts[i] = true
	}
	for from := 0; from <= len(s); {
		at := strings.Index(s[from:], sub)
		if at < 0 {
			return -1
		}
		if at += from; starts[at] && starts[at+len(sub)] {
			return at
		}
		from = at + 1
	}
	return -1
}

// sanitized is o as Split reads it.
func sanitized(o Options) Options {
	if o.Size <= 0 {
		o = Default
	}
	if o.Overlap < 0 || o.Overlap >= o.Size/2 {
		o.Overlap = o.Size / 8
	}
	return o
}
