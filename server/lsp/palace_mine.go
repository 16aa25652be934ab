package lsp

import (
	"context"
	"encoding/json"

	"github.com/palace-dev/palace/core/input"
)

type mineParams struct {
	// URI names one workspace folder; empty means every folder.
	URI string `json:"uri"`
}

type mineQueued struct {
	URI  string `json:"uri"`
	Path string `json:"path"`
	Wing string `json:"wing"`
}

type mineResult struct {
	Queued []mineQueued `json:"queued"`
}

// palaceMine queues a mine of the workspace folders (or of one) on the
// server's own miner, as a save or the startup mine would, with $/progress:
// an editor's "mine the workspace" command, without a second process
// competing for the palace. It answers at once; palace/status and the
// progress notifications tell when each folder is done.
func palaceMine(_ context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps mineParams
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	targets := s.folders.all()
	if ps.URI != "" {
		path := uriPath(ps.URI)
		targets = nil
		for _, f := range s.folders.all() {
			if f.path == path {
				targets = append(targets, f)
			}
		}
		if len(targets) == 0 {
			return nil, input.Invalid("uri", "%s is not a workspace folder", input.Quote(ps.URI))
		}
	}
	res := mineResult{Queued: []mineQueued{}}
	for _, f := range targets {
		s.idx.enqueue(f, "request", true)
		res.Queued = append(res.Queued, mineQueued{URI: f.uri, Path: f.path, Wing: f.wing()})
	}
	return res, nil
}
