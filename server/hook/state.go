package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// sessionState is what a hook remembers of one agent session between
// runs: how many human messages the transcript held when Palace last asked
// the agent to save, and when it asked, so the next prompt comes N human
// messages later and never twice within the cooldown (block mode), and
// whether a compaction happened since the last SessionStart. What the
// session said is in its checkpoint, in the palace.
type sessionState struct {
	// Humans is the count of human messages in the transcript at the last
	// run (the session's checkpoint counts them).
	Humans int `json:"humans"`
	// PromptedAt is the human count at the last save prompt.
	PromptedAt int `json:"prompted_at"`
	// PromptTime is when the last save prompt was answered; zero: never.
	PromptTime time.Time `json:"prompt_time,omitzero"`
	// Compacted says an automatic compaction went ahead unasked (blocking
	// it would trap the session), so in block mode the next SessionStart
	// or Stop asks.
	Compacted bool `json:"compacted,omitempty"`
	// Reinject says a compaction went ahead since the last SessionStart,
	// which puts the session's checkpoint first (agents that do not say
	// "compact" as the SessionStart's source, such as Codex, are known
	// by it).
	Reinject bool `json:"reinject,omitempty"`
}

// statePath is the state file of a session: one file per agent and
// session under the palace home, named by the session id, which
// CheckSessionID has limited to letters, digits, '.', '_' and '-'.
func statePath(home, agent, session string) string {
	return filepath.Join(home, "hooks", "sessions", agent, session+".json")
}

// loadState reads a session's state; a missing file is a new session. A
// damaged file is replaced rather than trusted: the worst case is one
// save prompt early or late.
func loadState(path string) (sessionState, error) {
	var s sessionState
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read hook state %s: %w", path, err)
	}
	if json.Unmarshal(b, &s) != nil {
		return sessionState{}, nil
	}
	return s, nil
}

// saveState writes the state atomically: a temporary file in the same
// folder renamed over the old one, so a hook killed mid-write leaves the
// previous state, never half of one.
func saveState(path string, s sessionState) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return writeAtomic(path, append(b, '\n'), 0o600)
}

// writeAtomic writes b to path through a temporary file renamed into
// place, creating the folder (0700) when needed.
func writeAtomic(path string, b []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, ".palace-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
