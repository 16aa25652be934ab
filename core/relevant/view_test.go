package relevant

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// A 10 MB minified line costs what a normal line does: the clues read a
// bounded window around the cursor (issue 16: seconds and hundreds of MB
// for one palace/relevant), and still find the identifier there.
func TestHugeLineIsReadAroundTheCursor(t *testing.T) {
	const size = 10 << 20
	var b strings.Builder
	for b.Len() < size/2 {
		b.WriteString("var a=b.c(d,e);function f(g){return g+1};")
	}
	col := b.Len() + len("x=")
	b.WriteString("x=tokMinifiedTarget(y);")
	for b.Len() < size {
		b.WriteString("é=ü.ö(ä);") // multi-byte runes, so cuts must find rune boundaries
	}
	text := b.String()
	at := Position{Line: 0, Col: col}

	v := view(text, at, at)
	if v.bytes > maxPlaceBytes {
		t.Errorf("a cursor on a %d-byte line reads %d bytes; want at most %d", len(text), v.bytes, maxPlaceBytes)
	}
	for _, l := range v.lines {
		if !utf8.ValidString(l) || !strings.Contains(text, l) {
			t.Errorf("the window is not a cut of the line on rune boundaries")
		}
	}
	sel := view(text, Position{Line: 0, Col: 100}, Position{Line: 0, Col: len(text) - 100})
	if sel.bytes > maxPlaceBytes {
		t.Errorf("a selection of a %d-byte line reads %d bytes; want at most %d", len(text), sel.bytes, maxPlaceBytes)
	}

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c := Extract(text, at, at, "/p/app.min.js", "/p")
	runtime.ReadMemStats(&after)
	if c.Identifier != "tokMinifiedTarget" {
		t.Errorf("identifier = %q, want tokMinifiedTarget", c.Identifier)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("clues of a 10 MB line allocated %d bytes; want a window's worth", grew)
	}
}

// Many long lines are each cut: the bytes read are bounded by the window
// of lines, not the document.
func TestLongLinesAreCut(t *testing.T) {
	line := strings.Repeat("alpha beta gamma ", 1000) // 17 kB
	text := strings.Repeat(line+"\n", 5000)
	at := Position{Line: 2500, Col: 10}
	v := view(text, at, at)
	if bound := maxPlaceBytes + (maxEnclosingScan+frequencyLines)*maxLineBytes; v.bytes > bound {
		t.Errorf("read %d bytes of %d; want at most %d", v.bytes, len(text), bound)
	}
	if v.lines[v.start.Line] != line[:min(len(line), maxPlaceBytes/2+10)] {
		t.Errorf("the cursor's line is not cut around the cursor")
	}
	// A place past the end is the last line's end, as before.
	end := view("one\ntwo", Position{Line: 9, Col: 9}, Position{Line: 9, Col: 9})
	if got := end.lines[end.start.Line][:end.start.Col]; got != "two" {
		t.Errorf("a place past the end reads up to %q, want the last line", got)
	}
}
