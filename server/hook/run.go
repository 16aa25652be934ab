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
// same fields; others are ignored.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	// StopHookActive (Stop) says the agent goes on because a stop hook
	// blocked: blocking again could keep it from ever stopping.
	StopHookActive bool `json:"stop_hook_active"`
	// Trigger (PreCompact) is "manual" (/compact) or "auto".
	Trigger string `json:"trigger"`
	// Source (SessionStart) is startup, resume, clear or compact.
	Source string `json:"source"`
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
	return agentTranscriptRoots(agent, userHome, get)
}

// findRollout finds Codex's transcript of a session in its folders
// (sessions/YYYY/MM/DD/rollout-TIME-ID.jsonl), or returns "".
func findRollout(roots []string, session string) string {
	suffix := "-" + session + ".jsonl"
	for _, root := range roots {
		matches, _ := filepath.Glob(filepath.Join(root, "*", "*", "*", "rollout-*"+suffix))
		if len(matches) > 0 {
			return matches[len(matches)-1]
		}
	}
	return ""
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

// WingFor is the wing a session in cwd belongs to: ops.ResolveWing's, the
// one answer every front gives (the nearest palace.yaml at or above cwd,
// else the git work tree's root, else cwd's own name). A missing,
// relative or unreadable cwd, a file, one that belongs to no project (a
// home folder) or whose palace.yaml cannot be read gives FallbackWing.
func WingFor(cwd string) string {
	if len(cwd) > maxPath || !filepath.IsAbs(cwd) {
		return FallbackWing
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return FallbackWing
	}
	w, err := ops.ResolveWing(cwd)
	if err != nil {
		return FallbackWing
	}
	return w.Wing
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
	// Home is the palace home, where each session's hook state is kept.
	Home string
	// Every is how many human messages pass between save prompts; 0 is
	// DefaultEvery.
	Every int
	// NoProjectMine keeps Stop from mining the session's project folder.
	NoProjectMine bool
	// Mode is ModeCheckpoint (also "") or ModeBlock.
	Mode string
	// Budget is the most tokens SessionStart's wake-up may take; 0 is the
	// project's palace.yaml (wake_up.budget), else the wake-up's default.
	Budget int
	// Now is the clock of the cooldown; nil is time.Now.
	Now func() time.Time
}

// Result says what a hook run did.
type Result struct {
	Agent      string           `json:"agent"`
	Event      string           `json:"event"`
	Session    string           `json:"session"`
	Transcript string           `json:"transcript,omitempty"`
	Wing       string           `json:"wing"`
	Summary    *ops.MineSummary `json:"summary,omitempty"`
	Embedded   int              `json:"embedded"`
	Pending    int              `json:"pending"`
	// Partial says the deadline came before the end of the transcript:
	// what was read is stored, and the next run goes on from there.
	Partial bool `json:"partial,omitempty"`
	// Project is the project folder a Stop mined, with its summary.
	Project        string           `json:"project,omitempty"`
	ProjectSummary *ops.MineSummary `json:"project_summary,omitempty"`
	// Humans is the count of human messages in the transcript.
	Humans int `json:"humans,omitempty"`
	// Checkpoint is the id of the session's checkpoint as this run left
	// it (filed or already standing); CheckpointPartial says it covers
	// only the turns read so far (a long session seen for the first
	// time), and the next run goes on.
	Checkpoint        string `json:"checkpoint,omitempty"`
	CheckpointPartial bool   `json:"checkpoint_partial,omitempty"`
	// ProjectError says why the project could not be mined.
	ProjectError string `json:"project_error,omitempty"`
	// Asked says the answer asks the agent to save (a Stop or PreCompact
	// block, or a SessionStart after an automatic compaction).
	Asked bool `json:"asked,omitempty"`
	// Answer is what to write to standard output for the agent, in its
	// hook protocol; nil: nothing.
	Answer []byte `json:"-"`
}

// Check validates the input and returns the transcript to mine and its
// wing, touching nothing.
func Check(in Input, o RunOptions) (transcript, wing string, err error) {
	if !IsAgent(o.Agent) {
		return "", "", input.Invalid("agent", "%s: want %s", input.Quote(o.Agent), strings.Join(Agents, ", "))
	}
	switch o.Event {
	case EventStop, EventPreCompact, EventSessionStart, EventSessionEnd:
	default:
		return "", "", input.Invalid("event", "%s: want stop, precompact, sessionstart or sessionend", input.Quote(o.Event))
	}
	if err := CheckMode(o.Mode); err != nil {
		return "", "", err
	}
	if o.Every < 0 || o.Every > MaxEvery {
		return "", "", input.Invalid("every", "%d: want 1 to %d human messages (0: %d)", o.Every, MaxEvery, DefaultEvery)
	}
	if err := ops.CheckGiven("budget", o.Budget, ops.MaxWakeBudget); o.Budget != 0 && err != nil {
		return "", "", err
	}
	if err := CheckSessionID(in.SessionID); err != nil {
		return "", "", err
	}
	if o.Event == EventSessionStart {
		// A session that starts may have no transcript yet, and this
		// event reads none.
		return "", WingFor(in.CWD), nil
	}
	roots := o.Roots
	if roots == nil {
		roots = TranscriptRoots(o.Agent, o.UserHome, o.Env)
	}
	path := in.TranscriptPath
	if path == "" {
		// Codex documents transcript_path as nullable: its rollout file
		// is then the one named by the session id (see findTranscript).
		path = findTranscript(o.Agent, roots, in.SessionID)
	}
	if transcript, err = CheckTranscript(path, roots); err != nil {
		return "", "", err
	}
	return transcript, WingFor(in.CWD), nil
}

// Run does what the event asks. Stop, PreCompact and SessionEnd file the
// session's checkpoint in its wing (see ops.Checkpoint), then mine its
// transcript there, incrementally (an unchanged transcript costs a stat; a
// grown one is read from its last exchange on, so a run costs what was
// appended); Stop also mines the project folder. In block mode, Stop and
// a typed /compact may answer with a request to save (see askToSave); in
// checkpoint mode nothing ever holds the agent. SessionStart answers with
// the wake-up of the session's wing, after a compaction with the
// session's checkpoint first. What was mined is embedded before ctx's
// deadline; the caller bounds ctx: the agent is waiting. A transcript too
// long to mine before the deadline is stored piece by piece, in order
// (Result.Partial), and the next run goes on from the last piece stored,
// so every session is stored whole in the end. Embedding that does not
// finish is resumed by the next mine or `palace reindex`.
func Run(ctx context.Context, p *palace.Palace, in Input, o RunOptions) (Result, error) {
	res := Result{Agent: o.Agent, Event: o.Event, Session: in.SessionID}
	transcript, wing, err := Check(in, o)
	if err != nil {
		return res, err
	}
	res.Transcript, res.Wing = transcript, wing
	if o.Home == "" {
		return res, errors.New("hook: no palace home to keep the session's state in")
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	path := statePath(o.Home, o.Agent, in.SessionID)
	st, err := loadState(path)
	if err != nil {
		return res, fmt.Errorf("hook: %w", err)
	}
	if o.Event == EventSessionStart {
		return sessionStart(ctx, p, in, o, res, st, path, now())
	}
	if o.Event == EventSessionEnd {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sessionEndBudget)
		defer cancel()
	}
	// The checkpoint first: it is what the next session needs, and it is
	// read from where the last one stopped, so it lands whatever time the
	// mine below takes.
	cp, err := checkpoint(ctx, p, in, o, &res)
	if err != nil {
		return res, err
	}
	added, err := mineTranscript(ctx, p, &res)
	if err != nil {
		return res, err
	}
	if o.Event == EventStop && !o.NoProjectMine && !res.Partial {
		added += mineProject(ctx, p, in.CWD, o.UserHome, &res)
	}
	if added > 0 {
		v, err := ops.Embed(ctx, p, ops.EmbedRequest{})
		res.Embedded, res.Pending = v.Embedded, v.Pending
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			return res, fmt.Errorf("hook: %w", err)
		}
	}
	var why string
	switch {
	case o.Event == EventPreCompact && o.Mode != ModeBlock:
		st.Humans, st.Reinject = res.Humans, true
	case o.Event == EventStop && o.Mode == ModeBlock:
		every := o.Every
		if every == 0 {
			every = DefaultEvery
		}
		why = sinceSave(lastSave(st, min(cp.SavedTurn, res.Humans)), res.Humans)
		if st.Compacted {
			why = "the context was compacted since the last save; " + why
		}
		res.Asked, st = askToSave(st, res.Humans, cp.SavedTurn, every, now(), in.StopHookActive)
	case o.Event == EventPreCompact && in.Trigger == "manual" && o.Agent == AgentClaudeCode && !inCooldown(st, now()):
		// Block mode. A blocked /compact is typed again once the agent
		// has saved. Codex's PreCompact can only end the turn, and
		// blocking an automatic compaction traps a session that has no
		// room left, so those go ahead and the ask waits for the next
		// SessionStart or Stop.
		why, res.Asked = "you asked to compact the context; save first, then compact again.", true
		st = prompted(st, res.Humans, now())
	case o.Event == EventPreCompact:
		// Block mode. Right after a save prompt, the compaction loses
		// nothing new.
		st.Humans, st.Compacted, st.Reinject = res.Humans, !inCooldown(st, now()), true
	default:
		st.Humans = res.Humans
	}
	if err := saveState(path, st); err != nil {
		return res, fmt.Errorf("hook: %w", err)
	}
	if res.Asked {
		res.Answer = blockAnswer(saveReason(why, cp, wing))
	}
	return res, nil
}

