//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// Integration tests for 'palace remember' and 'palace diary' (wake-up's
// are in wakeup_test.go), on the binary TestMain builds. They skip until the commands are
// registered in root.go.

type matchOut struct {
	ID         string  `json:"id"`
	Kind       string  `json:"kind"`
	Similarity float64 `json:"similarity"`
	Method     string  `json:"method"`
	Wing       string  `json:"wing"`
	Room       string  `json:"room"`
	Citation   string  `json:"citation"`
	Preview    string  `json:"preview"`
}

type updateOut struct {
	matchOut
	Differs []string `json:"differs"`
}

type rememberOut struct {
	Added      bool        `json:"added"`
	ID         string      `json:"id"`
	Wing       string      `json:"wing"`
	Room       string      `json:"room"`
	Source     string      `json:"source"`
	Importance int         `json:"importance"`
	Duplicates []matchOut  `json:"duplicates"`
	Updates    []updateOut `json:"updates"`
	Reason     string      `json:"reason"`
	NearChecks []string    `json:"near_checks"`
	Embedded   bool        `json:"embedded"`
}

type diaryLineOut struct {
	ID      string    `json:"id"`
	Agent   string    `json:"agent"`
	AgentID string    `json:"agent_id"`
	Wing    string    `json:"wing"`
	Topic   string    `json:"topic"`
	At      time.Time `json:"at"`
	Text    string    `json:"text"`
	Added   bool      `json:"added"` // diary write only
}

type diaryReadOut struct {
	Agent   string         `json:"agent"`
	AgentID string         `json:"agent_id"`
	Entries []diaryLineOut `json:"entries"`
	More    bool           `json:"more"`
}

func needMemory(t *testing.T) {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	for _, cmd := range []string{"remember", "diary", "wake-up"} {
		out, _, _ := runPalace(t, home, cmd, "--help")
		if !strings.Contains(out, "palace "+cmd) {
			t.Fatalf("palace %s --help does not describe the command: is it still registered in root.go?\n%s", cmd, out)
		}
	}
}

// palaceOK runs palace, expects exit 0 and nothing on stderr, and decodes
// stdout into v when v is not nil.
func palaceOK(t *testing.T, home string, v any, args ...string) string {
	t.Helper()
	out, errOut, code := runPalace(t, home, args...)
	if code != 0 || errOut != "" {
		t.Fatalf("palace %q: exit %d, stderr %q", args, code, errOut)
	}
	if v != nil {
		clitest.Decode(t, args[0], out, v)
	}
	return out
}

// withStdin runs palace with stdin.
func withStdin(t *testing.T, home, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := palaceCmd(ctx, home, args...)
	cmd.Stdin = strings.NewReader(stdin)
	return clitest.Run(t, cmd)
}

const cliNote = "We switched the monorepo from npm to pnpm because installs took eleven minutes on CI."

