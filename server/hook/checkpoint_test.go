package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/ops"
)

// cpSessionID is the Claude Code session of core/ops's checkpoint fixture:
// requests, Read/Grep/Edit/Write and palace_remember calls, a typed
// /compact with its compaction summary, a last reply asking a question.
const cpSessionID = "9d4e2b1a-6c3f-4e8d-b7a2-5f1e0c9d8b7a"

func cpFixture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "core", "ops", "testdata", "checkpoint", cpSessionID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cpSetup is the fixture session in a Claude Code transcript folder, its
// project (wing billing) and a palace.
func cpSetup(t *testing.T, data []byte) *sessionSetup {
	t.Helper()
	s := newSessionSetup(t, nil)
	s.transcript = filepath.Join(filepath.Dir(s.transcript), cpSessionID+".jsonl")
	if err := os.WriteFile(s.transcript, data, 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(s.in.CWD, "palace.yaml"), []byte("wing: billing\n"), 0o644)
	s.in = Input{SessionID: cpSessionID, TranscriptPath: s.transcript, CWD: s.in.CWD}
	s.o.NoProjectMine = true
	return s
}

func (s *sessionSetup) event(t *testing.T, event string, in Input) Result {
	t.Helper()
	o := s.o
	o.Event = event
	ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
	defer cancel()
	res, err := Run(ctx, s.p, in, o)
	if err != nil {
		t.Fatalf("%s: %v", event, err)
	}
	return res
}

// additionalContext is the text of a SessionStart answer.
func additionalContext(t *testing.T, answer []byte) string {
	t.Helper()
	var a struct {
		HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		t.Fatalf("answer %q: %v", answer, err)
	}
	return a.HookSpecificOutput.AdditionalContext
}

// In checkpoint mode (the default) no event ever holds the agent: Stop,
// PreCompact (typed or automatic) and SessionEnd each file the session's
// checkpoint in its wing (one, replaced as the session grows) and mine the
// transcript; the SessionStart after the compaction puts the checkpoint
// first, before the wake-up, and the next one does not.
func TestCheckpointMode(t *testing.T) {
	data := cpFixture(t)
	lines := bytes.SplitAfter(data, []byte("\n"))
	half := bytes.Join(lines[:len(lines)/2], nil)
	s := cpSetup(t, half)

	began := time.Now()
	first := s.event(t, EventStop, s.in)
	firstTook := time.Since(began)
	if first.Answer != nil || first.Checkpoint == "" || first.Wing != "billing" || first.Summary.DrawersAdded == 0 {
		t.Fatalf("first Stop: %+v, answer %s", first, first.Answer)
	}
	s.appendLines(t, data[len(half):])
	for _, c := range []struct {
		event string
		in    Input
	}{
		{EventStop, s.in},
		{EventStop, Input{SessionID: cpSessionID, TranscriptPath: s.transcript, CWD: s.in.CWD, StopHookActive: true}},
		{EventPreCompact, Input{SessionID: cpSessionID, TranscriptPath: s.transcript, CWD: s.in.CWD, Trigger: "manual"}},
		{EventPreCompact, Input{SessionID: cpSessionID, TranscriptPath: s.transcript, CWD: s.in.CWD, Trigger: "auto"}},
	} {
		if res := s.event(t, c.event, c.in); res.Answer != nil || res.Asked || res.Humans != 4 {
			t.Fatalf("%s %+v: %+v, answer %s", c.event, c.in, res, res.Answer)
		}
	}
	cp, found, err := ops.LastCheckpoint(context.Background(), s.p, cpSessionID)
	if err != nil || !found || cp.Wing != "billing" || cp.TurnTo != 4 || !strings.Contains(cp.Text, "Open: Should I switch VAT to integer cents too") {
		t.Fatalf("checkpoint after the session (%v %v): %+v", found, err, cp)
	}
	old, err := s.p.Store.GetDrawer(context.Background(), first.Checkpoint)
	if err != nil || old.DeletedAt == nil {
		t.Errorf("the first Stop's checkpoint %s is still live", first.Checkpoint)
	}

	start := Input{SessionID: cpSessionID, TranscriptPath: s.transcript, CWD: s.in.CWD, Source: "compact"}
	text := additionalContext(t, s.event(t, EventSessionStart, start).Answer)
	at := strings.Index(text, cp.Text)
	if !strings.HasPrefix(text, "Palace checkpoint of this session before the compaction (turns 1–4, filed in wing billing, room checkpoints):") ||
		at < 0 || at > strings.Index(text, "Palace memory for wing billing") {
		t.Fatalf("SessionStart after the compaction:\n%s", text)
	}
	start.Source = "resume"
	if res := s.event(t, EventSessionStart, start); strings.Contains(string(res.Answer), "Palace checkpoint of this session") {
		t.Errorf("a later SessionStart puts the checkpoint first again:\n%s", res.Answer)
	}

	// SessionEnd files what came since, within its second: its bound is
	// that second plus twice what the first Stop (half the session read,
	// mined and filed) took on this machine in this test.
	var vat string
	for _, l := range lines {
		if strings.Contains(string(l), "Now the VAT lines") {
			vat = strings.ReplaceAll(string(l), "Now the VAT lines", "Also the discount lines")
		}
	}
	s.appendLines(t, []byte(vat))
	began = time.Now()
	end := s.event(t, EventSessionEnd, Input{SessionID: cpSessionID, TranscriptPath: s.transcript, CWD: s.in.CWD})
	took := time.Since(began)
	t.Logf("first Stop %v, SessionEnd %v", firstTook, took)
	if end.Answer != nil || end.Humans != 5 || end.Checkpoint == cp.ID || took > sessionEndBudget+2*firstTook {
		t.Fatalf("SessionEnd after %v (the first Stop took %v): %+v", took, firstTook, end)
	}
}

