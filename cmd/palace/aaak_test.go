package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/cmd/internal/clitest"
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
	clitest.WriteTree(t, dir, map[string]string{
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
	clitest.Decode(t, "compress", out, &docs)
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
	clitest.Decode(t, "compress", out2, &docs2)
	if docs2[0].AAAK != docs[0].AAAK {
		t.Errorf("compress is not stable across runs:\n%s\n%s", docs[0].AAAK, docs2[0].AAAK)
	}
}

// runPalaceStdin runs palace with stdin as its standard input.
func runPalaceStdin(t *testing.T, home, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := palaceCmd(ctx, home, args...)
	cmd.Stdin = strings.NewReader(stdin)
	return clitest.Run(t, cmd)
}

// Defects: compress printed one document per room that Palace's own
// 'aaak check' and 'decode' rejected ("duplicate zettel id 0",
// "unrecognised line"), and never saved the entity map, so decode could
// not expand a code and Kaiser and Kai shared KAI. The names here are only
// entities, never inside a quoted sentence.
func TestCompressStreamChecksAndDecodes(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{
		"billing/cron.md": "We decided to move the billing cron job to the new scheduler because the old one dropped jobs during every deploy. It was approved by Kaiser.\n",
		"login/test.md":   "We rewrote the flaky login integration test so that it waits for the token refresh before asserting. It was reviewed by Kai.\n",
	})
	mineOK(t, home, dir, "--wing", "proj")
	out, errOut, code := runPalace(t, home, "compress", "--wing", "proj")
	if code != 0 || strings.Count(out, "V1|proj|") != 2 {
		t.Fatalf("compress: exit %d, want two documents:\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "Kaiser") || strings.Contains(out, "Kai.") {
		t.Fatalf("the names should appear only as codes:\n%s", out)
	}
	// Piped, and as a file.
	if got, errOut, code := runPalaceStdin(t, home, out, "aaak", "check", "-"); code != 0 || !strings.Contains(got, "ok, V1, 2 documents") {
		t.Errorf("compress | aaak check -: exit %d, %q %q", code, got, errOut)
	}
	f := filepath.Join(t.TempDir(), "proj.aaak")
	if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, errOut, code := runPalace(t, home, "aaak", "check", f); code != 0 || !strings.Contains(got, "2 documents") {
		t.Errorf("aaak check FILE: exit %d, %q %q", code, got, errOut)
	}
	text, errOut, code := runPalaceStdin(t, home, out, "aaak", "decode", "-")
	if code != 0 || !strings.Contains(text, "who: Kaiser\n") || !strings.Contains(text, "who: Kai\n") {
		t.Errorf("decode: exit %d, want Kaiser and Kai expanded:\n%s\n%s", code, text, errOut)
	}
	// Codes stay across runs.
	if again, _, _ := runPalace(t, home, "compress", "--wing", "proj"); again != out {
		t.Errorf("a second compress differs:\n%s\n%s", out, again)
	}
	// An unknown wing is a usage error, as in search.
	if _, errOut, code := runPalace(t, home, "compress", "--wing", "nope"); code != 2 || !strings.Contains(errOut, "no such wing") {
		t.Errorf("compress --wing nope: exit %d, %q", code, errOut)
	}
}

// Issue 46: 'aaak check' called a file ok whose quote held ESC [ 2 J and
// OSC 52, 'aaak decode' printed them raw, and 'compress' printed U+202E
// and U+202C raw. Check now gives each its line, column and code point
// (exit 1), decode refuses the file, and compress writes no terminal
// control, so its output still checks.
func TestAAAKTerminalControls(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	f := filepath.Join(dir, "evil.aaak")
	src := "V1|w|r|d|s\n0:ALI|t|\"x \x1b[2J \x1b]52;c;aGk=\x07 y \u202eevil\u202c\"|★|joy|CORE\n"
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runPalace(t, home, "aaak", "check", f)
	if code != 1 || !strings.HasPrefix(out, f+":2:12: encoding: control character U+001B") || strings.Contains(out, "ok") {
		t.Errorf("aaak check: exit %d, %q %q", code, out, errOut)
	}
	out, errOut, code = runPalace(t, home, "aaak", "decode", f)
	if code != 1 || out != "" || !strings.Contains(errOut, "control character U+001B") {
		t.Errorf("aaak decode: exit %d, %q %q", code, out, errOut)
	}
	for what, s := range map[string]string{"check": out, "decode": errOut} {
		if where, bad := clitest.TerminalHazard(s); bad {
			t.Errorf("%s printed a raw %s", what, where)
		}
	}

	clitest.WriteTree(t, filepath.Join(dir, "proj"), map[string]string{
		"notes/a.md": "We decided \u202eevil\u202c to move the billing cron job because the old one dropped jobs. \x1b[2J Then \x1b]52;c;aGk=\x07 it ran.\n",
	})
	mineOK(t, home, filepath.Join(dir, "proj"), "--wing", "pro\u202ej")
	out, errOut, code = runPalace(t, home, "compress")
	if code != 0 || !strings.Contains(out, "We decided evil to move") {
		t.Fatalf("compress: exit %d, %q %q", code, out, errOut)
	}
	for what, s := range map[string]string{"stdout": out, "stderr": errOut} {
		if where, bad := clitest.TerminalHazard(s); bad {
			t.Errorf("compress %s holds a raw %s:\n%q", what, where, s)
		}
	}
	if !strings.Contains(errOut, `# pro\u202ej/notes:`) {
		t.Errorf("compress should name the wing with its escape on stderr: %q", errOut)
	}
	if got, errOut, code := runPalaceStdin(t, home, out, "aaak", "check", "-"); code != 0 || !strings.Contains(got, "ok, V1") {
		t.Errorf("compress | aaak check -: exit %d, %q %q", code, got, errOut)
	}
}
