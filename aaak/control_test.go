package aaak

import (
	"errors"
	"strings"
	"testing"
)

// hostile are the characters a terminal acts on or that reorder the line
// it shows: clear screen, OSC 52 (write the clipboard), a C1 CSI, the
// right-to-left override and its pop, an isolate, a line separator.
var hostile = []string{"\x1b[2J", "\x1b]52;c;aGk=\x07", "\u009b2J", "\u202e", "\u202c", "\u2066", "\u2028", "\x7f", "\x00"}

// Defect: 'palace aaak check' called a file ok whose quote held ESC [ 2 J
// and OSC 52, and 'aaak decode' then printed them raw. The reader now
// refuses every terminal control with an encoding error at its position,
// whose reason names the code point, never the character.
func TestParseRefusesTerminalControls(t *testing.T) {
	for _, h := range hostile {
		for _, src := range []string{
			"V1|w|r|d|s\n0:ALI|t|\"say " + h + " hi\"|★|joy|CORE",
			"V1|w" + h + "|r|d|s\n0:ALI|t|\"q\"|★|joy|CORE",
			"V1|w|r|d|s\n0:ALI|t|\"q\"|★|joy|CORE\nT:0<->0|to " + h,
			"V1|w|r|d|s\n0:ALI|t" + h + "|\"q\"|★|joy|CORE",
		} {
			_, err := Parse(src)
			var es Errors
			if !errors.As(err, &es) {
				t.Errorf("Parse(%q) = %v, want an encoding error", src, err)
				continue
			}
			var found bool
			for _, e := range es {
				if e.Rule == RuleEncoding && strings.Contains(e.Reason, "control character U+") {
					found = true
				}
				if strings.IndexFunc(e.Reason, isTerminalControl) >= 0 {
					t.Errorf("Parse(%q): reason %q holds the raw character", src, e.Reason)
				}
			}
			if !found {
				t.Errorf("Parse(%q) = %v, want a control character error", src, err)
			}
			if _, err := ParseStream(src); err == nil {
				t.Errorf("ParseStream(%q) accepted a terminal control", src)
			}
		}
	}
	// TAB stays text, as the grammar always allowed.
	if _, err := Parse("V1|w|r|d|s\n0:ALI|t|\"a\tb\"|★|joy|CORE"); err != nil {
		t.Errorf("a TAB in a quote: %v", err)
	}
}

// Print never writes a terminal control: each becomes a visible U+FFFD,
// and Validate says the document does not survive printing.
func TestPrintNeverWritesTerminalControls(t *testing.T) {
	for _, h := range hostile {
		doc := sampleDoc()
		doc.Zettels[0].Quote = "say " + h + " hi"
		doc.Tunnels[0].Label = "to " + h
		doc.Source = "notes" + h + ".md"
		out := Print(doc)
		if i := strings.IndexFunc(out, func(r rune) bool { return r != '\n' && isTerminalControl(r) }); i >= 0 {
			t.Errorf("Print wrote a terminal control at byte %d for %q:\n%q", i, h, out)
		}
		if !strings.Contains(out, "\uFFFD") {
			t.Errorf("Print hid %q instead of marking it:\n%q", h, out)
		}
		if err := Validate(doc); err == nil {
			t.Errorf("Validate accepted %q in a quote, a label and the source", h)
		}
	}
}

// The encoder drops the bidi controls with the other control characters,
// so everything 'palace compress' writes reads back with 'aaak check'.
func TestEncodeDropsTerminalControls(t *testing.T) {
	text := "We decided \u202eevil\u202c to move the billing cron \x1b[2J job because the old one \x1b]52;c;aGk=\x07 dropped jobs."
	doc, err := Encode([]Item{{Text: text, Wing: "w\u202e", Room: "r", Source: "a\u2066b.md"}}, EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := Print(doc)
	if strings.IndexFunc(out, func(r rune) bool { return r != '\n' && isTerminalControl(r) }) >= 0 || strings.Contains(out, "\uFFFD") {
		t.Errorf("Encode kept a terminal control:\n%q", out)
	}
	if _, err := Parse(out); err != nil {
		t.Errorf("encoded document does not parse: %v\n%s", err, out)
	}
}

// The lenient reader removes terminal controls and says so.
func TestParseLegacyRemovesTerminalControls(t *testing.T) {
	doc, notes, err := ParseLegacy("V1|w|r|d|s\n0:ALI|t|\"say \x1b[2J\u202e hi\"|★|joy|CORE")
	if err != nil {
		t.Fatal(err)
	}
	if q := doc.Zettels[0].Quote; q != "say [2J hi" {
		t.Errorf("quote %q, want the controls removed", q)
	}
	if len(notes) != 1 || notes[0].Line != 2 || !strings.Contains(notes[0].Message, "U+001B") {
		t.Errorf("notes %v, want one on line 2 naming U+001B", notes)
	}
}
