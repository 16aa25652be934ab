package search

import (
	"slices"
	"strings"

	"github.com/palace-dev/palace/core/store"
)

// OneLine is h's snippet on one line, for an answer that leaves the
// content out: its whitespace, line breaks included, collapsed to single
// spaces, and at most max characters. The snippet is already
// the window of the drawer that holds the most matched words (FTS5's
// snippet, or store's for a drawer whose index text differs); a longer one
// is cut at spaces around its first matched word, a third of the room
// before it, with … where text was cut, and a mark the cut opens is closed.
// A hit found by its vector alone has no snippet: its content's opening
// stands for it.
func OneLine(h Hit, max int) string {
	s := h.Snippet
	if s == "" {
		s = h.Content
	}
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	room := max - 2 // for the ellipses
	first := 0
	if i := strings.Index(s, store.MarkStart); i >= 0 {
		first = len([]rune(s[:i]))
	}
	start := min(len(r)-room, first-room/3)
	if start <= 0 {
		start = 0
	} else if sp := slices.Index(r[start:first], ' '); sp >= 0 {
		start += sp + 1 // a whole word first
	}
	end := min(len(r), start+room)
	if end < len(r) && r[end] != ' ' {
		if sp := lastIndexRune(r[start:end], ' '); sp > first-start {
			end = start + sp // a whole word last, and the first mark kept
		}
	}
	out := strings.TrimSpace(string(r[start:end]))
	if strings.Count(out, store.MarkStart) > strings.Count(out, store.MarkEnd) {
		out += store.MarkEnd
	}
	if start > 0 && !strings.HasPrefix(out, "…") {
		out = "…" + out
	}
	if end < len(r) && !strings.HasSuffix(out, "…") {
		out += "…"
	}
	return out
}

func lastIndexRune(r []rune, c rune) int {
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] == c {
			return i
		}
	}
	return -1
}
