//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// hookCmd runs `palace hook ...` in process with the given --home, stdin
// and environment (HOME is the user's home folder the agents' settings and
// transcripts live under).
func hookCmd(t *testing.T, home, userHome string, stdin io.Reader, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	t.Setenv("HOME", userHome)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("PALACE_MODEL_DIR", "")
	c := newHookCmd(&globals{home: home})
	var out, errb bytes.Buffer
	c.SetArgs(args)
	c.SetIn(stdin)
	c.SetOut(&out)
	c.SetErr(&errb)
	c.SilenceErrors, c.SilenceUsage = true, true
	err = c.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

const sessionID = "3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a"

// claudeSession puts a real Claude Code transcript where Claude Code keeps
// them and returns its path and a project folder for the session's cwd.
func claudeSession(t *testing.T, userHome string) (transcript, cwd string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "core", "convo", "testdata", "claude-code", sessionID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(userHome, ".claude", "projects", "-src-shop")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	transcript = filepath.Join(dir, sessionID+".jsonl")
	if err := os.WriteFile(transcript, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cwd = filepath.Join(t.TempDir(), "shop")
	os.MkdirAll(cwd, 0o755)
	os.WriteFile(filepath.Join(cwd, "palace.yaml"), []byte("wing: shop\n"), 0o644)
	return transcript, cwd
}

func hookJSON(session, transcript, cwd string) string {
	b, _ := json.Marshal(map[string]any{"session_id": session, "transcript_path": transcript, "cwd": cwd,
		"hook_event_name": "Stop", "stop_hook_active": false})
	return string(b)
}

func conversationDrawers(t *testing.T, home string) map[string]int {
	t.Helper()
	p, err := palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ds, err := p.Store.ListDrawers(context.Background(), store.Filter{Kind: store.KindConversation}, 10000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, d := range ds {
		out[d.Wing]++
	}
	return out
}

func hookLog(t *testing.T, home string) []hookLogEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, "logs", "hook.log"))
	if err != nil {
		t.Fatal(err)
	}
	var out []hookLogEntry
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e hookLogEntry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, e)
	}
	return out
}

func TestHookRunMinesTheSession(t *testing.T) {
	userHome, home := t.TempDir(), filepath.Join(t.TempDir(), "palace")
	transcript, cwd := claudeSession(t, userHome)
	for range 2 {
		stdout, stderr, err := hookCmd(t, home, userHome, strings.NewReader(hookJSON(sessionID, transcript, cwd)),
			"run", "--agent", "claude-code", "--event", "stop")
		if err != nil || stdout != "" || stderr != "" {
			t.Fatalf("hook run: err %v, stdout %q, stderr %q", err, stdout, stderr)
		}
	}
	if got := conversationDrawers(t, home); got["shop"] == 0 || len(got) != 1 {
		t.Fatalf("drawers by wing: %v", got)
	}
	log := hookLog(t, home)
	if len(log) != 2 || log[0].Status != "ok" || log[0].Result.Summary.DrawersAdded == 0 || log[1].Result.Summary.DrawersAdded != 0 {
		t.Errorf("log: %+v", log)
	}
}

// TestHookRunRefusesHostileInput feeds forged session ids and paths: each
// is refused and logged, nothing is mined or executed, stdout stays empty
// and the exit is clean.
func TestHookRunRefusesHostileInput(t *testing.T) {
	userHome, home := t.TempDir(), filepath.Join(t.TempDir(), "palace")
	transcript, cwd := claudeSession(t, userHome)
	pwned := filepath.Join(t.TempDir(), "pwned")
	outside := filepath.Join(t.TempDir(), "evil.jsonl")
	os.WriteFile(outside, []byte("{}\n"), 0o600)
	projects := filepath.Join(userHome, ".claude", "projects")
	os.Symlink(outside, filepath.Join(projects, "-src-shop", "link.jsonl"))
	cases := []string{
		hookJSON("$(touch "+pwned+")", transcript, cwd),
		hookJSON("`touch "+pwned+"`", transcript, cwd),
		hookJSON("x; touch "+pwned, transcript, cwd),
		hookJSON("../../../etc/passwd", transcript, cwd),
		hookJSON(sessionID, projects+"/../../../etc/passwd", cwd),
		hookJSON(sessionID, filepath.Join(projects, "..", "..", "..", filepath.Base(filepath.Dir(outside)), "evil.jsonl"), cwd),
		hookJSON(sessionID, outside, cwd),
		hookJSON(sessionID, filepath.Join(projects, "-src-shop", "link.jsonl"), cwd),
		hookJSON(sessionID, "$(touch "+pwned+").jsonl", cwd),
		hookJSON(sessionID, "-src-shop/"+sessionID+".jsonl", cwd),
		hookJSON(sessionID, "/etc/passwd", cwd),
		`{"session_id": ["a"], "transcript_path": 5}`,
		`not json at all`,
		``,
		`{"session_id":"` + strings.Repeat("a", 2<<20) + `"}`,
	}
	for i, in := range cases {
		stdout, stderr, err := hookCmd(t, home, userHome, strings.NewReader(in), "run", "--agent", "claude-code", "--event", "precompact")
		if err != nil || stdout != "" {
			t.Errorf("case %d: err %v, stdout %q", i, err, stdout)
		}
		if !strings.HasPrefix(stderr, "palace hook: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("case %d: stderr %q", i, stderr)
		}
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("an input was run through a shell")
	}
	if got := conversationDrawers(t, home); len(got) != 0 {
		t.Errorf("hostile input mined: %v", got)
	}
	for i, e := range hookLog(t, home) {
		if e.Status != "refused" {
			t.Errorf("log line %d: %+v", i, e)
		}
	}
	// A wrong --agent or --event is logged and still exits cleanly.
	_, stderr, err := hookCmd(t, home, userHome, strings.NewReader(hookJSON(sessionID, transcript, cwd)), "run", "--agent", "cursor", "--event", "stop")
	if err != nil || !strings.Contains(stderr, "agent") {
		t.Errorf("unknown agent: %v %q", err, stderr)
	}
}