// mineTranscript mines the session's transcript into res.Wing and says
// how many drawers it added.
func mineTranscript(ctx context.Context, p *palace.Palace, res *Result) (int, error) {
	// Embedding is asked for only when a mine added drawers: loading the
	// model costs more than most hook runs take.
	m, err := ops.Mine(ctx, p, ops.MineRequest{Path: res.Transcript, Wing: res.Wing, Mode: ops.MineConvos, NoVectors: true})
	res.Summary = m.Summary
	if err != nil && m.Summary != nil && ops.Classify(err) == ops.Cancelled && ctx.Err() != nil {
		res.Partial = true
		return m.DrawersAdded, nil
	}
	if err != nil {
		return 0, fmt.Errorf("hook: %w", err)
	}
	return m.DrawersAdded, nil
}

// projectMargin is the time a project mine leaves before the hook's
// deadline, so the answer to the agent is still written in time.
const projectMargin = 750 * time.Millisecond

// mineProject mines the session's project folder incrementally, until
// shortly before ctx's deadline (the next Stop goes on with what is left).
// A project that cannot be mined is logged in the result, not an error:
// the transcript is stored and the save prompt still due.
func mineProject(ctx context.Context, p *palace.Palace, cwd, userHome string, res *Result) int {
	dir := ProjectDir(cwd, userHome)
	if dir == "" {
		return 0
	}
	res.Project = dir
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-projectMargin))
		defer cancel()
	}
	m, err := ops.Mine(ctx, p, ops.MineRequest{Path: dir, DefaultWing: res.Wing, NoVectors: true})
	res.ProjectSummary = m.Summary
	if err != nil && !(ops.Classify(err) == ops.Cancelled && ctx.Err() != nil) {
		res.ProjectError = err.Error()
	}
	return m.DrawersAdded
}

