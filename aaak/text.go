package aaak

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// isCJK reports whether r belongs to a script written without spaces between
// words (Han, Hiragana, Katakana). Such runs need a segmenter; Hangul is
// spaced and is treated like Latin.
func isCJK(r rune) bool {
	return r >= 0x2E80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

func hasCJK(s string) bool {
	for _, r := range s {
		if isCJK(r) {
			return true
		}
	}
	return false
}

// isWordRune reports whether r can be part of a spaced word.
func isWordRune(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)) && !isCJK(r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

func isDigitBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsDigit(r)
}

// token is a spaced word or a CJK run, with its byte offset.
type token struct {
	text string
	off  int
	cjk  bool
}

// scanWords splits s into spaced words (letters, digits and marks, with
// inner apostrophes kept so that "don't" stays one word) and CJK runs.
// Everything else separates tokens. Identifiers therefore split at '_' and
// '-', so a topic never contains the topic separator.
func scanWords(s string) []token {
	var toks []token
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isCJK(r):
			j := i + size
			for j < len(s) {
				r2, n := utf8.DecodeRuneInString(s[j:])
				if !isCJK(r2) {
					break
				}
				j += n
			}
			toks = append(toks, token{text: s[i:j], off: i, cjk: true})
			i = j
		case isWordRune(r):
			j := i + size
			for j < len(s) {
				r2, n := utf8.DecodeRuneInString(s[j:])
				if isWordRune(r2) {
					j += n
					continue
				}
				// Inner apostrophes ("don't") and decimal points or digit
				// group commas ("0.62", "1,000") stay inside the word.
				if (isApostrophe(r2) || ((r2 == '.' || r2 == ',') && isDigitBefore(s, j))) && j+n < len(s) {
					if r3, _ := utf8.DecodeRuneInString(s[j+n:]); isWordRune(r3) && (isApostrophe(r2) || unicode.IsDigit(r3)) {
						j += n
						continue
					}
				}
				break
			}
			toks = append(toks, token{text: s[i:j], off: i})
			i = j
		default:
			i += size
		}
	}
	return toks
}

// lowerWord folds a spaced word for comparison: lower case, typographic
// apostrophe as ASCII.
func lowerWord(w string) string {
	return strings.ReplaceAll(strings.ToLower(w), "’", "'")
}

