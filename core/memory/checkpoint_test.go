package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/extract"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

var cpT0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func user(text string, min int) SessionMessage {
	return SessionMessage{Role: RoleUser, Text: text, Time: cpT0.Add(time.Duration(min) * time.Minute)}
}

func agent(text string, min int) SessionMessage {
	return SessionMessage{Role: RoleAssistant, Text: text, Time: cpT0.Add(time.Duration(min) * time.Minute)}
}

func tool(text string, min int) SessionMessage {
	return SessionMessage{Role: "tool", Text: text, Time: cpT0.Add(time.Duration(min) * time.Minute)}
}

var cpOptions = DigestOptions{Root: "/src/billing", We: "billing", Extractor: extract.New(nil)}

// session is a Claude Code session as core/convo renders it: requests, a
// reply with thinking, tool calls (a read, an edit, a write, a search, a
// Palace note, a diary read), their results, an injected reminder and a
// slash command.
var session = []SessionMessage{
	user("Invoices round wrong on the PDF. Find out why.", 0),
	agent("[thinking] The user wants the rounding checked.\nI should read the renderer first.\n\nLet me look at the renderer.\n[tool_use Read] {\"file_path\":\"/src/billing/pdf/render.go\"}", 1),
	tool("[tool_result] func Render() {}", 1),
	agent("[tool_use Grep] {\"pattern\":\"Round\",\"path\":\"/src/billing\"}", 2),
	tool("[tool_result] rounding.go:3", 2),
	agent("The renderer rounds half-even while invoices round half-up. We decided to use half-even everywhere.\n[tool_use Edit] {\"file_path\":\"/src/billing/rounding.go\",\"old_string\":\"a\",\"new_string\":\"b\"}", 3),
	tool("[tool_result] ok", 3),
	user("<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>", 4),
	user("Good. Save that decision, and add a test.\n<system-reminder>The date is Monday.</system-reminder>", 5),
	agent("[tool_use mcp__palace__palace_remember] {\"text\":\"Invoices round half-even, as the PDF renderer does.\",\"wing\":\"billing\"}", 6),
	tool("[tool_result] {\"added\":true}", 6),
	agent("[tool_use mcp__palace__palace_diary] {\"action\":\"read\",\"agent\":\"claude\"}", 6),
	agent("[tool_use Write] {\"file_path\":\"/src/billing/rounding_test.go\",\"content\":\"package billing\\n\"}", 7),
	tool("[tool_result] ok", 7),
	agent("Added rounding_test.go. The golden PDFs still need regenerating. Should I regenerate them now?", 8),
}

func digestOf(t *testing.T, ms []SessionMessage) SessionDigest {
	t.Helper()
	var d SessionDigest
	if err := d.Add(ms, cpOptions); err != nil {
		t.Fatal(err)
	}
	return d
}

// What a checkpoint says of a session: the requests without injected
// context, files by their path in the project (edits apart from reads, a
// search's folder not a file), the sentences the extractor reads a fact
// in, the agent's own saves (a diary read is none), and what the last
// reply leaves open.
func TestCheckpointText(t *testing.T) {
	d := digestOf(t, session)
	text := d.Text("7c1d2e3f", "claude-code")
	want := []string{
		"Asked in turns 1–3: Invoices round wrong on the PDF. Find out why; /compact; Good. Save that decision, and add a test.\n",
		"Files edited: rounding_test.go, rounding.go; read: pdf/render.go.\n",
		"Decisions and facts: We decided to use half-even everywhere.\n",
		"Saved by the agent: note \"Invoices round half-even, as the PDF renderer does.\".\n",
		"Open: The golden PDFs still need regenerating.\nOpen: Should I regenerate them now?\n",
		"Session 7c1d2e3f (claude-code), 2026-11-30 10:00 to 10:08 UTC.",
	}
	got := text
	for _, w := range want {
		i := strings.Index(got, w)
		if i < 0 {
			t.Fatalf("checkpoint text lacks %q (or has it out of order):\n%s", w, text)
		}
		got = got[i+len(w):]
	}
	for _, bad := range []string{"system-reminder", "Monday", "[tool_use", "[thinking]", "I should read", "/src/billing/", "diary \""} {
		if strings.Contains(text, bad) {
			t.Errorf("checkpoint text holds %q:\n%s", bad, text)
		}
	}
	if d.Turns != 3 || d.SavedTurn() != 3 {
		t.Errorf("turns %d, saved at turn %d; want 3 and 3", d.Turns, d.SavedTurn())
	}
}

