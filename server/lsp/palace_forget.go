package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/palace-dev/palace/core/input"
)

// forgetResult says whether the drawer left search now.
type forgetResult struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
	Reason  string `json:"reason,omitempty"`
}

// palaceForget soft-deletes a drawer, as `palace drawer rm`: it leaves
// search at once and stays readable by id for the record.
func palaceForget(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
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
	if d.DeletedAt != nil {
		return forgetResult{ID: ps.ID, Reason: "already deleted"}, nil
	}
	if _, err := retryBusy(ctx, s, "forget "+ps.ID, func() (struct{}, error) {
		return struct{}{}, s.p.Store.DeleteDrawer(ctx, ps.ID)
	}); err != nil {
		return nil, err
	}
	return forgetResult{ID: ps.ID, Deleted: true}, nil
}
