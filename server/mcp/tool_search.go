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
		desc: "Search the palace: project files, past conversations, notes and diaries, stored verbatim. " +
			"Call it before answering anything about this project's past (decisions and their reasons, earlier sessions, what was tried). " +
			"By default (detail compact) each hit is short: its id, a citation (source file with line range, or the conversation and its lines), " +
			"its kind (file, conversation, note, diary) and, for a file, its language (lang), the time it happened, its score, how it matched, also_in (the other wings holding the same content, shown once) " +
			"and a one-line snippet with the matched words in **bold**, but not the drawer's content: call palace_get with the ids worth reading to get them verbatim. " +
			"The hits fit a budget of " + strconv.Itoa(ops.AgentBudget) + " tokens by default; omitted says how many more the budget left out. " +
			"The result's route says whether the query was narrowed to a room by taxonomy keywords, and why. " +
			"A question about a person in a conversation ranks what that person said first; a conversation hit's why says whether they say what it matched. " +
			"A period the query names (\"in June 2023\", \"the week before 16 November 2023\") puts the drawers from it, or referring to a day in it (\"last Saturday\"), first; time_hint gives the period and their why says which. " +
			"A question naming two speakers of one conversation (\"what do Jon and Gina both like?\") is asked once per person: facets lists those sub-queries and each hit's why starts with the person its sub-query is about. " +
			"The same query ranks the same hits as `palace search` on the command line (which answers in full, without a budget, unless asked).",
		readOnly: true, idempotent: true,
		params: []param{
			{name: "query", kind: kString, required: true, maxLen: ops.MaxQueryRunes * utf8.UTFMax,
				desc: "What to look for, in plain words (keywords work best). \"exact phrase\", -excluded and prefix* words are understood; a phrase no drawer says whole also finds its words apart, after the exact matches (match: \"words\"). Queries in other languages than the stored text match less well lexically. " +
					"At most " + strconv.Itoa(ops.MaxQueryWords) + " distinct words; a repeated word counts once."},
			{name: "wing", kind: kString, maxLen: 200,
				desc: "Only this wing (a project or person), its exact name: an unknown wing is an error that lists the wings (palace_status has them too). Omit it to search everywhere; routing may then narrow the search to a room of every wing (see route)."},
			{name: "room", kind: kString, maxLen: 200,
				desc: "Only this room (a topic within a wing), exact name from palace_status. Omit it to let routing choose."},
			{name: "kind", kind: kString, enum: ops.Kinds,
				desc: "Only drawers of this kind: file (project files), conversation (chat transcripts), note (palace_remember) or diary."},
			{name: "source", kind: kString, maxLen: 4096,
				desc: "Only drawers whose source path starts with this prefix, such as a folder's absolute path ending in /."},
			{name: "since", kind: kString, maxLen: 64,
				desc: "Only drawers from this time on: YYYY-MM-DD (that day's start, UTC) or an RFC 3339 time. Uses when the content happened (message time, file mtime)."},
			{name: "until", kind: kString, maxLen: 64,
				desc: "Only drawers before this time: YYYY-MM-DD (the whole day is included) or an RFC 3339 time."},
			{name: "limit", kind: kInteger, min: num(1), max: num(ops.MaxSearchLimit),
				desc: "Maximum number of hits (default 10). With detail full each hit carries its whole drawer, so keep it small."},
			{name: "detail", kind: kString, enum: ops.SearchDetails,
				desc: "compact (the default): each hit without the drawer's content, its snippet one line of at most " + strconv.Itoa(ops.OneLineRunes) + " characters around the matched words; " +
					"to read a hit, call palace_get with its id (set neighbours to also get the drawers before and after it in the same source, such as the rest of a conversation). " +
					"full: each hit carries its drawer's verbatim content and metadata (and, in hybrid mode, its BM25 and vector scores and ranks); it costs several times the tokens, so the budget holds fewer hits."},
			{name: "budget", kind: kInteger, min: num(0), max: num(ops.MaxSearchBudget),
				desc: "The most tokens the hits may take (default " + strconv.Itoa(ops.AgentBudget) + "; 0 for no budget). " +
					"Hits are kept in rank order while they fit; the first that does not fit ends the list, and the answer's omitted counts the hits left out and note says how to see them. " +
					"tokens is what the hits take, each counted as its JSON here, words and punctuation alike, with the estimator of palace_wake_up's budget."},
			{name: "route", kind: kString, enum: ops.SearchRoutes,
				desc: "auto (the default): a search without a room is narrowed to the room whose taxonomy keywords the query names, and searched everywhere instead when that room has no hit holding every query word but another place does; the result's route says what happened. " +
					"off: search exactly the wing, room and other filters given; use it when a routed result looks incomplete."},
			{name: "across", kind: kBoolean,
				desc: "true: cross a tunnel, searching one room in every wing (every project's auth, say): room, or the room the query routes to (among wing's rooms when wing is given; the hits then come from every wing). " +
					"A query that routes to no room is an error: give room. palace_taxonomy action tunnels lists the rooms wings share."},
			{name: "mode", kind: kString, enum: ops.SearchModes,
				desc: "lexical (BM25), vector (nearest embeddings) or hybrid (both, fused). Omit it: hybrid when the palace has vectors, else lexical."},
			{name: "by", kind: kString, enum: ops.SearchBy,
				desc: "drawer (the default): one hit per drawer, a passage of about 30 lines. " +
					"file: one hit per project file, ranked by its best drawer, whose citation and snippet (and, with detail full, content) the hit carries, with ranges: the line ranges (line_start, line_end, rank) of every matched drawer of that file, in line order; limit then counts files. " +
					"Use file to find where something is done or which files to open or change; notes, diaries and conversation drawers stay one hit each."},
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
	return ops.Search(ctx, s.p, ops.SearchRequest{Query: in.Query, Wing: in.Wing, Room: in.Room, Kind: in.Kind,
		Source: in.Source, Since: in.Since, Until: in.Until, Limit: in.Limit, Mode: in.Mode, Route: in.Route, By: in.By,
		Detail: in.Detail, Budget: in.Budget, Across: in.Across, Default: ops.AgentSearch})
}
