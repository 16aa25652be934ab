package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// didChangeWorkspaceFolders mines an added folder into its wing, with
// progress, as at startup. A removed folder's drawers stay: the palace
// remembers projects that are not open.
func didChangeWorkspaceFolders(_ context.Context, s *server, raw json.RawMessage) error {
	var ps struct {
		Event struct {
			Added   []protocol.WorkspaceFolder `json:"added"`
			Removed []protocol.WorkspaceFolder `json:"removed"`
		} `json:"event"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	for _, f := range ps.Event.Removed {
		s.folders.remove(f.URI)
	}
	for _, f := range ps.Event.Added {
		fo, isNew, why := s.folders.add(f.URI, f.Name, s.cfg)
		if why != "" {
			s.refuseFolder(f.URI, why)
		}
		if isNew && s.cfg.mineOnStartup {
			s.idx.enqueue(fo, "folder added", true)
		}
	}
	return nil
}
