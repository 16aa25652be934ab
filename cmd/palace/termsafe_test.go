package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/cmd/internal/termsafe"
)

func TestTermLineAndText(t *testing.T) {
	cases := []struct{ in, line, text string }{
		{"plain ünïcode 漢字", "plain ünïcode 漢字", "plain ünïcode 漢字"},
		{"a\x1b]52;c;aGk=\x07b", `a\x1b]52;c;aGk=\x07b`, `a\x1b]52;c;aGk=\x07b`},
		{"x\x1b[2Jy", `x\x1b[2Jy`, `x\x1b[2Jy`},
		{"l1\nl2\tz", `l1\nl2\tz`, "l1\nl2\tz"},
		{"over\rforged", `over\rforged`, `over\rforged`},
		{"del\x7f c1\u009b bad\xffutf8 \x9b", `del\x7f c1\u009b bad\xffutf8 \x9b`, `del\x7f c1\u009b bad\xffutf8 \x9b`},
		{"rtl\u202eexe.txt sep\u2028x", `rtl\u202eexe.txt sep\u2028x`, `rtl\u202eexe.txt sep\u2028x`},
		{`C:\path\x1b stays`, `C:\path\x1b stays`, `C:\path\x1b stays`},
	}
	for _, c := range cases {
		if got := termsafe.Line(c.in); got != c.line {
			t.Errorf("termsafe.Line(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := termsafe.Text(c.in); got != c.text {
			t.Errorf("termsafe.Text(%q) = %q, want %q", c.in, got, c.text)
		}
	}
}

// A hostile repository names a file with escape sequences and fills it with
// OSC 52 (clipboard write) and CSI 2J (clear screen): no human output lets
// them through, and --json still holds the exact text.
func TestTerminalEscapesNeverReachStdout(t *testing.T) {
	home, src := t.TempDir(), t.TempDir()
	name := "evil\x1b]0;pwned\x07\x1b[2J.txt"
	content := "termzebra note\n\x1b]52;c;cGFsYWNl\x07 then \x1b[2J and\rforged line\n\tindented\n"
	dir := filepath.Join(src, "proj")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := mineOK(t, home, dir, "--wing", "proj"); s.DrawersAdded == 0 {
		t.Fatalf("mine added nothing: %+v", s)
	}
	// Notes and diary entries refuse ESC but keep CR, which overwrites the
	// line printed so far, and the bidi overrides, which reorder it.
	diary := "termzebra diary\rFORGED \u202eexe.txt"
	if _, errOut, code := runPalace(t, home, "diary", "write", "claude", diary); code != 0 {
		t.Fatalf("diary write: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runPalace(t, home, "remember", "termzebra remembered\rFORGED", "--wing", "proj"); code != 0 {
		t.Fatalf("remember: exit %d, %s", code, errOut)
	}

	r := searchOK(t, home, "termzebra", "--wing", "proj")
	var id string
	for _, h := range r.Hits {
		if h.Source == filepath.Join(dir, name) {
			id = h.ID
		}
	}
	if id == "" {
		t.Fatalf("--json lost the exact file name %q: %+v", name, r.Hits)
	}
	if d := showDrawer(t, home, id); d.Content != content {
		t.Errorf("drawer show --json content = %q, want %q", d.Content, content)
	}

	human := [][]string{
		{"search", "termzebra"},
		{"mine", dir, "--wing", "proj"},
		{"wake-up", "--wing", "proj"},
		{"wake-up", "--wing", "proj", "--format", "aaak"},
		{"status"},
		{"drawer", "show", id},
		{"diary", "read", "claude"},
		{"remember", "termzebra remembered\rFORGED", "--wing", "proj"},
	}
	for _, args := range human {
		out, errOut, code := runPalace(t, home, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d, stderr %q", args, code, errOut)
		}
		for what, s := range map[string]string{"stdout": out, "stderr": errOut} {
			if where, bad := clitest.TerminalHazard(s); bad {
				t.Errorf("%q: %s holds a raw %s:\n%q", args, what, where, s)
			}
		}
		if args[0] == "search" && !strings.Contains(out, `\x1b]0;pwned\x07`) {
			t.Errorf("search does not show the name's escapes visibly:\n%s", out)
		}
		if args[0] == "drawer" && !strings.Contains(out, "termzebra note\n"+`\x1b]52;c;cGFsYWNl\x07 then \x1b[2J and\rforged line`+"\n\tindented\n") {
			t.Errorf("drawer show should keep LF and TAB and escape the rest:\n%s", out)
		}
	}
	// A diary entry read as JSON is exact.
	out, _, _ := runPalace(t, home, "diary", "read", "claude", "--json")
	var dr struct {
		Entries []struct {
			Text string `json:"text"`
		} `json:"entries"`
	}
	clitest.Decode(t, "diary read", out, &dr)
	if len(dr.Entries) != 1 || dr.Entries[0].Text != diary {
		t.Errorf("diary read --json = %+v, want the exact text %q", dr.Entries, diary)
	}
}

// JSON output stays exact but carries no raw C1, DEL or bidi control:
// encoding/json writes those as they are, and a terminal showing --json
// output or an export acts on them.
func TestTermJSON(t *testing.T) {
	v := map[string]string{
		"name":    "walk\u202ewing\u202c \u2066iso\u2069",
		"content": "c1\u009b2J del\x7f esc\x1b[2J osc\x1b]52;c;aGk=\x07 cr\r tab\t sep\u2028 ok ünï 漢字 \uFFFD",
	}
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if _, bad := clitest.TerminalHazard(string(raw)); !bad {
		t.Fatal("encoding/json escaped everything itself; termJSON has nothing to do")
	}
	got := termsafe.JSON(raw)
	if where, bad := clitest.TerminalHazard(string(got)); bad {
		t.Errorf("termJSON left a raw %s:\n%s", where, got)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["name"] != v["name"] || back["content"] != v["content"] {
		t.Errorf("termJSON changed the values: %v %q", err, back)
	}
	plain := []byte(`{"a": "plain ünï"}`)
	if out := termsafe.JSON(plain); &out[0] != &plain[0] {
		t.Error("termJSON copied JSON that needed no escape")
	}

	// Written in pieces of every size, characters cut between writes
	// included, the result is the same.
	for size := 1; size <= 4; size++ {
		var b strings.Builder
		w := termsafe.NewJSONWriter(&b)
		for i := 0; i < len(raw); i += size {
			if _, err := w.Write(raw[i:min(i+size, len(raw))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != string(got) {
			t.Errorf("written %d bytes at a time:\n%s\nwant\n%s", size, b.String(), got)
		}
	}
}
