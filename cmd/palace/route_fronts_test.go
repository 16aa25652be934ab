//go:build unix

package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

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
	writeTree(t, proj, map[string]string{
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
		decode(t, "search", func() string {
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

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := startMCPFront(t, home, proj)
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "palace_search", map[string]any{"query": q, "route": "off"}
	res, err := m.cl.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("mcp: %v %+v", err, res)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var viaMCP answer
	decode(t, "mcp palace_search", string(b), &viaMCP)

	l := startLSPFront(t, home)
	var raw json.RawMessage
	if _, err := l.conn.Call(ctx, "palace/search", map[string]any{"query": q, "route": "off"}, &raw); err != nil {
		t.Fatalf("lsp: %v", err)
	}
	var viaLSP answer
	decode(t, "lsp palace/search", string(raw), &viaLSP)

	want := summary(off)
	for front, a := range map[string]answer{"mcp": viaMCP, "lsp": viaLSP} {
		if got := summary(a); got != want {
			t.Errorf("%s route off: %s, want as the CLI: %s", front, got, want)
		}
	}
}
