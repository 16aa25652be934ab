package relevant

import (
	"sort"
	"strings"
	"unicode"

	"github.com/palace-dev/palace/core/store"
)

// SnippetRunes is about how long a relevant hit's snippet is: enough of the
// drawer around the strongest clue it holds to read the line it is on and
// its neighbour, which FTS5's 24-token window cut mid-expression in code.
const SnippetRunes = 160

// snippetOf cuts about SnippetRunes of content, its white space collapsed,
// around the first occurrence of the strongest matched clue (a third of the
// room before it), at word boundaries, with … where text was cut. Every
// word of a matched clue in the window is marked with store's markers, as
// FTS5 marks its snippets. A drawer holding no clue (found by meaning)
// opens with its first words.
func snippetOf(content string, matched []weighted) string {
	r := []rune(strings.Join(strings.Fields(content), " "))
	if len(r) == 0 {
		return ""
	}
	marks := clueSpans(r, matched)
	anchor := 0
	if len(marks) > 0 {
		// The strongest clue's first occurrence (marks are in text order).
		best := marks[0]
		for _, m := range marks {
			if m.term < best.term {
				best = m
			}
		}
		anchor = best.start
	}
	start := max(0, min(anchor-SnippetRunes/3, len(r)-SnippetRunes))
	if start > 0 {
		// Open on a whole word: skip to just past the next space before the
		// anchor.
		for i := start; i < anchor; i++ {
			if r[i] == ' ' {
				start = i + 1
				break
			}
		}
	}
	end := min(len(r), start+SnippetRunes)
	if end < len(r) {
		// Close on a whole word, never before the anchor's word ends.
		for i := end; i > anchor; i-- {
			if r[i] == ' ' {
				end = i
				break
			}
		}
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	at := start
	for _, m := range marks {
		if m.start < at || m.end > end {
			continue
		}
		b.WriteString(string(r[at:m.start]))
		b.WriteString(store.MarkStart)
		b.WriteString(string(r[m.start:m.end]))
		b.WriteString(store.MarkEnd)
		at = m.end
	}
	b.WriteString(string(r[at:end]))
	if end < len(r) {
		b.WriteString("…")
	}
	return b.String()
}

// span is a run of runes that holds a clue's word; term is the clue's
// index in matched (lower is stronger).
type span struct{ start, end, term int }

// clueSpans finds the words of text that hold a matched clue's tokens, in
// text order: a word as the index splits text (letters and digits, '_'
// separating), compared folded and lightly stemmed as tokens does; a clue
// in a script without spaces wherever it occurs.
func clueSpans(text []rune, matched []weighted) []span {
	tokenTerm := map[string]int{}
	var unspaced []int
	for i, m := range matched {
		if strings.IndexFunc(m.term, isUnspaced) >= 0 {
			unspaced = append(unspaced, i)
			continue
		}
		for _, t := range m.tokens {
			if _, ok := tokenTerm[t]; !ok {
				tokenTerm[t] = i
			}
		}
	}
	var out []span
	isWord := func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }
	for i := 0; i < len(text); {
		if !isWord(text[i]) || isUnspaced(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWord(text[j]) && !isUnspaced(text[j]) {
			j++
		}
		if t, ok := tokenTerm[stem(strings.ToLower(string(text[i:j])))]; ok {
			out = append(out, span{i, j, t})
		}
		i = j
	}
	for _, ti := range unspaced {
		term := []rune(strings.ToLower(matched[ti].term))
		for i := 0; i+len(term) <= len(text); i++ {
			if strings.ToLower(string(text[i:i+len(term)])) == string(term) {
				out = append(out, span{i, i + len(term), ti})
				i += len(term) - 1
			}
		}
	}
	// Text order, overlaps dropped (a Han clue inside another).
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	kept := out[:0]
	last := -1
	for _, s := range out {
		if s.start >= last {
			kept = append(kept, s)
			last = s.end
		}
	}
	return kept
}
