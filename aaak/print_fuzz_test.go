package aaak

import (
	"strings"
	"testing"
)

// FuzzPrint builds documents field by field, so the printer sees values no
// parsed document holds (line breaks, '|', '"', '_' and '+' inside values,
// bad codes, star counts out of range, dangling tunnels, versions other
// than 1). Print never lets a value spill onto a line of its own, and
// Validate is exact: it accepts a document exactly when Parse(Print(d))
// reads d back. An accepted document prints canonically (printing what was
// read back gives the same text) and the legacy reader agrees with the
// strict one; a rejected one gets sorted errors that point into Print(d).
func FuzzPrint(f *testing.F) {
	f.Add(uint8(1), "palace", "decisions", "2026-04-09", "notes.md", uint64(0), uint64(1), int8(4),
		"ALI,SQL", "sqlite,fts5", "We chose SQLite.", "determ,anx", "DECISION,TECHNICAL", "same index", "anx,relief")
	f.Add(uint8(1), "w|x", "r\nV1|a|b|c|d", "", "", uint64(7), uint64(7), int8(0),
		"ALI", "a_b", "say \"hi\"", "joy", "CORE", "\r", "joy")
	f.Add(uint8(2), "w", "r", "d", "s", uint64(1<<63), uint64(0), int8(6),
		"AL", "", "x|y", "JOY", "core", "a|b", "")
	f.Fuzz(func(t *testing.T, version uint8, wing, room, date, source string, id, other uint64, stars int8,
		entities, topics, quote, emotions, flags, label, arc string) {
		d := &Document{Header: Header{Version: int(version), Wing: wing, Room: room, Date: date, Source: source}}
		z := Zettel{ID: id, Entities: list(entities), Topics: list(topics), Quote: quote, Stars: int(stars),
			Emotions: list(emotions)}
		for _, fl := range list(flags) {
			z.Flags = append(z.Flags, Flag(fl))
		}
		d.Zettels = []Zettel{z}
		// A second zettel, except when it would repeat the first one's id
		// and stars is odd: duplicate ids stay reachable without making
		// every input with id == other invalid.
		if other != id || stars%2 == 0 {
			d.Zettels = append(d.Zettels, Zettel{ID: other, Entities: []string{UnknownEntity}, Topics: []string{DefaultTopic},
				Stars: 1, Emotions: []string{DefaultEmotion}, Flags: []Flag{DefaultFlag}})
		}
		if label != "" {
			d.Tunnels = []Tunnel{{From: id, To: other, Label: label}}
		}
		if arc != "" {
			d.Arcs = []Arc{{Emotions: list(arc)}}
		}

		out := Print(d)
		if got, want := strings.Count(out, "\n")+1, 1+len(d.Zettels)+len(d.Tunnels)+len(d.Arcs); got != want {
			t.Fatalf("Print wrote %d lines for %d elements:\n%s", got, want, out)
		}
		back, perr := Parse(out)
		survives := perr == nil && back.Equal(d)
		verr := Validate(d)
		if (verr == nil) != survives {
			t.Fatalf("Validate says %v, but the round trip %s (parse error %v):\n%s",
				verr, map[bool]string{true: "survives", false: "fails"}[survives], perr, out)
		}
		if verr != nil {
			checkErrors(t, out, verr)
			return
		}
		if again := Print(back); again != out {
			t.Fatalf("printing what was read back differs:\n%s\n%s", out, again)
		}
		legacy, notes, err := ParseLegacy(out)
		if err != nil || len(notes) > 0 || !legacy.Equal(d) {
			t.Fatalf("legacy reader disagrees on a valid document: %v %v\n%s", err, notes, out)
		}
	})
}

// list splits a fuzzed list on commas; the empty string is the empty list,
// so both "no element" and "one empty element" (",") are reachable.
func list(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
