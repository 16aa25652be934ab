package lsp

import (
	"context"
	"encoding/json"
)

// didOpen keeps the document's text for palace/relevant and hover; a text
// over relevant.MaxTextBytes is not kept, which is logged.
func didOpen(_ context.Context, s *server, raw json.RawMessage) error {
	var ps struct {
		TextDocument struct {
			URI  string `json:"uri"`
			Text string `json:"text"`
		} `json:"textDocument"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	if ps.TextDocument.URI == "" {
		return invalidParams("textDocument.uri is required")
	}
	return s.docs.opened(ps.TextDocument.URI, ps.TextDocument.Text)
}
