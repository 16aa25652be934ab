package lsp

import (
	"context"
	"encoding/json"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/relevant"
	"github.com/palace-dev/palace/core/search"
)

// searchResult is core/search's result with hits shaped like
// palace/relevant's.
type searchResult struct {
	search.Result
	Hits []hit `json:"hits"`
}

// palaceSearch is `palace search` for the editor: {query, wing?, room?,
// kind?, source?, since?, until?, mode?, route?, by?, limit?}; by file
// gives one hit per file with its matched drawers' ranges.
func palaceSearch(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		Query  string `json:"query"`
		Wing   string `json:"wing"`
		Room   string `json:"room"`
		Kind   string `json:"kind"`
		Source string `json:"source"`
		Since  string `json:"since"`
		Until  string `json:"until"`
		Mode   string `json:"mode"`
		Route  string `json:"route"`
		By     string `json:"by"`
		Limit  *int   `json:"limit"`
	}
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	req := ops.SearchRequest{Query: ps.Query, Wing: ps.Wing, Room: ps.Room, Kind: ps.Kind, Source: ps.Source,
		Since: ps.Since, Until: ps.Until, Mode: ps.Mode, Route: ps.Route, By: ps.By}
	if ps.Limit != nil {
		if err := ops.CheckGiven("limit", *ps.Limit, ops.MaxSearchLimit); err != nil {
			return nil, err
		}
		req.Limit = *ps.Limit
	}
	res, err := ops.Search(ctx, s.p, req)
	if err != nil {
		return nil, err
	}
	return searchResult{Result: res, Hits: toHits(relevant.Explain(res))}, nil
}
