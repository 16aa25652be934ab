package lsp

import (
	"context"
	"encoding/json"

	"github.com/palace-dev/palace/core/ops"
)

// statusResult is `palace status --json` plus the server's own state.
type statusResult struct {
	ops.StatusResult
	Server serverStatus `json:"server"`
	// Notice says, when searches are lexical only, why and how to get
	// vectors: said here once rather than in every answer.
	Notice string `json:"notice,omitempty"`
}

type serverStatus struct {
	Version    string         `json:"version"`
	Client     string         `json:"client,omitempty"`
	MineOnSave bool           `json:"mine_on_save"`
	Hover      bool           `json:"hover"`
	Mines      int            `json:"mines"` // finished mines this session
	Folders    []folderStatus `json:"folders"`
	Embedding  *vectorNote    `json:"embedding,omitempty"` // the last background fill
}

type folderStatus struct {
	URI  string `json:"uri"`
	Path string `json:"path"`
	Wing string `json:"wing"`
	folderState
}

// palaceStatus reports the palace (drawers per wing and room, sources, size,
// wings, embedding) and the session: folders with their wings and mining
// state.
func palaceStatus(ctx context.Context, s *server, _ json.RawMessage) (any, error) {
	// The mining state first, the counts after: a folder reported mined
	// then has its drawers counted, even while a mine commits meanwhile.
	states, mines, vec := s.idx.status()
	st, err := ops.Status(ctx, s.p, ops.StatusRequest{})
	if err != nil {
		return nil, err
	}
	res := statusResult{StatusResult: st, Server: serverStatus{
		Version: s.opts.Version, Client: s.client.name, MineOnSave: s.cfg.mineOnSave, Hover: s.cfg.hover,
		Mines: mines, Folders: []folderStatus{}, Embedding: vec,
	}}
	if res.Notice, err = ops.LexicalNotice(ctx, s.p); err != nil {
		return nil, err
	}
	for _, f := range s.folders.all() {
		fs := folderStatus{URI: f.uri, Path: f.path, Wing: f.wing(), folderState: folderState{State: "idle"}}
		if st, ok := states[f.path]; ok {
			fs.folderState = st
		}
		res.Server.Folders = append(res.Server.Folders, fs)
	}
	return res, nil
}
