package memory

import "strings"

// What may differ between two notes that say the same thing (see
// Differences): an inflection, a typo, a filler word. Anything else that
// differs is a different note (DiffWord), since no rule without a
// thesaurus tells a synonym ("moved" for "switched") from an antonym
// ("decrease" for "increase") or another name ("clang" for "gcc").

var (
	// fillers are words that do not change what a note asserts: emphasis,
	// politeness and "now". They are not search stop words, so they are
	// listed here.
	fillers = setOf("also really actually basically simply literally definitely certainly indeed " +
		"please kindly now currently still")
	// opposed pairs stop words a decision turns on: search drops them, so
	// "run the migrations before the deploy" and "... after the deploy"
	// have the same content words. One text holding one of a pair and the
	// other text the other (and neither both) is DiffWord. A stop word
	// opposed to a content word (more, less) is paired too, so the change
	// names both.
	opposed = func() map[string][]string {
		m := map[string][]string{}
		for _, pair := range strings.Fields("before:after up:down on:off over:under above:below in:out " +
			"into:out from:to all:some all:few most:few more:less most:least") {
			a, b, _ := strings.Cut(pair, ":")
			m[a] = append(m[a], b)
			m[b] = append(m[b], a)
		}
		return m
	}()
	// relations are the words that give the word after them a role in
	// the sentence ("from npm to pnpm", "tabs over spaces", "X instead of
	// Y"): the same words under swapped relations are DiffOrder.
	relations = setOf("from to into onto over than instead before after versus vs against")
)

// isLatin says whether s is lower-case ASCII letters only: the words
// inflections and typos are read for.
func isLatin(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// inflectionBases are the forms an English word may be an inflection of,
// the word itself first: plurals and third persons (-s, -es, -ies),
// pasts (-ed, -d, -ied) and gerunds (-ing), with a doubled final
// consonant or a dropped silent e undone (stopped, using). Two words are
// the same word inflected when their bases meet: "databases" and
// "database", "uses" and "used". Comparatives (-er, -est) are left out:
// "later" is not "late", "faster" not "fast". A base is at least three
// letters, so short words do not meet by accident.
func inflectionBases(w string) []string {
	out := []string{w}
	if !isLatin(w) {
		return out
	}
	add := func(b string) {
		if len(b) >= 3 {
			out = append(out, b)
		}
	}
	undouble := func(stem string) {
		if n := len(stem); n >= 4 && stem[n-1] == stem[n-2] && !strings.ContainsRune("aeiouls", rune(stem[n-1])) {
			add(stem[:n-1])
		}
	}
	switch {
	case strings.HasSuffix(w, "ies"):
		add(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "es"):
		add(w[:len(w)-2])
		add(w[:len(w)-1])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		add(w[:len(w)-1])
	case strings.HasSuffix(w, "ied"):
		add(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "ed"):
		stem := w[:len(w)-2]
		add(stem)
		add(w[:len(w)-1])
		undouble(stem)
	case strings.HasSuffix(w, "ing") && len(w) >= 5:
		stem := w[:len(w)-3]
		add(stem)
		add(stem + "e")
		undouble(stem)
	}
	return out
}

// withoutTypos drops from a and b the words that are a typo of a word on
// the other side (see isTypo), pairing them through their inner-letter
// deletions so that long lists are not compared pair by pair.
func withoutTypos(a, b []string) ([]string, []string) {
	if len(a) == 0 || len(b) == 0 {
		return a, b
	}
	index := map[string][]int{}
	for j, w := range b {
		for _, s := range typoKeys(w) {
			index[s] = append(index[s], j)
		}
	}
	matchedB := make([]bool, len(b))
	var keptA []string
	for _, w := range a {
		found := false
		for _, s := range typoKeys(w) {
			for _, j := range index[s] {
				if isTypo(w, b[j]) {
					matchedB[j], found = true, true
				}
			}
		}
		if !found {
			keptA = append(keptA, w)
		}
	}
	var keptB []string
	for j, w := range b {
		if !matchedB[j] {
			keptB = append(keptB, w)
		}
	}
	return keptA, keptB
}

// typoKeys are w and w with one inner letter deleted: two words one typo
// apart share one of them.
func typoKeys(w string) []string {
	if !isLatin(w) || len(w) < 4 {
		return nil
	}
	out := []string{w}
	for i := 1; i < len(w)-1; i++ {
		out = append(out, w[:i]+w[i+1:])
	}
	return out
}

// minTypoLen is the shortest word (the longer of the two) read as
// mistyped: in shorter words one letter makes another word too often
// ("late" and "later", "test" and "text").
const minTypoLen = 5

// isTypo says whether x and y are one typing slip apart inside a word of
// at least minTypoLen letters, the first and last letters kept: a letter
// dropped or added (databse, connnection), two neighbours swapped
// (recieve), or a letter replaced by a key next to it on a QWERTY
// keyboard (dayabase). A slip at either end too often makes another word
// (nodes, yearly), and a replacement by a far key another name (mysql,
// mssql), so those are differences.
func isTypo(x, y string) bool {
	if len(x) > len(y) {
		x, y = y, x
	}
	if !isLatin(x) || !isLatin(y) || len(y) < minTypoLen || len(x) < minTypoLen-1 ||
		x[0] != y[0] || x[len(x)-1] != y[len(y)-1] || x == y {
		return false
	}
	if len(y) == len(x)+1 {
		for i := 1; i < len(y)-1; i++ {
			if y[:i]+y[i+1:] == x {
				return true
			}
		}
		return false
	}
	if len(x) != len(y) {
		return false
	}
	var diff []int
	for i := range len(x) {
		if x[i] != y[i] {
			diff = append(diff, i)
		}
	}
	switch len(diff) {
	case 1:
		return strings.IndexByte(qwertyNeighbours[x[diff[0]]-'a'], y[diff[0]]) >= 0
	case 2:
		i, j := diff[0], diff[1]
		return j == i+1 && x[i] == y[j] && x[j] == y[i]
	}
	return false
}

// qwertyNeighbours are the keys next to each letter, a to z.
var qwertyNeighbours = [26]string{
	"qwsz", "vghn", "xdfv", "erfsxc", "wrsd", "rtdgcv", "tyfhvb", "yugjbn", "uojk", "uihknm", "iojlm", "opk", "njk",
	"bhjm", "ipkl", "ol", "wa", "etdf", "weadzx", "ryfg", "yihj", "cfgb", "qeas", "zsdc", "tugh", "asx",
}
