package lsp

import (
	"context"
	"encoding/json"
)

// didChange keeps the editor's current text, so palace/relevant and hover
// read the identifier and function the cursor is really on, unsaved edits
// included. The server asks for full-document sync: a change carries the
// whole text, and the last one wins.
func didChange(_ context.Context, s *server, raw json.RawMessage) error {
	var ps struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
		ContentChanges []struct {
			Text  string           `json:"text"`
			Range *json.RawMessage `json:"range"`
		} `json:"contentChanges"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	if ps.TextDocument.URI == "" {
		return invalidParams("textDocument.uri is required")
	}
	if len(ps.ContentChanges) == 0 {
		return nil
	}
	last := ps.ContentChanges[len(ps.ContentChanges)-1]
	if last.Range != nil {
		return invalidParams("contentChanges: want full-document changes (the server asked for full sync)")
	}
	return s.docs.changed(ps.TextDocument.URI, last.Text)
}
