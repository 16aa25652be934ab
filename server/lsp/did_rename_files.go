package lsp

import (
	"context"
	"encoding/json"
)

// didRenameFiles re-mines both ends of each rename: the old path is pruned
// and the new one mined, by a mine of the folders involved.
func didRenameFiles(_ context.Context, s *server, raw json.RawMessage) error {
	var ps struct {
		Files []struct {
			OldURI string `json:"oldUri"`
			NewURI string `json:"newUri"`
		} `json:"files"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	var paths []string
	for _, f := range ps.Files {
		for _, u := range []string{f.OldURI, f.NewURI} {
			if p := uriPath(u); p != "" {
				paths = append(paths, p)
			}
		}
	}
	s.changed("files renamed", paths...)
	return nil
}
