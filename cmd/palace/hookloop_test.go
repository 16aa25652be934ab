//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// hookAgent is what TestHookLoop needs to know of an agent: where its
// settings and transcripts live and how its transcript records a turn.
type hookAgent struct {
	name, session string
	// settings is the settings file install writes, under the user's home.
	settings string
	// before is that file before install ("" for none), in a formatting
	// Palace's encoder would not write, so only a true restore matches.
	before string
	// transcript is the transcript's path under the user's home.
	transcript string
	header     func(cwd string) string
	// turn is one exchange: a human message, then the agent's reply and
	// lines that are not the human's (a tool result, injected context).
	turn func(n int, cwd string) string
}

var hookAgents = []hookAgent{
	{
		name: "claude-code", session: "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
		settings:   ".claude/settings.json",
		before:     `{"model":"opus","hooks":{},"permissions":{"allow":["Bash(go test:*)"]}}`,
		transcript: ".claude/projects/-src-billing/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f.jsonl",
		header: func(cwd string) string {
			return `{"type":"summary","summary":"Invoice rounding","leafUuid":"l1"}` + "\n"
		},
		turn: func(n int, cwd string) string {
			common := fmt.Sprintf(`"sessionId":"7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f","cwd":%q,"timestamp":"2026-11-30T10:%02d:00Z"`, cwd, n%60)
			return fmt.Sprintf(`{"type":"user","message":{"role":"user","content":"Step %d: check how invoice line %d rounds"},"uuid":"u%d",%s}`+"\n", n, n, n, common) +
				fmt.Sprintf(`{"type":"assistant","message":{"id":"m%d","role":"assistant","model":"claude-opus","content":[{"type":"tool_use","id":"t%d","name":"Read","input":{"file_path":"rounding.go"}}]},"uuid":"a%d",%s}`+"\n", n, n, n, common) +
				fmt.Sprintf(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"func RoundHalfEven"}]},"uuid":"r%d",%s}`+"\n", n, n, common) +
				fmt.Sprintf(`{"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-stdout>ok</local-command-stdout>"},"uuid":"x%d",%s}`+"\n", n, common) +
				fmt.Sprintf(`{"type":"assistant","message":{"id":"n%d","role":"assistant","model":"claude-opus","content":[{"type":"text","text":"Line %d rounds half-even."}]},"uuid":"b%d",%s}`+"\n", n, n, n, common)
		},
	},
	{
		name: "codex", session: "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
		settings:   ".codex/hooks.json",
		transcript: ".codex/sessions/2026/11/30/rollout-2026-11-30T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
		header: func(cwd string) string {
			return fmt.Sprintf(`{"timestamp":"2026-11-30T10:00:00Z","type":"session_meta","payload":{"id":"0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","timestamp":"2026-11-30T10:00:00Z","cwd":%q,"originator":"codex_cli_rs","cli_version":"0.130.0"}}`+"\n", cwd) +
				fmt.Sprintf(`{"timestamp":"2026-11-30T10:00:00Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>%s</cwd>\n</environment_context>"}]}}`+"\n", cwd)
		},
		turn: func(n int, cwd string) string {
			ts := fmt.Sprintf(`"timestamp":"2026-11-30T10:%02d:00Z"`, n%60)
			return fmt.Sprintf(`{%s,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Step %d: check how invoice line %d rounds"}]}}`+"\n", ts, n, n) +
				fmt.Sprintf(`{%s,"type":"event_msg","payload":{"type":"user_message","message":"Step %d: check how invoice line %d rounds","kind":"plain"}}`+"\n", ts, n, n) +
				fmt.Sprintf(`{%s,"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"cat\",\"rounding.go\"]}","call_id":"c%d"}}`+"\n", ts, n) +
				fmt.Sprintf(`{%s,"type":"response_item","payload":{"type":"function_call_output","call_id":"c%d","output":"func RoundHalfEven"}}`+"\n", ts, n) +
				fmt.Sprintf(`{%s,"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Line %d rounds half-even."}]}}`+"\n", ts, n)
		},
	},
}

// agentEnv is the environment an agent runs its hooks in: the user's home,
// none of Palace's variables.
func agentEnv(userHome string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "HOME", "PALACE_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME":
		default:
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+userHome, "PALACE_HOME="+envHome())
}

