package hook

import (
	_ "embed"
	"encoding/json"
	"strings"
	"time"
)

// Save prompts: every DefaultEvery human messages the Stop hook asks the
// agent to save, never twice within Cooldown (a prompt answered by a
// quick save must not prompt again at the next stop).
const (
	DefaultEvery = 15
	MaxEvery     = 1000
	Cooldown     = 30 * time.Second
)

// savePrompt is the reason a blocking answer gives the agent; {{why}} and
// {{wing}} are filled in.
//
//go:embed save-prompt.md
var savePrompt string

func saveReason(why, wing string) string {
	r := strings.NewReplacer("{{why}}", why, "{{wing}}", wing)
	return strings.TrimSpace(r.Replace(savePrompt))
}

// blockAnswer is the documented answer of a Stop hook (Claude Code and
// Codex alike) or a Claude Code PreCompact hook that blocks: the agent
// does not stop (compaction does not start) and reads reason.
func blockAnswer(reason string) []byte {
	b, _ := json.Marshal(struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}{"block", reason})
	return b
}

// contextAnswer is the documented answer of a SessionStart hook that adds
// context to the session (Claude Code and Codex alike).
func contextAnswer(text string) []byte {
	type specific struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}
	b, _ := json.Marshal(struct {
		HookSpecificOutput specific `json:"hookSpecificOutput"`
	}{specific{"SessionStart", text}})
	return b
}

// askToSave decides whether this Stop asks the agent to save, given the
// session's state and the transcript's human messages now, and returns
// the state to keep. A stop caused by an earlier block (stopActive) never
// blocks again: the agent must be able to stop.
func askToSave(st sessionState, humans, every int, now time.Time, stopActive bool) (bool, sessionState) {
	if humans < st.PromptedAt { // a transcript rewritten shorter: count again
		st.PromptedAt = 0
	}
	st.Humans = humans
	due := humans-st.PromptedAt >= every || st.Compacted
	if stopActive || !due || inCooldown(st, now) {
		return false, st
	}
	return true, prompted(st, humans, now)
}

func inCooldown(st sessionState, now time.Time) bool {
	// A prompt time far in the future is a clock that moved back: it
	// must not silence the hook until the clock catches up.
	d := now.Sub(st.PromptTime)
	return !st.PromptTime.IsZero() && d < Cooldown && d > -time.Minute
}

func prompted(st sessionState, humans int, now time.Time) sessionState {
	st.PromptedAt, st.PromptTime, st.Compacted = humans, now.UTC(), false
	return st
}
