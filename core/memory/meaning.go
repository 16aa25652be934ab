package memory

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/palace-dev/palace/core/query"
)

// The ways a note can differ in meaning from a close older drawer, as
// Update.Differs names them. Word-set and embedding similarity cannot see
// them: "Do not use port 8080" shares every content word with "Use port
// 8080" (stop words include "do" and "not"), and "port 9090" or "staging"
// for "port 8080" or "production" changes one word in five. A near
// duplicate that differs in any of them is a correction or another fact,
// so it is written, not refused.
const (
	// DiffNegation: the negated words differ ("not use" against "use";
	// "use pnpm, not npm" against "use npm, not pnpm").
	DiffNegation = "negation"
	// DiffNumber: a number one note has and the other lacks (8080, 3.5,
	// eleven; a number written in words equals its digits).
	DiffNumber = "number"
	// DiffDate: a date or time (2026-05-01, 05/01, 14:30, 3pm, Q3, month
	// and weekday names, today, tomorrow, yesterday).
	DiffDate = "date"
	// DiffVersion: a version (v1.2, 1.2.3, go1.22; v1.2 equals 1.2).
	DiffVersion = "version"
	// DiffEnvironment: a deployment environment (prod and production are
	// one, as are staging and stg, dev and development).
	DiffEnvironment = "environment"
	// DiffName: a named entity: a capitalised word inside a sentence (a
	// sentence's first word is capitalised by grammar and does not count),
	// an acronym, or an identifier (snake_case, camelCase, a dotted or
	// slashed name, letters with digits such as s3).
	DiffName = "name"
	// DiffWord: any other content word one text has and the other lacks
	// in every form (see sameWord): "decrease" for "increase", "clang" for
	// "gcc", "develop" for "main", "late" for "early", an added qualifier;
	// or one of a pair of opposed stop words ("after" for "before", "off"
	// for "on", see opposed), which search drops but a decision turns on.
	// Without a thesaurus a synonym cannot be told from an antonym or
	// another tool's name, so a changed word is a changed note: writing a
	// restatement costs a drawer, dropping a reversed decision loses it.
	DiffWord = "word"
	// DiffOrder: the same words in swapped roles ("from npm to pnpm"
	// against "from pnpm to npm", "tabs over spaces" against "spaces over
	// tabs"): a relation word (see relations) governs a word the other
	// text has under the same relation word the other way round.
	DiffOrder = "order"
)

// diffOrder is the order Differences reports the kinds in.
func diffOrder() []string {
	return []string{DiffNegation, DiffNumber, DiffDate, DiffVersion, DiffEnvironment, DiffName, DiffWord, DiffOrder}
}

// Differences names the ways two texts differ in meaning (see DiffNegation
// and the others), in a fixed order; nil when they differ only in wording:
// case, punctuation, word order, stop words, an inflection, a typo or a
// filler word (see sameWord). Words are compared without case and after
// normalising (prod is production, eleven is 11, v1.2 is 1.2, Alice's is
// Alice), so a marker counts only when the other text lacks the word
// altogether. Han text is compared as its unsegmented runs; Remember
// segments it.
func Differences(a, b string) []string {
	ma, _ := meaningOf(a, nil)
	mb, _ := meaningOf(b, nil)
	return ma.against(mb).Kinds
}

// meaning is what of a text Differences compares.
type meaning struct {
	keys    map[string]bool   // every word's normalised form
	markers map[string]string // the words that carry meaning: form -> kind
	negated map[string]bool   // "not <next content word>", per negation
	// The same, in the order the text says them, for reports.
	markerList, negatedList []string
	// plain are the content words of no marker kind (not stop words, not
	// negations), once each, in order; bases their inflection bases.
	plain []string
	bases map[string]bool
	// polar are the words of an opposed pair the text holds, once each,
	// in order.
	polar     map[string]bool
	polarList []string
	// roles are "<relation> <word>" (see relations), in order; governs is
	// the same as relation -> words.
	roles   []string
	governs map[string]map[string]bool
}

// negationScope is how many words after a negation are searched for the
// content word it negates ("is not in the cache" negates "cache"); the
// bound keeps a text of negations and stop words linear. A relation word
// governs the first content word within the same scope.
const negationScope = 5

// segmenter splits a run of Han text into words (palace.SegmentQuery).
type segmenter func(string) ([]string, error)