// ProjectDir is the project a session in cwd works on: the folder of the
// nearest palace.yaml at or above cwd, else the root of the git work tree
// cwd is in. Neither the user's home nor the file system's root is ever a
// project (a session started there would mine everything); "" is none.
func ProjectDir(cwd, userHome string) string {
	if cwd == "" || len(cwd) > maxPath || strings.ContainsRune(cwd, 0) || !filepath.IsAbs(cwd) {
		return ""
	}
	cwd = filepath.Clean(cwd)
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return ""
	}
	// The project ops.ResolveWing names the wing by, unless only the
	// folder's own name did, or it holds the user's home.
	w, err := ops.ResolveWing(cwd)
	if err != nil || w.From == ops.WingFromFolder {
		return ""
	}
	if userHome != "" {
		if rel, err := filepath.Rel(w.Project, filepath.Clean(userHome)); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return ""
		}
	}
	return w.Project
}

// sessionStart answers with the wake-up of the session's wing; after a
// compaction (the agent's source "compact", or one a PreCompact saw) with
// the session's checkpoint first; in block mode with the save request an
// automatic compaction left pending.
func sessionStart(ctx context.Context, p *palace.Palace, in Input, o RunOptions, res Result, st sessionState, path string, now time.Time) (Result, error) {
	var parts []string
	reinject := in.Source == "compact" || st.Reinject
	if reinject {
		text, err := reinjected(ctx, p, in.SessionID)
		if err != nil {
			return res, fmt.Errorf("hook: %w", err)
		}
		if text != "" {
			parts = append(parts, text)
		}
	}
	// The session's folder: its project's palace.yaml may set the budget.
	w, err := ops.WakeUp(ctx, p, ops.WakeUpRequest{DefaultWing: res.Wing, Budget: o.Budget, Dir: in.CWD})
	if err != nil {
		return res, fmt.Errorf("hook: wake-up: %w", err)
	}
	if w.Text != "" {
		parts = append(parts, fmt.Sprintf("Palace memory for wing %s (a wake-up within %d tokens; palace_search finds more):\n\n%s", res.Wing, w.Budget, w.Text))
	}
	next := st
	next.Reinject = false
	if st.Compacted && o.Mode == ModeBlock {
		res.Asked = true
		cp, _, err := ops.LastCheckpoint(ctx, p, in.SessionID)
		if err != nil {
			return res, fmt.Errorf("hook: %w", err)
		}
		parts = append(parts, saveReason("the context was just compacted.", cp, res.Wing))
		next = prompted(next, st.Humans, now)
	}
	if next != st {
		if err := saveState(path, next); err != nil {
			return res, fmt.Errorf("hook: %w", err)
		}
	}
	if len(parts) > 0 {
		res.Answer = contextAnswer(strings.Join(parts, "\n\n"))
	}
	return res, nil
}
