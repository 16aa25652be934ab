package hook

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/ops"
)

func TestAskToSave(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name       string
		st         sessionState
		humans     int
		saved      int // the turn the agent last saved in by itself
		now        time.Time
		stopActive bool
		ask        bool
	}{
		{"fourteen since the start", sessionState{}, 14, 0, t0, false, false},
		{"fifteen since the start", sessionState{}, 15, 0, t0, false, true},
		{"one since the last prompt", sessionState{PromptedAt: 15, PromptTime: t0}, 16, 0, t0.Add(time.Hour), false, false},
		{"fifteen since the last prompt", sessionState{PromptedAt: 15, PromptTime: t0}, 30, 0, t0.Add(time.Hour), false, true},
		{"fifteen since the start, the agent saved at turn 5", sessionState{}, 15, 5, t0, false, false},
		{"fifteen since the agent saved by itself", sessionState{}, 20, 5, t0, false, true},
		{"a save before the last prompt changes nothing", sessionState{PromptedAt: 15, PromptTime: t0}, 30, 10, t0.Add(time.Hour), false, true},
		{"due while a stop hook is active", sessionState{}, 15, 0, t0, true, false},
		{"due within the cooldown", sessionState{PromptedAt: 0, PromptTime: t0}, 15, 0, t0.Add(29 * time.Second), false, false},
		{"due just after the cooldown", sessionState{PromptedAt: 0, PromptTime: t0}, 15, 0, t0.Add(30 * time.Second), false, true},
		{"a prompt time from a clock that moved back", sessionState{PromptTime: t0.Add(time.Hour)}, 15, 0, t0, false, true},
		{"a compaction since the last save", sessionState{PromptedAt: 10, Compacted: true}, 11, 0, t0, false, true},
		{"a transcript rewritten shorter", sessionState{PromptedAt: 40}, 15, 0, t0, false, true},
	} {
		ask, st := askToSave(c.st, c.humans, c.saved, DefaultEvery, c.now, c.stopActive)
		if ask != c.ask {
			t.Errorf("%s: ask %v, want %v", c.name, ask, c.ask)
		}
		if ask && (st.PromptedAt != c.humans || !st.PromptTime.Equal(c.now) || st.Compacted) {
			t.Errorf("%s: state after a prompt %+v", c.name, st)
		}
		if !ask && (st.PromptedAt > c.humans || st.PromptTime != c.st.PromptTime) {
			t.Errorf("%s: state changed without a prompt: %+v", c.name, st)
		}
	}
}

// The answers are the shapes the agents document: a Stop block with a
// reason, SessionStart's hookSpecificOutput with additionalContext. The
// reason names the turns since the last save and what is already saved.
func TestAnswers(t *testing.T) {
	cp := ops.CheckpointResult{ID: "d_1", TurnFrom: 1, TurnTo: 30, SavedTurn: 12, Saved: []string{`note "Invoices round half-even"`}}
	for _, c := range []struct {
		why  string
		cp   ops.CheckpointResult
		want []string
	}{
		{sinceSave(15, 30), cp, []string{"Palace: turns 16–30 since the last save (turn 15).",
			"a checkpoint of turns 1–30", `by you in this session, last in turn 12: note "Invoices round half-even"`}},
		{sinceSave(0, 15), ops.CheckpointResult{ID: "d_2", TurnFrom: 1, TurnTo: 15}, []string{"Palace: turns 1–15 since the session started, nothing saved yet.",
			"a checkpoint of turns 1–15", "nothing by you in this session yet"}},
	} {
		var block map[string]string
		if err := json.Unmarshal(blockAnswer(saveReason(c.why, c.cp, "shop")), &block); err != nil {
			t.Fatal(err)
		}
		ok := len(block) == 2 && block["decision"] == "block" && strings.HasPrefix(block["reason"], c.want[0]) &&
			strings.Contains(block["reason"], "wing `shop`") && !strings.Contains(block["reason"], "{{")
		for _, w := range c.want[1:] {
			ok = ok && strings.Contains(block["reason"], w)
		}
		if !ok {
			t.Errorf("block: %v\nwant %q", block, c.want)
		}
	}
	var ctx struct {
		HookSpecificOutput map[string]string `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(contextAnswer("L0: Kai"), &ctx); err != nil {
		t.Fatal(err)
	}
	if ctx.HookSpecificOutput["hookEventName"] != "SessionStart" || ctx.HookSpecificOutput["additionalContext"] != "L0: Kai" {
		t.Errorf("context: %+v", ctx)
	}
}
