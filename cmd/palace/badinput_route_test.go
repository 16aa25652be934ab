//go:build unix

package main

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"go.lsp.dev/jsonrpc2"
)

// badrouteCases: a search route that is neither auto nor off is bad input
// naming the field on every front (issue #16 item 4).
func badrouteCases() []badCase {
	return []badCase{
		{
			name: "search --route bogus", front: "cli", code: 2,
			want: `--route "bogus": want auto or off`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "search", "tokknown", "--route", "bogus")
			},
		},
		{
			name: "palace_search route bogus", front: "mcp", code: mcp.INVALID_PARAMS,
			want: `"route".*auto.*off`,
			act: func(t *testing.T, e *badEnv) badResult {
				return e.mcp.call(t, "palace_search", map[string]any{"query": "tokknown", "route": "bogus"})
			},
		},
		{
			name: "palace/search route bogus", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `route "bogus": want auto or off`,
			act: func(t *testing.T, e *badEnv) badResult {
				return e.lsp.call(t, "palace/search", map[string]any{"query": "tokknown", "route": "bogus"})
			},
		},
	}
}