// TestHookRunDeadline: an agent that never closes stdin does not hold the
// hook past its deadline. The bound is a ratio, not a clock: twice the
// deadline and grace, plus four times what a run with empty input takes
// on this machine now (measured first). Stdin is closed at that bound, so
// a hook that ignored its deadline ends reading nothing, not timed out.
func TestHookRunDeadline(t *testing.T) {
	userHome, home := t.TempDir(), filepath.Join(t.TempDir(), "palace")
	const timeout = 300 * time.Millisecond
	args := []string{"run", "--agent", "codex", "--event", "stop", "--timeout", timeout.String()}
	start := time.Now()
	hookCmd(t, filepath.Join(t.TempDir(), "baseline"), userHome, strings.NewReader(""), args...)
	baseline := time.Since(start)
	bound := 2*(timeout+hookGrace) + 4*baseline

	pr, pw := io.Pipe()
	defer pw.Close()
	closing := time.AfterFunc(bound, func() { pw.Close() })
	defer closing.Stop()
	start = time.Now()
	stdout, stderr, err := hookCmd(t, home, userHome, pr, args...)
	took := time.Since(start)
	if err != nil || stdout != "" || !strings.Contains(stderr, "deadline") {
		t.Errorf("err %v, stdout %q, stderr %q", err, stdout, stderr)
	}
	if took > bound {
		t.Errorf("hook took %v; a run with empty input took %v, so the bound was %v", took, baseline, bound)
	}
	if log := hookLog(t, home); len(log) != 1 || log[0].Status != "timeout" {
		t.Errorf("log: %+v", log)
	}
}

func TestHookInstallUninstall(t *testing.T) {
	userHome, home := t.TempDir(), filepath.Join(t.TempDir(), "palace")
	settings := filepath.Join(userHome, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{"theme": "dark", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}`), 0o644)

	stdout, _, err := hookCmd(t, home, userHome, strings.NewReader("n\n"), "install", "claude-code")
	// Answering n is a choice, not a failure: exit 0, saying so.
	if err != nil || !strings.Contains(stdout, "nothing changed") || !strings.Contains(stdout, "+ ") {
		t.Fatalf("declined install: %v\n%s", err, stdout)
	}
	if b, _ := os.ReadFile(settings); strings.Contains(string(b), "hook run") {
		t.Fatal("declined install wrote the settings")
	}
	stdout, _, err = hookCmd(t, home, userHome, strings.NewReader("y\n"), "install", "claude-code")
	if err != nil || !strings.Contains(stdout, "wrote "+settings) {
		t.Fatalf("install: %v\n%s", err, stdout)
	}
	b, _ := os.ReadFile(settings)
	exe, _ := os.Executable()
	var cfg struct {
		Theme string `json:"theme"`
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	stop := cfg.Hooks["Stop"]
	if cfg.Theme != "dark" || len(stop) != 2 || stop[0].Hooks[0].Command != "say done" ||
		!strings.HasPrefix(stop[1].Hooks[0].Command, exe) || !strings.Contains(stop[1].Hooks[0].Command, "--home "+home+" hook run --agent claude-code --event stop") ||
		len(cfg.Hooks["PreCompact"]) != 1 {
		t.Fatalf("settings after install:\n%s", b)
	}
	stdout, _, err = hookCmd(t, home, userHome, nil, "install", "claude-code", "--yes")
	if err != nil || !strings.Contains(stdout, "already") {
		t.Errorf("second install: %v %s", err, stdout)
	}
	stdout, _, err = hookCmd(t, home, userHome, nil, "uninstall", "claude-code", "--yes")
	if err != nil || !strings.Contains(stdout, "wrote") {
		t.Fatalf("uninstall: %v %s", err, stdout)
	}
	b, _ = os.ReadFile(settings)
	if strings.Contains(string(b), "hook run") || !strings.Contains(string(b), "say done") {
		t.Errorf("settings after uninstall:\n%s", b)
	}

	proj := t.TempDir()
	if _, _, err := hookCmd(t, home, userHome, nil, "install", "codex", "--yes", "--scope", "project", "--dir", proj); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(proj, ".codex", "hooks.json")); err != nil || !strings.Contains(string(b), "--agent codex --event precompact") {
		t.Errorf("codex project hooks: %v\n%s", err, b)
	}
	if _, _, err := hookCmd(t, home, userHome, nil, "install", "windsurf", "--yes"); err == nil {
		t.Errorf("unknown agent accepted")
	}
	if _, _, err := hookCmd(t, home, userHome, nil, "install", "codex", "--scope", "global", "--yes"); err == nil {
		t.Errorf("unknown scope accepted")
	}
}

// The agent runs the hook without the shell's environment: a palace chosen
// by PALACE_HOME must be written into the hook as --home, like one chosen by
// --home.
func TestHookInstallRecordsPalaceHome(t *testing.T) {
	userHome, home := t.TempDir(), filepath.Join(t.TempDir(), "env-palace")
	t.Setenv("PALACE_HOME", home)
	if stdout, _, err := hookCmd(t, "", userHome, nil, "install", "claude-code", "--yes"); err != nil {
		t.Fatalf("install: %v\n%s", err, stdout)
	}
	b, err := os.ReadFile(filepath.Join(userHome, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "--home "+home+" hook run --agent claude-code") {
		t.Errorf("PALACE_HOME=%s is not in the installed hook:\n%s", home, b)
	}
}
