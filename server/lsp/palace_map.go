package lsp

import (
	"context"
	"encoding/json"

	"github.com/palace-dev/palace/core/ops"
)

// palaceMap answers the palace's shape and the page drawing it: {wing?,
// nonce?} -> {map, html}. A webview passes its nonce so its own content
// security policy admits the page's inline script and style.
func palaceMap(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		Wing  string `json:"wing"`
		Nonce string `json:"nonce"`
	}
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	return ops.MapPage(ctx, s.p, ops.MapPageRequest{Wing: ps.Wing, Nonce: ps.Nonce})
}
