package mcp

import (
	"context"
	"sort"

	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// MaxNeighbours bounds palace_get's neighbours on each side.
const MaxNeighbours = 5

func toolGet() *tool {
	return &tool{
		name:  "palace_get",
		title: "Get a drawer",
		desc: "Return one drawer verbatim by id (the `id` of a palace_search hit), with its wing, room, citation and time. " +
			"Set neighbours to also get the drawers just before and after it in the same source, when a hit starts or ends mid-thought. " +
			"A drawer removed with palace_forget is still returned, with deleted_at set.",
		readOnly: true, idempotent: true,
		params: []param{
			{name: "id", kind: kString, required: true, maxLen: 200,
				desc: "The drawer id, such as d_0123456789abcdef01234567."},
			{name: "neighbours", kind: kInteger, min: num(0), max: num(MaxNeighbours),
				desc: "How many drawers before and after it, from the same source, to include (default 0)."},
		},
		run: runGet,
	}
}

type getArgs struct {
	ID         string `json:"id"`
	Neighbours int    `json:"neighbours"`
}

type getResult struct {
	Drawer search.Drawer   `json:"drawer"`
	Before []search.Drawer `json:"before,omitempty"`
	After  []search.Drawer `json:"after,omitempty"`
}

func runGet(ctx context.Context, s *Server, a args) (any, error) {
	var in getArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	d, err := s.p.Store.GetDrawer(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	res := getResult{Drawer: search.DrawerOf(d)}
	if in.Neighbours > 0 {
		before, after, err := neighbours(ctx, s.p.Store, d, in.Neighbours)
		if err != nil {
			return nil, err
		}
		for _, n := range before {
			res.Before = append(res.Before, search.DrawerOf(n))
		}
		for _, n := range after {
			res.After = append(res.After, search.DrawerOf(n))
		}
	}
	return res, nil
}

// neighbourScan bounds how many drawers of one source are read to find
// neighbours.
const neighbourScan = 10000

// neighbours returns up to n live drawers on each side of d in its source,
// by line. Core has no such query yet (see the report: store.Neighbours);
// this reads the source's drawers through ListDrawers and keeps the exact
// source, since SourcePrefix also matches longer paths.
func neighbours(ctx context.Context, st *store.Store, d store.Drawer, n int) (before, after []store.Drawer, err error) {
	all, err := st.ListDrawers(ctx, store.Filter{Wing: d.Wing, SourcePrefix: d.Source}, neighbourScan)
	if err != nil {
		return nil, nil, err
	}
	var same []store.Drawer
	for _, x := range all {
		if x.Source == d.Source && x.ID != d.ID {
			same = append(same, x)
		}
	}
	sort.SliceStable(same, func(i, j int) bool {
		if same[i].LineStart != same[j].LineStart {
			return same[i].LineStart < same[j].LineStart
		}
		return same[i].ID < same[j].ID
	})
	for _, x := range same {
		if x.LineStart < d.LineStart || (x.LineStart == d.LineStart && x.ID < d.ID) {
			before = append(before, x)
		} else {
			after = append(after, x)
		}
	}
	if len(before) > n {
		before = before[len(before)-n:]
	}
	if len(after) > n {
		after = after[:n]
	}
	return before, after, nil
}
