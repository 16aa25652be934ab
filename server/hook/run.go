package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/fsx"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// Run defaults and bounds.
const (
	// DefaultTimeout is how long a hook may take in all: the agent waits
	// for it, so it must be short whatever the palace's state.
	DefaultTimeout = 5 * time.Second
	// MaxInput caps the hook JSON read from stdin: the fields Palace reads
	// are a few hundred bytes; anything far larger is not a hook payload.
	MaxInput = 1 << 20
	// FallbackWing receives transcripts whose hook payload names no usable
	// working folder.
	FallbackWing = "sessions"
	maxSessionID = 128
	maxPath      = 4096
)

// Input is what the agent sends on stdin. Claude Code and Codex send the
// same fields for Stop and PreCompact; others are ignored.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
}

// ReadInput reads the hook JSON from r, at most MaxInput bytes.
func ReadInput(r io.Reader) (Input, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return Input{}, fmt.Errorf("read hook input: %w", err)
	}
	if len(b) > MaxInput {
		return Input{}, input.Invalid("hook input", "is over %d bytes", MaxInput)
	}
	var in Input
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&in); err != nil {
		return Input{}, input.Invalid("hook input", "is not a JSON object (%v)", err)
	}
	return in, nil
}

var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// CheckSessionID accepts the ids agents use (UUIDs and the like). The id is
// only logged, never used in a path or a command, but an id like
// "$(rm -rf ~)" or "../../x" is not an agent's and says the input is forged.
func CheckSessionID(id string) error {
	if id == "" {
		return input.Invalid("session_id", "is empty")
	}
	if len(id) > maxSessionID || !sessionIDPattern.MatchString(id) {
		return input.Invalid("session_id", "%s is not a session id (letters, digits, '.', '_', '-')", input.Quote(id))
	}
	return nil
}

// TranscriptRoots are the folders an agent keeps its transcripts in:
// Claude Code's projects folder ($CLAUDE_CONFIG_DIR/projects, else
// ~/.claude/projects), Codex's sessions ($CODEX_HOME/sessions and
// archived_sessions, else under ~/.codex).
func TranscriptRoots(agent, userHome string, env Env) []string {
	get := os.Getenv
	if env != nil {
		get = env
	}
	switch agent {
	case AgentClaudeCode:
		if d := get("CLAUDE_CONFIG_DIR"); d != "" {
			return []string{filepath.Join(d, "projects")}
		}
		return []string{filepath.Join(userHome, ".claude", "projects")}
	case AgentCodex:
		d := get("CODEX_HOME")
		if d == "" {
			d = filepath.Join(userHome, ".codex")
		}
		return []string{filepath.Join(d, "sessions"), filepath.Join(d, "archived_sessions")}
	}
	return nil
}

// CheckTranscript resolves the transcript path the agent sent and returns
// it if it is a regular .jsonl file inside one of roots, after following
// symbolic links: a path with "..", a link out of the agent's folder, a
// device or a folder is refused.
func CheckTranscript(path string, roots []string) (string, error) {
	switch {
	case path == "":
		return "", input.Invalid("transcript_path", "is empty")
	case len(path) > maxPath || strings.ContainsRune(path, 0):
		return "", input.Invalid("transcript_path", "is not a usable path")
	case !filepath.IsAbs(path):
		return "", input.Invalid("transcript_path", "%s is not absolute", input.Quote(path))
	case filepath.Clean(path) != path:
		return "", input.Invalid("transcript_path", "%s is not a clean path", input.Quote(path))
	case !strings.HasSuffix(path, ".jsonl"):
		return "", input.Invalid("transcript_path", "%s is not a .jsonl transcript", input.Quote(path))
	}
	// Inside refuses a path outside the roots before looking at it, so the
	// answer does not tell whether such a file exists.
	real, at, err := fsx.Inside(path, roots)
	if err != nil {
		return "", input.Invalid("transcript_path", "%s: %v", input.Quote(path), err)
	}
	if at < 0 {
		return "", input.Invalid("transcript_path", "%s is outside the agent's transcript folders (%s)", input.Quote(path), strings.Join(roots, ", "))
	}
	if !strings.HasSuffix(real, ".jsonl") {
		return "", input.Invalid("transcript_path", "%s leads to %s, not a .jsonl transcript", input.Quote(path), input.Quote(real))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", input.Invalid("transcript_path", "%s: %v", input.Quote(path), err)
	}
	if !fi.Mode().IsRegular() {
		return "", input.Invalid("transcript_path", "%s is not a regular file", input.Quote(path))
	}
	return real, nil
}

