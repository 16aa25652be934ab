//go:build unix

package main

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"go.lsp.dev/jsonrpc2"
)

// badbyfileCases: a search by neither drawer nor file, or a by that is not
// a string, is bad input naming the field on every front (issue #17).
func badbyfileCases() []badCase {
	return []badCase{
		{
			name: "search --by bogus", front: "cli", code: 2,
			want: `--by "bogus": want drawer or file`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "search", "tokknown", "--by", "bogus")
			},
		},
		{
			name: "palace_search by bogus", front: "mcp", code: mcp.INVALID_PARAMS,
			want: `"by".*drawer.*file`,
			act: func(t *testing.T, e *badEnv) badResult {
				return e.mcp.call(t, "palace_search", map[string]any{"query": "tokknown", "by": "bogus"})
			},
		},
		{
			name: "palace/search by bogus", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `by "bogus": want drawer or file`,
			act: func(t *testing.T, e *badEnv) badResult {
				return e.lsp.call(t, "palace/search", map[string]any{"query": "tokknown", "by": "bogus"})
			},
		},
		{
			name: "palace/search by a number", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `^by: want a string, got number`,
			act: func(t *testing.T, e *badEnv) badResult {
				return e.lsp.call(t, "palace/search", map[string]any{"query": "tokknown", "by": 2})
			},
		},
	}
}
