package query

import (
	"slices"
	"testing"
)

func TestIdentParts(t *testing.T) {
	cases := []struct {
		in   string
		want []string // nil: nothing to add, the tokenizer has the words
	}{
		{"SearchFTS", []string{"search", "fts"}},
		{"getUserID", []string{"get", "user", "id"}},
		{"getUserIDs", []string{"get", "user", "ids"}},
		{"HTTPServer", []string{"http", "server"}},
		{"HTTP2Server", []string{"http2", "server"}},
		{"parseHTTP2Frame", []string{"parse", "http2", "frame"}},
		{"parse_http2Frame", []string{"parse", "http2", "frame"}},
		{"NewRequestWithContext", []string{"new", "request", "with", "context"}},
		{"parse_http2_frame", nil}, // unicode61 already cuts at '_'
		{"http2", nil},
		{"Search", nil},
		{"FTS", nil},
		{"IDs", nil},
		{"int64", nil},
	}
	for _, c := range cases {
		got, ok := identParts(c.in)
		if !ok {
			got = nil
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("identParts(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestIndexColumns(t *testing.T) {
	if got, want := IdentParts("func SearchFTS(ctx) { s.SearchFTS(); getUserID; plain_words }"), "search fts\nget user id"; got != want {
		t.Errorf("IdentParts = %q, want %q", got, want)
	}
	if got := IdentParts("nothing to split here_either"); got != "" {
		t.Errorf("IdentParts of plain text = %q, want empty", got)
	}
	// Letters beyond ASCII are identifier letters too, and a capital after
	// a multi-byte first letter is a boundary; a lone capital first is not.
	if got, want := IdentParts("ÉcoleNormale(x); Ärger; naïveSet→straßeÖffnen"), "école normale\nnaïve set\nstraße öffnen"; got != want {
		t.Errorf("IdentParts beyond ASCII = %q, want %q", got, want)
	}
	paths := []struct{ in, want string }{
		{"/home/me/src/palace/core/store/search.go", "store search"},
		{`C:\work\myProject\indexText.go`, "myProject indexText\nmy project\nindex text"},
		{"README", "README"},
		{".gitignore", ".gitignore"},
		{"", ""},
	}
	for _, c := range paths {
		if got := PathWords(c.in); got != c.want {
			t.Errorf("PathWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got, want := SymbolWords([]string{"SearchFTS", "run", "parse_http2Frame"}), "SearchFTS\nsearch fts\nrun\nparse_http2Frame\nparse http2 frame"; got != want {
		t.Errorf("SymbolWords = %q, want %q", got, want)
	}
}

func TestParseSplitsIdentifiers(t *testing.T) {
	cases := []struct{ in, all string }{
		{"SearchFTS", `(("SearchFTS" OR "search fts"))`},
		{"getUserID handler", `(("getUserID" OR "get user id") AND "handler")`},
		{"parse_http2_frame", `("parse_http2_frame")`}, // FTS5 reads it as the phrase parse http2 frame
		{`"SearchFTS call"`, `("SearchFTS call")`},     // a phrase is taken as typed
		{"SearchF*", `("SearchF"*)`},
		{"-SearchFTS deadlock", `("deadlock") NOT ("SearchFTS")`},
	}
	for _, c := range cases {
		q, err := Parse(c.in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if q.All != c.all {
			t.Errorf("Parse(%q).All = %s, want %s", c.in, q.All, c.all)
		}
	}
}
