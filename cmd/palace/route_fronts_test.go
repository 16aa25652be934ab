//go:build unix

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/mine"
)

// route off means the same on every front: the CLI's --route off, MCP
// palace_search's route and LSP palace/search's route give the same hits,
// in the same order, and the same route, which differ from the routed
// search's.
func TestRouteOffSameOnEveryFront(t *testing.T) {
	t.Setenv("PALACE_MODEL_DIR", "") // lexical, whatever the machine has
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "shop")
	clitest.WriteTree(t, proj, map[string]string{
		mine.ConfigName: "wing: shop\nrooms:\n  - name: billing\n    keywords: [invoice]\n  - name: auth\n    keywords: [login]\n",
		"billing/a.md":  "invoice rounding rule: round half even\n",
		"auth/b.md":     "login flow mentions the invoice once\n",
		".palaceignore": mine.ConfigName + "\n",
	})
	mineOK(t, home, proj)

	type answer struct {
		Hits []struct {
			ID string `json:"id"`
		} `json:"hits"`
		Route routeOut `json:"route"`
	}
	summary := func(a answer) string {
		var ids []string
		for _, h := range a.Hits {
			ids = append(ids, h.ID)
		}
		b, _ := json.Marshal(a.Route)
		return strings.Join(ids, ",") + " " + string(b)
	}
	const q = "invoice rounding"
	cli := func(route string) answer {
		t.Helper()
		var a answer
		clitest.Decode(t, "search", func() string {
			out, errOut, code := runPalace(t, home, "search", q, "--route", route, "--json")
			if code != 0 {
				t.Fatalf("search --route %s: exit %d, %s", route, code, errOut)
			}
			return out
		}(), &a)
		return a
	}
	off, auto := cli("off"), cli("auto")
	if len(off.Hits) != 2 || len(auto.Hits) != 1 || off.Route.Reason != "routing is off; searched everywhere" || !auto.Route.Applied {
		t.Fatalf("cli: off %s, auto %s; want both rooms unrouted, and billing alone routed", summary(off), summary(auto))
	}

	var viaMCP, viaLSP answer
	searchServers(t, home, proj, map[string]any{"query": q, "route": "off"}, &viaMCP, &viaLSP)

	want := summary(off)
	for front, a := range map[string]answer{"mcp": viaMCP, "lsp": viaLSP} {
		if got := summary(a); got != want {
			t.Errorf("%s route off: %s, want as the CLI: %s", front, got, want)
		}
	}
}
