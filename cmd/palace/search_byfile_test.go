//go:build unix

package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// byFileAnswer is the part of a search by file every front must agree on.
type byFileAnswer struct {
	By   string `json:"by"`
	Hits []struct {
		Kind   string `json:"kind"`
		Lang   string `json:"lang"`
		Source string `json:"source"`
		Ranges []struct {
			LineStart int `json:"line_start"`
			LineEnd   int `json:"line_end"`
			Rank      int `json:"rank"`
		} `json:"ranges"`
	} `json:"hits"`
}

// A search by file gives the same files, kinds, languages and line ranges
// on the CLI, MCP and LSP, and the CLI's text lists each file's ranges
// (issue #17).
func TestSearchByFileEveryFront(t *testing.T) {
	t.Setenv("PALACE_MODEL_DIR", "")
	home, dir := t.TempDir(), t.TempDir()
	var code strings.Builder
	code.WriteString("package harbour\n\n// Beacon lights the harbourtoken lamp.\nfunc Beacon() {}\n")
	for i := range 60 {
		fmt.Fprintf(&code, "// filler line %d of the file, to cut it into several drawers\n", i)
	}
	code.WriteString("// Dim turns the harbourtoken lamp off.\nfunc Dim() {}\n")
	clitest.WriteTree(t, dir, map[string]string{"beacon.go": code.String(), "notes.md": "# Harbour\n\nThe harbourtoken keeper logs every ship.\n"})
	mineOK(t, home, dir, "--wing", "harbour")
	if _, errOut, rc := runPalace(t, home, "remember", "--wing", "harbour", "--", "The harbourtoken lamp is cleaned on Mondays."); rc != 0 {
		t.Fatal(errOut)
	}

	out, errOut, rc := runPalace(t, home, "search", "harbourtoken", "--by", "file", "--json")
	if rc != 0 {
		t.Fatalf("cli: exit %d: %s", rc, errOut)
	}
	var cli byFileAnswer
	clitest.Decode(t, "search --by file", out, &cli)
	if cli.By != "file" || len(cli.Hits) != 3 {
		t.Fatalf("cli: %+v, want three rows by file", cli)
	}
	langs := map[string]string{}
	for _, h := range cli.Hits {
		langs[h.Kind+" "+h.Source[strings.LastIndex(h.Source, "/")+1:]] = h.Lang
		for i := 1; i < len(h.Ranges); i++ {
			if h.Ranges[i].LineStart < h.Ranges[i-1].LineStart {
				t.Errorf("%s: ranges out of line order: %+v", h.Source, h.Ranges)
			}
		}
		if h.Kind == "file" && strings.HasSuffix(h.Source, "beacon.go") && len(h.Ranges) != 2 {
			t.Errorf("beacon.go: ranges %+v, want its two matched drawers", h.Ranges)
		}
	}
	if want := map[string]string{"file beacon.go": "go", "file notes.md": "markdown", "note note": ""}; !reflect.DeepEqual(langs, want) {
		t.Errorf("kinds and langs %v, want %v", langs, want)
	}

	var viaMCP, viaLSP byFileAnswer
	searchServers(t, home, dir, map[string]any{"query": "harbourtoken", "by": "file"}, &viaMCP, &viaLSP)
	if !reflect.DeepEqual(cli, viaMCP) || !reflect.DeepEqual(cli, viaLSP) {
		t.Errorf("the fronts disagree:\ncli %+v\nmcp %+v\nlsp %+v", cli, viaMCP, viaLSP)
	}

	out, errOut, rc = runPalace(t, home, "search", "harbourtoken", "--by", "file")
	if rc != 0 || !strings.Contains(out, "file go") || !strings.Contains(out, "   lines ") || !strings.Contains(out, "] note") {
		t.Errorf("cli text: exit %d %s\n%s", rc, errOut, out)
	}
}
