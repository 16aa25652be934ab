//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// checkpoints lists the live checkpoint drawers of the palace in home.
func checkpoints(t *testing.T, home string) []store.Drawer {
	t.Helper()
	p, err := palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ds, err := p.Store.ListDrawers(context.Background(), store.Filter{Kind: store.KindDiary}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Drawer
	for _, d := range ds {
		if d.Room == "checkpoints" && d.DeletedAt == nil {
			out = append(out, d)
		}
	}
	return out
}

// TestHookCheckpointLoop installs each agent's hooks as a new user would
// (no flag: checkpoint mode) and plays a session through the installed
// commands with the agents' recorded inputs: no Stop ever blocks, however
// many turns; the session has one checkpoint in the project's wing,
// covering every turn; after an automatic compaction the SessionStart puts
// it first; Claude Code's SessionEnd files the last turns and answers
// nothing. Install with --mode block writes the mode into every command
// but SessionEnd's.
func TestHookCheckpointLoop(t *testing.T) {
	for _, a := range hookAgents {
		t.Run(a.name, func(t *testing.T) { checkpointLoop(t, a) })
	}
}

func checkpointLoop(t *testing.T, a hookAgent) {
	userHome, home := t.TempDir(), filepath.Join(t.TempDir(), "palace")
	palace := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(palaceBin, append([]string{"--home", home}, args...)...)
		cmd.Env = agentEnv(userHome)
		out, stderr, code := clitest.Run(t, cmd)
		if code != 0 {
			t.Fatalf("palace %v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	settings := filepath.Join(userHome, a.settings)
	palace("hook", "install", a.name, "--yes")
	hooks := installedHooks(t, settings)
	events := []string{"Stop", "PreCompact", "SessionStart"}
	if a.name == "claude-code" {
		events = append(events, "SessionEnd")
	}
	for _, ev := range events {
		if !strings.HasPrefix(hooks[ev], palaceBin+" --home ") || strings.Contains(hooks[ev], "--mode") {
			t.Fatalf("%s hook: %q", ev, hooks[ev])
		}
	}
	if a.name == "codex" && hooks["SessionEnd"] != "" {
		t.Fatalf("Codex has no SessionEnd, yet: %q", hooks["SessionEnd"])
	}

	cwd := filepath.Join(t.TempDir(), "billing")
	os.MkdirAll(cwd, 0o755)
	os.WriteFile(filepath.Join(cwd, "palace.yaml"), []byte("wing: billing\n"), 0o644)
	transcript := filepath.Join(userHome, a.transcript)
	os.MkdirAll(filepath.Dir(transcript), 0o700)
	os.WriteFile(transcript, []byte(a.header(cwd)), 0o600)
	turns := 0
	say := func() {
		turns++
		f, _ := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(a.turn(turns, cwd))
		f.Close()
	}
	hook := func(event, input string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("testdata", "hooks", a.name, input+".json"))
		if err != nil {
			t.Fatal(err)
		}
		in := strings.NewReplacer("$SESSION", a.session, "$TRANSCRIPT", transcript, "$CWD", cwd).Replace(string(b))
		cmd := exec.Command("sh", "-c", hooks[event])
		cmd.Env, cmd.Dir, cmd.Stdin = agentEnv(userHome), cwd, strings.NewReader(in)
		stdout, stderr, code := clitest.Run(t, cmd)
		if code != 0 || stderr != "" {
			t.Fatalf("%s after %d turns: exit %d, stderr %q", input, turns, code, stderr)
		}
		return stdout
	}

	for turns < 20 {
		say()
		if out := hook("Stop", "Stop"); out != "" {
			t.Fatalf("Stop after %d human messages answered %s", turns, out)
		}
	}
	cps := checkpoints(t, home)
	if len(cps) != 1 || cps[0].Wing != "billing" || !strings.HasPrefix(cps[0].Content, "Asked in turns 1–20: Step 1: check how invoice line 1 rounds; …; Step 18") ||
		!strings.Contains(cps[0].Content, "Step 20: check how invoice line 20 rounds") {
		t.Fatalf("checkpoints after 20 turns: %+v", cps)
	}
	var meta struct {
		Session string `json:"session"`
		Turns   struct{ From, To int }
	}
	if err := json.Unmarshal([]byte(cps[0].Metadata), &meta); err != nil || meta.Session != a.session || meta.Turns.From != 1 || meta.Turns.To != 20 {
		t.Errorf("checkpoint metadata %s (%v)", cps[0].Metadata, err)
	}

	say()
	if out := hook("PreCompact", "PreCompact-manual"); out != "" {
		t.Fatalf("a typed /compact was held: %s", out)
	}
	if out := hook("PreCompact", "PreCompact-auto"); out != "" {
		t.Fatalf("an automatic compaction was held: %s", out)
	}
	input := map[string]string{"claude-code": "SessionStart-compact", "codex": "SessionStart-resume"}[a.name]
	var answer struct {
		HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(hook("SessionStart", input)), &answer); err != nil {
		t.Fatal(err)
	}
	text := answer.HookSpecificOutput.AdditionalContext
	if !strings.HasPrefix(text, "Palace checkpoint of this session before the compaction (turns 1–21, filed in wing billing") ||
		!strings.Contains(text, "Step 21: check how invoice line 21 rounds") || strings.Contains(text, "palace_remember") {
		t.Fatalf("SessionStart after the compaction:\n%s", text)
	}

	if a.name == "claude-code" {
		say()
		if out := hook("SessionEnd", "SessionEnd"); out != "" {
			t.Fatalf("SessionEnd answered %s", out)
		}
		if cps := checkpoints(t, home); len(cps) != 1 || !strings.Contains(cps[0].Content, "Step 22: check how invoice line 22 rounds") {
			t.Fatalf("checkpoints after SessionEnd: %+v", cps)
		}
	}

	palace("hook", "install", a.name, "--yes", "--mode", "block")
	hooks = installedHooks(t, settings)
	for _, ev := range events {
		if got := strings.HasSuffix(hooks[ev], " --mode block"); got != (ev != "SessionEnd") {
			t.Errorf("--mode block install, %s: %q", ev, hooks[ev])
		}
	}
	if _, stderr, code := clitest.Run(t, exec.Command(palaceBin, "--home", home, "hook", "install", a.name, "--yes", "--mode", "nag")); code != 2 || !strings.Contains(stderr, "mode") {
		t.Errorf("--mode nag: exit %d, %s", code, stderr)
	}
}
