package aaak

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Item is one drawer to encode.
type Item struct {
	Text   string
	Wing   string
	Room   string
	Date   string
	Source string
	// Importance is the drawer's importance from 1 to 5; 0 means unknown.
	// Values outside 1..5 are clamped.
	Importance float64
}

// EncodeOptions tune [Encode]. The zero value is ready to use.
type EncodeOptions struct {
	// Entities maps names to codes. Encode looks names up in it and adds the
	// names it detects, so pass the same map (persisted as JSON) on every
	// run to keep codes stable, and to [Decode] to expand them. If nil, a
	// scratch map is used and discarded.
	Entities *EntityMap
	// Tagger segments and tags Chinese text. Without it, Chinese still
	// encodes (CJK runs become topics by a heuristic) but yields no
	// Chinese entities.
	Tagger Tagger
	// SentencesPerZettel caps how many sentences one zettel summarises
	// (default 6). Longer drawers become several zettels.
	SentencesPerZettel int
	// TopicsPerSentence is the topic budget each sentence besides the
	// quote adds to its zettel (default 5).
	TopicsPerSentence int
	// MaxTopics caps topics per zettel (default 30).
	MaxTopics int
	// MaxEntities caps entities per zettel (default 8).
	MaxEntities int
	// MaxQuoteRunes caps the key quote (default 200); longer sentences are
	// cut at a space and end in '…'.
	MaxQuoteRunes int
}

func (o EncodeOptions) withDefaults() EncodeOptions {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.SentencesPerZettel, 6)
	def(&o.TopicsPerSentence, 5)
	def(&o.MaxTopics, 30)
	def(&o.MaxEntities, 8)
	def(&o.MaxQuoteRunes, 200)
	o.MaxQuoteRunes = max(o.MaxQuoteRunes, 8)
	if o.Entities == nil {
		o.Entities = NewEntityMap()
	}
	return o
}

// Encode turns drawers into a V1 document. Each drawer's sentences are
// grouped, SentencesPerZettel at a time, into zettels numbered from 0 in
// order. For each zettel (SPEC.md, "Encoding"):
//   - entities: names from the entity map and detected names, as codes;
//   - quote: the most informative sentence, escaped;
//   - topics: content words of the other sentences not already in the quote
//     or the names, taken in turn from each sentence so that every sentence
//     is represented;
//   - flags and emotions: from the cue lexicon, in English and Chinese;
//   - stars: from the flags and the drawer's importance.
//
// The header takes each field from the drawers: the shared value, or the
// distinct values joined by ','. The result always passes [Validate].
func Encode(items []Item, opts EncodeOptions) (*Document, error) {
	if len(items) == 0 {
		return nil, errors.New("aaak: encode: no items")
	}
	e := &encoder{opts: opts.withDefaults()}

	doc := &Document{Header: Header{
		Version: Version,
		Wing:    mergeField(items, func(it Item) string { return it.Wing }),
		Room:    mergeField(items, func(it Item) string { return it.Room }),
		Date:    mergeField(items, func(it Item) string { return it.Date }),
		Source:  mergeField(items, func(it Item) string { return it.Source }),
	}}
	for i, it := range items {
		zs, err := e.item(it, uint64(len(doc.Zettels)))
		if err != nil {
			return nil, fmt.Errorf("aaak: encode item %d: %w", i, err)
		}
		doc.Zettels = append(doc.Zettels, zs...)
	}
	return doc, nil
}

