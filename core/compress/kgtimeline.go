package compress

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// KGWing is the header wing of a knowledge-graph timeline document.
const KGWing = "kg"

// KGFact is one fact of a timeline, as KGTimeline encodes it.
type KGFact struct {
	store.Triple
	// Text is the fact in words with its dates, the zettel's quote:
	// "Orion uses Postgres 14 (2024-06-01 until 2026-03-31)".
	Text string
}

// KGDocument is a knowledge-graph timeline in AAAK.
type KGDocument struct {
	Entity   string   `json:"entity,omitempty"`
	Facts    int      `json:"facts"`
	AAAK     string   `json:"aaak"`
	Tokens   int      `json:"aaak_tokens"`
	Raw      int      `json:"raw_tokens"`
	Coverage float64  `json:"coverage"`
	Lost     []string `json:"lost"`
	// Arc is the ARC: line's steps, one per change of feeling along the
	// timeline.
	Arc []string `json:"arc"`
}

// KGTimeline writes facts, in the order given (chronological), as one AAAK
// document: a zettel per fact (its names coded, its words and dates
// quoted, stars from its confidence) and an ARC: line, the feelings along
// the timeline. A fact read from a drawer feels as that drawer's words do
// (the encoder's emotion cues); any other as its own words, which is
// mostly the neutral determ. The arc takes each fact's first emotion in
// turn, a repeat written once: ARC:anx->relief.
//
// Names are coded with the palace's entity map, so a name has its usual
// code; a name the map does not know yet gets a code for this document
// only (a read never writes the map), and the quote holds every name in
// full. The document passes aaak.Validate (Parse(Print(d)) is d), and its
// coverage is the round-trip measure of the fact texts.
func KGTimeline(ctx context.Context, p *palace.Palace, entity string, facts []KGFact) (KGDocument, error) {
	out := KGDocument{Entity: entity, Facts: len(facts), Lost: []string{}, Arc: []string{}}
	if len(facts) == 0 {
		return out, nil
	}
	_, stored, err := loadEntities(ctx, p.Store)
	if err != nil {
		return out, err
	}
	em := stored.Clone()
	items := make([]aaak.Item, len(facts))
	for i, f := range facts {
		for _, name := range []string{f.Subject, f.Object} {
			// A full map leaves the name uncoded; the quote still has it.
			if _, err := em.Assign(name); err != nil && !errors.Is(err, aaak.ErrEntityMapFull) {
				return out, fmt.Errorf("kg timeline: code %q: %w", name, err)
			}
		}
		items[i] = aaak.Item{Text: f.Text, Wing: KGWing, Room: entity, Importance: 1 + 4*f.Confidence}
	}
	// One zettel per fact, however many sentences a name makes of it.
	opts := aaak.EncodeOptions{Entities: em, Tagger: Tagger(p.Seg), SentencesPerZettel: maxSentences}
	rep, err := aaak.VerifyItems(items, opts)
	if err != nil {
		return out, fmt.Errorf("kg timeline: %w", err)
	}
	doc, err := aaak.Parse(rep.AAAK)
	if err != nil {
		return out, fmt.Errorf("kg timeline: the encoder wrote a document that does not parse: %w", err)
	}
	if len(doc.Zettels) != len(facts) {
		return out, fmt.Errorf("kg timeline: %d facts became %d zettels", len(facts), len(doc.Zettels))
	}
	for i, f := range facts {
		if emos, err := drawerEmotions(ctx, p, f.SourceDrawer); err != nil {
			return out, err
		} else if len(emos) > 0 {
			doc.Zettels[i].Emotions = emos
		}
		if step := doc.Zettels[i].Emotions[0]; len(out.Arc) == 0 || out.Arc[len(out.Arc)-1] != step {
			out.Arc = append(out.Arc, step)
		}
	}
	doc.Arcs = []aaak.Arc{{Emotions: out.Arc}}
	doc.Date = span(facts)
	if err := aaak.Validate(doc); err != nil {
		return out, fmt.Errorf("kg timeline: the document does not survive a round trip: %w", err)
	}
	out.AAAK = aaak.Print(doc)
	out.Tokens, out.Raw, out.Coverage = aaak.CountTokens(out.AAAK), rep.RawTokens, rep.Coverage
	for _, a := range rep.Lost {
		out.Lost = append(out.Lost, a.Text)
	}
	return out, nil
}

// maxSentences is more sentences than a fact of three names within
// kg.MaxNameBytes can hold.
const maxSentences = 1 << 16

// drawerEmotions are the emotions the encoder finds in drawer id's words,
// in order, at most three (as a zettel holds); none without a drawer.
func drawerEmotions(ctx context.Context, p *palace.Palace, id string) ([]string, error) {
	if id == "" {
		return nil, nil
	}
	d, err := p.Store.GetDrawer(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && d.Content == "" {
		return nil, nil // gone or purged since: the fact's own words speak
	}
	if err != nil {
		return nil, fmt.Errorf("kg timeline: source drawer: %w", err)
	}
	doc, err := aaak.Encode([]aaak.Item{{Text: d.Content}}, aaak.EncodeOptions{Tagger: Tagger(p.Seg)})
	if err != nil {
		return nil, fmt.Errorf("kg timeline: source drawer %s: %w", id, err)
	}
	var emos []string
	for _, z := range doc.Zettels {
		for _, e := range z.Emotions {
			if !slices.Contains(emos, e) && len(emos) < 3 {
				emos = append(emos, e)
			}
		}
	}
	return emos, nil
}

// span is the header date: the first start to the last, "" when no fact
// has one.
func span(facts []KGFact) string {
	var first, last string
	for _, f := range facts {
		if f.ValidFrom == nil {
			continue
		}
		d := f.ValidFrom.UTC().Format("2006-01-02")
		if first == "" || d < first {
			first = d
		}
		if d > last {
			last = d
		}
	}
	if first == last {
		return first
	}
	return first + ".." + last
}