// installedHooks reads the commands install wrote into the agent's
// settings, by the agent's event names.
func installedHooks(t *testing.T, path string) map[string]string {
	t.Helper()
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]string{}
	for ev, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Type == "command" && strings.Contains(h.Command, " hook run ") {
					out[ev] = h.Command
				}
			}
		}
	}
	return out
}

// TestHookLoop installs the hooks of each agent in block mode, then plays
// a session the way the agent would: it appends turns to the transcript
// and runs the installed commands (through sh, as the agents do) with
// recorded hook inputs. It checks every answer (only the hook protocol's
// JSON on stdout, or nothing), the per-session state file, what was mined,
// and that uninstalling leaves the settings file as it was, byte for byte.
// TestHookCheckpointLoop plays the default, checkpoint mode.
func TestHookLoop(t *testing.T) {
	for _, a := range hookAgents {
		t.Run(a.name, func(t *testing.T) { hookLoop(t, a) })
	}
}

func hookLoop(t *testing.T, a hookAgent) {
	userHome, home := t.TempDir(), filepath.Join(t.TempDir(), "palace")
	settings := filepath.Join(userHome, a.settings)
	if a.before != "" {
		os.MkdirAll(filepath.Dir(settings), 0o700)
		os.WriteFile(settings, []byte(a.before), 0o600)
	}
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
	palace("hook", "install", a.name, "--yes", "--mode", "block")
	hooks := installedHooks(t, settings)
	for _, ev := range []string{"Stop", "PreCompact", "SessionStart"} {
		if !strings.HasPrefix(hooks[ev], palaceBin+" --home ") || !strings.HasSuffix(hooks[ev], " --mode block") {
			t.Fatalf("%s hook: %q", ev, hooks[ev])
		}
	}

	cwd := filepath.Join(t.TempDir(), "billing")
	os.MkdirAll(cwd, 0o755)
	os.WriteFile(filepath.Join(cwd, "palace.yaml"), []byte("wing: billing\n"), 0o644)
	os.WriteFile(filepath.Join(cwd, "rounding.go"), []byte("package billing\n\n// RoundHalfEven rounds a cent amount to even, as the PDF renderer does.\nfunc RoundHalfEven(c float64) int64 { return 0 }\n"), 0o644)
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
	// hook runs the installed command for event with a recorded input and
	// returns the decoded answer (nil for none).
	hook := func(event, input string, extra ...string) map[string]any {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("testdata", "hooks", a.name, input+".json"))
		if err != nil {
			t.Fatal(err)
		}
		in := strings.NewReplacer("$SESSION", a.session, "$TRANSCRIPT", transcript, "$CWD", cwd).Replace(string(b))
		cmd := exec.Command("sh", "-c", strings.Join(append([]string{hooks[event]}, extra...), " "))
		cmd.Env, cmd.Dir, cmd.Stdin = agentEnv(userHome), cwd, strings.NewReader(in)
		stdout, stderr, code := clitest.Run(t, cmd)
		if code != 0 || stderr != "" {
			t.Fatalf("%s after %d turns: exit %d, stderr %q", input, turns, code, stderr)
		}
		if stdout == "" {
			return nil
		}
		var answer map[string]any
		dec := json.NewDecoder(strings.NewReader(stdout))
		if err := dec.Decode(&answer); err != nil || dec.More() || !strings.HasSuffix(stdout, "}\n") {
			t.Fatalf("%s: stdout is not one JSON object: %q", input, stdout)
		}
		return answer
	}
	state := func() map[string]any {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(home, "hooks", "sessions", a.name, a.session+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		json.Unmarshal(b, &s)
		return s
	}
	blocks := func(answer map[string]any) bool {
		if answer == nil {
			return false
		}
		reason, _ := answer["reason"].(string)
		if answer["decision"] != "block" || !strings.Contains(reason, "palace_remember") || !strings.Contains(reason, "palace_diary") || !strings.Contains(reason, "wing `billing`") {
			t.Fatalf("not a block asking to save: %v", answer)
		}
		return true
	}

	// SessionStart at the very start: a palace with a decision in it.
	palace("remember", "--wing", "billing", "Invoices round half-even because the PDF renderer does; never round half-up.")
	answer := hook("SessionStart", "SessionStart")
	out, _ := answer["hookSpecificOutput"].(map[string]any)
	if out["hookEventName"] != "SessionStart" || !strings.Contains(fmt.Sprint(out["additionalContext"]), "round half-even because the PDF renderer") {
		t.Fatalf("SessionStart answer: %v", answer)
	}

	// Stop after each of 16 human messages: the block comes at the 15th.
	for turns < 16 {
		say()
		got := blocks(hook("Stop", "Stop"))
		if got != (turns == 15) {
			t.Fatalf("after %d human messages: block %v", turns, got)
		}
		if turns == 15 {
			if s := state(); s["humans"] != 15.0 || s["prompted_at"] != 15.0 {
				t.Fatalf("state after the prompt: %v", s)
			}
		}
	}
	if s := palace("search", "RoundHalfEven", "--wing", "billing"); !strings.Contains(s, "rounding.go") {
		t.Errorf("the Stop hook did not mine the project folder:\n%s", s)
	}
	// Due every message, but within 30 s of the last prompt: no block.
	say()
	if blocks(hook("Stop", "Stop", "--every", "1")) {
		t.Fatal("blocked within the cooldown")
	}
	// The cooldown over: never while a stop hook is active, then a block.
	ageLastPrompt(t, filepath.Join(home, "hooks", "sessions", a.name, a.session+".json"), time.Minute)
	if blocks(hook("Stop", "Stop-active", "--every", "1")) {
		t.Fatal("blocked while a stop hook was active")
	}
	if !blocks(hook("Stop", "Stop", "--every", "1")) {
		t.Fatal("no block when due after the cooldown")
	}

	// PreCompact mines what was appended; a /compact typed in Claude
	// Code is held once to save first, and goes ahead when typed again.
	say()
	before := conversationDrawers(t, home)["billing"]
	ageLastPrompt(t, filepath.Join(home, "hooks", "sessions", a.name, a.session+".json"), time.Minute)
	manual := hook("PreCompact", "PreCompact-manual")
	if conversationDrawers(t, home)["billing"] <= before {
		t.Error("PreCompact did not mine the transcript")
	}
	if a.name == "claude-code" {
		if !blocks(manual) || hook("PreCompact", "PreCompact-manual") != nil {
			t.Fatalf("a typed /compact: first answer %v, the second must be empty", manual)
		}
	} else if manual != nil {
		t.Fatalf("Codex PreCompact answered %v", manual)
	}
	// An automatic compaction is never held; the session's next start
	// asks to save instead.
	ageLastPrompt(t, filepath.Join(home, "hooks", "sessions", a.name, a.session+".json"), time.Minute)
	if answer := hook("PreCompact", "PreCompact-auto"); answer != nil {
		t.Fatalf("automatic compaction held: %v", answer)
	}
	if s := state(); s["compacted"] != true {
		t.Fatalf("state after an automatic compaction: %v", s)
	}
	input := map[string]string{"claude-code": "SessionStart-compact", "codex": "SessionStart-resume"}[a.name]
	out, _ = hook("SessionStart", input)["hookSpecificOutput"].(map[string]any)
	if ctx := fmt.Sprint(out["additionalContext"]); !strings.Contains(ctx, "compacted") || !strings.Contains(ctx, "palace_kg") {
		t.Fatalf("SessionStart after compaction: %v", out)
	}

	palace("hook", "uninstall", a.name, "--yes")
	got, err := os.ReadFile(settings)
	switch {
	case a.before == "" && err == nil:
		t.Errorf("uninstall left %s, which install created:\n%s", settings, got)
	case a.before != "" && string(got) != a.before:
		t.Errorf("uninstall did not restore %s:\n got %q\nwant %q", settings, got, a.before)
	}
}

// ageLastPrompt moves a session's last save prompt back by d, as if that
// much time had passed.
func ageLastPrompt(t *testing.T, path string, d time.Duration) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if at, ok := s["prompt_time"].(string); ok {
		tm, _ := time.Parse(time.RFC3339Nano, at)
		s["prompt_time"] = tm.Add(-d).Format(time.RFC3339Nano)
	}
	b, _ = json.Marshal(s)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
