package lsp

import (
	"context"
	"encoding/json"
	"time"
)

// whySave is the reason of a job queued by saves; a job of saves alone
// mines only the saved files (see indexer.mine).
const whySave = "save"

// didSave queues a mine of the saved file in its folder, answered by
// palace/didIndex {uri, wing, drawers, ms} once the file's drawers are
// replaced (one transaction: searches see the old drawers or the new, never
// a mix). An ignored file is answered with skipped: "ignored"; a file
// outside every workspace folder with skipped: "outside workspace". Saves
// that arrive while a mine runs are coalesced into the next one.
func didSave(_ context.Context, s *server, raw json.RawMessage) error {
	at := time.Now()
	var ps struct {
		TextDocument textDocument `json:"textDocument"`
		Text         *string      `json:"text"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	if err := ps.TextDocument.check("textDocument"); err != nil {
		return err
	}
	u := ps.TextDocument.URI
	if err := s.docs.saved(u, ps.Text); err != nil {
		// The save is still mined, which reads the file itself.
		s.warnf("textDocument/didSave: %v", err)
	}
	if !s.cfg.mineOnSave {
		return nil
	}
	path := uriPath(u)
	f := s.folders.of(path)
	if f == nil {
		s.sendNotification("palace/didIndex", didIndex{URI: u, Skipped: "outside workspace", Ms: float64(time.Since(at).Microseconds()) / 1000})
		return nil
	}
	s.idx.enqueue(f, whySave, false, save{uri: u, path: path, at: at})
	return nil
}
