package lsp

import (
	"context"
	"encoding/json"

	"github.com/palace-dev/palace/core/ops"
)

// searchResult is core/ops's result with hits shaped like
// palace/relevant's.
type searchResult struct {
	ops.SearchResult
	Hits []hit `json:"hits"`
}

// palaceSearch is `palace search` for the editor: {query, wing?, room?,
// kind?, source?, since?, until?, mode?, route?, by?, limit?, detail?,
// budget?, across?}; by file gives one hit per file with its matched
// drawers' ranges, across searches one room in every wing. An editor shows
// drawers whole: full, without a budget, unless the params say otherwise
// (ops.PersonSearch).
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
		Detail string `json:"detail"`
		Budget *int   `json:"budget"`
		Across bool   `json:"across"`
	}
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	req := ops.SearchRequest{Query: ps.Query, Wing: ps.Wing, Room: ps.Room, Kind: ps.Kind, Source: ps.Source,
		Since: ps.Since, Until: ps.Until, Mode: ps.Mode, Route: ps.Route, By: ps.By,
		Detail: ps.Detail, Budget: ps.Budget, Across: ps.Across, Default: ops.PersonSearch}
	if f := s.folders.only(); f != nil {
		req.Dir = f.path // a relative source is the folder's
	}
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
	// Whether the palace searches lexically only is palace/status's to
	// say, once; the other notices (a route that fell back, a query with
	// no searchable words) are in route and in an empty hits list.
	res.Notice = ""
	return searchResult{SearchResult: res, Hits: s.toHits(ops.ExplainHits(res))}, nil
}