func TestRememberCLI(t *testing.T) {
	needMemory(t)
	home := t.TempDir()
	var r rememberOut
	palaceOK(t, home, &r, "remember", cliNote, "--wing", "proj", "--importance", "4", "--source", "standup", "--json")
	if !r.Added || r.ID == "" || r.Wing != "proj" || r.Room != "notes" || r.Source != "standup" || r.Importance != 4 ||
		len(r.Duplicates) != 0 || !reflect.DeepEqual(r.NearChecks, []string{"lexical"}) {
		t.Fatalf("remember: %+v", r)
	}
	if d := showDrawer(t, home, r.ID); d.Content != cliNote || d.Kind != "note" || d.Citation != "standup" {
		t.Errorf("stored note %+v", d)
	}
	first := r.ID

	// The same note again: exit 0, nothing written, the match named.
	var again rememberOut
	palaceOK(t, home, &again, "remember", cliNote, "--wing", "proj", "--json")
	if again.Added || again.ID != "" || len(again.Duplicates) != 1 || again.Duplicates[0].ID != first ||
		again.Duplicates[0].Kind != "exact" || again.Reason == "" {
		t.Errorf("exact duplicate: %+v", again)
	}
	out := palaceOK(t, home, nil, "remember", cliNote, "--wing", "proj")
	if !strings.HasPrefix(out, "not written: wing proj already holds this note (use --force") || !strings.Contains(out, "exact  "+first) {
		t.Errorf("human duplicate report:\n%s", out)
	}
	// One content word of nine inflected: a near duplicate (8/9 = 0.89).
	changed := strings.Replace(cliNote, "installs", "install", 1)
	out = palaceOK(t, home, nil, "remember", changed, "--wing", "proj")
	if !strings.HasPrefix(out, "not written: wing proj already holds something close to this note") || !strings.Contains(out, "near 0.89 (lexical)  "+first) {
		t.Errorf("human near-duplicate report:\n%s", out)
	}
	if n := statusOK(t, home).Drawers; n != 1 {
		t.Errorf("skipped duplicates wrote: %d drawers", n)
	}
	// --force writes it, and still reports.
	var forced rememberOut
	palaceOK(t, home, &forced, "remember", changed, "--wing", "proj", "--force", "--json")
	if !forced.Added || forced.ID == first || len(forced.Duplicates) != 1 || forced.Duplicates[0].Kind != "near" {
		t.Errorf("forced: %+v", forced)
	}
	out = palaceOK(t, home, nil, "remember", "Deploys", "happen", "on", "Fridays.", "--wing", "ops", "--room", "process")
	if !strings.HasPrefix(out, "remembered d_") || !strings.HasSuffix(out, " in ops/process\n") {
		t.Errorf("human output %q", out)
	}
	// Standard input, and the note is searchable at once.
	sout, serr, code := withStdin(t, home, "The staging database is\nrebuilt every night.\n", "remember", "-", "--wing", "ops", "--json")
	var fromStdin rememberOut
	if code != 0 || serr != "" {
		t.Fatalf("remember -: exit %d %q", code, serr)
	}
	clitest.Decode(t, "remember -", sout, &fromStdin)
	if d := showDrawer(t, home, fromStdin.ID); d.Content != "The staging database is\nrebuilt every night." {
		t.Errorf("stdin note %q", d.Content)
	}
	hits := searchOK(t, home, "staging database nightly rebuilt", "--wing", "ops")
	if len(hits.Hits) == 0 || hits.Hits[0].ID != fromStdin.ID {
		t.Errorf("search for the note: %+v", hits.Hits)
	}
}

