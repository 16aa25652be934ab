package relevant

import (
	"fmt"
	"strings"

	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/search"
)

// Explain gives each hit of a search the same matched and why fields as
// Find's hits, so a front can show both alike: search's own why (see
// search.Hit.Why), the query's terms the drawer holds, how the index
// matched it, and the route when one filtered it. A compact hit (core/ops)
// has no content: the terms are looked for in its snippet, all it shows.
func Explain(res search.Result) []Hit {
	q, _ := query.Parse(res.Query, nil) // without a segmenter Parse cannot fail
	var terms []weighted
	for _, t := range q.Terms {
		terms = append(terms, weighted{term: t.Text, tokens: tokens(t.Text)})
	}
	out := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		text := h.Content
		if text == "" {
			text = h.Snippet
		}
		ts := newTokenSet(text)
		x := Hit{Hit: h, Matched: []string{}}
		for _, t := range terms {
			if ts.has(t.term, t.tokens) {
				x.Matched = append(x.Matched, t.term)
			}
		}
		var why []string
		if h.Why != "" {
			// What search itself said about the hit (the speaker it asked
			// about, the sub-query that found it) comes first.
			why = append(why, h.Why)
		}
		switch {
		case len(x.Matched) > 0:
			why = append(why, "mentions "+strings.Join(x.Matched[:min(len(x.Matched), 4)], ", "))
			if h.Match == "all" && len(terms) > 1 {
				why = append(why, "every term")
			}
		case h.Match == "vector" || (h.Scores != nil && h.Scores.BM25 == nil && h.Scores.Vector != nil):
			why = append(why, fmt.Sprintf("close in meaning (vector similarity %.2f)", *h.Scores.Vector))
		default:
			why = append(why, "matches a stemmed form of the query")
		}
		if h.Scores != nil && h.Scores.BM25 != nil && h.Scores.Vector != nil {
			why = append(why, "found by words and by meaning")
		}
		if res.Route.Applied {
			why = append(why, "routed to "+res.Route.Scope())
		}
		x.Why = strings.Join(why, "; ")
		out = append(out, x)
	}
	return out
}