// The open-thread rule: the latest request while the agent has not
// answered it; else the sentences of the last reply that ask the user or
// name what is left; nothing when the reply closes the work; code in the
// reply is no thread.
func TestCheckpointOpen(t *testing.T) {
	for _, c := range []struct {
		name string
		ms   []SessionMessage
		want []string
	}{
		{"unanswered", []SessionMessage{user("Fix the flaky retry test", 0), agent("Done.", 1), user("Now bump Go to 1.26", 2)},
			[]string{"Now bump Go to 1.26 (not answered yet)"}},
		{"only tool calls since", []SessionMessage{user("Bump Go to 1.26", 0), agent("[tool_use Read] {\"file_path\":\"go.mod\"}", 1)},
			[]string{"Bump Go to 1.26 (not answered yet)"}},
		{"closed", []SessionMessage{user("Fix the flaky retry test", 0), agent("Fixed: the retry waited on the wrong clock. All tests pass.", 1)}, nil},
		{"left and asked", []SessionMessage{user("Migrate the schema", 0),
			agent("Migrated users and orders.\n\n- TODO: the invoices table\n- Could not reach the staging database.\n\n```go\nx := y? z : w\n```\nWant me to retry later?", 1)},
			[]string{"TODO: the invoices table", "Could not reach the staging database.", "Want me to retry later?"}},
		{"no request yet", nil, nil},
	} {
		if got := digestOf(t, c.ms).Open(); !slices.Equal(got, c.want) {
			t.Errorf("%s: open %q, want %q", c.name, got, c.want)
		}
	}
}

// A digest folded a few messages at a time says what one folded at once
// says: checkpoints read a growing session from where they stopped.
func TestCheckpointDigestInParts(t *testing.T) {
	whole := digestOf(t, session).Text("s", "claude-code")
	for step := 1; step < len(session); step++ {
		var d SessionDigest
		for i := 0; i < len(session); i += step {
			d = d.Clone()
			if err := d.Add(session[i:min(i+step, len(session))], cpOptions); err != nil {
				t.Fatal(err)
			}
		}
		if got := d.Text("s", "claude-code"); got != whole {
			t.Fatalf("folded %d at a time:\n%s\nwant\n%s", step, got, whole)
		}
	}
}

// A long session keeps its digest small: the first request and the last
// ones, the files most recently touched (edits kept over reads), the
// latest decisions and saves.
func TestCheckpointBounds(t *testing.T) {
	var ms []SessionMessage
	for i := range 600 {
		ms = append(ms, user(fmt.Sprintf("Step %d: check invoice line %d", i, i), i),
			agent(fmt.Sprintf("[tool_use Read] {\"file_path\":\"/src/billing/f%d.go\"}\n[tool_use mcp__palace__palace_kg] {\"action\":\"add\",\"subject\":\"line %d\",\"predicate\":\"status\",\"object\":\"checked\"}", i, i), i),
			agent(fmt.Sprintf("We decided to use rounding mode %d for line %d.", i, i), i))
	}
	ms = append(ms, agent("[tool_use Edit] {\"file_path\":\"/src/billing/keep.go\"}", 700))
	d := digestOf(t, ms)
	if d.Turns != 600 || d.First.Text != "Step 0: check invoice line 0" || len(d.Recent) != showRequests-1 ||
		len(d.Files) != keepFiles || len(d.Decided) != keepDecided || len(d.Saved) != keepSaved {
		t.Fatalf("turns %d, first %+v, %d recent, %d files, %d decided, %d saved", d.Turns, d.First, len(d.Recent), len(d.Files), len(d.Decided), len(d.Saved))
	}
	text := d.Text("s", "claude-code")
	if len(text) > 3000 || !strings.Contains(text, "Asked in turns 1–600: Step 0: check invoice line 0; …; Step 597") ||
		!strings.Contains(text, "Files edited: keep.go; read: f599.go") || !strings.Contains(text, "(and 16 before)") {
		t.Errorf("%d bytes:\n%s", len(text), text)
	}
}

