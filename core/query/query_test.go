package query

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/input"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in, all, any string
	}{
		{"goroutine leak", `("goroutine" AND "leak")`, `("goroutine" OR "leak")`},
		{"the goroutine of a leak", `("goroutine" AND "leak")`, `("goroutine" OR "leak")`},
		{"the who", `("the" AND "who")`, `("the" OR "who")`}, // only stop words: keep them
		{`"read deadline" tls`, `("read deadline" AND "tls")`, `("read deadline" OR "tls")`},
		{"deadlock -test", `("deadlock") NOT ("test")`, `("deadlock") NOT ("test")`},
		{"pars*", `("pars"*)`, `("pars"*)`},
		{`say "hi`, `("say" AND "hi")`, `("say" OR "hi")`},
		{`a"b`, `("ab")`, `("ab")`},
		{"errors.Is", `(("errors.Is" OR ("errors" AND "Is")))`, `(("errors.Is" OR ("errors" AND "Is")))`},
		{"(search.DrawerOf), fix", `(("search.DrawerOf" OR ("search" AND ("DrawerOf" OR "drawer of"))) AND "fix")`,
			`(("search.DrawerOf" OR ("search" AND ("DrawerOf" OR "drawer of"))) OR "fix")`},
		{"http2.Server", `(("http2.Server" OR ("http2" AND "Server")))`, `(("http2.Server" OR ("http2" AND "Server")))`},
		{"v1.2.0 end-to-end (SearchFTS),", `("v1.2.0" AND "end-to-end" AND ("SearchFTS" OR "search fts"))`,
			`("v1.2.0" OR "end-to-end" OR ("SearchFTS" OR "search fts"))`},
		{"deadlock -store.Open", `("deadlock") NOT ("store.Open")`, `("deadlock") NOT ("store.Open")`},
		// A possessive matches its word, the possessive as typed scoring
		// above it, with either apostrophe and any punctuation after it; a
		// contraction is then a stop word.
		{"Caroline's hobbies", `(("Caroline's" OR "Caroline") AND "hobbies")`, `(("Caroline's" OR "Caroline") OR "hobbies")`},
		{"Melanie\u2019s kids' names?", `(("Melanie's" OR "Melanie") AND ("kids'" OR "kids") AND "names")`,
			`(("Melanie's" OR "Melanie") OR ("kids'" OR "kids") OR "names")`},
		{"JOHN'S Max's?", `(("JOHN'S" OR "JOHN") AND ("Max's" OR "Max"))`, `(("JOHN'S" OR "JOHN") OR ("Max's" OR "Max"))`},
		{"what's new", `("new")`, `("new")`},
		{"don\u2019t panic", `("don't" AND "panic")`, `("don't" OR "panic")`},
		{`"Caroline's pottery"`, `("Caroline's pottery")`, `("Caroline's pottery")`},
		// Words that only frame a question go; the same words naming
		// something stay.
		{"What kind of art does Caroline make?", `("art" AND "Caroline" AND ("make" OR "made"))`, `("art" OR "Caroline" OR ("make" OR "made"))`},
		{"How many times has Nate won tournaments", `("Nate" AND ("won" OR "win") AND "tournaments")`, `("Nate" OR ("won" OR "win") OR "tournaments")`},
		{"what things has she made", `(("made" OR "make"))`, `(("made" OR "make"))`},
		// An irregular verb's other forms, which stemming cannot join; not
		// for a phrase, a prefix or a word that is more often another
		// (left, saw).
		{"when did Nate win?", `("Nate" AND ("win" OR "won"))`, `("Nate" OR ("win" OR "won"))`},
		{"who wrote", `(("wrote" OR "write" OR "written"))`, `(("wrote" OR "write" OR "written"))`},
		{`"won" win*`, `("won" AND "win"*)`, `("won" OR "win"*)`},
		{"who left and saw Nate?", `("left" AND "saw" AND "Nate")`, `("left" OR "saw" OR "Nate")`},
		// Only a question: a request or a commit subject is taken as typed.
		{"Fix out of bounds write in hyperloglog", `("Fix" AND "bounds" AND "write" AND "hyperloglog")`, `("Fix" OR "bounds" OR "write" OR "hyperloglog")`},
		{"Nate won?", `("Nate" AND ("won" OR "win"))`, `("Nate" OR ("won" OR "win"))`},
		// Punctuation around a word goes, so a stop or framing word
		// followed by a comma or a question mark is one; but a question's
		// last word stays: a stranded preposition is what the answer
		// completes.
		{"friends, family, and mentors of Gina", `("friends" AND "family" AND "mentors" AND "Gina")`, `("friends" OR "family" OR "mentors" OR "Gina")`},
		{"What is Joanna allergic to?", `("Joanna" AND ("allergic" OR "allergic to") AND "to")`, `("Joanna" OR "allergic" OR "to")`},
		{"Joanna allergic to", `("Joanna" AND "allergic")`, `("Joanna" OR "allergic")`},
		{"what is Joanna allergic to", `("Joanna" AND ("allergic" OR "allergic to") AND "to")`, `("Joanna" OR "allergic" OR "to")`},
		// A question's words typed side by side also match as their
		// phrase in All, which scores a drawer saying them so higher;
		// not capitalised words, not across a stop word, not outside a
		// question.
		{"What board games has Nate played?", `(("board" OR "board games") AND "games" AND "Nate" AND "played")`, `("board" OR "games" OR "Nate" OR "played")`},
		{"Where is Joanna's dance studio in the old town?", `(("Joanna's" OR "Joanna") AND ("dance" OR "dance studio") AND "studio" AND ("old" OR "old town") AND "town")`, `(("Joanna's" OR "Joanna") OR "dance" OR "studio" OR "old" OR "town")`},
		{"Which Star Wars book did Tim read?", `("Star" AND "Wars" AND "book" AND "Tim" AND "read")`, `("Star" OR "Wars" OR "book" OR "Tim" OR "read")`},
		{"board games Nate played", `("board" AND "games" AND "Nate" AND "played")`, `("board" OR "games" OR "Nate" OR "played")`},
		// ... but not an object pronoun: it stands for someone named.
		{"What does Jon's dance make him?", `(("Jon's" OR "Jon") AND ("dance" OR "dance make") AND ("make" OR "made"))`, `(("Jon's" OR "Jon") OR "dance" OR ("make" OR "made"))`},
		{"What has Nate recommended, things?", `("Nate" AND "recommended")`, `("Nate" OR "recommended")`},
		{"which group? the group", `("group")`, `("group")`},
		{"who wrote it?", `(("wrote" OR "write" OR "written"))`, `(("wrote" OR "write" OR "written"))`},
		{"sort the types", `("sort" AND "types")`, `("sort" OR "types")`},
		{"many times", `("many" AND "times")`, `("many" OR "times")`},
		{"things", `("things")`, `("things")`},
		{`"kind of" blue`, `("kind of" AND "blue")`, `("kind of" OR "blue")`},
		{"(((", ``, ``},
		{"-", ``, ``},
		{"-only", ``, ``},
		{"***", ``, ``},
		{"", ``, ``},
	}
	for _, c := range cases {
		q, err := Parse(c.in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if q.All != c.all || q.Any != c.any {
			t.Errorf("Parse(%q):\n all %s\n any %s\nwant\n all %s\n any %s", c.in, q.All, q.Any, c.all, c.any)
		}
	}
}