// meaningOf reads text's meaning; seg, when not nil, splits its Han runs
// into words, so they are compared word by word.
func meaningOf(text string, seg segmenter) (meaning, error) {
	m := meaning{keys: map[string]bool{}, markers: map[string]string{}, negated: map[string]bool{},
		bases: map[string]bool{}, polar: map[string]bool{}, governs: map[string]map[string]bool{}}
	ws := words(text)
	if seg != nil {
		var err error
		if ws, err = segmentHan(ws, seg); err != nil {
			return m, err
		}
	}
	keys := make([]string, len(ws))
	for i, w := range ws {
		key, kind := classify(w)
		keys[i] = key
		seen := m.keys[key]
		m.keys[key] = true
		switch {
		case kind != "":
			// A word is a marker wherever the text uses it as one: "Build"
			// starting a sentence is plain, inside one a name.
			if m.markers[key] == "" {
				m.markers[key] = kind
				m.markerList = append(m.markerList, key)
			}
		case seen || key == negationKey:
		case query.IsStopWord(key):
			if opposed[key] != nil {
				m.polar[key] = true
				m.polarList = append(m.polarList, key)
			}
		default:
			if opposed[key] != nil {
				m.polar[key] = true
				m.polarList = append(m.polarList, key)
			}
			m.plain = append(m.plain, key)
			for _, b := range inflectionBases(key) {
				m.bases[b] = true
			}
		}
	}
	for i, key := range keys {
		if key != negationKey && !relations[key] {
			continue
		}
		next := ""
		for _, k := range keys[i+1 : min(len(keys), i+1+negationScope)] {
			if k != negationKey && !query.IsStopWord(k) {
				next = k
				break
			}
		}
		if key != negationKey {
			if next != "" && !m.governs[key][next] {
				if m.governs[key] == nil {
					m.governs[key] = map[string]bool{}
				}
				m.governs[key][next] = true
				m.roles = append(m.roles, key+" "+next)
			}
			continue
		}
		if phrase := "not " + next; !m.negated[phrase] {
			m.negated[phrase] = true
			m.negatedList = append(m.negatedList, phrase)
		}
	}
	return m, nil
}

// segmentHan replaces each Han word of ws by the words seg cuts it into.
func segmentHan(ws []word, seg segmenter) ([]word, error) {
	out := make([]word, 0, len(ws))
	for _, w := range ws {
		if !isCJK([]rune(w.text)[0]) {
			out = append(out, w)
			continue
		}
		parts, err := seg(w.text)
		if err != nil {
			return nil, fmt.Errorf("segment %.20q: %w", w.text, err)
		}
		for i, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, word{text: p, start: w.start && i == 0})
			}
		}
	}
	return out, nil
}

// difference is how a note differs from an older drawer: the kinds, in
// diffOrder, and the words behind them, in the order each text says them.
type difference struct {
	Kinds []string
	// Was are the words only the older text has, Now those only the note
	// has ("not use" for a negation, "over tabs" for a role).
	Was, Now []string
}

// against is how b (the note) differs from a (the older drawer); the kinds
// are the same either way round.
func (a meaning) against(b meaning) difference {
	found := map[string]bool{}
	var d difference
	was := func(kind string, ws ...string) {
		found[kind] = true
		d.Was = appendNew(d.Was, ws...)
	}
	now := func(kind string, ws ...string) {
		found[kind] = true
		d.Now = appendNew(d.Now, ws...)
	}
	if len(a.negated) != len(b.negated) {
		found[DiffNegation] = true
	}
	// The word a changed negation negates is that negation's difference,
	// not another one ("not npm" for "not yarn", "no longer use").
	negatedWord := map[string]bool{}
	for _, k := range a.negatedList {
		if !b.negated[k] {
			was(DiffNegation, strings.TrimSpace(k))
			negatedWord[strings.TrimPrefix(k, "not ")] = true
		}
	}
	for _, k := range b.negatedList {
		if !a.negated[k] {
			now(DiffNegation, strings.TrimSpace(k))
			negatedWord[strings.TrimPrefix(k, "not ")] = true
		}
	}
	for _, k := range a.markerList {
		if !b.keys[k] {
			was(a.markers[k], k)
		}
	}
	for _, k := range b.markerList {
		if !a.keys[k] {
			now(b.markers[k], k)
		}
	}
	aOnly, bOnly := unmatched(a, b, negatedWord), unmatched(b, a, negatedWord)
	aOnly, bOnly = withoutTypos(aOnly, bOnly)
	if len(aOnly) > 0 {
		was(DiffWord, aOnly...)
	}
	if len(bOnly) > 0 {
		now(DiffWord, bOnly...)
	}
	for _, p := range a.polarList {
		for _, q := range opposed[p] {
			if b.polar[q] && !b.polar[p] && !a.polar[q] {
				was(DiffWord, p)
				now(DiffWord, q)
			}
		}
	}
	for _, r := range a.roles {
		if s := swapped(r, a, b); s != "" {
			was(DiffOrder, r)
			now(DiffOrder, s)
		}
	}
	for _, r := range b.roles {
		if s := swapped(r, b, a); s != "" {
			was(DiffOrder, s)
			now(DiffOrder, r)
		}
	}
	for _, kind := range diffOrder() {
		if found[kind] {
			d.Kinds = append(d.Kinds, kind)
		}
	}
	if len(d.Kinds) == 0 {
		d.Was, d.Now = nil, nil
	}
	return d
}

