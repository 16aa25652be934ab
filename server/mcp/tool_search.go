package mcp

import (
	"context"
	"strconv"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/ops"
)

func toolSearch() *tool {
	return &tool{
		name:  "palace_search",
		title: "Search memory",
		desc: "Search project files, conversations, notes and diaries, kept verbatim. Each hit is compact (id, citation, kind, time, snippet): palace_get the ids worth reading. " +
			"omitted counts hits past the token budget.",
		readOnly: true, idempotent: true,
		params: []param{
			{name: "query", kind: kString, required: true, maxLen: ops.MaxQueryRunes * utf8.UTFMax,
				desc: "Keywords; \"exact phrase\", -excluded and prefix* work."},
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "Exact wing name (unknown: an error listing them). Omit: every wing, this project's first."},
			{name: "room", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "Exact room (topic) name; omit to let routing choose."},
			{name: "kind", kind: kString, enum: ops.Kinds,
				desc: "Only drawers of this kind."},
			{name: "source", kind: kString, maxLen: ops.MaxPathBytes, full: true,
				desc: "Only drawers whose source path starts with this prefix, such as a folder's absolute path ending in /."},
			{name: "since", kind: kString, maxLen: ops.MaxDateBytes, full: true,
				desc: "Only drawers from this time on: YYYY-MM-DD (that day's start, UTC) or an RFC 3339 time. Uses when the content happened (message time, file mtime)."},
			{name: "until", kind: kString, maxLen: ops.MaxDateBytes, full: true,
				desc: "Only drawers before this time: YYYY-MM-DD (the whole day is included) or an RFC 3339 time."},
			{name: "limit", kind: kInteger, min: num(1), max: num(ops.MaxSearchLimit),
				desc: "Most hits (default 10)."},
			{name: "detail", kind: kString, enum: ops.SearchDetails,
				desc: "full adds each hit's verbatim content, at several times the tokens."},
			{name: "budget", kind: kInteger, min: num(0), max: num(ops.MaxSearchBudget),
				desc: "Most tokens (default " + strconv.Itoa(ops.AgentBudget) + "; 0: no limit); raise it when omitted is not 0."},
			{name: "route", kind: kString, enum: ops.SearchRoutes, full: true,
				desc: "auto (the default): a search without a room is narrowed to the room whose taxonomy keywords the query names, and searched everywhere instead when that room has no hit holding every query word but another place does; the result's route says what happened. " +
					"off: search exactly the wing, room and other filters given; use it when a routed result looks incomplete."},
			{name: "across", kind: kBoolean, full: true,
				desc: "true: cross a tunnel, searching one room in every wing (every project's auth, say): room, or the room the query routes to (among wing's rooms when wing is given; the hits then come from every wing). " +
					"A query that routes to no room is an error: give room. palace_taxonomy action tunnels lists the rooms wings share."},
			{name: "mode", kind: kString, enum: ops.SearchModes, full: true,
				desc: "lexical (BM25), vector (nearest embeddings) or hybrid (both, fused). Omit it: hybrid when the palace has vectors, else lexical."},
			{name: "by", kind: kString, enum: ops.SearchBy,
				desc: "file: one hit per file with its matched line ranges, to find which files to open."},
		},
		run: runSearch,
	}
}

type searchArgs struct {
	Query  string `json:"query"`
	Wing   string `json:"wing"`
	Room   string `json:"room"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
	Since  string `json:"since"`
	Until  string `json:"until"`
	Limit  int    `json:"limit"`
	Mode   string `json:"mode"`
	Route  string `json:"route"`
	By     string `json:"by"`
	Detail string `json:"detail"`
	Budget *int   `json:"budget"`
	Across bool   `json:"across"`
}

func runSearch(ctx context.Context, s *Server, a args) (any, error) {
	var in searchArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	r := ops.SearchRequest{Query: in.Query, Wing: in.Wing, Room: in.Room, Kind: in.Kind,
		Source: in.Source, Since: in.Since, Until: in.Until, Limit: in.Limit, Mode: in.Mode, Route: in.Route, By: in.By,
		Detail: in.Detail, Budget: in.Budget, Across: in.Across, Default: ops.AgentSearch}
	if in.Wing == "" {
		r.DefaultWing = s.knownWing(ctx) // asks the client for its roots
	}
	if in.Source != "" {
		r.Dir = s.onlyRootDir(ctx) // a relative source is the root's
	}
	return ops.Search(ctx, s.p, r)
}
