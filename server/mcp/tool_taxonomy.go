package mcp

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/ops"
)

func toolTaxonomy() *tool {
	edit := []string{ops.TaxonomyActionSet, ops.TaxonomyActionRm}
	return &tool{
		name:  "palace_taxonomy",
		title: "Wings and rooms",
		desc: "The taxonomy: each wing's rooms and the keywords that route new content and search queries to them. " +
			"action list shows rooms (all wings, or one); set adds a room or changes its keywords or display name; rm removes a room " +
			"(drawers already filed there keep it); route shows which wing and room a search for a query would be narrowed to, and why; " +
			"tunnels lists the rooms that join wings (one room name in several wings, or two rooms sharing most of their keywords) with the drawers on each side: palace_search with across searches a room in every wing. " +
			"A project's palace.yaml, when it lists rooms, replaces the wing's rooms at the next mine: the answer warns when that will undo an edit.",
		destructive: true, idempotent: true, // rm removes an entry; repeating set or rm changes nothing more
		full: true,
		params: []param{
			{name: "action", kind: kString, required: true, enum: ops.TaxonomyActions,
				desc: "list: show rooms; set: add a room or change it; rm: remove a room from the taxonomy; route: where a search for query would be routed; tunnels: the rooms wings share."},
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "The wing. For list and route, omit it to cover every wing; for tunnels, give it to list only the tunnels with a room in it; for set and rm, omit it to use this session's project wing."},
			{name: "room", kind: kString, maxLen: ops.MaxNameBytes, actions: edit, requiredFor: edit,
				desc: "The room's name: no '/' or '\"', no surrounding spaces."},
			{name: "keywords", kind: kStrings, actions: []string{ops.TaxonomyActionSet},
				desc: fmt.Sprintf("Single words (letters, digits, '-', '_'; at most %d of %d bytes) that route to the room; they replace its keywords. Omit to keep them, [] to clear them.", ops.MaxKeywords, ops.MaxKeywordBytes)},
			{name: "display_name", kind: kString, maxLen: ops.MaxNameBytes, actions: []string{ops.TaxonomyActionSet},
				desc: "A human-readable name for the room. Omit to keep it."},
			{name: "query", kind: kString, maxLen: ops.MaxQueryRunes * 4, actions: []string{ops.TaxonomyActionRoute}, requiredFor: []string{ops.TaxonomyActionRoute},
				desc: "The search query to route, as you would pass it to palace_search."},
		},
		run: runTaxonomy,
	}
}

type taxonomyArgs struct {
	Action      string    `json:"action"`
	Wing        string    `json:"wing"`
	Room        string    `json:"room"`
	Keywords    *[]string `json:"keywords"`
	DisplayName *string   `json:"display_name"`
	Query       string    `json:"query"`
}

func runTaxonomy(ctx context.Context, s *Server, a args) (any, error) {
	var in taxonomyArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	switch in.Action {
	case ops.TaxonomyActionList:
		return ops.TaxonomyList(ctx, s.p, ops.TaxonomyListRequest{Wing: in.Wing})
	case ops.TaxonomyActionRoute:
		return ops.TaxonomyRoute(ctx, s.p, ops.TaxonomyRouteRequest{Query: in.Query, Wing: in.Wing})
	case ops.TaxonomyActionTunnels:
		return ops.Tunnels(ctx, s.p, ops.TunnelsRequest{Wing: in.Wing})
	}
	wing, err := s.wing(ctx, in.Wing)
	if err != nil {
		return nil, err
	}
	folders := s.rootDirs(ctx)
	if in.Action == ops.TaxonomyActionRm {
		return ops.TaxonomyRm(ctx, s.p, ops.TaxonomyRmRequest{Wing: wing, Room: in.Room, Folders: folders})
	}
	return ops.TaxonomySet(ctx, s.p, ops.TaxonomySetRequest{Wing: wing, Room: in.Room, Keywords: in.Keywords, DisplayName: in.DisplayName, Folders: folders})
}

// rootDirs are the client's root folders, where a palace.yaml that would
// undo a taxonomy edit is looked for; none when the roots cannot be read.
func (s *Server) rootDirs(ctx context.Context) []string {
	rs, err := s.roots(ctx)
	if err != nil {
		return nil
	}
	dirs := make([]string, 0, len(rs))
	for _, r := range rs {
		dirs = append(dirs, r.Dir)
	}
	return dirs
}
