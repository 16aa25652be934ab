package lsp

import (
	"context"
	"encoding/json"

	"github.com/palace-dev/palace/core/ops"
)

// palaceWakeUp returns the opening context of a session ({format?, wing?,
// budget?}): identity, then the project's handoff within a token budget. A
// wing named must be one the palace holds; without one, the only workspace
// folder's wing (mined or not), and with several folders, the whole palace.
func palaceWakeUp(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		Wing   string `json:"wing"`
		Format string `json:"format"`
		Budget *int   `json:"budget"`
	}
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	r := ops.WakeUpRequest{Wing: ps.Wing, Format: ps.Format}
	if ps.Budget != nil {
		if err := ops.CheckGiven("budget", *ps.Budget, ops.MaxWakeBudget); err != nil {
			return nil, err
		}
		r.Budget = *ps.Budget
	}
	if f := s.folders.only(); f != nil {
		// The folder's palace.yaml may set the budget, as it does for the
		// SessionStart hook and the CLI.
		r.DefaultWing, r.Dir = f.wing(), f.path
	}
	return ops.WakeUp(ctx, s.p, r)
}
