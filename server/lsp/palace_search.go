package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/relevant"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// maxSearchLimit bounds palace/search's limit: an editor shows a list, not
// the palace.
const maxSearchLimit = 100

// searchResult is core/search's result with hits shaped like
// palace/relevant's.
type searchResult struct {
	search.Result
	Hits []hit `json:"hits"`
}

// palaceSearch is `palace search` for the editor: {query, wing?, room?,
// kind?, source?, mode?, limit?}.
func palaceSearch(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		Query  string `json:"query"`
		Wing   string `json:"wing"`
		Room   string `json:"room"`
		Kind   string `json:"kind"`
		Source string `json:"source"`
		Mode   string `json:"mode"`
		Limit  int    `json:"limit"`
	}
	if err := decode(raw, &ps); err != nil {
		return nil, err
	}
	if strings.TrimSpace(ps.Query) == "" {
		return nil, input.Invalid("query", "is empty")
	}
	switch ps.Kind {
	case "", store.KindFile, store.KindConversation, store.KindNote, store.KindDiary:
	default:
		return nil, input.Invalid("kind", "%s: want file, conversation, note or diary", input.Quote(ps.Kind))
	}
	switch ps.Mode {
	case search.ModeAuto, search.ModeLexical, search.ModeVector, search.ModeHybrid:
	default:
		return nil, input.Invalid("mode", "%s: want lexical, vector or hybrid", input.Quote(ps.Mode))
	}
	if ps.Limit < 0 || ps.Limit > maxSearchLimit {
		return nil, input.Invalid("limit", "%d: want 1 to %d", ps.Limit, maxSearchLimit)
	}
	req := search.Request{Query: ps.Query, Limit: ps.Limit, Mode: ps.Mode,
		Filter: store.Filter{Wing: ps.Wing, Room: ps.Room, Kind: ps.Kind, SourcePrefix: ps.Source}}
	res, err := search.Run(ctx, s.p, req)
	if err != nil {
		return nil, err
	}
	return searchResult{Result: res, Hits: toHits(relevant.Explain(res))}, nil
}