// Issue 16: "Do not use port 8080" after "Use port 8080" was refused as a
// 1.00 near duplicate, and the agent told the memory was there. A
// correction is written, and the older note named as one it may update.
func TestRememberCLICorrection(t *testing.T) {
	needMemory(t)
	home := t.TempDir()
	var old rememberOut
	palaceOK(t, home, &old, "remember", "Use port 8080 for the admin API", "--wing", "api", "--json")
	out := palaceOK(t, home, nil, "remember", "Do not use port 8080 for the admin API", "--wing", "api")
	lines := strings.Split(out, "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[0], "remembered d_") ||
		lines[1] != "written; it may update "+old.ID+" (differs: negation; adds not use)" ||
		lines[2] != "  near 1.00 (lexical)  "+old.ID+"  [api/notes] note" || lines[3] != "    Use port 8080 for the admin API" {
		t.Errorf("human report of a correction:\n%s", out)
	}
	var fix rememberOut
	negated, _, _ := strings.Cut(strings.TrimPrefix(lines[0], "remembered "), " ")
	palaceOK(t, home, &fix, "remember", "Use port 9090 for the admin API", "--wing", "api", "--json")
	differs := map[string][]string{}
	for _, u := range fix.Updates {
		differs[u.ID] = u.Differs
	}
	if !fix.Added || len(fix.Duplicates) != 0 || len(fix.Updates) != 2 || !reflect.DeepEqual(differs[old.ID], []string{"number"}) ||
		!reflect.DeepEqual(differs[negated], []string{"negation", "number"}) {
		t.Errorf("json report of a correction: %+v", fix)
	}
	if n := statusOK(t, home).Drawers; n != 3 {
		t.Errorf("%d drawers, want the note and both corrections", n)
	}
	// A rewording is still refused, and says so.
	out = palaceOK(t, home, nil, "remember", "Don't use port 8080 for the admin API.", "--wing", "api")
	if !strings.HasPrefix(out, "not written: wing api already holds something close to this note") || strings.Contains(out, "may update") {
		t.Errorf("human report of a rewording:\n%s", out)
	}
}

func TestDiaryCLI(t *testing.T) {
	needMemory(t)
	home := t.TempDir()
	var w diaryLineOut
	palaceOK(t, home, &w, "diary", "write", "Claude Code", "Started", "the", "wake-up", "work.", "--json")
	if !w.Added || w.Wing != "diary-claude-code" || w.Topic != "journal" || w.AgentID != "claude-code" || w.Agent != "Claude Code" ||
		w.Text != "Started the wake-up work." || time.Since(w.At) > time.Minute || w.At.Nanosecond() != 0 {
		t.Errorf("diary write: %+v", w)
	}
	out := palaceOK(t, home, nil, "diary", "write", "claude-code", "Budget fitting works.", "--topic", "wake-up", "--wing", "proj")
	if !strings.HasPrefix(out, "wrote d_") || !strings.Contains(out, " to proj/wake-up at ") {
		t.Errorf("human write %q", out)
	}
	if _, errOut, code := withStdin(t, home, "Wrapped up:\n- AAAK parses\n", "diary", "write", "claude code", "-"); code != 0 {
		t.Fatalf("diary write -: %d %q", code, errOut)
	}
	var r diaryReadOut
	palaceOK(t, home, &r, "diary", "read", "CLAUDE CODE", "--json")
	var texts []string
	for _, e := range r.Entries {
		texts = append(texts, e.Text)
	}
	want := []string{"Started the wake-up work.", "Budget fitting works.", "Wrapped up:\n- AAAK parses"}
	if !reflect.DeepEqual(texts, want) || r.More || r.AgentID != "claude-code" {
		t.Errorf("diary read: %q (more %v, id %q)", texts, r.More, r.AgentID)
	}
	palaceOK(t, home, &r, "diary", "read", "claude-code", "--last", "1", "--json")
	if len(r.Entries) != 1 || r.Entries[0].Text != want[2] || !r.More {
		t.Errorf("--last 1: %+v", r)
	}
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format("2006-01-02")
	palaceOK(t, home, &r, "diary", "read", "claude-code", "--since", tomorrow, "--json")
	if len(r.Entries) != 0 || r.Entries == nil {
		t.Errorf("--since tomorrow: %+v", r)
	}
	palaceOK(t, home, &r, "diary", "read", "claude-code", "--wing", "proj", "--json")
	if len(r.Entries) != 1 || r.Entries[0].Topic != "wake-up" {
		t.Errorf("--wing proj: %+v", r)
	}
	out = palaceOK(t, home, nil, "diary", "read", "claude-code", "--last", "2")
	if !strings.HasPrefix(out, "(older entries not shown; raise --last)\n") || !strings.Contains(out, "  [proj/wake-up]  d_") ||
		!strings.HasSuffix(out, "  Wrapped up:\n  - AAAK parses\n") {
		t.Errorf("human read:\n%s", out)
	}
	if out := palaceOK(t, home, nil, "diary", "read", "nobody"); out != "no diary entries for nobody\n" {
		t.Errorf("unknown agent: %q", out)
	}
}

func TestMemoryBadInput(t *testing.T) {
	needMemory(t)
	cases := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"remember without text", []string{"remember", "--wing", "proj"}, "remember"},
		{"remember empty text", []string{"remember", "", "--wing", "proj"}, "text is empty"},
		{"remember blank text", []string{"remember", "  ", "--wing", "proj"}, "text is empty"},
		{"remember without a wing", []string{"remember", "a note"}, "--wing is empty"},
		{"remember wing with a slash", []string{"remember", "a note", "--wing", "a/b"}, "'/'"},
		{"remember wing with a quote", []string{"remember", "a note", "--wing", `my "wing"`}, `'"'`},
		{"remember room with a slash", []string{"remember", "a note", "--wing", "proj", "--room", "../x"}, "room"},
		{"remember importance 0", []string{"remember", "a note", "--wing", "proj", "--importance", "0"}, "importance 0"},
		{"remember importance 6", []string{"remember", "a note", "--wing", "proj", "--importance", "6"}, "importance 6"},
		{"remember importance words", []string{"remember", "a note", "--wing", "proj", "--importance", "high"}, "high"},
		{"remember invalid UTF-8", []string{"remember", "caf\xe9", "--wing", "proj"}, "UTF-8"},
		{"remember control character", []string{"remember", "a\x07b", "--wing", "proj"}, "control"},
		{"diary without subcommand", []string{"diary"}, "subcommand"},
		{"diary unknown subcommand", []string{"diary", "erase"}, "erase"},
		{"diary write without text", []string{"diary", "write", "claude"}, "write"},
		{"diary write empty agent", []string{"diary", "write", "", "text"}, "agent is empty"},
		{"diary write agent of symbols", []string{"diary", "write", "!!!", "text"}, "agent"},
		{"diary write topic with a slash", []string{"diary", "write", "claude", "text", "--topic", "a/b"}, "topic"},
		{"diary write wing with a quote", []string{"diary", "write", "claude", "text", "--wing", `"x"`}, "wing"},
		{"diary read unknown date", []string{"diary", "read", "claude", "--since", "2026-02-30"}, "2026-02-30"},
		{"diary read words for a date", []string{"diary", "read", "claude", "--since", "last week"}, "last week"},
		{"diary read zero last", []string{"diary", "read", "claude", "--last", "0"}, "--last"},
		{"diary read huge last", []string{"diary", "read", "claude", "--last", "100000"}, "last"},
		{"diary read two agents", []string{"diary", "read", "a", "b"}, "read"},
		{"wake-up unknown format", []string{"wake-up", "--format", "xml"}, "xml"},
		{"wake-up zero budget", []string{"wake-up", "--budget", "0"}, "--budget"},
		{"wake-up negative budget", []string{"wake-up", "--budget", "-5"}, "budget"},
		{"wake-up huge budget", []string{"wake-up", "--budget", "1000001"}, "budget"},
		{"wake-up wing with a slash", []string{"wake-up", "--wing", "../etc"}, "wing"},
		{"wake-up json and aaak", []string{"wake-up", "--json", "--format", "aaak"}, "disagree"},
		{"wake-up argument", []string{"wake-up", "proj"}, "wake-up"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			out, errOut, code := runPalace(t, home, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, errOut)
			}
			if out != "" {
				t.Errorf("stdout should be empty, got %q", out)
			}
			oneLine(t, errOut)
			if !strings.Contains(errOut, c.want) {
				t.Errorf("stderr %q does not mention %q", errOut, c.want)
			}
			if _, err := os.Stat(home); err == nil {
				t.Errorf("bad input created the palace home")
			}
		})
	}

	// On an existing palace: a 10 MB text and the other bad input write
	// nothing.
	home := t.TempDir()
	palaceOK(t, home, nil, "remember", "A first note.", "--wing", "proj")
	palaceOK(t, home, nil, "diary", "write", "claude", "A first entry.")
	before := statusOK(t, home)
	big := strings.Repeat("ten megabytes of memory ", 10<<20/24)
	for _, args := range [][]string{{"remember", "-", "--wing", "proj"}, {"diary", "write", "claude", "-"}} {
		out, errOut, code := withStdin(t, home, big, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "1 MiB") {
			t.Errorf("%q with 10 MB: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		oneLine(t, errOut)
	}
	for _, args := range [][]string{
		{"remember", "x", "--wing", "a/b"},
		{"remember", "caf\xe9", "--wing", "proj"},
		{"diary", "write", "claude", "", "--wing", "proj"},
		{"remember", "-", "--wing", "proj"}, // empty standard input
	} {
		if _, errOut, code := runPalace(t, home, args...); code != 2 {
			t.Errorf("%q: exit %d (%q)", args, code, errOut)
		}
	}
	if after := statusOK(t, home); after.Drawers != before.Drawers || !reflect.DeepEqual(after.Rooms, before.Rooms) {
		t.Errorf("bad input changed the palace: %+v -> %+v", before.Rooms, after.Rooms)
	}
}
