package mcp

import (
	"context"

	"github.com/palace-dev/palace/core/ops"
)

func toolGet() *tool {
	return &tool{
		name:     "palace_get",
		title:    "Get a drawer",
		desc:     "Read a drawer verbatim by id (from a search hit), with its wing, room, citation and time.",
		readOnly: true, idempotent: true,
		params: []param{
			{name: "id", kind: kString, required: true, maxLen: ops.MaxIDBytes,
				desc: "The drawer id (d_...)."},
			{name: "neighbours", kind: kInteger, min: num(0), max: num(ops.MaxNeighbours),
				desc: "Also this many drawers before and after it in its source: the rest of a thought or conversation."},
		},
		run: runGet,
	}
}

type getArgs struct {
	ID         string `json:"id"`
	Neighbours int    `json:"neighbours"`
}

func runGet(ctx context.Context, s *Server, a args) (any, error) {
	var in getArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	return ops.Get(ctx, s.p, ops.GetRequest{ID: in.ID, Neighbours: in.Neighbours})
}
