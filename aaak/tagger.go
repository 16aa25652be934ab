package aaak

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TaggedWord is one word of segmented text and its part-of-speech tag.
// Tags follow the ICTCLAS set used by jieba: n noun, nr person, ns place,
// nt organisation, nz other proper noun, v verb, a adjective, and so on.
type TaggedWord struct {
	Word string
	POS  string
}

// Tagger segments text into words and tags each with its part of speech.
// The encoder uses it for Chinese (and other unspaced) text; spaced text is
// handled without it. Words must come in text order; words that do not occur
// in the text are ignored. An adapter over the jieba segmenter satisfies it.
type Tagger interface {
	Tag(text string) []TaggedWord
}

// cjkWord is a word of a CJK run, from the tagger or the fallback heuristic.
type cjkWord struct {
	word string
	pos  string // "" when found by the heuristic
	off  int
}

// cjkWords returns the CJK words of s with their byte offsets. Tagger output
// is trusted only as far as it matches the text: words are located in s in
// order, and words with non-letter characters are dropped, so a misbehaving
// tagger cannot put a separator into a topic.
func cjkWords(s string, t Tagger) []cjkWord {
	if !hasCJK(s) {
		return nil
	}
	if t == nil {
		return heuristicCJK(s)
	}
	var out []cjkWord
	cursor := 0
	for _, tw := range t.Tag(s) {
		if tw.Word == "" {
			continue
		}
		i := strings.Index(s[cursor:], tw.Word)
		if i < 0 {
			continue
		}
		off := cursor + i
		cursor = off + len(tw.Word)
		if hasCJK(tw.Word) && allLetters(tw.Word) {
			out = append(out, cjkWord{word: tw.Word, pos: tw.POS, off: off})
		}
	}
	return out
}

func allLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
			return false
		}
	}
	return true
}

// heuristicCJK is the fallback when no tagger is given: each CJK run is cut
// at common function characters; chunks of 2 to 6 characters are words,
// longer chunks are cut into 4-character pieces (a last single character
// joins the piece before it), single characters are dropped. It finds no
// names.
func heuristicCJK(s string) []cjkWord {
	var out []cjkWord
	for _, tok := range scanWords(s) {
		if !tok.cjk {
			continue
		}
		start := tok.off
		emit := func(end int) {
			rs := []rune(s[start:end])
			off := start
			for i := 0; i < len(rs); {
				j := len(rs)
				if j-i > 6 {
					j = i + 4
					if len(rs)-j == 1 {
						j++
					}
				}
				piece := string(rs[i:j])
				if j-i >= 2 {
					out = append(out, cjkWord{word: piece, off: off})
				}
				off += len(piece)
				i = j
			}
		}
		for i, r := range tok.text {
			if zhFunctionChars[string(r)] {
				emit(tok.off + i)
				start = tok.off + i + utf8.RuneLen(r)
			}
		}
		emit(tok.off + len(tok.text))
	}
	return out
}

// isContentPOS reports whether a tagged CJK word can carry a fact: nouns
// (proper nouns included), verbs, adjectives, idioms and abbreviations.
func isContentPOS(pos string) bool {
	if pos == "" {
		return true // heuristic chunk
	}
	switch pos[0] {
	case 'n', 'v', 'a':
		return true
	}
	return pos == "i" || pos == "l" || pos == "j"
}

// isNamePOS reports whether a tag marks a proper noun the encoder turns
// into an entity: person (nr*), place (ns), organisation (nt), other (nz).
func isNamePOS(pos string) bool {
	return strings.HasPrefix(pos, "nr") || pos == "ns" || pos == "nt" || pos == "nz"
}
