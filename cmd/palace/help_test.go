package main

import (
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// A backquoted word in a flag's usage becomes its value name in every
// --help ("--model-dir palace model use"); --model-dir takes a folder.
func TestHelpModelDirValueName(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"search", "--help"}, {"status", "--help"}} {
		out, errOut, code := runPalace(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, errOut)
		}
		if strings.Contains(out, "--model-dir palace") || !strings.Contains(out, "--model-dir string") {
			t.Errorf("%v: --model-dir's value name is wrong:\n%s", args, out)
		}
	}
}

// serve --help lists every custom LSP method, palace/mine included.
func TestServeHelpListsLSPMethods(t *testing.T) {
	out, errOut, code := runPalace(t, "", "serve", "--help")
	if code != 0 {
		t.Fatalf("serve --help: exit %d, %s", code, errOut)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, m := range []string{"palace/relevant", "palace/search", "palace/drawer", "palace/remember", "palace/forget", "palace/mine", "palace/status", "palace/wakeUp"} {
		if !strings.Contains(flat, m) {
			t.Errorf("serve --help does not name %s:\n%s", m, out)
		}
	}
}

// Without vectors every search is lexical: saying so after each one is
// noise. The notice is printed with --verbose and kept in --json.
func TestSearchLexicalNoticeOnlyWhenVerbose(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{"a.md": "the parser leaks goroutines\n"})
	mineOK(t, home, dir, "--no-vectors")
	out, errOut, code := runPalace(t, home, "search", "parser")
	if code != 0 || !strings.Contains(out, "a.md") || errOut != "" {
		t.Errorf("search: exit %d, stdout %q, stderr %q: want the hit and no notice", code, out, errOut)
	}
	if _, errOut, _ := runPalace(t, home, "search", "parser", "--verbose"); !strings.Contains(errOut, "lexical only") {
		t.Errorf("search --verbose should say why it is lexical only: %q", errOut)
	}
	if r := searchOK(t, home, "parser"); !strings.Contains(r.Notice, "lexical only") {
		t.Errorf("search --json should keep the notice: %q", r.Notice)
	}
}
