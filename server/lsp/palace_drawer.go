package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// drawerResult is a drawer verbatim with its metadata, as `palace drawer
// show --json` prints it, plus where an editor can open it.
type drawerResult struct {
	search.Drawer
	URI   string          `json:"uri,omitempty"`
	Range *protocol.Range `json:"range,omitempty"`
}

// palaceDrawer returns one drawer by id, deleted ones included.
func palaceDrawer(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		ID string `json:"id"`
	}
	if err := decode(raw, &ps); err != nil {
		return nil, err
	}
	if strings.TrimSpace(ps.ID) == "" {
		return nil, input.Invalid("id", "is empty")
	}
	d, err := s.p.Store.GetDrawer(ctx, ps.ID)
	if err != nil {
		return nil, err
	}
	return toDrawer(d), nil
}

func toDrawer(d store.Drawer) drawerResult {
	r := drawerResult{Drawer: search.DrawerOf(d)}
	r.URI, r.Range = locate(d.Kind, d.Source, d.LineStart, d.LineEnd)
	return r
}
