package lsp

import (
	"context"
	"encoding/json"

	"github.com/palace-dev/palace/core/memory"
)

// palaceWakeUp returns the opening context of a session ({format?, wing?,
// budget?}): identity, then the essential story within a token budget. The
// wing defaults to the only workspace folder's; with several folders and
// none named, the whole palace.
func palaceWakeUp(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var r memory.WakeRequest
	if err := decode(raw, &r); err != nil {
		return nil, err
	}
	if r.Wing == "" {
		if f := s.folders.only(); f != nil {
			r.Wing = f.wing()
		}
	}
	return memory.WakeUp(ctx, s.p, r)
}
