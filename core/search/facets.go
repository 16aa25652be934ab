package search

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// A question comparing two people ("did Jon and Gina both enter dance
// competitions?", "what do Caroline and Melanie both paint?") needs
// evidence about each, and one ranking of the whole question favours the
// side with more to say: the answer's other half is crowded out. Such a
// question is asked once per person, the others left out, and the answers
// are interleaved so that each entity has its best drawers in the top k.
// With each sub-query naming one speaker, the speaker rule (speaker.go)
// then ranks what that speaker said first. Measured on the LoCoMo dev
// split (bench locomo, with the speaker rule): turn R_all@10 unchanged
// (0.706) on conversations 1-2, 0.676 -> 0.679 on 3-4, held back, where
// category 3 (inference) went from 0.28 to 0.32.

// Facet is one sub-query of a search: the entity it is about and the
// query as run.
type Facet struct {
	About string `json:"about"`
	Query string `json:"query"`
}

// entities returns what a query compares: the speakers it names of one
// conversation drawer among hs, when it names at least two. nil when it
// compares nothing. Only speakers: two capitalised words joined by "and"
// were tried as well ("Postgres and MySQL"), and in code queries they are
// mostly lists of names ("New, Done and Del are names"), whose halves
// asked apart lowered bench code's MRR@10.
func entities(query string, hs []Hit) []string {
	words := queryWords(query)
	for _, h := range hs {
		if h.Kind != store.KindConversation {
			continue
		}
		if named := namedSpeakers(speakersOf(h.Metadata), words); len(named) >= 2 {
			return named
		}
	}
	return nil
}

// facets are the sub-queries of query about each of its entities: the
// query with the other entities' names (and their possessives) removed.
func facets(query string, hs []Hit) []Facet {
	es := entities(query, hs)
	if len(es) < 2 {
		return nil
	}
	out := make([]Facet, len(es))
	for i, e := range es {
		var others []string
		for j, o := range es {
			if j != i {
				for _, w := range nameWords(o) {
					if !slices.Contains(nameWords(e), w) {
						others = append(others, regexp.QuoteMeta(w))
					}
				}
			}
		}
		q := query
		if len(others) > 0 {
			re := regexp.MustCompile(`(?i)\b(?:` + strings.Join(others, "|") + `)(?:['’]s)?\b`)
			q = strings.Join(strings.Fields(re.ReplaceAllString(query, " ")), " ")
		}
		out[i] = Facet{About: e, Query: q}
	}
	return out
}

// compare answers a comparing query by its facets (see facets): each
// sub-query's hits in turn, best first, each once, each hit's why
// prefixed with the entity its sub-query is about. res, the answer to the
// whole query, is returned as it is when the query compares nothing.
func compare(ctx context.Context, p *palace.Palace, req Request, res Result) (Result, error) {
	fs := facets(req.Query, res.Hits)
	if len(fs) == 0 {
		return res, nil
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	lists := make([][]Hit, len(fs))
	for i, f := range fs {
		sub := req
		sub.Query = f.Query
		r, err := distinct(ctx, p, sub)
		if err != nil {
			return res, err
		}
		lists[i] = r.Hits
	}
	var hits []Hit
	seen := map[string]bool{}
	for k := 0; len(hits) < limit; k++ {
		more := false
		for i, l := range lists {
			if k >= len(l) {
				continue
			}
			more = true
			if h := l[k]; !seen[h.ID] && len(hits) < limit {
				seen[h.ID] = true
				h.Why = strings.TrimSuffix("about "+fs[i].About+": "+h.Why, ": ")
				hits = append(hits, h)
			}
		}
		if !more {
			break
		}
	}
	res.Hits, res.Facets = hits, fs
	return res, nil
}
