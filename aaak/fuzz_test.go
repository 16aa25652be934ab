package aaak

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The seed corpora live in testdata/fuzz/<FuzzName>/: the golden and bad
// fixtures plus every crash found so far, kept as regression seeds.

// FuzzParse: Parse never panics; every error has a sane position; anything
// accepted is valid, prints canonically, and reads back equal, through
// the strict, the stream and the legacy reader.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := Parse(src)
		if err != nil {
			checkErrors(t, src, err)
			return
		}
		if err := Validate(doc); err != nil {
			t.Fatalf("accepted document is invalid: %v", err)
		}
		out := Print(doc)
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("printed document does not parse: %v\n%s", err, out)
		}
		if !back.Equal(doc) {
			t.Fatalf("printed document reads back differently:\n%s", out)
		}
		if again := Print(back); again != out {
			t.Fatalf("printing is not idempotent:\n%s\n%s", out, again)
		}
		if docs, err := ParseStream(src); err != nil || len(docs) != 1 || !docs[0].Equal(doc) {
			t.Fatalf("stream reader disagrees on one document: %v, %d documents", err, len(docs))
		}
		legacy, notes, err := ParseLegacy(out)
		if err != nil || len(notes) > 0 || !legacy.Equal(doc) {
			t.Fatalf("legacy reader disagrees on valid V1: %v %v\n%s", err, notes, Print(legacy))
		}
	})
}

// checkErrors asserts the error is a sorted, non-empty Errors whose
// positions lie inside the input.
func checkErrors(t *testing.T, src string, err error) {
	t.Helper()
	var es Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("error %v (%T) is not a non-empty Errors", err, err)
	}
	lines := strings.Split(src, "\n")
	for i, e := range es {
		if e.Line < 1 || e.Line > len(lines)+1 || e.Col < 1 || e.Rule == "" || e.Reason == "" {
			t.Fatalf("bad error %+v for %d lines", e, len(lines))
		}
		if e.Line <= len(lines) && e.Col > utf8.RuneCountInString(lines[e.Line-1])+1 {
			t.Fatalf("error %+v past the end of line %q", e, lines[e.Line-1])
		}
		if i > 0 && (es[i-1].Line > e.Line || es[i-1].Line == e.Line && es[i-1].Col > e.Col) {
			t.Fatalf("errors not sorted: %v", es)
		}
	}
}

// FuzzParseLegacy: the lenient reader never panics, and what it returns is
// valid V1.
func FuzzParseLegacy(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		doc, notes, err := ParseLegacy(src)
		if err != nil {
			if strings.Contains(err.Error(), "invalid document") {
				t.Fatal(err)
			}
			return
		}
		if err := Validate(doc); err != nil {
			t.Fatalf("legacy result is invalid: %v", err)
		}
		for _, n := range notes {
			if n.Line < 0 || n.Line > strings.Count(src, "\n")+1 || n.Message == "" {
				t.Fatalf("bad note %+v", n)
			}
		}
	})
}

// FuzzEncode: any input encodes, without error, to a valid document that
// reads back equal; decoding and measuring never panic.
func FuzzEncode(f *testing.F) {
	tagger := newDictTagger()
	f.Fuzz(func(t *testing.T, text, meta string, tagged bool) {
		opts := EncodeOptions{Entities: NewEntityMap()}
		if tagged {
			opts.Tagger = tagger
		}
		items := []Item{
			{Text: text, Wing: meta, Date: text, Importance: float64(len(meta) % 7)},
			{Text: meta, Room: text, Source: meta},
		}
		doc, err := Encode(items, opts)
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		if err := Validate(doc); err != nil {
			t.Fatalf("invalid document: %v\n%s", err, Print(doc))
		}
		back, err := Parse(Print(doc))
		if err != nil || !back.Equal(doc) {
			t.Fatalf("round trip failed: %v\n%s", err, Print(doc))
		}
		// Names come from the input (sentences normalise whitespace and
		// invalid UTF-8, so compare without them).
		squeeze := func(s string) string { return strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), "") }
		for _, e := range opts.Entities.Entries() {
			if !strings.Contains(squeeze(text), squeeze(e.Name)) && !strings.Contains(squeeze(meta), squeeze(e.Name)) {
				t.Fatalf("entity %q does not occur in the input", e.Name)
			}
		}
		_ = Decode(doc, opts.Entities)
		r, err := VerifyItems(items, EncodeOptions{Tagger: opts.Tagger})
		if err != nil || r.Coverage < 0 || r.Coverage > 1 || slices.ContainsFunc(r.Lost, func(a Assertion) bool { return len(a.Missing) == 0 }) {
			t.Fatalf("bad report %+v, %v", r, err)
		}
	})
}