// WingFor is the wing a session in cwd belongs to: the wing of the nearest
// palace.yaml at or above cwd (its wing, else its folder's name), else
// cwd's folder name, the same rule as `palace mine`. A missing, relative
// or unreadable cwd gives FallbackWing.
func WingFor(cwd string) string {
	if cwd == "" || len(cwd) > maxPath || strings.ContainsRune(cwd, 0) || !filepath.IsAbs(cwd) {
		return FallbackWing
	}
	cwd = filepath.Clean(cwd)
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return FallbackWing
	}
	for d := cwd; ; d = filepath.Dir(d) {
		if cfg, err := mine.LoadConfig(d); err == nil && cfg != nil {
			return mine.WingOf(d, cfg)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return mine.Slug(filepath.Base(cwd))
}

// RunOptions configure a hook run.
type RunOptions struct {
	Agent string
	Event string
	// Roots are the folders transcripts must lie in; nil means
	// TranscriptRoots(Agent, UserHome, Env).
	Roots    []string
	UserHome string
	Env      Env
}

// Result says what a hook run did.
type Result struct {
	Agent      string        `json:"agent"`
	Event      string        `json:"event"`
	Session    string        `json:"session"`
	Transcript string        `json:"transcript"`
	Wing       string        `json:"wing"`
	Summary    *mine.Summary `json:"summary,omitempty"`
	Embedded   int           `json:"embedded"`
	Pending    int           `json:"pending"`
	// Partial says the deadline came before the end of the transcript:
	// what was read is stored, and the next run goes on from there.
	Partial bool `json:"partial,omitempty"`
}

// Check validates the input and returns the transcript to mine and its
// wing, touching nothing.
func Check(in Input, o RunOptions) (transcript, wing string, err error) {
	switch o.Agent {
	case AgentClaudeCode, AgentCodex:
	default:
		return "", "", input.Invalid("agent", "%s: want %s", input.Quote(o.Agent), strings.Join(Agents, " or "))
	}
	switch o.Event {
	case EventStop, EventPreCompact:
	default:
		return "", "", input.Invalid("event", "%s: want stop or precompact", input.Quote(o.Event))
	}
	if err := CheckSessionID(in.SessionID); err != nil {
		return "", "", err
	}
	roots := o.Roots
	if roots == nil {
		roots = TranscriptRoots(o.Agent, o.UserHome, o.Env)
	}
	if transcript, err = CheckTranscript(in.TranscriptPath, roots); err != nil {
		return "", "", err
	}
	return transcript, WingFor(in.CWD), nil
}

// Run mines the session's transcript into its wing, incrementally (an
// unchanged transcript costs a stat; a grown one is read from its last
// exchange on, so a run costs what was appended), then embeds what it can
// before ctx's deadline. The caller bounds ctx: the agent is waiting. A
// transcript too long to mine before the deadline is stored piece by
// piece, in order (Result.Partial), and the next run goes on from the
// last piece stored, so every session is stored whole in the end.
// Embedding that does not finish is resumed by the next mine or `palace
// reindex`.
func Run(ctx context.Context, p *palace.Palace, in Input, o RunOptions) (Result, error) {
	res := Result{Agent: o.Agent, Event: o.Event, Session: in.SessionID}
	transcript, wing, err := Check(in, o)
	if err != nil {
		return res, err
	}
	res.Transcript, res.Wing = transcript, wing
	// Embedding is asked for only when the mine added drawers: loading the
	// model costs more than most hook runs take.
	m, err := ops.Mine(ctx, p, ops.MineRequest{Path: transcript, Wing: wing, Mode: mine.ModeConvos, NoVectors: true})
	res.Summary = m.Summary
	if err != nil && m.Summary != nil && mine.IsInterrupted(err) && ctx.Err() != nil {
		res.Partial = true
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("hook: %w", err)
	}
	if m.DrawersAdded == 0 {
		return res, nil
	}
	v, err := ops.Embed(ctx, p, ops.EmbedRequest{})
	res.Embedded, res.Pending = v.Embedded, v.Pending
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return res, fmt.Errorf("hook: %w", err)
	}
	return res, nil
}
