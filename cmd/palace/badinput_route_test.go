//go:build unix

package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"go.lsp.dev/jsonrpc2"
)

// badrouteCases: a search route that is neither auto nor off is bad input
// naming the field on every front (issue #16 item 4).
func badrouteCases() []badCase {
	return badSearchEnumCases("route", "auto", "off")
}

// badSearchEnumCases: a search parameter given a value outside its enum
// (want, in order) is bad input naming the field on every front.
func badSearchEnumCases(param string, want ...string) []badCase {
	wantText := strings.Join(want, " or ")
	return []badCase{
		{
			name: "search --" + param + " bogus", front: "cli", code: 2,
			want: regexp.QuoteMeta(`--` + param + ` "bogus": want ` + wantText),
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "search", "tokknown", "--"+param, "bogus")
			},
		},
		{
			name: "palace_search " + param + " bogus", front: "mcp", code: mcp.INVALID_PARAMS,
			want: `"` + param + `".*` + strings.Join(want, ".*"),
			act: func(t *testing.T, e *badEnv) badResult {
				return e.mcp.call(t, "palace_search", map[string]any{"query": "tokknown", param: "bogus"})
			},
		},
		{
			name: "palace/search " + param + " bogus", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: regexp.QuoteMeta(param + ` "bogus": want ` + wantText),
			act: func(t *testing.T, e *badEnv) badResult {
				return e.lsp.call(t, "palace/search", map[string]any{"query": "tokknown", param: "bogus"})
			},
		},
	}
}
