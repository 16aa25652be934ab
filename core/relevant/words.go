package relevant

import (
	"strings"
	"unicode"
)

// keywordList holds the reserved words of common languages. They are never
// clues: every file of that language is full of them.
const keywordList = `
abstract and as assert async await begin break case catch chan class const continue debugger def
default defer del delete do done elif else end enum esac except export extends extern false fi
final finally fn for foreach from func function go goto if impl implements import in instanceof
interface is lambda let loop match mod module mut namespace new nil none not null of or package
pass private protected pub public raise range return select self static struct super switch then
this throw throws trait true try type typedef typeof undefined union unless unsafe until use var
void where while with yield fun guard using elsif elseif synchronized
`

// commonList holds names so frequent in code that, near the cursor, they say
// nothing about it (types, the usual short variable names, printing). The
// word under the cursor is one of them only when neither called nor
// qualified (len(x) and x.Value are code the reader points at; an err is
// noise, see atCursorNoise).
const commonList = `
args argv bool byte bytes char ctx double err error float fmt int int32 int64 len list log
make map obj print printf println rune str string uint uint32 uint64 val value dict tuple
object console len cap append copy todo fixme
`

var keywords, common = wordSet(keywordList), wordSet(commonList)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// isKeyword reports whether w is a reserved word as written: New, Done and
// Del are names (Go's constructors, a context's method), not new, done and
// del; of capitalised words only Python's constants are reserved.
func isKeyword(w string) bool { return keywords[w] || titleKeywords[w] }

var titleKeywords = wordSet("None True False")

// tokens splits text the way the full-text index does (unicode61: runs of
// letters and digits, case folded; '_' separates) and stems each token
// lightly, so a clue can be looked for in a drawer's content.
func tokens(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out = append(out, stem(f))
	}
	return out
}

// stem removes the plural and verb endings the index's Porter stemmer
// removes most often. It only has to make "checksums" meet "checksum" when
// explaining a hit; ranking itself is the index's.
func stem(w string) string {
	if len(w) <= 4 {
		return w
	}
	for _, suf := range []string{"ing", "ies", "es", "ed", "s"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			w = strings.TrimSuffix(w, suf)
			if suf == "ies" {
				w += "y"
			}
			return w
		}
	}
	return w
}

// tokenSet is a drawer's content as a set of tokens, plus its folded text
// for scripts without spaces (a Han clue is found inside a longer run).
type tokenSet struct {
	set    map[string]bool
	folded string
}

func newTokenSet(content string) tokenSet {
	ts := tokenSet{set: map[string]bool{}, folded: strings.ToLower(content)}
	for _, t := range tokens(content) {
		ts.set[t] = true
	}
	return ts
}

// has reports whether every token of a term is in the content.
func (ts tokenSet) has(term string, toks []string) bool {
	if len(toks) == 0 {
		return false
	}
	if strings.IndexFunc(term, isUnspaced) >= 0 {
		return strings.Contains(ts.folded, strings.ToLower(term))
	}
	for _, t := range toks {
		if !ts.set[t] {
			return false
		}
	}
	return true
}

func isUnspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}
