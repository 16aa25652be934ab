package aaak

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// analysis is what the encoder and the round-trip measure know about one
// sentence. Both use the same analysis, so the measure checks exactly the
// words the encoder could have kept.
type analysis struct {
	text  string
	toks  []token
	lower []string // lowerWord of each spaced token; "" for CJK runs
	cjk   []cjkWord
	units []unit // content units, first occurrence only, in text order
}

// unit is a content unit: a lowercased spaced word that is not a stop word
// (negations always count), or a CJK content word.
type unit struct {
	key string
	off int
	cjk bool
}

func analyze(s string, t Tagger) analysis {
	a := analysis{text: s, toks: scanWords(s), cjk: cjkWords(s, t)}
	a.lower = make([]string, len(a.toks))
	seen := map[string]bool{}
	for i, tok := range a.toks {
		if tok.cjk {
			continue
		}
		k := lowerWord(tok.text)
		a.lower[i] = k
		if isContentWord(k) && !seen[k] {
			seen[k] = true
			a.units = append(a.units, unit{key: k, off: tok.off})
		}
	}
	for _, w := range a.cjk {
		if isCJKContent(w) && !seen[w.word] {
			seen[w.word] = true
			a.units = append(a.units, unit{key: w.word, off: w.off, cjk: true})
		}
	}
	slices.SortStableFunc(a.units, func(x, y unit) int { return cmp.Compare(x.off, y.off) })
	return a
}

func isContentWord(k string) bool {
	return negations[k] || (utf8.RuneCountInString(k) >= 2 && !stopWords[k])
}

func isCJKContent(w cjkWord) bool {
	return negations[w.word] ||
		(isContentPOS(w.pos) && utf8.RuneCountInString(w.word) >= 2 && !zhStopWords[w.word])
}

// cueHit is a cue found in a text.
type cueHit struct {
	off   int
	value string
}

// cuePattern is a cue compiled once, so matching does no parsing.
type cuePattern struct {
	value string
	cjk   string   // substring to find, for CJK cues
	words []string // lowercased words to match in sequence, for spaced cues
	exact bool     // the last word must match exactly, not as a prefix
}

func compileCues(table []cue) []cuePattern {
	out := make([]cuePattern, len(table))
	for i, c := range table {
		p := cuePattern{value: c.value}
		if hasCJK(c.pattern) {
			p.cjk = c.pattern
		} else {
			p.words = strings.Fields(c.pattern)
			last := p.words[len(p.words)-1]
			p.exact = strings.HasSuffix(last, "=")
			p.words[len(p.words)-1] = strings.TrimSuffix(last, "=")
		}
		out[i] = p
	}
	return out
}

// Read-only after initialisation.
var (
	flagPatterns    = compileCues(flagCues)
	emotionPatterns = compileCues(emotionCues)
)

// matchCues finds the cues of table in text (see lexicon.go for the pattern
// convention) and returns one hit per cue, at its first occurrence, sorted
// by position. toks and lower are text's tokens and their lowerWord forms.
func matchCues(text string, toks []token, lower []string, table []cuePattern) []cueHit {
	var hits []cueHit
	for _, c := range table {
		if c.cjk != "" {
			if i := strings.Index(text, c.cjk); i >= 0 {
				hits = append(hits, cueHit{off: i, value: c.value})
			}
			continue
		}
		last := len(c.words) - 1
	scan:
		for i := 0; i+last < len(toks); i++ {
			for k, w := range c.words {
				lw := lower[i+k]
				switch {
				case lw == "":
					continue scan
				case k < last || c.exact:
					if lw != w {
						continue scan
					}
				case !strings.HasPrefix(lw, w):
					continue scan
				}
			}
			hits = append(hits, cueHit{off: toks[i].off, value: c.value})
			break
		}
	}
	slices.SortStableFunc(hits, func(x, y cueHit) int { return cmp.Compare(x.off, y.off) })
	return hits
}

// nameHit is an entity name found in a sentence.
type nameHit struct {
	name     string
	off, end int
}

