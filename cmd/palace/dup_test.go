package main

import (
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// Defect: 'palace dup' refused to work without vectors. It now falls back
// to the lexical finder and says so.
func TestDupWithoutVectors(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{
		"a.md": "the parser leaks goroutines when the context is cancelled\n",
		"b.md": "a cache for query vectors keeps agents fast\n",
		"c.md": "filler about build scripts\n",
	})
	mineOK(t, home, dir, "--no-vectors")
	out, errOut, code := runPalace(t, home, "dup", "the parser leaks goroutines", "--json")
	if code != 0 {
		t.Fatalf("dup without vectors: exit %d, %q", code, errOut)
	}
	var r struct {
		Finder string `json:"finder"`
		Notice string `json:"notice"`
		Near   []struct {
			Citation   string  `json:"citation"`
			Similarity float64 `json:"similarity"`
		} `json:"near"`
	}
	clitest.Decode(t, "dup", out, &r)
	if r.Finder != "lexical" || r.Notice == "" || len(r.Near) != 1 || !strings.HasSuffix(r.Near[0].Citation, "a.md:1-1") ||
		r.Near[0].Similarity < 0.6 {
		t.Errorf("dup: %+v", r)
	}
	if out, _, code := runPalace(t, home, "dup", "parser goroutines"); code != 0 || !strings.HasPrefix(out, "finder: lexical") {
		t.Errorf("dup text: exit %d, %q", code, out)
	}
	for _, args := range [][]string{{"dup", " "}, {"dup", "x", "--limit", "-1"}, {"dup", "x", "--wing", "nope"}} {
		if _, errOut, code := runPalace(t, home, args...); code != 2 {
			t.Errorf("%v: exit %d, %q; want 2", args, code, errOut)
		}
	}
}