func mergeField(items []Item, get func(Item) string) string {
	var vals []string
	for _, it := range items {
		if v := escapeText(get(it)); v != "" && !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	return strings.Join(vals, ",")
}

type encoder struct {
	opts  EncodeOptions
	known []Entity
}

func (e *encoder) item(it Item, nextID uint64) ([]Zettel, error) {
	// Names learnt from earlier drawers count as known for this one.
	// Longest first, so "Alice Chen" wins over "Alice".
	e.known = e.opts.Entities.Entries()
	slices.SortStableFunc(e.known, func(a, b Entity) int { return cmp.Compare(len(b.Name), len(a.Name)) })
	var sents []analysis
	for _, s := range splitSentences(it.Text) {
		sents = append(sents, analyze(s, e.opts.Tagger))
	}
	if len(sents) == 0 {
		return []Zettel{{
			ID: nextID, Entities: []string{UnknownEntity}, Topics: []string{DefaultTopic},
			Stars: starsFor(nil, it.Importance), Emotions: []string{DefaultEmotion}, Flags: []Flag{DefaultFlag},
		}}, nil
	}

	// Drawer-wide facts: which words are capitalised mid-sentence (so a
	// sentence-initial "Alice" is a name too) and how many sentences use
	// each content unit (to rank topics).
	capsMid := map[string]bool{}
	freq := map[string]int{}
	for _, a := range sents {
		for i, tok := range a.toks {
			if first, _ := utf8.DecodeRuneInString(tok.text); i > 0 && !tok.cjk && unicode.IsUpper(first) {
				capsMid[tok.text] = true
			}
		}
		for _, u := range a.units {
			freq[u.key]++
		}
	}
	names := make([][]nameHit, len(sents))
	for i, a := range sents {
		names[i] = findNames(a, e.known, capsMid)
	}

	// Balanced groups: 7 sentences at 6 per zettel make 4+3, not 6+1.
	n := len(sents)
	groups := (n + e.opts.SentencesPerZettel - 1) / e.opts.SentencesPerZettel
	var out []Zettel
	lo := 0
	for g := range groups {
		hi := lo + (n-lo)/(groups-g)
		if (n-lo)%(groups-g) != 0 {
			hi++
		}
		z, err := e.zettel(nextID+uint64(g), it, sents[lo:hi], names[lo:hi], freq)
		if err != nil {
			return nil, err
		}
		out = append(out, z)
		lo = hi
	}
	return out, nil
}

func (e *encoder) zettel(id uint64, it Item, sents []analysis, names [][]nameHit, freq map[string]int) (Zettel, error) {
	z := Zettel{ID: id}

	// Entities, in order of appearance, up to MaxEntities distinct codes.
	// Only names that make it in are assigned codes, so the caller's map
	// does not fill with names no zettel shows.
	nameUnits := map[string]bool{}
	for _, hs := range names {
		for _, h := range hs {
			if c, ok := e.opts.Entities.Code(h.name); ok && slices.Contains(z.Entities, c) {
				continue
			}
			if len(z.Entities) == e.opts.MaxEntities {
				break
			}
			c, err := e.opts.Entities.Assign(h.name)
			if err != nil {
				return z, err
			}
			z.Entities = append(z.Entities, c)
			for _, u := range analyze(h.name, nil).units {
				nameUnits[u.key] = true
			}
			if hasCJK(h.name) {
				nameUnits[h.name] = true
			}
		}
	}
	if len(z.Entities) == 0 {
		z.Entities = []string{UnknownEntity}
	}

	// Cues over the whole group.
	texts := make([]string, len(sents))
	for i, a := range sents {
		texts[i] = a.text
	}
	group := analyze(strings.Join(texts, " "), nil)
	flagHits := matchCues(group.text, group.toks, group.lower, flagPatterns)
	emoHits := matchCues(group.text, group.toks, group.lower, emotionPatterns)

	// The key quote: most content units, then cue words, then names.
	best, bestScore := 0, math.Inf(-1)
	for i, a := range sents {
		cues := map[string]bool{}
		for _, h := range matchCues(a.text, a.toks, a.lower, flagPatterns) {
			cues[h.value] = true
		}
		score := float64(len(a.units)) + 2*float64(len(cues)) + 0.5*float64(len(names[i]))
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	quote, _ := truncateRunes(escapeText(sents[best].text), e.opts.MaxQuoteRunes)
	z.Quote = quote
	inQuote := sents[best].units
	if quote != sents[best].text { // cut or escaped: judge what was written
		inQuote = analyze(quote, e.opts.Tagger).units
	}
	covered := map[string]bool{}
	for _, u := range inQuote {
		covered[u.key] = true
	}
	for k := range nameUnits {
		covered[k] = true
	}

	z.Topics = e.topics(sents, best, covered, freq)
	z.Flags = flagsOf(flagHits)
	z.Emotions = emotionsOf(emoHits)
	z.Stars = starsFor(z.Flags, it.Importance)
	return z, nil
}

// topics picks content units the quote and names do not already show,
// round-robin over the other sentences (each sentence's best unit first, by
// drawer frequency, then length), and returns them in text order. With
// nothing left it falls back to the quote's two best units, then to "note".
func (e *encoder) topics(sents []analysis, quote int, covered map[string]bool, freq map[string]int) []string {
	type cand struct {
		key  string
		sent int
		off  int
	}
	rank := func(xs []cand) {
		slices.SortStableFunc(xs, func(a, b cand) int {
			return cmp.Or(cmp.Compare(freq[b.key], freq[a.key]),
				cmp.Compare(utf8.RuneCountInString(b.key), utf8.RuneCountInString(a.key)),
				cmp.Compare(a.off, b.off))
		})
	}
	var lists [][]cand
	for i, a := range sents {
		if i == quote {
			continue
		}
		var xs []cand
		for _, u := range a.units {
			if !covered[u.key] {
				xs = append(xs, cand{key: u.key, sent: i, off: u.off})
			}
		}
		rank(xs)
		lists = append(lists, xs)
	}
	budget := min(e.opts.MaxTopics, e.opts.TopicsPerSentence*len(lists))
	var chosen []cand
	taken := map[string]bool{}
	for progress := true; progress && len(chosen) < budget; {
		progress = false
		for li := range lists {
			for len(lists[li]) > 0 && taken[lists[li][0].key] {
				lists[li] = lists[li][1:]
			}
			if len(lists[li]) == 0 || len(chosen) == budget {
				continue
			}
			c := lists[li][0]
			lists[li] = lists[li][1:]
			taken[c.key] = true
			chosen = append(chosen, c)
			progress = true
		}
	}
	if len(chosen) == 0 {
		var xs []cand
		for _, u := range sents[quote].units {
			xs = append(xs, cand{key: u.key, sent: quote, off: u.off})
		}
		rank(xs)
		chosen = xs[:min(2, len(xs), e.opts.MaxTopics)]
	}
	if len(chosen) == 0 {
		return []string{DefaultTopic}
	}
	slices.SortStableFunc(chosen, func(a, b cand) int { return cmp.Or(cmp.Compare(a.sent, b.sent), cmp.Compare(a.off, b.off)) })
	out := make([]string, len(chosen))
	for i, c := range chosen {
		out[i] = c.key
	}
	return out
}

// flagsOf returns the distinct flags hit, in canonical order, or CORE.
func flagsOf(hits []cueHit) []Flag {
	var out []Flag
	for _, f := range flagOrder {
		if slices.ContainsFunc(hits, func(h cueHit) bool { return h.value == string(f) }) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return []Flag{DefaultFlag}
	}
	return out
}

// emotionsOf returns up to three distinct emotions in order of first
// appearance, or determ.
func emotionsOf(hits []cueHit) []string {
	var out []string
	for _, h := range hits {
		if !slices.Contains(out, h.value) && len(out) < 3 {
			out = append(out, h.value)
		}
	}
	if len(out) == 0 {
		return []string{DefaultEmotion}
	}
	return out
}

// starsFor weighs a zettel: 4 for DECISION or PIVOT, 3 for TECHNICAL, 2
// otherwise (mempal's rule); a known importance is averaged in, rounding up.
func starsFor(flags []Flag, importance float64) int {
	w := 2
	switch {
	case slices.Contains(flags, FlagDecision) || slices.Contains(flags, FlagPivot):
		w = 4
	case slices.Contains(flags, FlagTechnical):
		w = 3
	}
	if importance > 0 {
		w = int(math.Ceil((min(max(importance, 1), 5) + float64(w)) / 2))
	}
	return min(max(w, 1), 5)
}
