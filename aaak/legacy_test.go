package aaak

import (
	"strings"
	"testing"
)

// TestLegacyZettelFile reads MemPalace's zettel-file encoding: a 4-field
// FILE|ENTITIES|DATE|TITLE header, string ids, float weights, GENESIS, '???',
// missing fields and tunnels between string ids.
func TestLegacyZettelFile(t *testing.T) {
	src := "003|ALC+BOB|2026-04-01|The founding\n" +
		"ARC:fear->hope->joy\n" +
		"zettel-003:ALC|origin_story|\"It started in a garage\"|0.85|wonder+hope|ORIGIN+GENESIS\n" +
		"zettel-004:???|misc|0.5\n" +
		"T:003<->zettel-004|follows: the next day\n" +
		"T:003<->zettel-999|nowhere\n"
	doc, notes, err := ParseLegacy(src)
	if err != nil {
		t.Fatal(err)
	}
	want := &Document{
		Header: Header{Version: 1, Wing: "003", Room: "ALC+BOB", Date: "2026-04-01", Source: "The founding"},
		Zettels: []Zettel{
			{ID: 3, Entities: []string{"ALC"}, Topics: []string{"origin", "story"}, Quote: "It started in a garage",
				Stars: 4, Emotions: []string{"wonder", "hope"}, Flags: []Flag{FlagOrigin}},
			{ID: 4, Entities: []string{"UNK"}, Topics: []string{"misc"}, Quote: "", Stars: 3,
				Emotions: []string{"determ"}, Flags: []Flag{FlagCore}},
		},
		Tunnels: []Tunnel{{From: 3, To: 4, Label: "follows: the next day"}},
		Arcs:    []Arc{{Emotions: []string{"fear", "hope", "joy"}}},
	}
	if !doc.Equal(want) {
		t.Errorf("got\n%s\nwant\n%s", Print(doc), Print(want))
	}
	wantNotes(t, notes,
		"1:4-field legacy header",
		"3:zettel id \"zettel-003\" read as 3",
		"3:weight 0.85 read as 4 stars",
		"3:flag GENESIS read as ORIGIN",
		"4:zettel id \"zettel-004\" read as 4",
		"4:entity ??? read as UNK",
		"4:weight 0.5 read as 3 stars",
		"4:no quote",
		"4:no flag; using CORE",
		"4:no emotion; using determ",
		"6:dropped a tunnel to an unknown zettel",
	)
}

// TestLegacyCompress reads MemPalace's compress() line: no weight field,
// '?' for a missing header field, a quote split by a raw '|', an 8-letter
// emotion.
func TestLegacyCompress(t *testing.T) {
	src := "palace|?|2026-04-09|notes\n" +
		"0:ALI+???|sqlite_fts5_storage|\"We chose SQLite | it is simple\"|joy+surprise|DECISION+GENESIS\n" +
		"=TUNNELS=\n"
	doc, notes, err := ParseLegacy(src)
	if err != nil {
		t.Fatal(err)
	}
	want := &Document{
		Header: Header{Version: 1, Wing: "palace", Room: "", Date: "2026-04-09", Source: "notes"},
		Zettels: []Zettel{{ID: 0, Entities: []string{"ALI", "UNK"}, Topics: []string{"sqlite", "fts5", "storage"},
			Quote: "We chose SQLite ¦ it is simple", Stars: 4, Emotions: []string{"joy", "surpr"},
			Flags: []Flag{FlagDecision, FlagOrigin}}},
	}
	if !doc.Equal(want) {
		t.Errorf("got\n%s\nwant\n%s", Print(doc), Print(want))
	}
	wantNotes(t, notes,
		"1:4-field legacy header",
		"2:quote contained '|'",
		"2:entity ??? read as UNK",
		"2:flag GENESIS read as ORIGIN",
		"2:emotion \"surprise\" read as surpr",
		"2:no weight; 4 stars from the flags",
		"3:skipped a line that is not AAAK",
	)
}

func TestLegacyOddities(t *testing.T) {
	src := "\uFEFF" + // no header line at all
		"a:Alice|t|\"q\"|★★★★★★★|*Anxiety*|[SENSITIVE]+BOGUS\r\n" +
		"7:ALI|t|\"q\"|★|joy|CORE\n" +
		"7:BOB|u|\"r\"|★|joy|CORE\n" +
		"ARC:joy → tenderness, ?\n"
	doc, notes, err := ParseLegacy(src)
	if err != nil {
		t.Fatal(err)
	}
	want := &Document{
		Header: Header{Version: 1},
		Zettels: []Zettel{
			{ID: 0, Entities: []string{"ALI"}, Topics: []string{"t"}, Quote: "q", Stars: 5,
				Emotions: []string{"anx"}, Flags: []Flag{FlagSensitive}},
			{ID: 7, Entities: []string{"ALI"}, Topics: []string{"t"}, Quote: "q", Stars: 1,
				Emotions: []string{"joy"}, Flags: []Flag{FlagCore}},
			{ID: 1, Entities: []string{"BOB"}, Topics: []string{"u"}, Quote: "r", Stars: 1,
				Emotions: []string{"joy"}, Flags: []Flag{FlagCore}},
		},
		Arcs: []Arc{{Emotions: []string{"joy", "tender"}}},
	}
	if !doc.Equal(want) {
		t.Errorf("got\n%s\nwant\n%s", Print(doc), Print(want))
	}
	wantNotes(t, notes,
		"1:removed a byte order mark",
		"1:entity \"Alice\" read as ALI",
		"1:7 stars clamped to 5",
		"1:emotion \"*Anxiety*\" read as anx",
		"1:dropped unknown flag \"BOGUS\"",
		"1:zettel id \"a\" read as 0",
		"3:duplicate zettel id 7 renumbered",
		"4:emotion \"tenderness\" read as tender",
		"4:dropped emotion \"?\"",
		"0:no header line",
	)
}

// TestLegacyAcceptsV1 — the legacy reader is a superset: valid V1 reads
// the same, with nothing to report.
func TestLegacyAcceptsV1(t *testing.T) {
	src := Print(sampleDoc())
	doc, notes, err := ParseLegacy(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Errorf("notes on valid V1: %v", notes)
	}
	if !doc.Equal(sampleDoc()) {
		t.Errorf("got\n%s", Print(doc))
	}
}

func TestLegacyRejectsProse(t *testing.T) {
	_, notes, err := ParseLegacy("Dear diary,\nnothing | here: looks like AAAK\n")
	if err == nil {
		t.Fatal("prose accepted")
	}
	if len(notes) == 0 {
		t.Error("no notes about the skipped lines")
	}
}

// wantNotes checks that each "LINE:prefix" is among the notes.
func wantNotes(t *testing.T, notes []Note, want ...string) {
	t.Helper()
	for _, w := range want {
		line, prefix, _ := strings.Cut(w, ":")
		found := false
		for _, n := range notes {
			if strings.HasPrefix(n.Message, prefix) && itoa(n.Line) == line {
				found = true
			}
		}
		if !found {
			t.Errorf("missing note %q; notes:\n%s", w, joinNotes(notes))
		}
	}
	if len(notes) != len(want) {
		t.Errorf("%d notes, want %d:\n%s", len(notes), len(want), joinNotes(notes))
	}
}

func itoa(n int) string { return uitoa(uint64(n)) }

func joinNotes(notes []Note) string {
	var b strings.Builder
	for _, n := range notes {
		b.WriteString("\t" + n.String() + "\n")
	}
	return b.String()
}
