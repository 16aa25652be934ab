package mcp

import (
	"context"

	"github.com/palace-dev/palace/core/ops"
)

func toolGet() *tool {
	return &tool{
		name:  "palace_get",
		title: "Get a drawer",
		desc: "Return one drawer verbatim by id (the `id` of a palace_search hit), with its wing, room, citation and time. " +
			"Set neighbours to also get the drawers just before and after it in the same source (before and after), when a hit starts or ends mid-thought. " +
			"A drawer removed with palace_forget is still returned, with deleted_at set.",
		readOnly: true, idempotent: true,
		params: []param{
			{name: "id", kind: kString, required: true, maxLen: 200,
				desc: "The drawer id, such as d_0123456789abcdef01234567."},
			{name: "neighbours", kind: kInteger, min: num(0), max: num(ops.MaxNeighbours),
				desc: "How many drawers before and after it, from the same source, to include (default 0)."},
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
