package lsp

import (
	"context"
	"encoding/json"
)

// didClose forgets the document's text; the file on disk stays mined.
func didClose(_ context.Context, s *server, raw json.RawMessage) error {
	var ps struct {
		TextDocument textDocument `json:"textDocument"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	s.docs.closed(ps.TextDocument.URI)
	return nil
}
