// Package query turns what a person or an agent typed into FTS5 MATCH
// expressions. User text never reaches FTS5 syntax directly: every term is
// emitted as a double-quoted string, so quotes, operators, parentheses,
// column filters and CJK cannot cause a syntax error.
//
// Supported on purpose: "exact phrases", -excluded terms and prefix* terms.
// Everything else is a word.
package query

import (
	"cmp"
	_ "embed"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/input"
)

// MaxTerms caps the distinct terms (searched and excluded) of a query a
// person or an agent types: enough for any question, while FTS5 spends time
// per term on every candidate row, so thousands of terms would cost seconds.
const MaxTerms = 64

//go:embed stopwords.txt
var stopwordList string

// Term is one searchable unit of a query.
type Term struct {
	Text   string // as typed, quotes removed
	Phrase bool   // came from "..."
	Prefix bool   // ended in *
	Not    bool   // started with -
	// Parts are the words of an identifier with case boundaries
	// (SearchFTS → search, fts): the term then matches the whole token or
	// its parts as a phrase, which code drawers' parts, symbols and path
	// columns hold (IdentParts, SymbolWords, PathWords).
	Parts []string
	// Pieces are the names of a qualified word (store.SearchFTS → store,
	// SearchFTS; see qualifiedParts): the term then matches the word as
	// typed or all its pieces anywhere in a drawer.
	Pieces []string
	// Forms are the other forms of an irregular verb (won for win; see
	// irregular): the term then matches any of them.
	Forms []string
	// Of is the word a possessive is of (Caroline for "Caroline's"): the
	// term then matches that word, the possessive as typed scoring above
	// it. The index reads "Caroline's" as the phrase "caroline s", which a
	// drawer naming Caroline without the possessive never holds, while the
	// question is about her.
	Of string

	framing bool // only frames a question (see framing)
	// next is the word typed right after this one when both are searched
	// plain lower-case words (see adjacent): All then matches the term as
	// itself or as the phrase of the two.
	next string
}

// Query is a parsed user query.
type Query struct {
	Terms []Term // positive terms after stop-word removal
	Not   []Term
	// All requires every term; Any requires one. Both are empty when the
	// query has nothing searchable (only stop words' punctuation, or only
	// exclusions).
	All string
	Any string
	// Words requires any one word of the terms, a phrase's and a
	// compound's words apart ("LogLevel SILENT", php-fpm-sysconfdir):
	// the last resort when All and Any leave room, since a phrase the
	// text never says whole otherwise finds nothing. Empty when it would
	// be Any.
	Words string
}

// Segmenter splits a term written in a script without spaces (Chinese) into
// words. Nil leaves terms as they are.
type Segmenter func(text string) ([]string, error)

// Check refuses a query that holds more than MaxTerms distinct terms, as
// Parse counts them (stop words dropped, before segmenting), with an
// input error naming the cap.
func Check(text string) error {
	q, _ := Parse(text, nil) // without a segmenter Parse cannot fail
	if n := len(q.Terms) + len(q.Not); n > MaxTerms {
		return input.Invalid("query", "has %d distinct words: at most %d", n, MaxTerms)
	}
	return nil
}

