package store

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// snippetWords is how many words a snippet shows: the last argument of
// FTS5's snippet() in SearchFTS. For Chinese a character counts as a word.
const snippetWords = 24

// sourceSnippet cuts a snippet from a drawer's verbatim content for a
// drawer whose index text differs from it (segmented Chinese, a
// conversation without noise, with the previous exchange): FTS5 can only
// cut its snippets from the text it indexed, which would show 知识 图谱
// 知识图谱 for 知识图谱. marked are the words FTS5's highlight() marked
// in the index text (markedTerms); they are found again in content (Han
// words wherever they occur, other words as whole words, case ignored),
// and the snippetWords-word window holding the most distinct of them, then
// the most matches, is cut with the same markers and ellipses as FTS5's.
// Words only the index text holds (the previous exchange of a
// conversation) mark nothing, and the snippet then opens the content.
func sourceSnippet(content string, marked []string) string {
	units := snippetUnits(content)
	if len(units) == 0 {
		return ""
	}
	marks := findTerms(content, marked)
	// Map each mark to the units it covers.
	type hit struct{ first, last, term int }
	var hits []hit
	u := 0
	for _, m := range marks {
		for u < len(units) && units[u].end <= m.start {
			u++
		}
		if u == len(units) {
			break
		}
		last := u
		for last+1 < len(units) && units[last+1].start < m.end {
			last++
		}
		hits = append(hits, hit{u, last, m.term})
	}
	start := 0
	if len(hits) > 0 {
		// The window that starts at some hit and holds the most distinct
		// terms, then the most hits; the first such window wins.
		best, bestTerms, bestHits := 0, -1, -1
		for i, h := range hits {
			terms := map[int]bool{}
			n, lastUnit := 0, h.last
			for _, o := range hits[i:] {
				if o.last >= h.first+snippetWords {
					break
				}
				terms[o.term] = true
				n++
				lastUnit = o.last
			}
			if len(terms) > bestTerms || len(terms) == bestTerms && n > bestHits {
				bestTerms, bestHits = len(terms), n
				// Centre the hits in the window, as FTS5 does.
				best = h.first - (snippetWords-(lastUnit-h.first+1))/2
			}
		}
		start = max(0, min(best, len(units)-snippetWords))
	}
	end := min(len(units), start+snippetWords)
	from, to := units[start].start, units[end-1].end
	if start == 0 {
		from = 0
	}
	if end == len(units) {
		to = len(content)
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	at := from
	for _, m := range marks {
		s, e := max(m.start, from), min(m.end, to)
		if s >= e {
			continue
		}
		b.WriteString(content[at:s])
		b.WriteString(MarkStart)
		b.WriteString(content[s:e])
		b.WriteString(MarkEnd)
		at = e
	}
	b.WriteString(content[at:to])
	if end < len(units) {
		b.WriteString("…")
	}
	return b.String()
}

// span is a byte range of a text; term numbers the word it matched.
type span struct{ start, end, term int }

// snippetUnits are what a snippet counts as words: runs of letters,
// digits and marks outside the Han script, and each Han character.
func snippetUnits(s string) []span {
	var out []span
	inWord := -1
	for i, r := range s {
		han := unicode.Is(unicode.Han, r)
		word := !han && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
		if inWord >= 0 && !word {
			out = append(out, span{start: inWord, end: i})
			inWord = -1
		}
		switch {
		case han:
			out = append(out, span{start: i, end: i + utf8.RuneLen(r)})
		case word && inWord < 0:
			inWord = i
		}
	}
	if inWord >= 0 {
		out = append(out, span{start: inWord, end: len(s)})
	}
	return out
}

// markedTerms returns the distinct words FTS5's highlight() marked, in
// order: the letter and digit runs between MarkStart and MarkEnd.
func markedTerms(highlighted string) []string {
	var out []string
	for rest := highlighted; ; {
		i := strings.Index(rest, MarkStart)
		if i < 0 {
			return out
		}
		rest = rest[i+len(MarkStart):]
		inside, after, _ := strings.Cut(rest, MarkEnd)
		rest = after
		for _, w := range strings.FieldsFunc(inside, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
		}) {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
}

// findTerms returns where terms occur in content, sorted, overlapping
// ranges merged (知识, 图谱 and 知识图谱 mark 知识图谱 once). A term with
// Han characters matches wherever it occurs, as the index's segmentation
// may cut it from a longer run; another matches whole snippet units,
// case ignored.
func findTerms(content string, terms []string) []span {
	var found []span
	var units []span
	for k, t := range terms {
		if strings.ContainsFunc(t, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			for off := 0; ; {
				i := strings.Index(content[off:], t)
				if i < 0 {
					break
				}
				found = append(found, span{off + i, off + i + len(t), k})
				off += i + len(t)
			}
			continue
		}
		if units == nil {
			units = snippetUnits(content)
		}
		for _, u := range units {
			if strings.EqualFold(content[u.start:u.end], t) {
				found = append(found, span{u.start, u.end, k})
			}
		}
	}
	slices.SortFunc(found, func(a, b span) int { return a.start - b.start })
	var out []span
	for _, f := range found {
		if n := len(out); n > 0 && f.start < out[n-1].end {
			out[n-1].end = max(out[n-1].end, f.end)
			continue
		}
		out = append(out, f)
	}
	return out
}
