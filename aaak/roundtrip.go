package aaak

import (
	"strings"
)

// PreservedThreshold is the share of an assertion's content units that must
// be recoverable from the decoded document for the assertion to count as
// preserved (SPEC.md, "Round-trip measure").
const PreservedThreshold = 0.6

// Assertion is one sentence of the source, as the round-trip measure saw it.
type Assertion struct {
	Text    string
	Units   []string // its content units (lowercased words, CJK words)
	Missing []string // the units the decoded document does not show
}

// Report is the outcome of a round trip. AAAK is lossy; the report says how
// much was lost and what.
type Report struct {
	// Coverage is len(Preserved) / (len(Preserved) + len(Lost)), or 1 when
	// the source has no assertion with content.
	Coverage  float64
	Preserved []Assertion
	Lost      []Assertion
	// Skipped counts sentences without any content unit ("OK.", "Yes!");
	// they are neither preserved nor lost.
	Skipped    int
	RawTokens  int // CountTokens over the drawers as raw text (see rawForm)
	AAAKTokens int // CountTokens over Print of the encoded document
	AAAK       string
	Decoded    string
}

// Ratio is AAAKTokens / RawTokens (smaller is more compact), or 0 for an
// empty source.
func (r Report) Ratio() float64 {
	if r.RawTokens == 0 {
		return 0
	}
	return float64(r.AAAKTokens) / float64(r.RawTokens)
}

// VerifyRoundtrip encodes text as one drawer, decodes the result and reports
// which of the source's assertions survive. See [VerifyItems].
func VerifyRoundtrip(text string, opts EncodeOptions) (Report, error) {
	return VerifyItems([]Item{{Text: text}}, opts)
}

// VerifyItems encodes items with opts, decodes the document and measures
// coverage over the source's assertions. An assertion is a sentence (as the
// encoder splits them); it is preserved when at least PreservedThreshold of
// its content units are recoverable from the decoded document's content:
// entity names, topics, quotes and tunnel labels. Flags, emotions and header
// fields are labels the encoder derived, not source words, so they recover
// nothing. A spaced word is recoverable when the same lowercased word
// occurs; a CJK word when it occurs as a substring.
//
// Like [Encode], VerifyItems adds the names it codes to opts.Entities, so
// the map that encoded Report.AAAK is the caller's, to store and to decode
// with; pass a clone to measure without changing a map.
func VerifyItems(items []Item, opts EncodeOptions) (Report, error) {
	if opts.Entities == nil {
		opts.Entities = NewEntityMap()
	}
	doc, err := Encode(items, opts)
	if err != nil {
		return Report{}, err
	}
	r := Report{AAAK: Print(doc), Decoded: Decode(doc, opts.Entities)}
	r.AAAKTokens = CountTokens(r.AAAK)
	content := recoverableText(doc, opts.Entities)
	words := map[string]bool{}
	for _, tok := range scanWords(content) {
		if !tok.cjk {
			words[lowerWord(tok.text)] = true
		}
	}
	for _, it := range items {
		r.RawTokens += CountTokens(rawForm(it))
		for _, s := range splitSentences(it.Text) {
			a := analyze(s, opts.Tagger)
			if len(a.units) == 0 {
				r.Skipped++
				continue
			}
			as := Assertion{Text: s}
			for _, u := range a.units {
				as.Units = append(as.Units, u.key)
				if found := (!u.cjk && words[u.key]) || (u.cjk && strings.Contains(content, u.key)); !found {
					as.Missing = append(as.Missing, u.key)
				}
			}
			kept := len(as.Units) - len(as.Missing)
			if float64(kept) >= PreservedThreshold*float64(len(as.Units)) {
				r.Preserved = append(r.Preserved, as)
			} else {
				r.Lost = append(r.Lost, as)
			}
		}
	}
	r.Coverage = 1
	if n := len(r.Preserved) + len(r.Lost); n > 0 {
		r.Coverage = float64(len(r.Preserved)) / float64(n)
	}
	return r, nil
}

// recoverableText is the part of the decoded document that carries source
// words: entity names, topics, quotes and tunnel labels.
func recoverableText(doc *Document, m *EntityMap) string {
	var parts []string
	for _, z := range doc.Zettels {
		parts = append(parts, entityNames(z.Entities, m)...)
		parts = append(parts, z.Topics...)
		parts = append(parts, z.Quote)
	}
	for _, t := range doc.Tunnels {
		parts = append(parts, t.Label)
	}
	return strings.Join(parts, "\n")
}

// rawForm is a drawer as an agent would get it without AAAK: its metadata
// (the AAAK header carries it too, so leaving it out would flatter raw
// text) on one line, then the text.
func rawForm(it Item) string {
	var meta []string
	for _, f := range []string{it.Wing, it.Room, it.Date, it.Source} {
		if f != "" {
			meta = append(meta, f)
		}
	}
	if len(meta) == 0 {
		return it.Text
	}
	return strings.Join(meta, " ") + "\n" + it.Text
}
