//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// Bad input to the read commands exits 2 with one line naming the flag or
// argument, before any palace is opened (the bounds are core/ops's, the same
// on every front).
func TestReadsBadInputCLI(t *testing.T) {
	cases := []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"search", ""}, "query is empty"},
		{[]string{"search", "  ", "\t"}, "query is empty"},
		{[]string{"search", "x", "--limit", "0"}, "--limit 0: want 1 to 100"},
		{[]string{"search", "x", "--limit", "101"}, "--limit 101: want 1 to 100"},
		{[]string{"search", "x", "--limit", "-1"}, "--limit -1"},
		{[]string{"search", "x", "--kind", "poem"}, `--kind "poem": want file, conversation, note or diary`},
		{[]string{"search", "x", "--mode", "bogus"}, `--mode "bogus": want lexical, vector or hybrid`},
		{[]string{"search", "x", "--since", "last week"}, "--since"},
		{[]string{"search", strings.Repeat("x", 4097)}, "query is 4097 characters long"},
		{[]string{"search", strings.Repeat("dial ", 500) + distinctWords(64)}, "query has 65 distinct words: at most 64"},
		{[]string{"drawer", "show", " "}, "id is empty"},
		{[]string{"drawer", "show", "d_1", "--neighbours", "6"}, "--neighbours 6: want 0 to 5"},
		{[]string{"drawer", "show", "d_1", "--neighbours", "-1"}, "--neighbours -1"},
		{[]string{"wake-up", "--budget", "0"}, "--budget 0: want 1 to 100000"},
		{[]string{"wake-up", "--format", "poem"}, "format"},
	}
	for _, c := range cases {
		home := filepath.Join(t.TempDir(), "home")
		out, errOut, code := runPalace(t, home, c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("palace %.60q: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errOut, c.want)
		}
		oneLine(t, errOut)
		if _, err := os.Stat(home); err == nil {
			t.Errorf("palace %.60q created the palace home", c.args)
		}
	}
}

// distinctWords is n distinct words, none a stop word.
func distinctWords(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "w%d ", i)
	}
	return b.String()
}

// A wing the palace does not hold is an error listing the wings, for search
// and wake-up alike, never an empty answer (issue #7).
func TestUnknownWingCLI(t *testing.T) {
	home := t.TempDir()
	for _, w := range []string{"alpha", "beta"} {
		dir := filepath.Join(t.TempDir(), w)
		clitest.WriteTree(t, dir, map[string]string{"a.md": "wingword in " + w + "\n"})
		mineOK(t, home, dir)
	}
	for _, args := range [][]string{
		{"search", "wingword", "--wing", "alpah"},
		{"search", "wingword", "--wing", "alpah", "--json"},
		{"wake-up", "--wing", "alpah"},
	} {
		out, errOut, code := runPalace(t, home, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, `--wing "alpah": no such wing (wings: alpha, beta)`) {
			t.Errorf("palace %q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		oneLine(t, errOut)
	}
	if r := searchOK(t, home, "wingword", "--wing", "beta"); len(r.Hits) != 1 {
		t.Errorf("--wing beta: %d hits", len(r.Hits))
	}
}

// The same transcript mined into two wings is one hit naming the other
// wing (issue #10); snippets mark matches with ** in JSON, as over MCP and
// LSP, and the human output turns them into brackets (issue #11).
func TestSearchCopiesAndSnippetsCLI(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(t.TempDir(), "chats")
	clitest.WriteTree(t, dir, map[string]string{"standup.md": "# Standup\n\nWe moved the copyword deploy to Fridays.\n"})
	mineOK(t, home, dir, "--wing", "one")
	mineOK(t, home, dir, "--wing", "two")
	out, errOut, code := runPalace(t, home, "search", "copyword", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Hits []struct {
			Wing    string   `json:"wing"`
			Snippet string   `json:"snippet"`
			AlsoIn  []string `json:"also_in"`
		} `json:"hits"`
	}
	clitest.Decode(t, "search", out, &r)
	if len(r.Hits) != 1 {
		t.Fatalf("%d hits, want the content once: %s", len(r.Hits), out)
	}
	h := r.Hits[0]
	other := map[string]string{"one": "two", "two": "one"}[h.Wing]
	if fmt.Sprint(h.AlsoIn) != "["+other+"]" {
		t.Errorf("hit in %s: also_in %v, want [%s]", h.Wing, h.AlsoIn, other)
	}
	if !strings.Contains(h.Snippet, "**copyword**") || strings.ContainsAny(h.Snippet, "\x02\x03") {
		t.Errorf("snippet %q: want **copyword** and no control characters", h.Snippet)
	}
	text, _, code := runPalace(t, home, "search", "copyword")
	if code != 0 || !strings.Contains(text, "[copyword]") || strings.Contains(text, "**") || !strings.Contains(text, "also in "+other) {
		t.Errorf("human output:\n%s", text)
	}
}

// drawer show --neighbours adds the drawers around it in its source.
func TestDrawerShowNeighboursCLI(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(t.TempDir(), "proj")
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "line %d of the long design note about caching layers and eviction %d\n\n", i, i)
	}
	clitest.WriteTree(t, dir, map[string]string{"design.md": b.String()})
	mineOK(t, home, dir)
	r := searchOK(t, home, "caching", "--limit", "100")
	if len(r.Hits) < 3 {
		t.Fatalf("want several drawers, got %d", len(r.Hits))
	}
	var mid hit
	for _, h := range r.Hits {
		if h.LineStart > 1 && (mid.ID == "" || h.LineStart < mid.LineStart) {
			mid = h
		}
	}
	var got struct {
		ID     string `json:"id"`
		Before []hit  `json:"before"`
		After  []hit  `json:"after"`
	}
	palaceOK(t, home, &got, "drawer", "show", mid.ID, "--neighbours", "2", "--json")
	if got.ID != mid.ID || len(got.Before) != 1 || len(got.After) != 2 || got.Before[0].LineStart >= mid.LineStart || got.After[0].LineStart <= mid.LineStart {
		t.Errorf("neighbours of the second drawer (line %d): %d before, %d after", mid.LineStart, len(got.Before), len(got.After))
	}
	text := palaceOK(t, home, nil, "drawer", "show", mid.ID, "--neighbours", "1")
	if !strings.Contains(text, "\n--- before: "+got.Before[0].Citation+"  "+got.Before[0].ID+"\n") ||
		!strings.Contains(text, "\n--- after: "+got.After[0].Citation+"  "+got.After[0].ID+"\n") {
		t.Errorf("human output:\n%s", text)
	}
	// Without --neighbours the JSON is the drawer alone, as before.
	if out := palaceOK(t, home, nil, "drawer", "show", mid.ID, "--json"); strings.Contains(out, `"before"`) || strings.Contains(out, `"after"`) {
		t.Errorf("drawer show --json without --neighbours:\n%s", out)
	}
}

// remark brackets ** pairs and leaves an unpaired ** (text that held one)
// as it is.
func TestRemark(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                     "plain",
		"a **hit** and **another**": "a [hit] and [another]",
		"**hit** then 2**3":         "[hit] then 2**3",
		"x ** y":                    "x ** y",
	} {
		if got := remark(in, "[", "]"); got != want {
			t.Errorf("remark(%q) = %q, want %q", in, got, want)
		}
	}
}
