package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		if got := termLine(c.in); got != c.line {
			t.Errorf("termLine(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := termText(c.in); got != c.text {
			t.Errorf("termText(%q) = %q, want %q", c.in, got, c.text)
		}
	}
}

// rawControl reports the first byte of s a terminal would act on: every C0
// control but LF and TAB, DEL, the 8-bit C1 introducers and the
// right-to-left override.
func rawControl(s string) (byte, bool) {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if (b < 0x20 && b != '\n' && b != '\t') || b == 0x7f {
			return b, true
		}
	}
	for _, r := range []string{"\u009b", "\u009d", "\u202e"} {
		if strings.Contains(s, r) {
			return r[0], true
		}
	}
	return 0, false
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
			if b, bad := rawControl(s); bad {
				t.Errorf("%q: %s holds raw control byte %#x:\n%q", args, what, b, s)
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
	decode(t, "diary read", out, &dr)
	if len(dr.Entries) != 1 || dr.Entries[0].Text != diary {
		t.Errorf("diary read --json = %+v, want the exact text %q", dr.Entries, diary)
	}
}