// Parse builds the FTS5 expressions for text. It fails only when seg does.
// Terms are distinct, in order of first appearance: a term written twice
// matches nothing more, and each repeat would cost FTS5 a pass.
func Parse(text string, seg Segmenter) (Query, error) {
	stop := stopwords()
	raw := lex(sanitize(text))
	asks := isQuestion(text)
	var q Query
	var kept []Term
	for i, t := range raw {
		if !searchable(t.Text) {
			continue
		}
		t.framing = framing(raw, i)
		if t.Not {
			q.Not = append(q.Not, t)
			continue
		}
		kept = append(kept, t)
	}
	q.Not, kept = distinct(q.Not), distinct(kept)
	// Drop stop words and framing words unless nothing would be left ("the
	// who" still searches). A question's last word stays even when it is
	// a stop word: English strands there the word the answer completes
	// ("what is Joanna allergic to?", "what was the talk about?"). Until
	// words were trimmed of the punctuation around them, that word kept its
	// "?" and escaped the stop list by accident; on LoCoMo dev dropping it
	// lowered turn R_all@10 on conversations 3-4 from 0.695 to 0.687 (the
	// third screenplay "about?" from turns 8 and 3 to 26 and 29), keeping
	// only prepositions gave 0.692, and keeping it only after a "?" 0.692.
	// An object pronoun there ("what does Jon's dance make him?") completes
	// nothing: it stands for someone the question names, and searched it
	// matched any line saying "him" (on LoCoMo dev four questions' evidence
	// rose, none fell, none into the first 10).
	var last string
	if n := len(raw); n > 0 && asks && !raw[n-1].Phrase && !raw[n-1].Prefix && !objectPronoun[strings.ToLower(raw[n-1].Text)] {
		last = strings.ToLower(raw[n-1].Text)
	}
	for _, t := range kept {
		w := strings.ToLower(cmp.Or(t.Of, t.Text))
		if t.framing || w != last && !t.Phrase && !t.Prefix && stop[w] {
			continue
		}
		q.Terms = append(q.Terms, t)
	}
	if len(q.Terms) == 0 {
		q.Terms = kept
	}
	if seg != nil {
		var err error
		if q.Terms, err = segment(q.Terms, seg); err != nil {
			return q, err
		}
		q.Terms = distinct(q.Terms) // segments may repeat across terms
	}
	if len(q.Terms) == 0 {
		return q, nil
	}
	for i, t := range q.Terms {
		q.Terms[i].Parts = termParts(t)
		if asks {
			q.Terms[i].Forms = termForms(q.Terms[i])
		}
	}
	if asks {
		adjacent(raw, q.Terms)
	}
	q.build(stop)
	return q, nil
}

// build sets All, Any and Words from Terms and Not.
func (q *Query) build(stop map[string]bool) {
	var parts []string
	for _, t := range q.Terms {
		parts = append(parts, quote(t))
	}
	var nots []string
	for _, t := range q.Not {
		nots = append(nots, quote(t))
	}
	all := slices.Clone(parts)
	for i, t := range q.Terms {
		if t.next != "" {
			all[i] = "(" + all[i] + " OR " + quote(Term{Text: t.Text + " " + t.next}) + ")"
		}
	}
	q.All = combine(all, " AND ", nots)
	q.Any = combine(parts, " OR ", nots)
	q.Words = ""
	if words, split := apart(q.Terms, stop); split {
		q.Words = combine(words, " OR ", nots)
	}
}

// Match is the FTS5 expression of t alone, as All and Any hold it.
func (t Term) Match() string { return quote(t) }

// Compound reports whether t is one typed name of several words: an
// identifier with case or underscore boundaries (PATH_STARTSWITH_ACCEPT,
// parseHTTPFrame), a kebab-case word or a qualified name (store.SearchFTS).
// A quoted phrase is not: the reader asked for it as written.
func (t Term) Compound() bool {
	return !t.Phrase && !t.Prefix && len(t.words()) > 1
}

// words are the words of a compound term: its pieces at hyphens and the
// punctuation joining names, each identifier cut at its case boundaries.
func (t Term) words() []string {
	_, pieces := cut(t.Text, true)
	if len(pieces) == 0 {
		pieces = []string{t.Text}
	}
	var ws []string
	for _, p := range pieces {
		if parts, _ := identParts(p); len(parts) > 1 {
			ws = append(ws, parts...)
		} else {
			ws = append(ws, p)
		}
	}
	return ws
}

// Apart returns q with each compound term that whole reports no drawer
// holding replaced by its words, each a term of its own (stop words
// dropped). A name a commit renamed away, or a reader misremembers
// (PATH_STARTSWITH_ACCEPT_DOT_DOT where the code now says ..._REFUSE_...),
// otherwise matches nothing, and the query's other words alone decide the
// ranking; apart, its words count as any words do. The second result
// lists the terms replaced, as typed.
func (q Query) Apart(whole func(Term) bool) (Query, []string) {
	stop := stopwords()
	var terms []Term
	var replaced []string
	for _, t := range q.Terms {
		if !t.Compound() || whole(t) {
			terms = append(terms, t)
			continue
		}
		replaced = append(replaced, t.Text)
		for _, w := range keepWords(t.words(), stop) {
			wt := Term{Text: w}
			wt.Parts = termParts(wt)
			terms = append(terms, wt)
		}
	}
	if len(replaced) == 0 {
		return q, nil
	}
	q.Terms = distinct(terms)
	q.build(stop)
	return q, replaced
}

