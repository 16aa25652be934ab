package chunk

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// checkExact asserts every chunk is the verbatim text of its line range
// (for chunks that are whole lines) and that chunks cover the text in order.
func checkExact(t *testing.T, text string, cs []Chunk, o Options) {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	prevStart := 0
	for i, c := range cs {
		if c.LineStart < 1 || c.LineEnd < c.LineStart || c.LineEnd > len(lines) {
			t.Fatalf("chunk %d: bad range %d-%d", i, c.LineStart, c.LineEnd)
		}
		if n := utf8.RuneCountInString(c.Text); n > o.Size {
			t.Errorf("chunk %d: %d characters, over %d", i, n, o.Size)
		}
		if c.LineStart < prevStart {
			t.Errorf("chunk %d starts at line %d, before chunk %d's %d", i, c.LineStart, i-1, prevStart)
		}
		prevStart = c.LineStart
		whole := strings.Join(lines[c.LineStart-1:c.LineEnd], "")
		if c.LineStart == c.LineEnd && !strings.Contains(whole, c.Text) {
			t.Errorf("chunk %d is not part of line %d", i, c.LineStart)
		}
		if c.LineStart != c.LineEnd && whole != c.Text {
			t.Errorf("chunk %d (%d-%d) is not its lines verbatim:\n%q\nwant\n%q", i, c.LineStart, c.LineEnd, c.Text, whole)
		}
	}
}

func numbered(n int, width int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat("x", width-8))
		b.WriteString(" line ")
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString("\n")
	}
	return b.String()
}

func TestSmallTextIsOneChunk(t *testing.T) {
	cs := Split("one\ntwo\nthree", Default)
	if len(cs) != 1 || cs[0].Text != "one\ntwo\nthree" || cs[0].LineStart != 1 || cs[0].LineEnd != 3 {
		t.Fatalf("got %+v", cs)
	}
}

func TestLineRangesExactAndOverlap(t *testing.T) {
	text := numbered(200, 60) // 200 lines of 60 characters
	cs := Split(text, Default)
	if len(cs) < 10 {
		t.Fatalf("only %d chunks", len(cs))
	}
	checkExact(t, text, cs, Default)
	for i := 1; i < len(cs); i++ {
		overlap := cs[i-1].LineEnd - cs[i].LineStart + 1
		if overlap < 1 {
			t.Errorf("chunks %d and %d do not overlap (%d-%d, %d-%d)", i-1, i, cs[i-1].LineStart, cs[i-1].LineEnd, cs[i].LineStart, cs[i].LineEnd)
		}
		if overlap*60 > Default.Overlap {
			t.Errorf("chunks %d and %d overlap by %d lines, over ~%d characters", i-1, i, overlap, Default.Overlap)
		}
	}
	if last := cs[len(cs)-1]; last.LineEnd != 200 {
		t.Errorf("last chunk ends at %d, want 200", last.LineEnd)
	}
}

func TestPrefersBlankLine(t *testing.T) {
	para := strings.Repeat("word ", 12) + "\n" // 61 characters
	var b strings.Builder
	for i := 0; i < 8; i++ {
		b.WriteString(para)
	}
	b.WriteString("\n") // line 9 is blank, at about 490 characters
	for i := 0; i < 8; i++ {
		b.WriteString(para)
	}
	cs := Split(b.String(), Default)
	if cs[0].LineEnd != 9 {
		t.Errorf("first chunk ends at line %d, want the blank line 9", cs[0].LineEnd)
	}
	checkExact(t, b.String(), cs, Default)
}

func TestCRLF(t *testing.T) {
	text := strings.ReplaceAll(numbered(100, 50), "\n", "\r\n")
	cs := Split(text, Default)
	checkExact(t, text, cs, Default)
	for _, c := range cs {
		if strings.Count(c.Text, "\r\n") != c.LineEnd-c.LineStart+1 {
			t.Errorf("chunk %d-%d lost its CRLF endings", c.LineStart, c.LineEnd)
		}
	}
}

func TestVeryLongLine(t *testing.T) {
	long := strings.Repeat("abcdefghi ", 500) // 5000 characters on one line
	text := "first\n" + long + "\nlast\n"
	cs := Split(text, Default)
	checkExact(t, text, cs, Default)
	var onLong strings.Builder
	for _, c := range cs {
		if c.LineStart == 2 && c.LineEnd == 2 {
			onLong.WriteString(c.Text)
		}
	}
	if onLong.String() != long+"\n" {
		t.Errorf("pieces of the long line do not rebuild it (%d of %d bytes)", onLong.Len(), len(long)+1)
	}
	if cs[0].Text != "first\n" || cs[len(cs)-1].Text != "last\n" {
		t.Errorf("neighbours of the long line: %q ... %q", cs[0].Text, cs[len(cs)-1].Text)
	}
}

func TestLongLineWithoutSpacesAndMultibyte(t *testing.T) {
	text := strings.Repeat("记忆宫殿", 600) // 2400 characters, 7200 bytes, no spaces
	cs := Split(text, Default)
	var b strings.Builder
	for _, c := range cs {
		if !utf8.ValidString(c.Text) {
			t.Fatal("chunk cut inside a character")
		}
		if n := utf8.RuneCountInString(c.Text); n > Default.Size {
			t.Errorf("piece of %d characters", n)
		}
		b.WriteString(c.Text)
	}
	if b.String() != text {
		t.Error("pieces do not rebuild the line")
	}
}

func TestEmpty(t *testing.T) {
	for _, s := range []string{"", "\n\n\n", "   \t\n  "} {
		if cs := Split(s, Default); len(cs) != 0 {
			t.Errorf("Split(%q) = %d chunks, want none", s, len(cs))
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("a\nb\n\nc", 20, 5)
	f.Add(strings.Repeat("x", 100), 10, 2)
	f.Add("\r\n\r\nword\r\n", 3, 1)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		if size < 2 || size > 2000 || !utf8.ValidString(text) {
			return
		}
		o := Options{Size: size, Overlap: overlap}
		cs := Split(text, o)
		lines := strings.Count(text, "\n") + 1
		for _, c := range cs {
			if c.LineStart < 1 || c.LineEnd > lines || c.LineStart > c.LineEnd {
				t.Fatalf("bad range %d-%d of %d lines", c.LineStart, c.LineEnd, lines)
			}
			if !strings.Contains(text, c.Text) {
				t.Fatalf("chunk %q is not verbatim", c.Text)
			}
			if strings.TrimSpace(c.Text) == "" {
				t.Fatal("whitespace-only chunk")
			}
			if n := utf8.RuneCountInString(c.Text); n > size {
				t.Fatalf("chunk of %d characters, over %d", n, size)
			}
		}
	})
}
