package lsp

import (
	"context"
	"encoding/json"
)

// didChange keeps the editor's current text, so palace/relevant and hover
// read the identifier and function the cursor is really on, unsaved edits
// included, and, when saves are mined, has a source file in a workspace
// folder cut once the typing pauses, so its save only writes (ops.Preparer).
// The server asks for full-document sync: a change carries the whole text,
// and the last one wins.
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
	if err := s.docs.changed(ps.TextDocument.URI, last.Text); err != nil {
		return err
	}
	if path := uriPath(ps.TextDocument.URI); s.cfg.mineOnSave && s.folders.of(path) != nil {
		s.idx.prep.Changed(path, last.Text)
	}
	return nil
}
