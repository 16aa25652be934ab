package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Identifier splitting, shared by the index side (IdentParts, PathWords,
// SymbolWords: a code drawer's extra index columns) and the query side (Parse): the
// two must cut alike, or a query's parts would look for words the index
// never got.
//
// FTS5's unicode61 tokenizer already cuts at '_' and '-' and folds case, so
// parse_http2_frame is indexed as parse, http2, frame and SearchFTS as the
// one token searchfts. What it cannot see are the case and digit
// boundaries inside a letter-digit run: those are what this file adds.

// splitRun appends to out the parts of one letter-digit run cut at case
// boundaries, lowercased: getUserID → get, user, id; HTTPServer → http,
// server; HTTP2Server → http2, server; getUserIDs → get, user, ids. Digits
// stay with the letters before them (http2, utf8, int64), as in the plain
// letter-digit runs a person would type.
func splitRun(run string, out []string) []string {
	start := 0
	var prev rune
	for i, r := range run {
		if i > 0 {
			cut := false
			next, _ := utf8.DecodeRuneInString(run[i+utf8.RuneLen(r):])
			switch {
			case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
				cut = true // getUser, http2Frame
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && unicode.IsLower(next) && !plural(run, i, r):
				cut = true // HTTPServer: the last capital opens the next word
			}
			if cut {
				out = append(out, strings.ToLower(run[start:i]))
				start = i
			}
		}
		prev = r
	}
	return append(out, strings.ToLower(run[start:]))
}

// plural reports whether the capital r at i is followed by a lone 's' that
// ends the run or meets another capital (IDs, URLs, HTTPSConfig aside):
// "IDs" is one word, not I + Ds.
func plural(run string, i int, r rune) bool {
	rest := run[i+utf8.RuneLen(r):]
	if len(rest) == 0 || rest[0] != 's' {
		return false
	}
	after, _ := utf8.DecodeRuneInString(rest[1:])
	return len(rest) == 1 || unicode.IsUpper(after) || unicode.IsDigit(after)
}

// identParts returns the words of one identifier (a run of letters, digits
// and '_'): its '_'-separated runs, each cut at case boundaries. ok is
// false when no run has a case boundary, so the tokenizer already indexes
// exactly these words and nothing needs adding.
func identParts(id string) (parts []string, ok bool) {
	for _, run := range strings.Split(id, "_") {
		if run == "" {
			continue
		}
		n := len(parts)
		parts = splitRun(run, parts)
		if len(parts)-n > 1 {
			ok = true
		}
	}
	return parts, ok
}

// isIdentRune reports whether r belongs in an identifier.
func isIdentRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// identAt reports whether the character at text[i] belongs in an
// identifier, and its length. ASCII, nearly all of source code, is decided
// without decoding a rune or consulting Unicode tables: every drawer of
// source is scanned at mining, and that cost a mine of Go's src a second.
func identAt(text string, i int) (ident bool, size int) {
	if c := text[i]; c < utf8.RuneSelf {
		return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9', 1
	}
	r, n := utf8.DecodeRuneInString(text[i:])
	return isIdentRune(r), n
}

// hasCaseBoundary is a cheap first cut: an identifier can only split if it
// holds a capital after its first rune.
func hasCaseBoundary(id string) bool {
	for i := 1; i < len(id); i++ {
		if c := id[i]; c >= utf8.RuneSelf {
			for _, r := range id[i:] {
				if unicode.IsUpper(r) {
					return true
				}
			}
			return false
		} else if 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

// identifiers calls f with every distinct identifier of text that splits,
// and its parts, in order of first appearance.
func identifiers(text string, f func(id string, parts []string)) {
	seen := map[string]bool{}
	for i := 0; i < len(text); {
		ident, size := identAt(text, i)
		if !ident {
			i += size
			continue
		}
		end := i + size
		for end < len(text) {
			ident, n := identAt(text, end)
			if !ident {
				break
			}
			end += n
		}
		id := text[i:end]
		i = end
		if !hasCaseBoundary(id) || seen[id] {
			continue
		}
		seen[id] = true
		if parts, ok := identParts(id); ok {
			f(id, parts)
		}
	}
}

// IdentParts is what a code drawer's parts column holds (see
// store.CodeIndex): the parts of every identifier in text that has case
// boundaries (SearchFTS → "search fts"), one identifier per line so that a
// query's parts match as a phrase. It is "" when nothing splits. The whole
// identifier stays in the drawer's body, so an exact name still matches
// (and ranks above its parts alone).
func IdentParts(text string) string {
	var b strings.Builder
	identifiers(text, func(_ string, parts []string) {
		b.WriteString(strings.Join(parts, " "))
		b.WriteByte('\n')
	})
	return strings.TrimSuffix(b.String(), "\n")
}

// PathWords is what a file drawer's path column holds: the words of the
// file's name without its extension and of the folder that holds it, each
// identifier also split at case boundaries. Only those two: the palace
// records absolute sources, not the root they were mined from, and the
// folders further up are mostly the home directory and the project's
// name, words every drawer would share.
func PathWords(source string) string {
	comps := strings.FieldsFunc(source, func(r rune) bool { return r == '/' || r == '\\' })
	if len(comps) == 0 {
		return ""
	}
	name := comps[len(comps)-1]
	if dot := strings.LastIndexByte(name, '.'); dot > 0 {
		name = name[:dot]
	}
	words := name
	if len(comps) > 1 {
		words = comps[len(comps)-2] + " " + name
	}
	if parts := IdentParts(words); parts != "" {
		words += "\n" + parts
	}
	return words
}

// SymbolWords is what a code drawer's symbols column holds for the names
// it defines: each name, then its parts when it splits, one name per line.
func SymbolWords(names []string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n)
		b.WriteByte('\n')
		if parts, ok := identParts(n); ok {
			b.WriteString(strings.Join(parts, " "))
			b.WriteByte('\n')
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
