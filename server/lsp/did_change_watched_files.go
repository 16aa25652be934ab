package lsp

import (
	"context"
	"encoding/json"
)

// didChangeWatchedFiles re-mines the folders whose files changed outside the
// editor (git checkout, formatters, generators): the folder mine reads what
// changed and prunes what is gone. Events inside version-control and
// dependency folders are dropped, since those are never mined.
func didChangeWatchedFiles(_ context.Context, s *server, raw json.RawMessage) error {
	var ps struct {
		Changes []struct {
			URI  string `json:"uri"`
			Type int    `json:"type"`
		} `json:"changes"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	var paths []string
	for _, c := range ps.Changes {
		if p := uriPath(c.URI); p != "" {
			paths = append(paths, p)
		}
	}
	s.changed("files changed", paths...)
	return nil
}
