// Package hook connects coding agents to Palace through their lifecycle
// hooks: it installs and removes the hook configuration of Claude Code,
// Codex, GitHub Copilot (CLI and VS Code), Gemini CLI and Cursor together
// with the registration of Palace's MCP server in each (pointing at the
// absolute path of the palace binary, since agents do not run hooks or
// servers with the user's shell PATH; MemPalace #1644), and runs a hook:
// it reads the agent's JSON from standard input and mines the session's
// transcript into the project's wing, within a deadline.
//
// Nothing here ever passes input through a shell: the agent runs the
// installed command line, and everything the agent sends arrives as JSON
// on stdin (MemPalace #110 interpolated $SESSION_ID into a shell string).
package hook

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
)

// Events, as `palace hook run --event` names them.
const (
	EventStop         = "stop"
	EventPreCompact   = "precompact"
	EventSessionStart = "sessionstart"
)

// Scopes of an installation.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
)

// ErrInvalid is matched (errors.Is) by every error about bad input: an
// unknown agent or scope, a forged session id, a transcript outside the
// agent's folder.
var ErrInvalid = input.ErrInvalid

// Env looks up an environment variable; tests pass a map's lookup.
type Env func(string) string

// InstallOptions say which agent's configuration to change and how.
type InstallOptions struct {
	Agent string // one of Agents
	Scope string // ScopeUser (default) or ScopeProject
	// Binary is the absolute path of the palace executable the hooks run.
	Binary string
	// Home, when set, is passed to the hook as --home: the agent's
	// environment may not carry PALACE_HOME.
	Home string
	// UserHome is the user's home folder; ProjectDir the project for
	// ScopeProject. Env reads the variables that move an agent's folder
	// (CLAUDE_CONFIG_DIR, CODEX_HOME, COPILOT_HOME, XDG_CONFIG_HOME).
	UserHome   string
	ProjectDir string
	Env        Env
	// Every, when not 0, is written into the Stop hook as --every: how
	// many human messages pass between save prompts.
	Every int
	// NoProjectMine is written into the Stop hook: it then mines the
	// transcript only, not the project folder.
	NoProjectMine bool
	// Mode, when ModeBlock, is written into the Stop, PreCompact and
	// SessionStart hooks as --mode block ("" and ModeCheckpoint write
	// nothing: checkpoint is the default).
	Mode string
	// StateDir (the palace home) keeps what a settings file was before
	// install, so uninstall restores it byte for byte; "" keeps nothing.
	StateDir string
	// NoMCP installs the hooks only, without registering the MCP server.
	NoMCP bool
	// Budget, when not 0, is written into the SessionStart hook as
	// --budget: the most tokens the wake-up it answers with may take.
	Budget int
}

func (o InstallOptions) getenv(k string) string {
	if o.Env == nil {
		return os.Getenv(k)
	}
	return o.Env(k)
}

// SettingsPath is the hooks file an installation edits:
//
//	claude-code user:    $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json
//	claude-code project: PROJECT/.claude/settings.local.json
//	codex user:          $CODEX_HOME/hooks.json, else ~/.codex/hooks.json
//	codex project:       PROJECT/.codex/hooks.json
//	copilot user:        $COPILOT_HOME/hooks/palace.json, else ~/.copilot/hooks/palace.json
//	copilot project:     PROJECT/.github/hooks/palace.json
//	gemini user:         ~/.gemini/settings.json
//	gemini project:      PROJECT/.gemini/settings.json
//	cursor user:         ~/.cursor/hooks.json
//	cursor project:      PROJECT/.cursor/hooks.json
//
// Claude Code's project scope uses settings.local.json, the file Claude
// Code keeps out of version control: the hook holds this machine's absolute
// path to palace, which is wrong on a teammate's machine.
func (o InstallOptions) SettingsPath() (string, error) {
	if err := o.check(); err != nil {
		return "", err
	}
	s := agentFolders[o.Agent]
	if o.Scope == ScopeProject {
		return filepath.Join(o.projectDir(), s.hooksProject), nil
	}
	return filepath.Join(o.agentDir(o.Agent), s.hooksUser), nil
}

