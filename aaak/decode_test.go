package aaak

import (
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	m := NewEntityMap()
	m.Add("Alice", "ALI")
	doc := sampleDoc()
	doc.Zettels[0].Entities = []string{"ALI", "SQL"} // SQL is not in the map
	want := "palace · decisions · 2026-04-09 · notes.md\n" +
		"#0 ★★★★ DECISION TECHNICAL · determination\n" +
		"   who: Alice, SQL\n" +
		"   topics: sqlite, fts5\n" +
		"   \"We chose SQLite.\"\n" +
		"#1 ★★ CORE · anxiety, relief\n" +
		"   topics: wal\n" +
		"#0 <-> #1: same index\n" +
		"arc: anxiety -> relief"
	if got := Decode(doc, m); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// No header fields, no map, an unknown emotion code.
	doc = &Document{Header: Header{Version: 1}, Arcs: []Arc{{Emotions: []string{"zzz"}}}}
	if got := Decode(doc, nil); got != "arc: zzz" {
		t.Errorf("got %q", got)
	}
	if Decode(nil, m) != "" {
		t.Error("Decode(nil) is not empty")
	}
}

// TestDecodeQuotesVerbatim: quotes are not rewritten, even where a code
// happens to appear in them.
func TestDecodeQuotesVerbatim(t *testing.T) {
	m := NewEntityMap()
	m.Add("SQLite", "SQL")
	doc := sampleDoc()
	doc.Zettels[0].Quote = "SQL queries stay SQL."
	if got := Decode(doc, m); !strings.Contains(got, `"SQL queries stay SQL."`) {
		t.Errorf("quote rewritten:\n%s", got)
	}
}
