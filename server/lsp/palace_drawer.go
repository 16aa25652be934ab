package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/ops"
)

// drawerResult is a drawer verbatim with its metadata and neighbours, as
// `palace drawer show --json` prints it, plus where an editor can open it.
type drawerResult struct {
	ops.GetResult
	URI   string          `json:"uri,omitempty"`
	Range *protocol.Range `json:"range,omitempty"`
}

// palaceDrawer returns one drawer by id, deleted ones included: {id,
// neighbours?}.
func palaceDrawer(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		ID         string `json:"id"`
		Neighbours int    `json:"neighbours"`
	}
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	d, err := ops.Get(ctx, s.p, ops.GetRequest{ID: ps.ID, Neighbours: ps.Neighbours})
	if err != nil {
		return nil, err
	}
	r := drawerResult{GetResult: d}
	r.URI, r.Range = locate(d.Kind, d.Source, d.LineStart, d.LineEnd)
	return r, nil
}
