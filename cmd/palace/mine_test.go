package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// A bad mode or size is a mistake in the call (exit 2, as `search --mode
// bogus`), refused before a palace is created.
func TestMineFlagsAreValidated(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	dir := t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{"a.md": "alpha\n"})
	for _, tt := range []struct {
		args  []string
		field string
	}{
		{[]string{"--mode", "bogus"}, "auto, projects or convos"},
		// Named as typed: -1 is refused, never read as the default.
		{[]string{"--max-size", "-5"}, "--max-size -5"},
		{[]string{"--max-size", "-1"}, "--max-size -1"},
		{[]string{"--max-convo-size", "-1"}, "--max-convo-size -1"},
		{[]string{"--wing", "a/b"}, "wing"},
	} {
		out, errOut, code := runPalace(t, home, append([]string{"mine", dir, "--json"}, tt.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tt.field) {
			t.Errorf("mine %v: exit %d, stdout %q, stderr %q; want 2 naming %s", tt.args, code, out, errOut, tt.field)
		}
		oneLine(t, errOut)
	}
	if _, err := os.Stat(home); err == nil {
		t.Errorf("a refused mine created the palace %s", home)
	}
	if out, _, _ := runPalace(t, "", "mine", "--help"); !strings.Contains(out, "auto, projects or convos") {
		t.Errorf("mine --help does not list the modes:\n%s", out)
	}
}

// The palace.yaml `palace init` writes configures the mine; it is not a
// drawer that search, wake-up or compress could show.
func TestInitConfigIsNotMined(t *testing.T) {
	home, dir := t.TempDir(), filepath.Join(t.TempDir(), "proj")
	clitest.WriteTree(t, dir, map[string]string{"src/app.go": "package app\n\n// tokapp serves requests\n"})
	if _, errOut, code := runPalace(t, home, "init", dir); code != 0 {
		t.Fatalf("init: exit %d, %q", code, errOut)
	}
	s := mineOK(t, home, dir)
	if s.FilesMined != 1 || s.SkippedBy["metadata"] != 1 {
		t.Errorf("mine after init: %+v; want app.go mined and palace.yaml skipped as metadata", s)
	}
	for _, q := range []string{"Palace project settings", "rooms", "wing"} {
		if r := searchOK(t, home, q); len(r.Hits) != 0 {
			t.Errorf("search %q finds %s", q, r.Hits[0].Citation)
		}
	}
	if out, errOut, code := runPalace(t, home, "wake-up", "--wing", "proj", "--budget", "2000"); code != 0 || strings.Contains(out, "palace.yaml") || strings.Contains(out, "project settings") {
		t.Errorf("wake-up: exit %d, %q\n%s", code, errOut, out)
	}
}

// A Slack export's users.json and channels.json are not file drawers in
// auto mode: they name the speakers of its day files.
func TestMineSlackExportAuto(t *testing.T) {
	home, dir := t.TempDir(), copyFixtures(t)
	s := mineOK(t, home, filepath.Join(dir, "slack"))
	if s.SkippedBy["metadata"] != 2 {
		t.Errorf("skipped %v; want users.json and channels.json as metadata", s.SkippedBy)
	}
	r := searchOK(t, home, "the", "--limit", "100")
	if len(r.Hits) == 0 {
		t.Fatal("no drawers")
	}
	for _, h := range r.Hits {
		if h.Kind != "conversation" {
			t.Errorf("%s is a %s drawer", h.Citation, h.Kind)
		}
	}
	if out, _, _ := runPalace(t, home, "wake-up", "--wing", "slack", "--budget", "2000"); strings.Contains(out, "users.json") || strings.Contains(out, "U04ALICE01\"") {
		t.Errorf("wake-up shows Slack metadata:\n%s", out)
	}
}

