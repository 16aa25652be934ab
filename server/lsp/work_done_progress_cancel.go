package lsp

import (
	"context"
	"encoding/json"
	"fmt"
)

// workDoneProgressCancel stops the mine behind a progress token (the user
// pressed cancel on "Palace: mining ..."). What was committed stays; the
// next mine of the folder resumes.
func workDoneProgressCancel(_ context.Context, s *server, raw json.RawMessage) error {
	var ps struct {
		Token json.RawMessage `json:"token"`
	}
	if err := decode(raw, &ps); err != nil {
		return err
	}
	var token string
	if err := json.Unmarshal(ps.Token, &token); err != nil {
		var n int64
		if json.Unmarshal(ps.Token, &n) != nil {
			return invalidParams("token: want a string or an integer")
		}
		token = fmt.Sprint(n)
	}
	if !s.idx.cancelToken(token) {
		s.tracef("cancel progress %s: no such work (already finished?)", token)
	}
	return nil
}
