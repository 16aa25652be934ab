package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/palace-dev/palace/aaak"
)

func TestAAAKCheck(t *testing.T) {
	home := t.TempDir()
	good := filepath.Join("..", "..", "aaak", "testdata", "golden", "en-decisions.aaak")
	if out, errOut, code := runPalace(t, home, "aaak", "check", good); code != 0 || !strings.Contains(out, "ok, V1") {
		t.Errorf("good document: exit %d, %q %q", code, out, errOut)
	}
	bad, _ := filepath.Glob(filepath.Join("..", "..", "aaak", "testdata", "bad", "*.aaak"))
	if len(bad) == 0 {
		t.Fatal("no bad fixtures")
	}
	pos := regexp.MustCompile(`\.L(\d+)C(\d+)\.aaak$`)
	for _, f := range bad {
		m := pos.FindStringSubmatch(f)
		out, _, code := runPalace(t, home, "aaak", "check", f)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", f, code)
		}
		if want := fmt.Sprintf("%s:%s:%s:", f, m[1], m[2]); !strings.HasPrefix(out, want) {
			t.Errorf("%s: first error %q, want it at %s", filepath.Base(f), firstLine(out), want)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func TestCompressAndDecode(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	writeTree(t, dir, map[string]string{
		"notes/decision.md": "We decided to use SQLite for storage because Alice Moreau wants one file.\nBob Lee agreed after the benchmark.\n",
		"notes/bug.md":      "The login test fails one run in ten. Alice Moreau traced it to the token expiry check.\n",
	})
	mineOK(t, home, dir)
	out, errOut, code := runPalace(t, home, "compress", "--json")
	if code != 0 {
		t.Fatalf("compress: exit %d, %q", code, errOut)
	}
	var docs []struct {
		AAAK     string  `json:"aaak"`
		Coverage float64 `json:"coverage"`
		Drawers  int     `json:"drawers"`
	}
	decode(t, "compress", out, &docs)
	if len(docs) != 1 || docs[0].Drawers != 2 {
		t.Fatalf("want one document for the notes room holding 2 drawers: %+v", docs)
	}
	if _, err := aaak.Parse(docs[0].AAAK); err != nil {
		t.Fatalf("compress wrote a document that does not parse: %v\n%s", err, docs[0].AAAK)
	}
	if docs[0].Coverage < 0.5 {
		t.Errorf("coverage %.2f", docs[0].Coverage)
	}
	// The entity map is kept in the palace: decoding expands the codes.
	f := filepath.Join(t.TempDir(), "doc.aaak")
	if err := os.WriteFile(f, []byte(docs[0].AAAK), 0o644); err != nil {
		t.Fatal(err)
	}
	text, errOut, code := runPalace(t, home, "aaak", "decode", f)
	if code != 0 || !strings.Contains(text, "Alice Moreau") {
		t.Errorf("decode: exit %d, %q %q", code, text, errOut)
	}
	// A second compress gives Alice the same code.
	out2, _, _ := runPalace(t, home, "compress", "--json")
	var docs2 []struct {
		AAAK string `json:"aaak"`
	}
	decode(t, "compress", out2, &docs2)
	if docs2[0].AAAK != docs[0].AAAK {
		t.Errorf("compress is not stable across runs:\n%s\n%s", docs[0].AAAK, docs2[0].AAAK)
	}
}
