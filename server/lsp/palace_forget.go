package lsp

import (
	"context"
	"encoding/json"

	"github.com/palace-dev/palace/core/ops"
)

// palaceForget forgets a drawer, {id, purge?}, as `palace drawer rm`: it
// leaves search at once and stays readable by id for the record; the result
// is ops.ForgetResult. With purge it erases the content instead, as `palace
// drawer purge`, and the result is ops.PurgeResult. Doing either again is
// an answer (already_deleted, already_purged), not an error.
func palaceForget(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		ID    string `json:"id"`
		Purge bool   `json:"purge"`
	}
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	if ps.Purge {
		return ops.Purge(ctx, s.p, ops.PurgeRequest{ID: ps.ID})
	}
	return ops.Forget(ctx, s.p, ops.ForgetRequest{ID: ps.ID})
}
