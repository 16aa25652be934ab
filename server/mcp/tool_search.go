package mcp

import (
	"context"
	"strings"

	"github.com/palace-dev/palace/core/dates"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// MaxSearchLimit caps palace_search's limit: a hit carries its drawer's
// whole verbatim content, so a hundred is already a lot of context.
const MaxSearchLimit = 100

var searchKinds = []string{store.KindFile, store.KindConversation, store.KindNote, store.KindDiary}

func toolSearch() *tool {
	return &tool{
		name:  "palace_search",
		title: "Search memory",
		desc: "Search the palace: project files, past conversations, notes and diaries, stored verbatim. " +
			"Call it before answering anything about this project's past (decisions and their reasons, earlier sessions, what was tried). " +
			"Each hit has the drawer's verbatim content, a citation (source file with line range, or the conversation and its lines), " +
			"the time it happened, its score (BM25, vector and fused scores in hybrid mode) and how it matched; " +
			"the result says which route (wing and room) the query was narrowed to. The same query gives the same hits as `palace search` on the command line.",
		readOnly: true, idempotent: true,
		params: []param{
			{name: "query", kind: kString, required: true, maxLen: 4096,
				desc: "What to look for, in plain words (keywords work best). \"exact phrase\", -excluded and prefix* words are understood. Queries in other languages than the stored text match less well lexically."},
			{name: "wing", kind: kString, maxLen: 200,
				desc: "Only this wing (a project or person). Omit it unless you know the exact name (palace_status lists them): a wrong wing finds nothing, while without one routing narrows the search itself."},
			{name: "room", kind: kString, maxLen: 200,
				desc: "Only this room (a topic within a wing), exact name from palace_status. Omit it to let routing choose."},
			{name: "kind", kind: kString, enum: searchKinds,
				desc: "Only drawers of this kind: file (project files), conversation (chat transcripts), note (palace_remember) or diary."},
			{name: "since", kind: kString, maxLen: 64,
				desc: "Only drawers from this time on: YYYY-MM-DD (that day's start, UTC) or an RFC 3339 time. Uses when the content happened (message time, file mtime)."},
			{name: "until", kind: kString, maxLen: 64,
				desc: "Only drawers before this time: YYYY-MM-DD (the whole day is included) or an RFC 3339 time."},
			{name: "limit", kind: kInteger, min: num(1), max: num(MaxSearchLimit),
				desc: "Maximum number of hits (default 10)."},
			{name: "mode", kind: kString, enum: []string{search.ModeLexical, search.ModeVector, search.ModeHybrid},
				desc: "lexical (BM25), vector (nearest embeddings) or hybrid (both, fused). Omit it: hybrid when the palace has vectors, else lexical."},
		},
		run: runSearch,
	}
}

type searchArgs struct {
	Query string `json:"query"`
	Wing  string `json:"wing"`
	Room  string `json:"room"`
	Kind  string `json:"kind"`
	Since string `json:"since"`
	Until string `json:"until"`
	Limit int    `json:"limit"`
	Mode  string `json:"mode"`
}

func runSearch(ctx context.Context, s *Server, a args) (any, error) {
	var in searchArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	req := search.Request{Query: in.Query, Limit: in.Limit, Mode: in.Mode,
		Filter: store.Filter{Wing: in.Wing, Room: in.Room, Kind: in.Kind}}
	if req.Limit == 0 {
		req.Limit = search.DefaultLimit
	}
	var err error
	if req.Filter.Since, err = dates.Parse(in.Since, false); err != nil {
		return nil, invalidf("since", "%q is not a date (%v)", in.Since, err)
	}
	if req.Filter.Until, err = dates.Parse(in.Until, true); err != nil {
		return nil, invalidf("until", "%q is not a date (%v)", in.Until, err)
	}
	if strings.TrimSpace(in.Query) == "" {
		return nil, invalidf("query", "is empty")
	}
	res, err := search.Run(ctx, s.p, req)
	if err != nil {
		return nil, err
	}
	// The store marks matched terms with control characters, which a
	// terminal can render but JSON shows as \u0002; an agent reads markdown.
	for i := range res.Hits {
		res.Hits[i].Snippet = search.Highlight(res.Hits[i].Snippet, "**", "**")
	}
	return res, nil
}
