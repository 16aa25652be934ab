package aaak

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CountTokens estimates how many tokens an LLM tokenizer spends on s. It is
// deterministic and simple, and it is an approximation: it counts the pieces
// of a GPT-style (cl100k) pre-tokenizer, with these rules, applied left to
// right (SPEC.md, "Token counting"):
//
//  1. an English contraction suffix ('s 't 're 've 'm 'll 'd) is 1 token;
//  2. a run of letters (not CJK), with at most one non-letter, non-digit,
//     non-newline character in front of it (a space, '_', '|', ':' ...), is
//     1 token;
//  3. a run of 1 to 3 digits is 1 token;
//  4. each Han, Hiragana, Katakana or Hangul character is 1 token (one
//     leading space or punctuation character rides along with the first);
//  5. any other run of non-space characters is 1 token per maximal ASCII
//     sub-run plus 1 per non-ASCII character ('★', '。', '¦' ...);
//  6. whitespace is free, except that a run containing a line break is 1.
//
// Real BPE splits rare words further, so both raw text and AAAK are
// undercounted; the ratio between them is what the benchmark reports.
func CountTokens(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\'' && contractionLen(s[i:]) > 0:
			i += contractionLen(s[i:])
			n++
		case isTokenLetter(r):
			i = skipLetters(s, i)
			n++
		case unicode.IsDigit(r):
			for k := 0; k < 3 && i < len(s); k++ {
				r2, n2 := utf8.DecodeRuneInString(s[i:])
				if !unicode.IsDigit(r2) {
					break
				}
				i += n2
			}
			n++
		case isTokenCJK(r):
			i += size
			n++
		case unicode.IsSpace(r):
			j, newline := i, false
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsSpace(r2) {
					break
				}
				newline = newline || r2 == '\n' || r2 == '\r'
				j += n2
			}
			if newline {
				n++
			}
			i = j
		default:
			// One punctuation character directly before letters is a prefix
			// of the word, as in cl100k ("_server", "|topic", ":ALI").
			if next, n2 := utf8.DecodeRuneInString(s[i+size:]); n2 > 0 && (isTokenLetter(next) || isTokenCJK(next)) {
				if isTokenCJK(next) {
					i += size + n2
				} else {
					i = skipLetters(s, i+size)
				}
				n++
				continue
			}
			ascii := false
			for i < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[i:])
				if unicode.IsSpace(r2) || isTokenLetter(r2) || unicode.IsDigit(r2) || isTokenCJK(r2) {
					break
				}
				if r2 < utf8.RuneSelf {
					if !ascii {
						n++
					}
					ascii = true
				} else {
					n++
					ascii = false
				}
				i += n2
			}
		}
	}
	return n
}

func isTokenCJK(r rune) bool { return isCJK(r) || unicode.Is(unicode.Hangul, r) }

func isTokenLetter(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsMark(r)) && !isTokenCJK(r)
}

func skipLetters(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isTokenLetter(r) {
			break
		}
		i += n
	}
	return i
}

// contractionLen returns the length of a contraction suffix at the start of
// s, or 0.
func contractionLen(s string) int {
	for _, c := range [...]string{"'re", "'ve", "'ll", "'s", "'t", "'m", "'d"} {
		if len(s) >= len(c) && strings.EqualFold(s[:len(c)], c) {
			return len(c)
		}
	}
	return 0
}
