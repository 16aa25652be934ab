//go:build unix

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// A question naming both speakers of a conversation is asked once per
// speaker on every front: the CLI's --json, MCP palace_search and LSP
// palace/search give the same facets and the same hits with the same why,
// and the CLI's text output prints them.
func TestSpeakerFacetsSameOnEveryFront(t *testing.T) {
	t.Setenv("PALACE_MODEL_DIR", "") // lexical, whatever the machine has
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "chat")
	pad := " " + strings.Repeat("We talked about the weather and the week ahead for a while. ", 5)
	clitest.WriteTree(t, proj, map[string]string{"talk.txt": strings.Join([]string{
		"Caroline: I painted a sunset this weekend and painted the lake too, painting all day long." + pad,
		"Melanie: Wow, lovely colours! You have a real eye for it." + pad,
		"Caroline: How was your week? Anything fun?" + pad,
		"Melanie: I finally painted a horse for my daughter, it took all week." + pad,
	}, "\n\n") + "\n"})
	mineOK(t, home, proj, "--mode", "convos")

	type answer struct {
		Facets []struct {
			About string `json:"about"`
			Query string `json:"query"`
		} `json:"facets"`
		Hits []struct {
			ID  string `json:"id"`
			Why string `json:"why"`
		} `json:"hits"`
	}
	summary := func(a answer) string {
		b, _ := json.Marshal(a)
		return string(b)
	}
	const q = "What have Caroline and Melanie both painted?"
	out, errOut, code := runPalace(t, home, "search", q, "--json")
	if code != 0 {
		t.Fatalf("search: exit %d, %s", code, errOut)
	}
	var viaCLI answer
	clitest.Decode(t, "search", out, &viaCLI)
	if len(viaCLI.Facets) != 2 || viaCLI.Facets[0].About != "Caroline" || viaCLI.Facets[1].About != "Melanie" ||
		len(viaCLI.Hits) < 2 || !strings.HasPrefix(viaCLI.Hits[0].Why, "about Caroline: Caroline says painted") ||
		!strings.HasPrefix(viaCLI.Hits[1].Why, "about Melanie: Melanie says painted") {
		t.Fatalf("cli: %s; want a facet per speaker, the first hit Caroline's painting, the second Melanie's", summary(viaCLI))
	}
	text, _, code := runPalace(t, home, "search", q)
	if code != 0 || !strings.Contains(text, "asked about Melanie: What have and Melanie both painted?") ||
		!strings.Contains(text, "   why: about Melanie: Melanie says painted") {
		t.Errorf("text output lacks the facets or the why:\n%s", text)
	}

	var viaMCP, viaLSP answer
	searchServers(t, home, proj, map[string]any{"query": q}, &viaMCP, &viaLSP)

	// The LSP's why goes on with what the editor panels show for every
	// hit (the words it mentions); search's why opens it.
	for i := range viaLSP.Hits {
		if i < len(viaCLI.Hits) {
			if w := viaCLI.Hits[i].Why + "; "; strings.HasPrefix(viaLSP.Hits[i].Why, w) {
				viaLSP.Hits[i].Why = viaCLI.Hits[i].Why
			}
		}
	}
	want := summary(viaCLI)
	for front, a := range map[string]answer{"mcp": viaMCP, "lsp": viaLSP} {
		if got := summary(a); got != want {
			t.Errorf("%s: %s, want as the CLI: %s", front, got, want)
		}
	}
}
