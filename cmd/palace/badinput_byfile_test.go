//go:build unix

package main

import (
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// badbyfileCases: a search by neither drawer nor file, or a by that is not
// a string, is bad input naming the field on every front (issue #17).
func badbyfileCases() []badCase {
	return append(badSearchEnumCases("by", "drawer", "file"), badCase{
		name: "palace/search by a number", front: "lsp", code: int(jsonrpc2.InvalidParams),
		want: `^by: want a string, got number`,
		act: func(t *testing.T, e *badEnv) badResult {
			return e.lsp.call(t, "palace/search", map[string]any{"query": "tokknown", "by": 2})
		},
	})
}
