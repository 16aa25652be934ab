//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/ops"
)

// sizedAnswer is the part of a sized search every front must agree on.
type sizedAnswer struct {
	By      string `json:"by"`
	Detail  string `json:"detail"`
	Budget  int    `json:"budget"`
	Tokens  int    `json:"tokens"`
	Omitted int    `json:"omitted"`
	Note    string `json:"note"`
	Hits    []struct {
		ID       string `json:"id"`
		Citation string `json:"citation"`
		Snippet  string `json:"snippet"`
		Content  string `json:"content"`
		Ranges   []struct {
			LineStart int `json:"line_start"`
		} `json:"ranges"`
	} `json:"hits"`
}

func (a sizedAnswer) String() string {
	b, _ := json.Marshal(a)
	return string(b)
}

// Detail and budget mean the same on the CLI, MCP and LSP, by drawer and
// by file; only the defaults differ: palace_search answers compact within
// ops.AgentBudget tokens, the CLI and palace/search in full without a
// budget (issue #19).
func TestSearchDetailBudgetEveryFront(t *testing.T) {
	t.Setenv("PALACE_MODEL_DIR", "")
	home, dir := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for i := range 8 {
		files[fmt.Sprintf("note%d.md", i)] = fmt.Sprintf("# Harbour %d\n\nThe harbourtoken keeper logs ship %d.\nShe writes every name down,\nand the tide, and the wind.\n", i, i)
	}
	clitest.WriteTree(t, dir, files)
	mineOK(t, home, dir, "--wing", "harbour")
	cli := func(args ...string) sizedAnswer {
		t.Helper()
		out, errOut, code := runPalace(t, home, append([]string{"search", "harbourtoken", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("search %v: exit %d, %s", args, code, errOut)
		}
		var a sizedAnswer
		clitest.Decode(t, "search", out, &a)
		return a
	}
	// A budget that holds exactly the first three compact hits.
	three := cli("--detail", "compact", "--limit", "3").Tokens
	compact := cli("--detail", "compact", "--budget", strconv.Itoa(three))
	if len(compact.Hits) != 3 || compact.Omitted != 5 || compact.Tokens != three || compact.Budget != three ||
		compact.Detail != ops.DetailCompact || !strings.HasPrefix(compact.Note, "5 more hits left out by the") {
		t.Fatalf("cli compact within %d tokens: %s", three, compact)
	}
	for _, h := range compact.Hits {
		if h.Content != "" || !strings.Contains(h.Snippet, "**harbourtoken**") || strings.Contains(h.Snippet, "\n") {
			t.Errorf("compact hit: %+v", h)
		}
	}
	full := cli()
	if len(full.Hits) != 8 || full.Detail != ops.DetailFull || full.Budget != 0 || full.Omitted != 0 || full.Hits[0].Content == "" {
		t.Fatalf("cli by default: %s", full)
	}

	same := func(what string, want sizedAnswer, args map[string]any) {
		t.Helper()
		var viaMCP, viaLSP sizedAnswer
		searchServers(t, home, dir, args, &viaMCP, &viaLSP)
		if viaMCP.String() != want.String() || viaLSP.String() != want.String() {
			t.Errorf("%s: the fronts disagree:\ncli %s\nmcp %s\nlsp %s", what, want, viaMCP, viaLSP)
		}
	}
	same("compact within a budget", compact, map[string]any{"query": "harbourtoken", "detail": "compact", "budget": three})
	same("full by file within a budget", cli("--by", "file", "--detail", "full", "--budget", "200"),
		map[string]any{"query": "harbourtoken", "by": "file", "detail": "full", "budget": 200})

	// The defaults: MCP's is the CLI's --detail compact --budget 1500,
	// the LSP's the CLI's own.
	var viaMCP, viaLSP sizedAnswer
	searchServers(t, home, dir, map[string]any{"query": "harbourtoken"}, &viaMCP, &viaLSP)
	if agent := cli("--detail", "compact", "--budget", strconv.Itoa(ops.AgentBudget)); viaMCP.String() != agent.String() || agent.Budget != ops.AgentBudget {
		t.Errorf("mcp by default: %s\nwant as the cli's compact within %d: %s", viaMCP, ops.AgentBudget, agent)
	}
	if viaLSP.String() != full.String() {
		t.Errorf("lsp by default: %s\nwant as the cli's: %s", viaLSP, full)
	}

	// The text output says what the budget left out.
	out, errOut, code := runPalace(t, home, "search", "harbourtoken", "--detail", "compact", "--budget", strconv.Itoa(three))
	if code != 0 || strings.Count(out, "\n   ") != 3 || !strings.Contains(out, "\n5 more hits left out by the "+strconv.Itoa(three)+"-token budget; ask with a larger budget to see them\n") {
		t.Errorf("text within %d tokens: exit %d, %s\n%s", three, code, errOut, out)
	}
	out, _, code = runPalace(t, home, "search", "harbourtoken", "--budget", "5")
	if code != 0 || strings.Contains(out, "no drawers match") || !strings.Contains(out, "the first hit alone takes") {
		t.Errorf("text within 5 tokens: exit %d\n%s", code, out)
	}
}