func (o *InstallOptions) check() error {
	s, ok := agentFolders[o.Agent]
	if !ok {
		return input.Invalid("agent", "%s: want %s", input.Quote(o.Agent), strings.Join(Agents, ", "))
	}
	switch o.Scope {
	case "":
		o.Scope = ScopeUser
	case ScopeUser, ScopeProject:
	default:
		return input.Invalid("scope", "%s: want user or project", input.Quote(o.Scope))
	}
	if o.Scope == ScopeUser && o.UserHome == "" && (s.env == "" || o.getenv(s.env) == "") {
		return errors.New("no home folder to find the agent's settings in")
	}
	if o.Scope == ScopeProject && o.ProjectDir == "" {
		return errors.New("no project folder for --scope project")
	}
	if o.Scope == ScopeProject {
		if _, err := filepath.Abs(o.ProjectDir); err != nil {
			return fmt.Errorf("project folder: %w", err)
		}
	}
	if o.Every < 0 || o.Every > MaxEvery {
		return input.Invalid("every", "%d: want 1 to %d human messages", o.Every, MaxEvery)
	}
	if err := CheckMode(o.Mode); err != nil {
		return err
	}
	if err := ops.CheckGiven("budget", o.Budget, ops.MaxWakeBudget); o.Budget != 0 && err != nil {
		return err
	}
	if !filepath.IsAbs(o.Binary) {
		return fmt.Errorf("palace binary %q is not an absolute path", o.Binary)
	}
	return nil
}

// Command is the command line the agent runs for event: the absolute path
// of palace, quoted for the POSIX shell the agent hands it to, and fixed
// arguments. The session's data never appears in it.
func (o InstallOptions) Command(event string) string {
	parts := []string{shellQuote(o.Binary)}
	if o.Home != "" {
		parts = append(parts, "--home", shellQuote(o.Home))
	}
	parts = append(parts, "hook", "run", "--agent", o.Agent, "--event", event)
	if event == EventStop && o.Every != 0 {
		parts = append(parts, "--every", strconv.Itoa(o.Every))
	}
	if o.Mode == ModeBlock && event != EventSessionEnd {
		parts = append(parts, "--mode", ModeBlock)
	}
	if event == EventSessionStart && o.Budget != 0 {
		parts = append(parts, "--budget", strconv.Itoa(o.Budget))
	}
	if event == EventStop && o.NoProjectMine {
		parts = append(parts, "--no-project-mine")
	}
	return strings.Join(parts, " ")
}

// marker is in every command Palace installs for agent; it finds Palace's
// own entries (whatever binary path they name) to replace or remove.
func marker(agent string) string { return " hook run --agent " + agent + " --event " }