// apart returns each word of terms as a quoted term of its own: a phrase's
// words and the pieces of a qualified or kebab-case word apart
// (php-fpm-sysconfdir), stop words dropped unless a term has nothing else.
// split reports whether any term was cut.
func apart(terms []Term, stop map[string]bool) (words []string, split bool) {
	seen := map[string]bool{}
	add := func(t Term) {
		k := strings.ToLower(quote(t))
		if !seen[k] {
			seen[k] = true
			words = append(words, quote(t))
		}
	}
	for _, t := range terms {
		var ws []string
		if !t.Prefix {
			for _, f := range strings.Fields(t.Text) {
				if _, pieces := cut(f, true); len(pieces) > 1 {
					ws = append(ws, pieces...)
				} else {
					ws = append(ws, f)
				}
			}
		}
		if len(ws) < 2 {
			add(t)
			continue
		}
		split = true
		for _, w := range keepWords(ws, stop) {
			wt := Term{Text: w}
			wt.Parts = termParts(wt)
			add(wt)
		}
	}
	return words, split
}

// keepWords drops the stop words of ws, unless that leaves none.
func keepWords(ws []string, stop map[string]bool) []string {
	var out []string
	for _, w := range ws {
		if !stop[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return ws
	}
	return out
}

// framing reports whether raw[i] only frames a question ("what kind of
// art", "how many times", "what things has she made"): such a word names
// no topic, yet every drawer that happens to say "kind" or "times" would
// match it. A framing word that is not framing here ("sort the list") is
// kept.
func framing(raw []Term, i int) bool {
	t := raw[i]
	if t.Phrase || t.Prefix || t.Not {
		return false
	}
	word := func(j int) string {
		if j < 0 || j >= len(raw) || raw[j].Phrase || raw[j].Prefix || raw[j].Not {
			return ""
		}
		return strings.ToLower(raw[j].Text)
	}
	switch w := word(i); w {
	case "kind", "kinds", "type", "types", "sort", "sorts":
		return word(i+1) == "of"
	case "many", "much":
		return word(i-1) == "how"
	case "times":
		return word(i-1) == "many" && word(i-2) == "how"
	case "things", "something", "anything", "ever", "ways":
		return true
	}
	return false
}

// adjacent sets the next of each of terms that a question typed right
// before another of them, both plain words of lower-case ASCII letters and
// digits ("board games", "dance studio", "ice cream"): a drawer holding
// them side by side then scores above one holding them apart (FTS5's BM25
// counts the phrase as one more term), and the same drawers match. A
// capitalised word is a name or an identifier, whose neighbour is rarely
// part of it. Only in All: among drawers that hold every word, the one
// saying them as the question does is more often the one meant, while in
// Any the phrase's weight lifted drawers missing the question's other
// words. On LoCoMo dev (bench locomo) turn R_all@10 went from 0.719 to
// 0.723 on conversations 1-2 and stayed 0.700 on 3-4, held back (session
// R_any@5 0.942 to 0.944, MRR 0.441 to 0.440); no category fell. With the
// phrase in Any as well, 3-4 stayed 0.700 but multi-hop, temporal and
// open-domain each lost a question there. Only a question's words, as with
// verb forms: on Debian's histories (bench code) pairs in All and Any
// lowered MRR@10 on five of eight (python3.11 0.699 to 0.663), and a commit
// subject is not a phrase the code repeats.
func adjacent(raw, terms []Term) {
	word := func(t Term) bool {
		if t.Phrase || t.Prefix || t.Not || t.Of != "" || t.Text == "" {
			return false
		}
		for _, r := range t.Text {
			if !('a' <= r && r <= 'z' || '0' <= r && r <= '9') {
				return false
			}
		}
		return true
	}
	at := map[string]int{}
	for i, t := range terms {
		if word(t) {
			at[t.Text] = i + 1
		}
	}
	for j := 0; j+1 < len(raw); j++ {
		a, b := at[raw[j].Text], at[raw[j+1].Text]
		if a == 0 || b == 0 || a == b || !word(raw[j]) || !word(raw[j+1]) {
			continue
		}
		// The first word carries the phrase: one with alternatives of its
		// own (verb forms, identifier parts) is left as it is.
		if t := &terms[a-1]; t.next == "" && len(t.Forms) == 0 && len(t.Parts) == 0 && len(t.Pieces) == 0 {
			t.next = raw[j+1].Text
		}
	}
}

// distinct keeps the first of terms that FTS5 reads alike: the same
// quoted text (the index folds case) with the same prefix and phrase flags.
func distinct(ts []Term) []Term {
	type key struct {
		text           string
		phrase, prefix bool
	}
	seen := make(map[key]bool, len(ts))
	out := ts[:0]
	for _, t := range ts {
		k := key{strings.ToLower(t.Text), t.Phrase, t.Prefix}
		if !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}

func combine(parts []string, op string, nots []string) string {
	e := "(" + strings.Join(parts, op) + ")"
	if len(nots) > 0 {
		e += " NOT (" + strings.Join(nots, " OR ") + ")"
	}
	return e
}

// segment splits unspaced-script words into their segments, each a term of
// its own. A phrase is split too: the index holds extra sub-words between a
// phrase's words, so its words are required together but not adjacent.
func segment(ts []Term, seg Segmenter) ([]Term, error) {
	var out []Term
	for _, t := range ts {
		var words []string
		for _, f := range strings.Fields(t.Text) {
			ws, err := seg(f)
			if err != nil {
				return nil, err
			}
			words = append(words, ws...)
		}
		if len(words) <= 1 {
			out = append(out, t)
			continue
		}
		if !t.Phrase || hasSplit(t.Text, words) {
			for _, w := range words {
				if searchable(w) {
					out = append(out, Term{Text: w})
				}
			}
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

// hasSplit reports whether segmentation cut a space-separated word of text.
func hasSplit(text string, words []string) bool {
	return len(words) != len(strings.Fields(text))
}

func quote(t Term) string {
	s := `"` + strings.ReplaceAll(t.Text, `"`, `""`) + `"`
	if t.Prefix {
		s += "*"
	}
	if t.Of != "" {
		// As with parts, a drawer holding the possessive matches both
		// alternatives and scores above one holding only the word.
		s = "(" + s + ` OR "` + strings.ReplaceAll(t.Of, `"`, `""`) + `")`
	}
	if len(t.Forms) > 0 {
		s = "(" + s + ` OR "` + strings.Join(t.Forms, `" OR "`) + `")`
	}
	if len(t.Parts) > 0 {
		// Both alternatives match a drawer that holds the identifier (its
		// parts column has the parts too), so the exact name scores above
		// text that only has the words.
		s = "(" + s + ` OR "` + strings.Join(t.Parts, " ") + `")`
	}
	if len(t.Pieces) > 1 {
		// As with parts, a drawer holding the word as typed matches both
		// alternatives and scores above one holding its pieces apart.
		ps := make([]string, len(t.Pieces))
		for i, p := range t.Pieces {
			pt := Term{Text: p}
			pt.Parts = termParts(pt)
			ps[i] = quote(pt)
		}
		s = "(" + s + " OR (" + strings.Join(ps, " AND ") + "))"
	}
	return s
}

// termParts returns the parts of a term that is one identifier with case
// boundaries, else nil. Phrases and prefixes are taken as typed.
func termParts(t Term) []string {
	// Punctuation around the word goes: "(SearchFTS)," is SearchFTS.
	text := strings.TrimFunc(t.Text, func(r rune) bool { return !isIdentRune(r) })
	if t.Phrase || t.Prefix || !isWord(text) || !hasCaseBoundary(text) {
		return nil
	}
	parts, ok := identParts(text)
	if !ok {
		return nil
	}
	return parts
}

// sanitize makes text valid UTF-8 without control characters.
func sanitize(s string) string {
	s = strings.ToValidUTF8(s, " ")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// searchable reports whether FTS5's unicode61 tokenizer would find a token in
// s: a quoted string with no letters or digits is an empty phrase.
func searchable(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// lex splits on whitespace, keeping "double-quoted phrases" together. An
// unbalanced quote runs to the end of the text.
func lex(s string) []Term {
	var out []Term
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if unicode.IsSpace(r) {
			s = s[size:]
			continue
		}
		not := false
		if r == '-' && len(s) > 1 {
			not = true
			s = s[1:]
			r, size = utf8.DecodeRuneInString(s)
		}
		if r == '"' {
			s = s[size:]
			end := strings.IndexByte(s, '"')
			var body string
			if end < 0 {
				body, s = s, ""
			} else {
				body, s = s[:end], s[end+1:]
			}
			out = append(out, Term{Text: strings.Join(strings.Fields(body), " "), Phrase: true, Not: not})
			continue
		}
		end := strings.IndexFunc(s, unicode.IsSpace)
		var word string
		if end < 0 {
			word, s = s, ""
		} else {
			word, s = s[:end], s[end:]
		}
		word = strings.ReplaceAll(word, `"`, "")
		t := Term{Not: not}
		if strings.HasSuffix(word, "*") {
			t.Prefix = true
			word = strings.TrimRight(word, "*")
		}
		// A prefix needs a plain word before the star to mean anything.
		if t.Prefix && (word == "" || !isWord(word)) {
			t.Prefix = false
		}
		if t.Prefix {
			t.Text = word
			out = append(out, t)
			continue
		}
		word, t.Of = possessive(word)
		t.Text = word
		// The punctuation around a word goes ("(SearchFTS),", "friends,"),
		// so the word is what the stop list and distinct read, where what
		// goes is ASCII, which FTS5's unicode61 reads as a
		// separator too: its tables are older than Go's, and a symbol
		// Unicode added since (֎) is a word character to it, so trimming
		// that asks for a token the index never holds. A possessive keeps
		// its apostrophe: as typed it scores above its word.
		trimmed, pieces := qualifiedParts(word)
		switch {
		case t.Of != "":
			t.Text = strings.TrimRightFunc(word, func(r rune) bool {
				return r < utf8.RuneSelf && r != '\'' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
			})
		case asciiAround(word, trimmed):
			t.Text = trimmed
		}
		// An exclusion stays whole: its pieces apart would exclude far
		// more than the reader named.
		if len(pieces) > 1 && !not {
			t.Pieces = pieces
		}
		out = append(out, t)
	}
	return out
}

// possessive returns word, a typographic apostrophe read as a plain one,
// and the word a possessive is of ("Caroline's", "Melanie’s?", "parents'"
// → Caroline, Melanie, parents), "" when word is none. FTS5 splits words
// at both apostrophes, and qualifiedParts would otherwise cut "don’t" into
// the pieces don and t.
func possessive(word string) (string, string) {
	word = strings.NewReplacer("\u2019", "'", "\u2018", "'").Replace(word)
	core := strings.TrimRightFunc(word, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	base, ok := strings.CutSuffix(core, "'s")
	if !ok {
		base, ok = strings.CutSuffix(core, "'S")
	}
	if !ok && strings.HasSuffix(core, "s") && strings.HasPrefix(word[len(core):], "'") {
		base, ok = core, true // plural possessive: parents'
	}
	if !ok || !strings.ContainsFunc(base, unicode.IsLetter) {
		return word, ""
	}
	return word, base
}

// qualifiedParts cuts a typed word at the punctuation that joins names in
// code and paths (store.SearchFTS, core/store/search.go, std::vec), so the
// term can also match its names apart: FTS5 reads the word as a phrase,
// which a drawer defining SearchFTS without its package never holds.
// Punctuation around a word goes ("(search.DrawerOf),"). Hyphens,
// apostrophes and underscores stay (end-to-end, palace's, palace_search:
// phrases the text holds as written), and a word with a piece that has no
// letter (1.2.0, v1.2, 10:30) stays whole. It returns the word without the punctuation around
// it, and its pieces.
func qualifiedParts(word string) (string, []string) {
	return cut(word, false)
}

// cut is qualifiedParts, cutting at hyphens too when hyphens is set
// (php-fpm-sysconfdir; utf-8 stays whole).
func cut(word string, hyphens bool) (string, []string) {
	// Private-use characters (Co) are word characters to FTS5's unicode61
	// tokenizer, as letters and digits are: cutting or trimming at them
	// asks for a token the index never holds.
	joins := func(r rune) bool {
		return !unicode.In(r, unicode.L, unicode.N, unicode.M, unicode.Co) && r != '_' && r != '\'' &&
			(hyphens || r != '-')
	}
	trimmed := strings.TrimFunc(word, func(r rune) bool { return joins(r) || r == '-' || r == '\'' })
	if trimmed == "" {
		return word, nil
	}
	pieces := strings.FieldsFunc(trimmed, joins)
	for _, p := range pieces {
		if !strings.ContainsFunc(p, unicode.IsLetter) {
			return trimmed, nil
		}
	}
	return trimmed, pieces
}

// asciiAround reports whether what trimming word to trimmed removed is
// all ASCII.
func asciiAround(word, trimmed string) bool {
	i := strings.Index(word, trimmed)
	if i < 0 {
		return false
	}
	cut := word[:i] + word[i+len(trimmed):]
	return strings.IndexFunc(cut, func(r rune) bool { return r >= utf8.RuneSelf }) < 0
}

func isWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return false
		}
	}
	return true
}

func stopwords() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(stopwordList) {
		m[w] = true
	}
	return m
}