// TestWordsApart: the last resort asks for any one word of the query, a
// phrase's and a compound's words apart, without their stop words.
func TestWordsApart(t *testing.T) {
	cases := []struct{ in, words string }{
		{`"LogLevel SILENT" compatibility`, `(("LogLevel" OR "log level") OR "SILENT" OR "compatibility")`},
		{"php-fpm-do-reload-on-SIGHUP", `("php" OR "fpm" OR "reload" OR "SIGHUP")`},
		{"store.SearchFTS -test", `("store" OR ("SearchFTS" OR "search fts")) NOT ("test")`},
		{`"don't panic"`, `("don't" OR "panic")`},
		{`"the who"`, `("the" OR "who")`}, // only stop words: keep them
		{"goroutine leak", ``},            // nothing to cut: Any is the last resort
		{`"read deadline" read`, `("read" OR "deadline")`},
		{"(search.DrawerOf), v1.2.0", `("search" OR ("DrawerOf" OR "drawer of") OR "v1.2.0")`},
		{"utf-8 x86-64 Caroline's", ``}, // no letterless piece is cut, nor a possessive
		{"pars* use-after-free", `("pars"* OR "use" OR "free")`},
	}
	for _, c := range cases {
		// Without a segmenter Parse cannot fail.
		if q, _ := Parse(c.in, nil); q.Words != c.words {
			t.Errorf("Parse(%q).Words = %s, want %s", c.in, q.Words, c.words)
		}
	}
}

