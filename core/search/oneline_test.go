package search

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/store"
)

func TestOneLine(t *testing.T) {
	m := func(w string) string { return store.MarkStart + w + store.MarkEnd }
	long := strings.Repeat("filler words before it ", 20) + "the " + m("lighthouse") + " keeper\n\n logs " +
		m("ships") + " " + strings.Repeat("and more words after it ", 20)
	for _, c := range []struct {
		name string
		hit  Hit
		want string
	}{
		{"line breaks and runs of spaces become one space",
			Hit{Snippet: "a " + m("lamp") + "\n\n  is\tcleaned\n", Content: "ignored"},
			"a " + m("lamp") + " is cleaned"},
		{"a long snippet is cut at spaces around its first mark, a third of the room before it",
			Hit{Snippet: long},
			"…before it filler words before it the " + m("lighthouse") + " keeper logs " + m("ships") +
				" and more words after it and more words after it…"},
		{"a cut inside a mark closes it",
			Hit{Snippet: strings.Repeat("x ", 20) + store.MarkStart + strings.Repeat("marked phrase ", 20) + store.MarkEnd},
			"…" + strings.Repeat("x ", 19) + store.MarkStart + "marked phrase marked phrase marked phrase marked phrase marked phrase marked" + store.MarkEnd + "…"},
		{"a vector hit has no snippet: its content's opening stands for it",
			Hit{Content: "# Harbour\n\nThe lighthouse keeper logs every ship. " + strings.Repeat("More text. ", 20)},
			"# Harbour The lighthouse keeper logs every ship. More text. More text. More text. More text. More text. More text.…"},
	} {
		got := OneLine(c.hit, 120)
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > 120 || strings.ContainsAny(got, "\n\t") {
			t.Errorf("%s: %d characters or a line break: %q", c.name, n, got)
		}
	}
}