// An agent that does not say "compact" at SessionStart (Codex resumes)
// still gets the checkpoint first after a PreCompact.
func TestCheckpointAfterCompactionWithoutSource(t *testing.T) {
	s := cpSetup(t, cpFixture(t))
	s.event(t, EventPreCompact, Input{SessionID: cpSessionID, TranscriptPath: s.transcript, CWD: s.in.CWD, Trigger: "auto"})
	start := Input{SessionID: cpSessionID, CWD: s.in.CWD, Source: "resume"}
	if text := additionalContext(t, s.event(t, EventSessionStart, start).Answer); !strings.HasPrefix(text, "Palace checkpoint of this session") {
		t.Fatalf("SessionStart after a PreCompact:\n%s", text)
	}
	if text := additionalContext(t, s.event(t, EventSessionStart, start).Answer); strings.Contains(text, "Palace checkpoint of this session") {
		t.Errorf("the next SessionStart has it again:\n%s", text)
	}
}

// Block mode asks every Every human messages since the last save, and its
// reason says which turns those are and what is already saved: the
// checkpoint, and the agent's own saves. A save of the agent's own moves
// the next ask.
func TestBlockModeReason(t *testing.T) {
	data := cpFixture(t) // turn 2 holds the agent's palace_remember
	s := cpSetup(t, data)
	s.o.Mode, s.o.Every = ModeBlock, 3
	if res := s.event(t, EventStop, s.in); res.Asked || res.Humans != 4 {
		t.Fatalf("4 turns, the agent saved at turn 2: %+v", res)
	}
	// Turns 5 and 6 (two more requests): four since the agent's save.
	for i := 5; i <= 6; i++ {
		s.appendLines(t, []byte(fmt.Sprintf(`{"type":"user","sessionId":%q,"cwd":"/home/dana/src/billing","timestamp":"2025-11-30T09:%02d:00.000Z","message":{"role":"user","content":"Step %d: check the discount lines"}}`+"\n", cpSessionID, 20+i, i)))
	}
	res := s.event(t, EventStop, s.in)
	var block struct{ Decision, Reason string }
	if err := json.Unmarshal(res.Answer, &block); err != nil || !res.Asked || block.Decision != "block" {
		t.Fatalf("6 turns: %+v, answer %s", res, res.Answer)
	}
	for _, want := range []string{
		"Palace: turns 3–6 since the last save (turn 2).",
		"Already stored in wing `billing`: the transcript and a checkpoint of turns 1–6",
		`by you in this session, last in turn 2: note "Invoice amounts are integer cents, rounded half-even once per line, as the PDF renderer does."`,
		"`palace_remember`", "`palace_diary`",
	} {
		if !strings.Contains(block.Reason, want) {
			t.Errorf("the reason lacks %q:\n%s", want, block.Reason)
		}
	}
	// The next stop is within the cooldown and one turn later: no ask.
	if res := s.event(t, EventStop, s.in); res.Asked {
		t.Errorf("asked again at once: %s", res.Answer)
	}
}

// A mode other than the two is refused before anything is read.
func TestRunRefusesUnknownMode(t *testing.T) {
	s := cpSetup(t, cpFixture(t))
	s.o.Mode, s.o.Event = "nag", EventStop
	if _, err := Run(context.Background(), s.p, s.in, s.o); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Fatalf("mode nag: %v", err)
	}
}