// findNames detects entity names in a sentence:
//   - names already in the entity map, wherever they occur (whole words for
//     spaced names), longest first;
//   - spaced words starting with an uppercase letter, at least 2 runes, not
//     stop words. Every sentence starts with a capital, so at the start of
//     a sentence a word counts only if the drawer also capitalises it
//     mid-sentence, or it has an inner capital or digit (SQLite, FTS5).
//     This misses "Ravi" in "Ravi called." when Ravi appears nowhere else,
//     rather than filling the caller's map with "Latency" and "Yesterday";
//     once the map knows a name it is found anywhere. Adjacent Titlecase
//     words are one name ("Alice Chen");
//   - CJK words the tagger tags nr*, ns, nt or nz, at least 2 characters.
func findNames(a analysis, known []Entity, capsMid map[string]bool) []nameHit {
	var hits []nameHit
	covered := func(off, end int) bool {
		for _, h := range hits {
			if off < h.end && end > h.off {
				return true
			}
		}
		return false
	}
	for _, e := range known {
		for from := 0; from < len(a.text); {
			i := strings.Index(a.text[from:], e.Name)
			if i < 0 {
				break
			}
			off := from + i
			end := off + len(e.Name)
			from = end
			if wordBoundary(a.text, off, end) && !covered(off, end) {
				hits = append(hits, nameHit{name: e.Name, off: off, end: end})
			}
		}
	}

	cand := make([]bool, len(a.toks))
	for i, tok := range a.toks {
		if tok.cjk || covered(tok.off, tok.off+len(tok.text)) {
			continue
		}
		first, _ := utf8.DecodeRuneInString(tok.text)
		k := a.lower[i]
		if !unicode.IsUpper(first) || utf8.RuneCountInString(tok.text) < 2 || stopWords[k] || negations[k] {
			continue
		}
		cand[i] = i > 0 || strongCap(tok.text) || capsMid[tok.text]
	}
	for i := 0; i < len(a.toks); i++ {
		if !cand[i] {
			continue
		}
		j := i
		for j+1 < len(a.toks) && cand[j+1] && isTitle(a.toks[j].text) && isTitle(a.toks[j+1].text) &&
			a.text[a.toks[j].off+len(a.toks[j].text):a.toks[j+1].off] == " " {
			j++
		}
		off, end := a.toks[i].off, a.toks[j].off+len(a.toks[j].text)
		hits = append(hits, nameHit{name: a.text[off:end], off: off, end: end})
		i = j
	}

	for _, w := range a.cjk {
		end := w.off + len(w.word)
		if isNamePOS(w.pos) && utf8.RuneCountInString(w.word) >= 2 && !covered(w.off, end) {
			hits = append(hits, nameHit{name: w.word, off: w.off, end: end})
		}
	}
	slices.SortStableFunc(hits, func(x, y nameHit) int { return cmp.Compare(x.off, y.off) })
	return hits
}

// wordBoundary reports whether s[off:end] is not glued to a spaced word on
// either side (CJK needs no boundary).
func wordBoundary(s string, off, end int) bool {
	if r, _ := utf8.DecodeLastRuneInString(s[:off]); off > 0 && isWordRune(r) {
		if first, _ := utf8.DecodeRuneInString(s[off:]); isWordRune(first) {
			return false
		}
	}
	if r, _ := utf8.DecodeRuneInString(s[end:]); end < len(s) && isWordRune(r) {
		if last, _ := utf8.DecodeLastRuneInString(s[:end]); isWordRune(last) {
			return false
		}
	}
	return true
}

// strongCap reports an inner capital or a digit: SQLite, GitHub, FTS5.
func strongCap(w string) bool {
	for i, r := range w {
		if i > 0 && unicode.IsUpper(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// isTitle reports Titlecase: an uppercase letter followed by lowercase only.
func isTitle(w string) bool {
	for i, r := range w {
		if (i == 0) != unicode.IsUpper(r) {
			return false
		}
	}
	return true
}