func TestApartReplacesNamesNoDrawerHolds(t *testing.T) {
	cases := []struct {
		in      string
		missing string // the term whole reports as held by no drawer
		any     string // Any after Apart
		cut     []string
	}{
		{"invert PATH_STARTSWITH_ACCEPT_DOT_DOT flag", "PATH_STARTSWITH_ACCEPT_DOT_DOT",
			`("invert" OR "path" OR "startswith" OR "accept" OR "dot" OR "flag")`, []string{"PATH_STARTSWITH_ACCEPT_DOT_DOT"}},
		{"where is getUserById", "getUserById",
			`("get" OR "user" OR "id")`, []string{"getUserById"}},
		{"php-fpm-do-reload-on-SIGHUP", "php-fpm-do-reload-on-SIGHUP",
			`("php" OR "fpm" OR "reload" OR "SIGHUP")`, []string{"php-fpm-do-reload-on-SIGHUP"}},
		{"store.OpenDB close", "store.OpenDB",
			`("store" OR "open" OR "db" OR "close")`, []string{"store.OpenDB"}},
		// Held whole: as parsed.
		{"invert PATH_STARTSWITH_REFUSE_DOT_DOT flag", "",
			`("invert" OR "PATH_STARTSWITH_REFUSE_DOT_DOT" OR "flag")`, nil},
		// A quoted phrase is as the reader asked (Words is its fallback),
		// and a plain word or a letterless compound has nothing to cut.
		{`"log level" quiet utf-8`, `log level`, `("log level" OR "quiet" OR "utf-8")`, nil},
	}
	for _, c := range cases {
		q, _ := Parse(c.in, nil)
		got, cut := q.Apart(func(t Term) bool { return t.Text != c.missing })
		if got.Any != c.any || !slices.Equal(cut, c.cut) {
			t.Errorf("Apart(%q) = %s, cut %q; want %s, %q", c.in, got.Any, cut, c.any, c.cut)
		}
	}
}

func TestSegmenterSplitsWords(t *testing.T) {
	seg := func(s string) ([]string, error) {
		if s == "知识图谱" {
			return []string{"知识", "图谱"}, nil
		}
		return []string{s}, nil
	}
	q, _ := Parse("知识图谱 sqlite", seg)
	if q.All != `("知识" AND "图谱" AND "sqlite")` {
		t.Errorf("segmented query = %s", q.All)
	}
	q, _ = Parse(`"知识图谱"`, seg)
	if q.All != `("知识" AND "图谱")` {
		t.Errorf("segmented phrase = %s", q.All)
	}
}

func TestControlAndInvalidUTF8(t *testing.T) {
	q, _ := Parse("bad\x00byte \xff\xfe ok", nil)
	if strings.ContainsRune(q.All, 0) || !utf8.ValidString(q.All) {
		t.Errorf("unsafe bytes kept: %q", q.All)
	}
	if q.All != `("bad" AND "byte" AND "ok")` {
		t.Errorf("got %s", q.All)
	}
}

// TestRepeatedTermsCountOnce: a word typed 4,000 times is one term, so the
// query costs what the word alone costs (each repeat once cost FTS5 a pass:
// 7.7 s for 'dial ' x 4000).
func TestRepeatedTermsCountOnce(t *testing.T) {
	one, err := Parse("dial", nil)
	if err != nil {
		t.Fatal(err)
	}
	many, err := Parse(strings.Repeat("dial ", 4000)+strings.Repeat("DIAL -x -X ", 100), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(many.Terms) != 1 || len(many.Not) != 1 {
		t.Fatalf("%d terms, %d excluded: want one of each", len(many.Terms), len(many.Not))
	}
	if want := one.All + ` NOT ("x")`; many.All != want {
		t.Errorf("All = %s, want %s", many.All, want)
	}
	// Order of first appearance is kept; a phrase and a prefix are other terms.
	q, _ := Parse(`x y x "x" x* y`, nil)
	if want := `("x" AND "y" AND "x" AND "x"*)`; q.All != want {
		t.Errorf("All = %s, want %s", q.All, want)
	}
	// Segments repeated across terms count once too.
	seg := func(s string) ([]string, error) { return []string{s[:1], s[1:]}, nil }
	q, _ = Parse("ab ac", seg)
	if want := `("a" AND "b" AND "c")`; q.All != want {
		t.Errorf("segmented All = %s, want %s", q.All, want)
	}
}

func TestCheckCapsDistinctTerms(t *testing.T) {
	var ws []string
	for i := range MaxTerms {
		ws = append(ws, fmt.Sprintf("w%d", i))
	}
	if err := Check(strings.Join(ws, " ") + " the of w0 " + strings.Repeat("w1 ", 1000)); err != nil {
		t.Errorf("%d distinct words (stop words and repeats aside): %v", MaxTerms, err)
	}
	err := Check(strings.Join(ws, " ") + " -excluded")
	if !errors.Is(err, input.ErrInvalid) {
		t.Fatalf("%d distinct words: %v, want invalid input", MaxTerms+1, err)
	}
	if want := fmt.Sprintf("query has %d distinct words: at most %d", MaxTerms+1, MaxTerms); err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}