var safeWord = regexp.MustCompile(`^[A-Za-z0-9_./:@%+,=-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if safeWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// agentTimeout is the hook timeout written where the agent takes one, in
// seconds: a backstop far above `palace hook run`'s own deadline.
const agentTimeout = 30

// Plan is a change to one file, computed before anything is written so
// the user sees it first.
type Plan struct {
	Path    string
	Old     []byte // nil when the file does not exist
	New     []byte
	Changed bool
	// Notes are things the user should know (Codex's feature flag).
	Notes []string
	// remove says uninstall deletes the file: install created it.
	remove bool
	// record is what to keep of the file's state before install, at
	// recordPath; dropRecord removes a record that no longer applies.
	record     *installRecord
	recordPath string
	dropRecord bool
	// staleRecord is a record under an older name that record replaces.
	staleRecord string
}

// Removes reports whether applying the plan deletes the file: an
// uninstall giving back a file install created.
func (p Plan) Removes() bool { return p.remove }

// PlanInstall computes every file an installation changes: the agent's
// hooks file with Palace's hooks, then the MCP configurations with Palace's
// server (none with NoMCP). Other settings, hooks and servers are kept as
// they are, in their order; an earlier Palace entry (another binary path,
// say) is replaced.
func PlanInstall(o InstallOptions) ([]Plan, error) {
	return plans(o, true)
}

// PlanUninstall computes the same files without Palace's entries.
func PlanUninstall(o InstallOptions) ([]Plan, error) {
	return plans(o, false)
}

// jsonEdit adds (install) or removes Palace's entries in a decoded JSON
// file and reports whether the file had any before.
type jsonEdit func(root *object, install bool) (found bool, err error)

// fileEdit is everything an installation changes in one file: the hooks
// and the MCP server may share one (Gemini's settings.json).
type fileEdit struct {
	path string
	json []jsonEdit
	// toml is the table to add to a TOML file (Codex's config.toml).
	toml string
}

// files lists the files an installation edits, the hooks file first.
func files(o InstallOptions) ([]*fileEdit, error) {
	hooksPath, err := o.SettingsPath()
	if err != nil {
		return nil, err
	}
	s := agentSpecs[o.Agent]
	out := []*fileEdit{{path: hooksPath, json: []jsonEdit{hooksEdit(o, s)}}}
	if o.NoMCP || s.mcp == nil {
		return out, nil
	}
	for _, t := range s.mcp(o) {
		var fe *fileEdit
		for _, f := range out {
			if f.path == t.path {
				fe = f
			}
		}
		if fe == nil {
			fe = &fileEdit{path: t.path}
			out = append(out, fe)
		}
		if t.toml {
			fe.toml = tomlBlock(o)
		} else {
			fe.json = append(fe.json, mcpEdit(t))
		}
	}
	return out, nil
}

func plans(o InstallOptions, install bool) ([]Plan, error) {
	edits, err := files(o)
	if err != nil {
		return nil, err
	}
	out := make([]Plan, 0, len(edits))
	for i, fe := range edits {
		p, err := plan(o, fe, install)
		if err != nil {
			return nil, err
		}
		if i == 0 && install && agentSpecs[o.Agent].notes != nil {
			p.Notes = agentSpecs[o.Agent].notes(o)
		}
		out = append(out, p)
	}
	return out, nil
}

// rewrite is the file's content with (install) or without Palace's
// entries, and whether old had any.
func (fe *fileEdit) rewrite(old []byte, install bool) ([]byte, bool, error) {
	if fe.toml != "" {
		b, found, err := tomlEdit(old, fe.toml, install)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %v; fix it by hand, nothing was changed", fe.path, err)
		}
		return b, found, nil
	}
	root, err := decodeObject(old)
	if err != nil {
		return nil, false, fmt.Errorf("%s is not valid JSON (%v); fix it by hand, nothing was changed", fe.path, err)
	}
	found := false
	for _, e := range fe.json {
		f, err := e(root, install)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %v; fix it by hand, nothing was changed", fe.path, err)
		}
		found = found || f
	}
	return encode(root), found, nil
}

func plan(o InstallOptions, fe *fileEdit, install bool) (Plan, error) {
	p := Plan{Path: fe.path}
	old, err := os.ReadFile(fe.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !install {
			return p, nil
		}
	case err != nil:
		return Plan{}, fmt.Errorf("read %s: %w", fe.path, err)
	default:
		p.Old = old
	}
	newb, found, err := fe.rewrite(old, install)
	if err != nil {
		return Plan{}, err
	}
	if !install && !found {
		return p, nil // nothing of Palace's: leave the file byte for byte
	}
	p.New = newb
	p.Changed = p.Old == nil || !bytes.Equal(p.Old, p.New)
	if !install {
		restoreUninstall(&p, o)
		return p, nil
	}
	if p.Changed {
		recordInstall(&p, o, found)
	}
	return p, nil
}

// hooksEdit adds or removes Palace's entry under each of the agent's
// events; a "hooks" or event that holds nothing else afterwards goes.
func hooksEdit(o InstallOptions, s agentSpec) jsonEdit {
	return func(root *object, install bool) (bool, error) {
		if _, ok := root.get("version"); install && s.flat && !ok {
			root.set("version", 1)
		}
		hooks := newObject()
		if v, ok := root.get("hooks"); ok {
			h, isObj := v.(*object)
			if !isObj {
				return false, errors.New(`"hooks" is not an object`)
			}
			hooks = h
		}
		found := false
		for _, ev := range s.events {
			entries := []any{}
			if v, ok := hooks.get(ev.key); ok {
				a, isArr := v.([]any)
				if !isArr {
					return false, fmt.Errorf("hooks.%s is not an array", ev.key)
				}
				var f bool
				entries, f = removeOurs(a, o.Agent, s.flat)
				found = found || f
			}
			if install {
				entries = append(entries, s.entry(o, ev.event))
			}
			if len(entries) == 0 {
				hooks.del(ev.key)
			} else {
				hooks.set(ev.key, entries)
			}
		}
		if len(hooks.keys) == 0 {
			root.del("hooks")
		} else {
			root.set("hooks", hooks)
		}
		return found, nil
	}
}

// ours reports whether a handler runs one of Palace's hooks for agent.
func ours(h any, agent string) bool {
	ho, ok := h.(*object)
	if !ok {
		return false
	}
	for _, k := range []string{"command", "bash"} {
		if c, ok := ho.vals[k].(string); ok && strings.Contains(c, marker(agent)) {
			return true
		}
	}
	return false
}

// removeOurs drops Palace's handlers, and, in matcher groups, groups left
// empty by that; everything else stays. It reports whether it dropped any.
func removeOurs(entries []any, agent string, flat bool) ([]any, bool) {
	out := []any{}
	found := false
	for _, g := range entries {
		if flat {
			if ours(g, agent) {
				found = true
				continue
			}
			out = append(out, g)
			continue
		}
		obj, ok := g.(*object)
		if !ok {
			out = append(out, g)
			continue
		}
		hv, ok := obj.get("hooks")
		hs, isArr := hv.([]any)
		if !ok || !isArr {
			out = append(out, g)
			continue
		}
		kept := []any{}
		for _, h := range hs {
			if ours(h, agent) {
				found = true
				continue
			}
			kept = append(kept, h)
		}
		if len(kept) == 0 && len(hs) > 0 {
			continue
		}
		obj.set("hooks", kept)
		out = append(out, obj)
	}
	return out, found
}

var featureOff = regexp.MustCompile(`(?m)^\s*(features\.)?(codex_)?hooks\s*=\s*false\b`)

// codexNotes tells the user what Codex needs besides hooks.json. What is
// known (and what is not): current Codex releases load hooks.json by
// default; older ones load it only with `[features] hooks = true` (earlier
// still `codex_hooks = true`) in config.toml, and Codex asks the user to
// review a new command hook before it runs. Palace does not switch the
// feature on in config.toml (it only adds its MCP server there): it warns
// when the feature is switched off.
func codexNotes(o InstallOptions) []string {
	notes := []string{"Codex asks you to review and trust a new command hook the first time; the hooks then run on SessionStart, Stop and PreCompact."}
	cfg := filepath.Join(o.agentDir(AgentCodex), "config.toml")
	b, err := os.ReadFile(cfg)
	switch {
	case err == nil && featureOff.Match(b):
		notes = append(notes, fmt.Sprintf("%s switches Codex hooks off (hooks = false): set it to true, or the hooks never run.", cfg))
	default:
		notes = append(notes, fmt.Sprintf("Codex releases that predate hooks by default need `[features]` `hooks = true` in %s.", cfg))
	}
	return notes
}

// Apply writes the planned file atomically (a temporary file renamed into
// place), keeping an existing file's permissions; new files are 0600, new
// folders 0700. A settings file that is a symbolic link (kept in a
// dotfiles repository) is written where the link leads, and the link
// stays. An uninstall that restores a file install created removes it,
// or, behind a link, the file the link leads to.
func (p Plan) Apply() error {
	if !p.Changed {
		return nil
	}
	if p.remove {
		target, err := linkTarget(p.Path)
		if err != nil {
			return fmt.Errorf("remove %s: %w", p.Path, err)
		}
		if err := os.Remove(target); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", target, err)
		}
		return p.applyRecord()
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(p.Path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := writeThrough(p.Path, p.New, mode); err != nil {
		return err
	}
	return p.applyRecord()
}

// maxLinks bounds the links linkTarget follows, as the kernel's ELOOP
// does, so a loop of links is an error rather than a hang.
const maxLinks = 40

// linkTarget is the file path names once the symbolic links it is are
// followed: the file an agent reads through them. A link to a file not yet
// there names that file. Only the last element is followed; links among
// the folders above it lead to the same folder either way.
func linkTarget(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			// Relative to the link's folder as the kernel sees it: a
			// ".." in the link climbs from the real folder.
			dir := filepath.Dir(path)
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			to = filepath.Join(dir, to)
		}
		path = to
	}
	return "", fmt.Errorf("%s: more than %d symbolic links", path, maxLinks)
}

// writeThrough is writeAtomic on the file path's links lead to, so the
// links stay links: replacing a link to a dotfiles repository with a
// regular file would cut the user's settings off from it.
func writeThrough(path string, b []byte, mode os.FileMode) error {
	target, err := linkTarget(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return writeAtomic(target, b, mode)
}

// Diff is the change as lines starting with "-" and "+", with two lines of
// context around each change and "@@" between distant ones.
func (p Plan) Diff() string {
	return diffLines(string(p.Old), string(p.New))
}

func diffLines(a, b string) string {
	x, y := splitLines(a), splitLines(b)
	// Longest common subsequence; settings files are small.
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ops []line
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, line{' ', x[i]})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, line{'-', x[i]}) // removals first, as diff(1) shows them
			i++
		default:
			ops = append(ops, line{'+', y[j]})
			j++
		}
	}
	const ctx = 2
	keep := make([]bool, len(ops))
	for k, o := range ops {
		if o.op != ' ' {
			for d := max(0, k-ctx); d <= min(len(ops)-1, k+ctx); d++ {
				keep[d] = true
			}
		}
	}
	var out strings.Builder
	gap := false
	for k, o := range ops {
		if !keep[k] {
			gap = true
			continue
		}
		if gap && out.Len() > 0 {
			out.WriteString("@@\n")
		}
		gap = false
		out.WriteByte(o.op)
		out.WriteByte(' ')
		out.WriteString(o.text)
		out.WriteByte('\n')
	}
	return out.String()
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