// swapped returns the role of b that swaps role r of a ("over tabs" for
// "over spaces" when a says "tabs" and b "spaces" too), or "".
func swapped(r string, a, b meaning) string {
	rel, x, _ := strings.Cut(r, " ")
	if b.governs[rel][x] || !b.keys[x] {
		return ""
	}
	for _, s := range b.roles {
		if rel2, y, _ := strings.Cut(s, " "); rel2 == rel && y != x && a.keys[y] && !a.governs[rel][y] {
			return s
		}
	}
	return ""
}

// unmatched are a's plain words that b holds in no form: not as they are,
// not inflected (see inflectionBases), and that are not filler words nor
// in skip. Typos are left to withoutTypos, which needs both sides'
// leftovers.
func unmatched(a, b meaning, skip map[string]bool) []string {
	var out []string
	for _, w := range a.plain {
		if b.keys[w] || skip[w] || fillers[w] || abbreviations[w] || inflectedIn(w, b) || compoundIn(w, b) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func inflectedIn(w string, b meaning) bool {
	for _, base := range inflectionBases(w) {
		if b.bases[base] {
			return true
		}
	}
	return false
}

// compoundIn says whether a Han word is part of one of b's Han words or
// holds one (更 and 更加, "more"): segmentation cuts the same phrase at
// different places, and a Han word has no inflections to compare instead.
func compoundIn(w string, b meaning) bool {
	if !isCJK([]rune(w)[0]) {
		return false
	}
	for _, v := range b.plain {
		if isCJK([]rune(v)[0]) && (strings.Contains(v, w) || strings.Contains(w, v)) {
			return true
		}
	}
	return false
}

func appendNew(list []string, ws ...string) []string {
	for _, w := range ws {
		if !slices.Contains(list, w) {
			list = append(list, w)
		}
	}
	return list
}

// word is a word of a text, with whether it begins a sentence.
type word struct {
	text  string
	start bool
}

// words splits text into words: runs of letters, digits and marks, kept
// whole across '.', '_' and '/' between them (v1.2, max_conns, net/http),
// an apostrophe between letters (don't, Alice's), and '-' or ':' between
// digits (2026-05-01, 14:30). Chinese, Japanese and Korean runs are words
// of their own, so a number beside them is still a number.
func words(text string) []word {
	rs := []rune(text)
	var out []word
	start := true
	for i := 0; i < len(rs); {
		r := rs[i]
		if !isWordRune(r) {
			switch {
			case r == '.' && len(out) > 0 && i > 0 && isWordRune(rs[i-1]) && abbreviations[strings.ToLower(out[len(out)-1].text)]:
				// "e.g. Redis": the sentence goes on.
			case strings.ContainsRune(".!?:;", r) || r == '\n' && listItemFollows(rs[i+1:]):
				start = true
			}
			i++
			continue
		}
		j := i + 1
		for j < len(rs) {
			if isWordRune(rs[j]) {
				if isCJK(rs[j]) != isCJK(rs[j-1]) {
					break
				}
				j++
				continue
			}
			if j+1 < len(rs) && joins(rs[j-1], rs[j], rs[j+1]) {
				j++
				continue
			}
			break
		}
		out = append(out, word{text: string(rs[i:j]), start: start})
		start = false
		i = j
	}
	return out
}

// listItemFollows says whether a line starts with a list or heading marker
// or is blank: its first word begins a sentence. A line that merely
// continues a wrapped sentence does not.
func listItemFollows(rest []rune) bool {
	for _, r := range rest {
		switch {
		case r == ' ' || r == '\t':
			continue
		case strings.ContainsRune("\n-*•#>", r):
			return true
		}
		return false
	}
	return true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

func isCJK(r rune) bool {
	// Hangul, the first of these scripts, starts at U+1100: most text is
	// below it and needs no table look-up.
	return r >= 0x1100 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// joins says whether r, between the word runes prev and next, is part of
// one word.
func joins(prev, r, next rune) bool {
	if !isWordRune(prev) || !isWordRune(next) || isCJK(prev) || isCJK(next) {
		return false
	}
	switch r {
	case '.', '_', '/':
		return true
	case '\'', '’':
		return unicode.IsLetter(prev) && unicode.IsLetter(next)
	case '-', ':':
		return unicode.IsDigit(prev) && unicode.IsDigit(next)
	}
	return false
}

// negationKey is the form every negation word takes.
const negationKey = "not"

var (
	negations = setOf("not no never none nothing nobody nowhere neither nor cannot without " +
		"dont doesnt didnt isnt arent wasnt werent wont cant couldnt shouldnt wouldnt mustnt havent hasnt hadnt neednt aint")
	numberWords = func() map[string]string {
		m := map[string]string{"hundred": "100", "thousand": "1000", "million": "1000000", "billion": "1000000000"}
		for i, w := range strings.Fields("zero one two three four five six seven eight nine ten eleven twelve thirteen " +
			"fourteen fifteen sixteen seventeen eighteen nineteen twenty") {
			m[w] = strconv.Itoa(i)
		}
		for i, w := range strings.Fields("thirty forty fifty sixty seventy eighty ninety") {
			m[w] = strconv.Itoa(30 + 10*i)
		}
		return m
	}()
	environments = map[string]string{
		"prod": "production", "production": "production", "prd": "production",
		"staging": "staging", "stg": "staging",
		"dev": "development", "development": "development",
		"test": "test", "testing": "test", "qa": "qa", "uat": "uat",
		"preprod": "preprod", "preproduction": "preprod", "sandbox": "sandbox", "canary": "canary",
		"local": "local", "localhost": "local",
	}
	// abbreviations end in a '.' that does not end the sentence.
	abbreviations = setOf("e.g i.e eg ie cf vs approx incl esp")
	// "may" is left out: it is far more often the verb than the month.
	dateWords = setOf("january february march april june july august september october november december " +
		"monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday tonight")
	dateForms = regexp.MustCompile(`^(\d{4}-\d{1,2}(-\d{1,2})?|\d{4}/\d{1,2}/\d{1,2}|\d{1,2}/\d{1,2}(/\d{2}|/\d{4})?|` +
		`\d{1,2}:\d{2}(:\d{2})?|\d{1,2}(am|pm)|q[1-4])$`)
	versionForms = regexp.MustCompile(`^(v\d+(\.\d+)*|\d+(\.\d+){2,}|[a-z]+\d+(\.\d+)+)$`)
)

func setOf(ws string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(ws) {
		m[w] = true
	}
	return m
}

// classify returns a word's normalised form and, when it carries meaning
// (see the Diff kinds), its kind; negations have the form negationKey and
// no kind of their own, since meaningOf pairs them with what they negate.
func classify(w word) (key, kind string) {
	lower := strings.ToLower(strings.ReplaceAll(w.text, "’", "'"))
	if t, ok := strings.CutSuffix(lower, "'s"); ok && t != "" {
		lower = t // Alice's is Alice
	}
	// Every date, version and number form has a digit; most words have
	// none, and skip the patterns.
	digits := strings.ContainsFunc(lower, unicode.IsDigit)
	switch {
	case negations[lower] || strings.HasSuffix(lower, "n't"):
		return negationKey, ""
	case digits && dateForms.MatchString(lower):
		return lower, DiffDate
	case digits && versionForms.MatchString(lower):
		return strings.TrimPrefix(lower, "v"), DiffVersion
	case digits && unicode.IsDigit([]rune(lower)[0]):
		return lower, DiffNumber
	case numberWords[lower] != "":
		return numberWords[lower], DiffNumber
	case environments[lower] != "":
		return environments[lower], DiffEnvironment
	case dateWords[lower] || dateWords[strings.TrimSuffix(lower, "s")] && strings.HasSuffix(lower, "days"):
		return strings.TrimSuffix(lower, "s"), DiffDate
	case isIdentifier(w.text):
		return lower, DiffName
	case query.IsStopWord(lower):
		return lower, ""
	case isAcronym(w.text) || !w.start && unicode.IsUpper([]rune(w.text)[0]):
		return lower, DiffName
	}
	return lower, ""
}

// isIdentifier says whether a word is written as code names are: with
// digits after letters (s3, sha256), an inner '_', '.' or '/' (max_conns,
// net.http, net/http; not the abbreviations e.g and i.e), or a lower-case
// letter followed by a capital (getUser, ServeHTTP).
func isIdentifier(s string) bool {
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsDigit(r) && i > 0:
			return true
		case r == '_' || r == '/':
			return true
		case i > 0 && unicode.IsLower(rs[i-1]) && unicode.IsUpper(r):
			return true
		}
	}
	if strings.Contains(s, ".") {
		for part := range strings.SplitSeq(s, ".") {
			if len([]rune(part)) > 1 {
				return true
			}
		}
	}
	return false
}

// isAcronym says whether a word is two or more letters, all capitals (API,
// AWS): a name even at the start of a sentence.
func isAcronym(s string) bool {
	n := 0
	for _, r := range s {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 2
}
