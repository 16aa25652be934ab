package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
)

// cancelRequest cancels a request still running; it is answered with
// RequestCancelled (-32800). A request already answered is left alone.
func cancelRequest(_ context.Context, s *server, raw json.RawMessage) error {
	var ps struct {
		ID json.RawMessage `json:"id"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	var id jsonrpc2.ID
	if err := id.UnmarshalJSON(ps.ID); err != nil {
		return invalidParams("id: %v", err)
	}
	s.mu.Lock()
	cancel, ok := s.running[id]
	s.mu.Unlock()
	if ok {
		cancel()
	}
	return nil
}
