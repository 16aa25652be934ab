package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// cpSession is a Claude Code session in its documented log shape: a
// summary line, requests wrapped in system reminders, thinking, text and
// tool calls streamed one block a line under one message id (Read, Grep,
// Edit, Write, Palace's palace_remember over MCP), their results, a typed
// /compact with its compact_boundary line and compaction summary, and a
// last reply that asks the user something.
const cpSession = "9d4e2b1a-6c3f-4e8d-b7a2-5f1e0c9d8b7a"

func cpLog(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "checkpoint", cpSession+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeLog(t *testing.T, dir string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, cpSession+".jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func cpRequest(path string) CheckpointRequest {
	return CheckpointRequest{Transcript: path, Wing: "billing", Session: cpSession, Agent: "claude-code"}
}

// A session's checkpoint quotes it: the human requests (the compaction
// summary and injected reminders are not the human's), the files by their
// path in the session's folder, the decision the extractor reads, the
// agent's own note, and the question its last reply leaves open.
func TestCheckpointOfClaudeCodeSession(t *testing.T) {
	p := palacetest.OpenPalace(t)
	res, err := Checkpoint(context.Background(), p, cpRequest(writeLog(t, t.TempDir(), cpLog(t))))
	if err != nil {
		t.Fatal(err)
	}
	want := "Asked in turns 1–4: Invoice totals on the PDF are off by a cent now and then. Find out why; Make them agree. Use integer cents everywhere; /compact; Now the VAT lines: are they rounded the same way?\n" +
		"Files edited: invoice/total_test.go, invoice/total.go; read: invoice/vat.go, pdf/render.go.\n" +
		"Decisions and facts: We decided to use integer cents for every amount, rounding half-even once per line. | Totals now use integer cents and the new test passes.\n" +
		"Saved by the agent: note \"Invoice amounts are integer cents, rounded half-even once per line, as the PDF renderer does.\".\n" +
		"Open: Should I switch VAT to integer cents too and regenerate the golden files?\n" +
		"Session " + cpSession + " (claude-code), 2025-11-30 09:00 to 09:12 UTC."
	if res.Text != want {
		t.Fatalf("checkpoint:\n%s\nwant:\n%s", res.Text, want)
	}
	if !res.Added || res.TurnFrom != 1 || res.TurnTo != 4 || res.SavedTurn != 2 || res.Partial || res.Wing != "billing" || res.Room != CheckpointRoom {
		t.Errorf("result: %+v", res)
	}
	again, err := Checkpoint(context.Background(), p, cpRequest(writeLog(t, t.TempDir(), cpLog(t))))
	if err != nil || again.ID != res.ID || again.Added {
		t.Errorf("the same session again: %v %+v", err, again)
	}
}

// A session read as it grows (each checkpoint from where the last one
// stopped) gets the checkpoint one read of the whole log gives, every
// earlier checkpoint replaced; a log rewritten since is read again from
// its start.
func TestCheckpointFollowsTheLog(t *testing.T) {
	ctx := context.Background()
	log := cpLog(t)
	whole, err := Checkpoint(ctx, palacetest.OpenPalace(t), cpRequest(writeLog(t, t.TempDir(), log)))
	if err != nil {
		t.Fatal(err)
	}
	p := palacetest.OpenPalace(t)
	path := writeLog(t, t.TempDir(), nil)
	lines := bytes.SplitAfter(log, []byte("\n"))
	var ids []string
	for i, l := range lines {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Half a line first: a line still being written waits.
		f.Write(l[:len(l)/2])
		if _, err := Checkpoint(ctx, p, cpRequest(path)); err != nil {
			t.Fatalf("line %d, half written: %v", i+1, err)
		}
		f.Write(l[len(l)/2:])
		f.Close()
		res, err := Checkpoint(ctx, p, cpRequest(path))
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if len(ids) == 0 || ids[len(ids)-1] != res.ID {
			ids = append(ids, res.ID)
		}
	}
	last, found, err := LastCheckpoint(ctx, p, cpSession)
	if err != nil || !found || last.Text != whole.Text {
		t.Fatalf("read as it grew (%v):\n%s\nread whole:\n%s", err, last.Text, whole.Text)
	}
	var reader checkpointReader
	if err := json.Unmarshal(last.Reader, &reader); err != nil || reader.Resume.Offset == 0 || reader.Resume.Offset >= int64(len(log)) {
		t.Errorf("reader %+v (%v): want it at the last message, inside the log", reader, err)
	}
	for _, id := range ids[:len(ids)-1] {
		d, err := p.Store.GetDrawer(ctx, id)
		if err != nil || d.DeletedAt == nil {
			t.Errorf("checkpoint %s is still live beside %s", id, last.ID)
		}
	}

	// Rewritten: another session's lines in the same file.
	other := strings.ReplaceAll(string(lines[0])+string(lines[1]), "Invoice totals on the PDF are off by a cent", "Shipping labels print twice")
	if err := os.WriteFile(path, []byte(other), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := Checkpoint(ctx, p, cpRequest(path))
	if err != nil || res.TurnTo != 1 || !strings.HasPrefix(res.Text, "Asked in turn 1: Shipping labels print twice now and then. Find out why.") {
		t.Fatalf("rewritten log (%v):\n%s", err, res.Text)
	}
}

// Codex's edits are apply_patch calls: the files they name are edited.
func TestCheckpointOfCodexSession(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "convo", "testdata", "codex", "rollout-2025-09-14T10-20-30-0199453c-7d2e-7c31-9b8a-2f6d4e1a5c90.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rollout-2025-09-14T10-20-30-0199453c-7d2e-7c31-9b8a-2f6d4e1a5c90.jsonl")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := Checkpoint(context.Background(), palacetest.OpenPalace(t), CheckpointRequest{Transcript: path, Wing: "billing",
		Session: "0199453c-7d2e-7c31-9b8a-2f6d4e1a5c90", Agent: "codex"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Text, "Asked in turns 1–") || !strings.Contains(res.Text, "Why does invoice rounding differ from the PDF by one cent?") ||
		!strings.Contains(res.Text, "Files edited: invoice/total.go") || strings.Contains(res.Text, "environment_context") {
		t.Errorf("codex checkpoint:\n%s", res.Text)
	}
}

func TestCheckpointRefuses(t *testing.T) {
	p := palacetest.OpenPalace(t)
	garbage := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(garbage, []byte("not a session\n"), 0o600)
	for _, r := range []CheckpointRequest{
		{Transcript: "", Wing: "w", Session: "s", Agent: "a"},
		{Transcript: "rel/x.jsonl", Wing: "w", Session: "s", Agent: "a"},
		{Transcript: "/x.jsonl", Wing: "", Session: "s", Agent: "a"},
		{Transcript: "/x.jsonl", Wing: "w", Session: "", Agent: "a"},
		{Transcript: garbage, Wing: "w", Session: "s", Agent: "a"},
	} {
		if _, err := Checkpoint(context.Background(), p, r); !errors.Is(err, input.ErrInvalid) {
			t.Errorf("%+v: %v", r, err)
		}
	}
}