// With --mode convos the user named the file a conversation: a short
// transcript is one, and its drawer holds its lines as they are.
func TestMineConvosShortTranscript(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{"standup.md": "> Who signs off on the release?\n\nDana does, on Thursdays.\n"})
	s := mineOK(t, home, dir, "--mode", "convos")
	if s.FilesMined != 1 || s.SkippedBy["not_conversation"] != 0 {
		t.Fatalf("mine --mode convos: %+v; want the transcript mined", s)
	}
	r := searchOK(t, home, "signs off")
	if len(r.Hits) != 1 {
		t.Fatalf("hits %v", r.Hits)
	}
	h := r.Hits[0]
	if h.Kind != "conversation" || h.Content != "> Who signs off on the release?\n\nDana does, on Thursdays." || h.LineStart != 1 || h.LineEnd != 3 {
		t.Errorf("drawer %s (%s, lines %d-%d): %q; want the file's lines 1-3 verbatim", h.Citation, h.Kind, h.LineStart, h.LineEnd, h.Content)
	}
}

// Given a folder, split splits each transcript in it and says what it did
// with each.
func TestSplitFolder(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	mega, err := os.ReadFile(filepath.Join("..", "..", "core", "convo", "testdata", "text", "mega-transcript.txt"))
	if err != nil {
		t.Fatal(err)
	}
	clitest.WriteTree(t, dir, map[string]string{
		"mega.txt":    string(mega),
		"notes.md":    "# Notes\n\nOne session only.\n",
		"app.go":      "package app\n",
		"sub/mega.md": string(mega),
	})
	out, errOut, code := runPalace(t, home, "split", dir)
	if code != 0 {
		t.Fatalf("split %s: exit %d, %q", dir, code, errOut)
	}
	pieces, _ := filepath.Glob(filepath.Join(dir, "mega.session-*.txt"))
	if len(pieces) < 2 || !strings.Contains(out, filepath.Join(dir, "mega.txt")+": ") || !strings.Contains(out, filepath.Join(dir, "notes.md")+": one session") ||
		strings.Contains(out, "app.go") || strings.Contains(out, "sub") {
		t.Errorf("split of a folder wrote %v and said:\n%s", pieces, out)
	}
	var joined []byte
	for _, p := range pieces {
		b, _ := os.ReadFile(p)
		joined = append(joined, b...)
	}
	if string(joined) != string(mega) {
		t.Error("the pieces do not join back to mega.txt")
	}
	// Again: the pieces are left alone, and mega.txt's names are taken.
	out, errOut, code = runPalace(t, home, "split", dir)
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second split: exit %d, %q, %q; want a refusal to overwrite", code, out, errOut)
	}
	out, _, code = runPalace(t, home, "split", dir, "--out", t.TempDir())
	if code != 0 || !strings.Contains(out, "a piece of an earlier split; left alone") {
		t.Errorf("split into a new folder: exit %d:\n%s", code, out)
	}
}

// Source files the parser leaves to the line chunker (broken at the top
// level, over the parse size limit) are counted in the mine's summary, in
// words and in --json; the files are still mined.
func TestMineCountsParseFallbacks(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{
		"good.go":   "package x\n\n// Alpha is the first.\nfunc Alpha() {}\n",
		"broken.go": "package x\n\nfunc f() {\n}\n}}} ))) func {{\n",
		"table.go":  "package x\n\n" + strings.Repeat("var a = 1\n", 30000), // 300 KB
		"notes.md":  "func Gamma() {}\n",
	})
	out, errOut, code := runPalace(t, home, "mine", dir, "--json")
	if code != 0 {
		t.Fatalf("mine: exit %d, %q", code, errOut)
	}
	var s struct {
		FilesMined     int `json:"files_mined"`
		ParseFallbacks int `json:"parse_fallbacks"`
	}
	clitest.Decode(t, "mine", out, &s)
	if s.FilesMined != 4 || s.ParseFallbacks != 2 {
		t.Errorf("mine --json: %d files mined, %d parse fallbacks; want 4 and 2 (broken.go, table.go)", s.FilesMined, s.ParseFallbacks)
	}
	clitest.WriteTree(t, dir, map[string]string{"broken.go": "package x\n\nfunc g() {\n}\n}}} ))) func {{\n"})
	out, errOut, code = runPalace(t, home, "mine", dir)
	if code != 0 || !strings.Contains(out, "parse fallbacks: 1 source files did not parse") {
		t.Errorf("mine after changing broken.go: exit %d, %q\n%s\nwant one parse fallback", code, errOut, out)
	}
}