// Secrets in what a session said never reach the checkpoint, not even its
// metadata (the digest kept for the next one).
func TestCheckpointRedacts(t *testing.T) {
	p := palacetest.OpenPalace(t)
	token := "ghp_" + strings.Repeat("A1b2C3d4", 5)
	ms := []SessionMessage{user("Use the token "+token+" to push", 0),
		agent("[tool_use mcp__palace__palace_remember] {\"text\":\"CI pushes with "+token+"\"}\nPushed with "+token+". Still need to rotate it?", 1)}
	res, err := FileCheckpoint(context.Background(), p, Checkpoint{Wing: "billing", Session: "s1", Agent: "claude-code", Messages: ms, Options: cpOptions})
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.Store.GetDrawer(context.Background(), res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(d.Content, token) || strings.Contains(d.Metadata, token) || !strings.Contains(d.Content, "Use the token") {
		t.Fatalf("a secret reached the checkpoint:\n%s\n%s", d.Content, d.Metadata)
	}
}

// A session has one live checkpoint: a new one replaces the one before
// (removed from search, kept by id), one saying the same is not filed
// again, and it is found by its session whatever wing it went to.
func TestFileCheckpointReplaces(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	file := func(ms []SessionMessage, reader string) CheckpointResult {
		t.Helper()
		res, err := FileCheckpoint(ctx, p, Checkpoint{Wing: "billing", Session: "7c1d2e3f", Agent: "claude-code",
			Messages: ms, Options: cpOptions, Reader: []byte(reader)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := file(session[:3], `{"offset":1}`)
	second := file(session, `{"offset":2}`)
	again := file(session, `{"offset":2}`)
	if !first.Added || !second.Added || again.Added || again.ID != second.ID || !slices.Equal(second.Replaced, []string{first.ID}) {
		t.Fatalf("first %+v\nsecond %+v\nagain %+v", first, second, again)
	}
	if second.TurnFrom != 1 || second.TurnTo != 3 || second.Room != CheckpointRoom || second.SavedTurn != 3 || len(second.Saved) != 1 {
		t.Errorf("second: %+v", second)
	}
	old, err := p.Store.GetDrawer(ctx, first.ID)
	if err != nil || old.DeletedAt == nil {
		t.Errorf("the first checkpoint is still live: %v %+v", err, old.DeletedAt)
	}
	d, err := p.Store.GetDrawer(ctx, second.ID)
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	if err := json.Unmarshal([]byte(d.Metadata), &meta); err != nil {
		t.Fatal(err)
	}
	if d.Kind != store.KindDiary || d.Wing != "billing" || meta["session"] != "7c1d2e3f" || fmt.Sprint(meta["turns"]) != "map[from:1 to:3]" || meta["agent"] != "claude-code" {
		t.Errorf("drawer %s/%s %s, metadata %v", d.Wing, d.Room, d.Kind, meta)
	}
	last, found, err := LastCheckpoint(ctx, p, "7c1d2e3f")
	if err != nil || !found || last.ID != second.ID || last.Text != second.Text || last.Digest.Turns != 3 {
		t.Errorf("last checkpoint: %v %v %+v", err, found, last)
	}
	// The wake-up's recent sessions and open threads read it as an entry.
	w, err := WakeUp(ctx, p, WakeRequest{Wing: "billing", Budget: 400})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.Text, "Should I regenerate them now?") {
		t.Errorf("the wake-up does not show the checkpoint's open thread:\n%s", w.Text)
	}
	if _, found, err := LastCheckpoint(ctx, p, "another-session"); err != nil || found {
		t.Errorf("another session: %v %v", found, err)
	}
	for _, bad := range []Checkpoint{{Wing: "", Session: "s", Agent: "a"}, {Wing: "w", Session: " ", Agent: "a"},
		{Wing: "w", Session: "s\x07", Agent: "a"}, {Wing: "w", Session: "s", Agent: ""}} {
		if _, err := FileCheckpoint(ctx, p, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}
