package aaak

import (
	"strings"
	"testing"
)

func sampleDoc() *Document {
	return &Document{
		Header: Header{Version: 1, Wing: "palace", Room: "decisions", Date: "2026-04-09", Source: "notes.md"},
		Zettels: []Zettel{
			{ID: 0, Entities: []string{"ALI", "SQL"}, Topics: []string{"sqlite", "fts5"},
				Quote: "We chose SQLite.", Stars: 4, Emotions: []string{"determ"}, Flags: []Flag{FlagDecision, FlagTechnical}},
			{ID: 1, Entities: []string{"UNK"}, Topics: []string{"wal"}, Quote: "", Stars: 2,
				Emotions: []string{"anx", "relief"}, Flags: []Flag{FlagCore}},
		},
		Tunnels: []Tunnel{{From: 0, To: 1, Label: "same index"}},
		Arcs:    []Arc{{Emotions: []string{"anx", "relief"}}},
	}
}

func TestPrintCanonical(t *testing.T) {
	want := "V1|palace|decisions|2026-04-09|notes.md\n" +
		"0:ALI+SQL|sqlite_fts5|\"We chose SQLite.\"|★★★★|determ|DECISION+TECHNICAL\n" +
		"1:UNK|wal|\"\"|★★|anx+relief|CORE\n" +
		"T:0<->1|same index\n" +
		"ARC:anx->relief"
	doc := sampleDoc()
	if got := Print(doc); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if doc.String() != want {
		t.Error("String differs from Print")
	}
	back, err := Parse(want)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(doc) {
		t.Errorf("Parse(Print(doc)) = %#v", back)
	}
	if Print(nil) != "" {
		t.Error("Print(nil) is not empty")
	}
}

// TestPrintNormalises: any accepted spelling prints in one canonical form.
func TestPrintNormalises(t *testing.T) {
	src := "\r\nV1|w|r|d|s\r\nARC:joy\r\nT:1<->01|l\r\n\r\n001:ALI|_a__b_|\"q\"|★|joy|CORE\r\n"
	doc, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	want := "V1|w|r|d|s\n1:ALI|a_b|\"q\"|★|joy|CORE\nT:1<->1|l\nARC:joy"
	if got := Print(doc); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// TestPrintKeepsLines: whatever a value holds, an element stays on its
// line, so a value cannot forge another element.
func TestPrintKeepsLines(t *testing.T) {
	doc := sampleDoc()
	doc.Zettels[0].Quote = "line one\n9:ALI|x|\"forged\"|★|joy|CORE"
	doc.Tunnels[0].Label = "a\r\nT:0<->0|forged"
	doc.Wing = "w\nx"
	out := Print(doc)
	if n := strings.Count(out, "\n") + 1; n != 5 {
		t.Fatalf("%d lines, want 5:\n%s", n, out)
	}
	if Validate(doc) == nil {
		t.Error("Validate accepted values with line breaks")
	}
}

// TestPrintInvalidStars: out-of-range stars print as an invalid field
// instead of being clamped into a valid one; huge values cannot blow up.
func TestPrintInvalidStars(t *testing.T) {
	for _, n := range []int{-3, 0, 6, 1 << 40} {
		doc := sampleDoc()
		doc.Zettels[0].Stars = n
		if _, err := Parse(Print(doc)); err == nil {
			t.Errorf("stars %d printed as a valid document", n)
		}
	}
}
