package hook

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/ops"
)

// Save prompts (block mode): every DefaultEvery human messages since the
// last save (the last prompt, or the agent's own last save through
// Palace's tools) the Stop hook asks the agent to save, never twice within
// Cooldown (a prompt answered by a quick save must not prompt again at the
// next stop).
const (
	DefaultEvery = 15
	MaxEvery     = 1000
	Cooldown     = 30 * time.Second
)

// savePrompt is the reason a blocking answer gives the agent; {{why}},
// {{saved}} and {{wing}} are filled in.
//
//go:embed save-prompt.md
var savePrompt string

// saveReason is the reason a block gives: why now (the turns since the
// last save), and what is already saved, so the agent saves only the rest.
func saveReason(why string, cp ops.CheckpointResult, wing string) string {
	saved := "the transcript"
	if cp.ID != "" {
		saved = fmt.Sprintf("the transcript and a checkpoint of %s (what was asked, the files touched, the decisions and facts read, what is open)", turnsName(cp.TurnFrom, cp.TurnTo))
	}
	if len(cp.Saved) > 0 {
		saved += fmt.Sprintf("; by you in this session, last in turn %d: %s", cp.SavedTurn, strings.Join(cp.Saved, "; "))
	} else {
		saved += "; nothing by you in this session yet"
	}
	r := strings.NewReplacer("{{why}}", why, "{{saved}}", saved, "{{wing}}", wing)
	return strings.TrimSpace(r.Replace(savePrompt))
}

// sinceSave says which turns came since the last save, at turn (0: none).
func sinceSave(last, humans int) string {
	if last == 0 {
		return fmt.Sprintf("%s since the session started, nothing saved yet.", turnsName(1, humans))
	}
	return fmt.Sprintf("%s since the last save (turn %d).", turnsName(last+1, humans), last)
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

// lastSave is the turn of the session's last save: the last prompt, or
// the agent's own last save (savedTurn) when later.
func lastSave(st sessionState, savedTurn int) int {
	return max(st.PromptedAt, savedTurn)
}

// askToSave decides whether this Stop asks the agent to save, given the
// session's state, the transcript's human messages now and the turn the
// agent last saved in by itself, and returns the state to keep. A stop
// caused by an earlier block (stopActive) never blocks again: the agent
// must be able to stop.
func askToSave(st sessionState, humans, savedTurn, every int, now time.Time, stopActive bool) (bool, sessionState) {
	if humans < st.PromptedAt { // a transcript rewritten shorter: count again
		st.PromptedAt = 0
	}
	st.Humans = humans
	due := humans-lastSave(st, min(savedTurn, humans)) >= every || st.Compacted
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
