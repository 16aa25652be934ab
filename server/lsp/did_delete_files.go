package lsp

import (
	"context"
	"encoding/json"
)

// didDeleteFiles prunes deleted files (or folders) through a mine of their
// folder, which removes every source that is gone.
func didDeleteFiles(_ context.Context, s *server, raw json.RawMessage) error {
	var ps struct {
		Files []struct {
			URI string `json:"uri"`
		} `json:"files"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	var paths []string
	for _, f := range ps.Files {
		if p := uriPath(f.URI); p != "" {
			paths = append(paths, p)
			s.docs.closed(f.URI)
		}
	}
	s.changed("files deleted", paths...)
	return nil
}