// escapeText is the write-side escaping of every free-text value the encoder
// writes: invalid UTF-8 becomes U+FFFD, control characters and the bidi
// controls are removed (whitespace ones become spaces), whitespace runs
// collapse to one space, the ends are trimmed, a double quote becomes an
// apostrophe and '|' becomes '¦' (U+00A6). The result never breaks a line
// or a field, and never acts on the terminal that shows it.
func escapeText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r), isTerminalControl(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		switch r {
		case '"':
			b.WriteByte('\'')
		case '|':
			b.WriteString("¦")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isTerminalControl reports whether r is a character AAAK text may not hold
// (SPEC.md, section 1) because a terminal showing it would act on it or
// reorder the line: the C0 controls but TAB, DEL, the C1 controls, the line
// and paragraph separators and the bidi embeddings, overrides and isolates.
// An AAAK file is printed by 'palace aaak decode' and read by people, so a
// quote holding ESC ] 52 (write the clipboard) or U+202E (show the line
// reversed) is refused rather than passed on.
func isTerminalControl(r rune) bool {
	switch {
	case r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// collapseSpace collapses whitespace runs to one space and trims.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// truncateRunes shortens s to at most n runes, cutting at a space when one
// is reasonably close, and marks the cut with '…'.
func truncateRunes(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	rs := []rune(s)[:n-1]
	cut := len(rs)
	for i := len(rs) - 1; i > len(rs)/2; i-- {
		if rs[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(rs[:cut]), " ") + "…", true
}

// Sentence splitting.

func isASCIIEnder(r rune) bool { return r == '.' || r == '!' || r == '?' || r == ';' }
func isCJKEnder(r rune) bool   { return r == '。' || r == '！' || r == '？' || r == '；' }
func isCloser(r rune) bool     { return strings.ContainsRune(`"')]}”’」』）】》`, r) }

// splitSentences cuts text into sentences, the unit of both the key quote
// and the round-trip measure. Rules (SPEC.md, "Sentences"):
//   - '.', '!', '?', ';' end a sentence when followed by whitespace or the
//     end of the text ('.' not after a single letter or a known abbreviation);
//   - '。', '！', '？', '；' end a sentence wherever they occur;
//   - a blank line ends a sentence; so does a line break, unless the line
//     was hard-wrapped (it ends in a lowercase letter or ',' and the next
//     begins with a lowercase letter, or both sides are CJK);
//   - list markers (-, *, •, +, >, #, "1." and "1)") at the start of a line
//     are dropped, and so is any sentence without a letter, digit or CJK
//     character.
func splitSentences(text string) []string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	var (
		units []string
		cur   string
	)
	flush := func() {
		if cur != "" {
			units = append(units, cur)
			cur = ""
		}
	}
	for _, raw := range strings.Split(text, "\n") {
		line := collapseSpace(raw)
		if line == "" {
			flush()
			continue
		}
		stripped, marker := stripListMarker(line)
		switch {
		case cur == "" || marker:
			flush()
			cur = stripped
		case wrapsCJK(cur, stripped):
			cur += stripped
		case wraps(cur, stripped):
			cur += " " + stripped
		default:
			flush()
			cur = stripped
		}
	}
	flush()

	var out []string
	for _, u := range units {
		for _, s := range splitUnit(u) {
			s = collapseSpace(s)
			if s != "" && hasContentRune(s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func hasContentRune(s string) bool {
	for _, r := range s {
		if isWordRune(r) || isCJK(r) {
			return true
		}
	}
	return false
}

func wraps(prev, next string) bool {
	last, _ := utf8.DecodeLastRuneInString(prev)
	first, _ := utf8.DecodeRuneInString(next)
	return (unicode.IsLower(last) || last == ',') && unicode.IsLower(first)
}

func wrapsCJK(prev, next string) bool {
	last, _ := utf8.DecodeLastRuneInString(prev)
	first, _ := utf8.DecodeRuneInString(next)
	return isCJK(last) && isCJK(first)
}

// stripListMarker removes a leading list or heading marker.
func stripListMarker(line string) (string, bool) {
	i := 0
	for i < len(line) && strings.IndexByte("-*+>#", line[i]) >= 0 {
		i++
	}
	if i == 0 && strings.HasPrefix(line, "•") {
		i = len("•")
	}
	if i == 0 {
		for i < len(line) && i < 3 && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(line) || (line[i] != '.' && line[i] != ')') {
			return line, false
		}
		i++
	}
	if i < len(line) && line[i] != ' ' {
		return line, false // "-1", "#tag", "3.5": not a marker
	}
	return strings.TrimSpace(line[i:]), true
}

func splitUnit(u string) []string {
	rs := []rune(u)
	var out []string
	start := 0
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		end := -1
		switch {
		case isCJKEnder(r):
			j := i + 1
			for j < len(rs) && (isCJKEnder(rs[j]) || isASCIIEnder(rs[j]) || isCloser(rs[j])) {
				j++
			}
			end = j
		case isASCIIEnder(r):
			j := i + 1
			for j < len(rs) && (rs[j] == '.' || rs[j] == '!' || rs[j] == '?' || isCloser(rs[j])) {
				j++
			}
			if j < len(rs) && !unicode.IsSpace(rs[j]) {
				continue
			}
			if r == '.' && j == i+1 && abbreviationBefore(rs[start:i]) {
				continue
			}
			end = j
		}
		if end >= 0 {
			out = append(out, string(rs[start:end]))
			start = end
			i = end - 1
		}
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}

// abbreviationBefore reports whether the text before a '.' ends in a single
// letter (an initial, or the "g" of "e.g") or a known abbreviation.
func abbreviationBefore(rs []rune) bool {
	j := len(rs)
	for j > 0 && (unicode.IsLetter(rs[j-1]) || rs[j-1] == '.') && !isCJK(rs[j-1]) {
		j--
	}
	w := strings.Trim(strings.ToLower(string(rs[j:])), ".")
	if w == "" {
		return false
	}
	if abbreviations[w] {
		return true
	}
	// Initials and dotted letters: "J.", "e.g", "U.S".
	for _, part := range strings.Split(w, ".") {
		if utf8.RuneCountInString(part) != 1 {
			return false
		}
	}
	return true
}
