package hook

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// EventSessionEnd is the end of a session (Claude Code's SessionEnd: the
// user exits, clears or logs out). Its answer is ignored: it files the
// session's checkpoint and mines what is left of the transcript.
const EventSessionEnd = "sessionend"

// Modes of the hooks. In checkpoint mode (the default) Stop, PreCompact
// and SessionEnd file the session's checkpoint and mine its transcript
// without ever holding the agent; in block mode they file it too, and Stop
// also blocks every Every human messages since the last save (a /compact
// typed in Claude Code is held once) to ask the agent to save what only
// it can tell.
const (
	ModeCheckpoint = "checkpoint"
	ModeBlock      = "block"
	DefaultMode    = ModeCheckpoint
)

// Modes lists the modes, default first.
var Modes = []string{ModeCheckpoint, ModeBlock}

// CheckMode accepts a mode; "" is DefaultMode.
func CheckMode(mode string) error {
	switch mode {
	case "", ModeCheckpoint, ModeBlock:
		return nil
	}
	return input.Invalid("mode", "%s: want %s", input.Quote(mode), strings.Join(Modes, " or "))
}

// sessionEndBudget bounds a SessionEnd run: the agent is exiting and
// gives its SessionEnd hooks little time (Claude Code cancels them after
// about 1.5 s), so the checkpoint, which is filed first, must land within
// it; the mine after it stops where it is and the transcript's rest is
// mined by the session's next hook or the next `palace mine`.
const sessionEndBudget = time.Second

// checkpoint files the session's checkpoint and records it in res.
func checkpoint(ctx context.Context, p *palace.Palace, in Input, o RunOptions, res *Result) (ops.CheckpointResult, error) {
	cp, err := ops.Checkpoint(ctx, p, ops.CheckpointRequest{Transcript: res.Transcript, Wing: res.Wing,
		Session: in.SessionID, Agent: o.Agent, Root: in.CWD})
	if err != nil {
		return cp, fmt.Errorf("hook: checkpoint: %w", err)
	}
	res.Checkpoint, res.CheckpointPartial, res.Humans = cp.ID, cp.Partial, cp.TurnTo
	return cp, nil
}

// reinjected is the checkpoint a SessionStart after a compaction puts
// first: what the compaction summed up in the agent's words, the session's
// own lines say again.
func reinjected(ctx context.Context, p *palace.Palace, session string) (string, error) {
	cp, found, err := ops.LastCheckpoint(ctx, p, session)
	if err != nil || !found {
		return "", err
	}
	return fmt.Sprintf("Palace checkpoint of this session before the compaction (%s, filed in wing %s, room %s):\n\n%s",
		turnsName(cp.TurnFrom, cp.TurnTo), cp.Wing, cp.Room, cp.Text), nil
}

// turnsName names the turns a to b: "turn 3", "turns 1–42", "no turn yet".
func turnsName(a, b int) string {
	switch {
	case b < 1 || b < a:
		return "no turn yet"
	case a == b:
		return fmt.Sprintf("turn %d", a)
	}
	return fmt.Sprintf("turns %d–%d", a, b)
}
