package hook

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestAskToSave(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name       string
		st         sessionState
		humans     int
		now        time.Time
		stopActive bool
		ask        bool
	}{
		{"fourteen since the start", sessionState{}, 14, t0, false, false},
		{"fifteen since the start", sessionState{}, 15, t0, false, true},
		{"one since the last prompt", sessionState{PromptedAt: 15, PromptTime: t0}, 16, t0.Add(time.Hour), false, false},
		{"fifteen since the last prompt", sessionState{PromptedAt: 15, PromptTime: t0}, 30, t0.Add(time.Hour), false, true},
		{"due while a stop hook is active", sessionState{}, 15, t0, true, false},
		{"due within the cooldown", sessionState{PromptedAt: 0, PromptTime: t0}, 15, t0.Add(29 * time.Second), false, false},
		{"due just after the cooldown", sessionState{PromptedAt: 0, PromptTime: t0}, 15, t0.Add(30 * time.Second), false, true},
		{"a prompt time from a clock that moved back", sessionState{PromptTime: t0.Add(time.Hour)}, 15, t0, false, true},
		{"a compaction since the last save", sessionState{PromptedAt: 10, Compacted: true}, 11, t0, false, true},
		{"a transcript rewritten shorter", sessionState{PromptedAt: 40}, 15, t0, false, true},
	} {
		ask, st := askToSave(c.st, c.humans, DefaultEvery, c.now, c.stopActive)
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
// reason, SessionStart's hookSpecificOutput with additionalContext.
func TestAnswers(t *testing.T) {
	var block map[string]string
	if err := json.Unmarshal(blockAnswer(saveReason("15 human messages since the last save.", "shop")), &block); err != nil {
		t.Fatal(err)
	}
	if len(block) != 2 || block["decision"] != "block" || !strings.HasPrefix(block["reason"], "Palace: 15 human messages since the last save.") ||
		!strings.Contains(block["reason"], "wing `shop`") || strings.Contains(block["reason"], "{{") {
		t.Errorf("block: %v", block)
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
