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
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// agentFixtures are the hook inputs and file formats the agents document
// (each folder's README cites the page).
var agentFixtures = filepath.Join("..", "..", "server", "hook", "testdata", "agents")

// agEnv is the environment an agent runs hooks and servers in: agentEnv's,
// with none of the variables that move Copilot's or VS Code's folders.
func agEnv(userHome string) []string {
	return append(agentEnv(userHome), "COPILOT_HOME=", "XDG_CONFIG_HOME=")
}

// agSetup is one agent set up by `palace hook install` in a fresh home,
// with a palace holding one decision of the billing project.
type agSetup struct {
	t              *testing.T
	userHome, home string
	cwd            string
}

func newAgSetup(t *testing.T) *agSetup {
	s := &agSetup{t: t, userHome: t.TempDir(), home: filepath.Join(t.TempDir(), "palace")}
	s.cwd = filepath.Join(t.TempDir(), "billing")
	os.MkdirAll(s.cwd, 0o755)
	os.WriteFile(filepath.Join(s.cwd, "palace.yaml"), []byte("wing: billing\n"), 0o644)
	// VS Code is installed: its user profile folder exists.
	os.MkdirAll(filepath.Join(s.userHome, ".config", "Code", "User"), 0o700)
	s.palace("remember", "--wing", "billing", "Invoices round half-even because the PDF renderer does; never round half-up.")
	return s
}

func (s *agSetup) palace(args ...string) string {
	s.t.Helper()
	cmd := exec.Command(palaceBin, append([]string{"--home", s.home}, args...)...)
	cmd.Env = agEnv(s.userHome)
	out, stderr, code := clitest.Run(s.t, cmd)
	if code != 0 {
		s.t.Fatalf("palace %v: exit %d: %s", args, code, stderr)
	}
	return out
}

// run runs an installed hook command through sh, as the agents do, with
// a documented input (fixture under agentFixtures) and returns its answer
// decoded (nil for none).
func (s *agSetup) run(command, fixture string, vars map[string]string, extra ...string) map[string]any {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join(agentFixtures, fixture))
	if err != nil {
		s.t.Fatal(err)
	}
	in := string(b)
	for k, v := range vars {
		in = strings.ReplaceAll(in, k, v)
	}
	in = strings.ReplaceAll(in, "$CWD", s.cwd)
	cmd := exec.Command("sh", "-c", strings.Join(append([]string{command}, extra...), " "))
	cmd.Env, cmd.Dir, cmd.Stdin = agEnv(s.userHome), s.cwd, strings.NewReader(in)
	stdout, stderr, code := clitest.Run(s.t, cmd)
	if code != 0 || stderr != "" {
		s.t.Fatalf("%s: exit %d, stderr %q", fixture, code, stderr)
	}
	if stdout == "" {
		return nil
	}
	var answer map[string]any
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&answer); err != nil || dec.More() {
		s.t.Fatalf("%s: stdout is not one JSON object: %q", fixture, stdout)
	}
	return answer
}

// lastRun is the last line of the hook log.
func (s *agSetup) lastRun() hookLogEntry {
	s.t.Helper()
	log := hookLog(s.t, s.home)
	return log[len(log)-1]
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
}

const decision = "round half-even because the PDF renderer"

// TestHookAgentsCopilot sets GitHub Copilot up in one command and plays
// a session the way Copilot CLI and VS Code's agent would, with the
// inputs docs.github.com documents: the hooks file both read and the MCP
// server in Copilot CLI's and VS Code's configurations; SessionStart
// answers with the wake-up for both (additionalContext at the top for
// Copilot CLI, in hookSpecificOutput for VS Code); Stop mines the
// session's events.jsonl into the project's wing, found by transcript_path
// or, without one, by the session id; a VS Code transcript is mined too;
// uninstall removes what install created. (A save prompt's block in both
// protocols is TestAgentAnswer's.)
func TestHookAgentsCopilot(t *testing.T) {
	s := newAgSetup(t)
	out := s.palace("hook", "install", "copilot", "--yes")
	hooksFile := filepath.Join(s.userHome, ".copilot", "hooks", "palace.json")
	cliMCP := filepath.Join(s.userHome, ".copilot", "mcp-config.json")
	vscodeMCP := filepath.Join(s.userHome, ".config", "Code", "User", "mcp.json")
	for _, f := range []string{hooksFile, cliMCP, vscodeMCP} {
		if !strings.Contains(out, "wrote "+f) {
			t.Fatalf("install did not write %s:\n%s", f, out)
		}
	}
	var hooks struct {
		Version int
		Hooks   map[string][]struct{ Type, Command, Bash string }
	}
	readJSON(t, hooksFile, &hooks)
	if hooks.Version != 1 || len(hooks.Hooks) != 3 {
		t.Fatalf("hooks file: %+v", hooks)
	}
	command := func(ev string) string {
		h := hooks.Hooks[ev]
		if len(h) != 1 || h[0].Type != "command" || h[0].Command != h[0].Bash || !strings.HasPrefix(h[0].Command, palaceBin+" --home ") {
			t.Fatalf("%s hook: %+v", ev, h)
		}
		return h[0].Command
	}
	var cli struct {
		MCPServers map[string]struct {
			Type, Command string
			Args, Tools   []string
		}
	}
	readJSON(t, cliMCP, &cli)
	if p := cli.MCPServers["palace"]; p.Type != "local" || p.Command != palaceBin || strings.Join(p.Args, " ") != "--home "+s.home+" serve --mcp" || len(p.Tools) != 1 {
		t.Errorf("Copilot CLI's server: %+v", p)
	}
	var vs struct {
		Servers map[string]struct {
			Type, Command string
			Args          []string
		}
	}
	readJSON(t, vscodeMCP, &vs)
	if p := vs.Servers["palace"]; p.Type != "stdio" || p.Command != palaceBin {
		t.Errorf("VS Code's server: %+v", p)
	}

	// SessionStart: the wake-up, in both protocols.
	session := "5d0c7b3e-2a41-4f8e-9c6d-1e3b7a9f0c24"
	answer := s.run(command("SessionStart"), "copilot/input-SessionStart.json", map[string]string{"$SESSION": session})
	specific, _ := answer["hookSpecificOutput"].(map[string]any)
	if ctx, _ := answer["additionalContext"].(string); !strings.Contains(ctx, decision) || specific["additionalContext"] != ctx || specific["hookEventName"] != "SessionStart" {
		t.Fatalf("SessionStart answer: %v", answer)
	}

	// Stop: the session's events.jsonl is mined into the project's wing.
	events, err := os.ReadFile(filepath.Join("..", "..", "core", "convo", "testdata", "copilot-cli", session, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(s.userHome, ".copilot", "session-state", session, "events.jsonl")
	os.MkdirAll(filepath.Dir(transcript), 0o700)
	os.WriteFile(transcript, events, 0o600)
	vars := map[string]string{"$SESSION": session, "$TRANSCRIPT": transcript}
	if answer := s.run(command("Stop"), "copilot/input-Stop.json", vars); answer != nil {
		t.Fatalf("Stop after 2 human messages answered %v", answer)
	}
	if e := s.lastRun(); e.Status != "ok" || e.Result == nil || e.Result.Transcript != transcript || e.Result.Wing != "billing" {
		t.Fatalf("Stop run: %+v %+v", e, e.Result)
	}
	if got := s.palace("search", "RoundHalfEven API half-up", "--wing", "billing"); !strings.Contains(got, transcript) {
		t.Errorf("the Copilot session is not in the wing:\n%s", got)
	}
	// Without transcript_path (VS Code sends sessionId), the session id
	// finds Copilot CLI's log.
	noPath := map[string]string{"$SESSION": session, `"transcript_path":"$TRANSCRIPT",`: ""}
	s.run(command("Stop"), "copilot/input-vscode-Stop.json", noPath)
	if e := s.lastRun(); e.Status != "ok" || e.Result.Transcript != transcript {
		t.Errorf("Stop without transcript_path: %+v", e)
	}
	// VS Code's own transcript of another session.
	vsSession := "b81e3c55-0f6a-4d1e-9b2c-7a4d5e6f8091"
	vsTranscript := filepath.Join(s.userHome, ".config", "Code", "User", "workspaceStorage", "4f1c9a", "GitHub.copilot-chat", "transcripts", vsSession+".jsonl")
	os.MkdirAll(filepath.Dir(vsTranscript), 0o700)
	os.WriteFile(vsTranscript, []byte(strings.ReplaceAll(string(events), session, vsSession)), 0o600)
	s.run(command("Stop"), "copilot/input-vscode-Stop.json", map[string]string{"$SESSION": vsSession, "$TRANSCRIPT": vsTranscript})
	if e := s.lastRun(); e.Status != "ok" || e.Result.Transcript != vsTranscript || e.Result.Wing != "billing" {
		t.Errorf("Stop with a VS Code transcript: %+v", e)
	}
	// PreCompact is a notification in Copilot: mined, never answered.
	if answer := s.run(command("PreCompact"), "copilot/input-PreCompact.json", vars); answer != nil {
		t.Errorf("PreCompact answered %v", answer)
	}
	if e := s.lastRun(); e.Status != "ok" || e.Result.Transcript != transcript {
		t.Errorf("PreCompact run: %+v", e)
	}

	out = s.palace("hook", "uninstall", "copilot", "--yes")
	for _, f := range []string{hooksFile, cliMCP, vscodeMCP} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("uninstall left %s:\n%s", f, out)
		}
	}
}

// TestHookAgentsGemini: Gemini CLI's settings.json gets the hooks and the
// server; SessionStart answers with the wake-up; AfterAgent (its Stop)
// mines the session's JSONL transcript.
func TestHookAgentsGemini(t *testing.T) {
	s := newAgSetup(t)
	s.palace("hook", "install", "gemini", "--yes")
	settings := filepath.Join(s.userHome, ".gemini", "settings.json")
	var cfg struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Name, Type, Command string
				Timeout             int
			}
		}
		MCPServers map[string]struct {
			Command string
			Args    []string
		}
	}
	readJSON(t, settings, &cfg)
	command := func(ev string) string {
		g := cfg.Hooks[ev]
		if len(g) != 1 || len(g[0].Hooks) != 1 || g[0].Hooks[0].Timeout != 30000 || !strings.HasPrefix(g[0].Hooks[0].Command, palaceBin) {
			t.Fatalf("%s hook: %+v", ev, g)
		}
		return g[0].Hooks[0].Command
	}
	if p := cfg.MCPServers["palace"]; p.Command != palaceBin || strings.Join(p.Args, " ") != "--home "+s.home+" serve --mcp" {
		t.Errorf("Gemini's server: %+v", p)
	}
	session := "0e4b6c2a-91d7-4f3e-8a5b-c6d7e8f90a1b"
	transcript := filepath.Join(s.userHome, ".gemini", "tmp", "3f9c0d", "chats", "session-2026-12-07T10-30-0e4b6c2a.jsonl")
	os.MkdirAll(filepath.Dir(transcript), 0o700)
	os.WriteFile(transcript, []byte(`{"type":"session_metadata","sessionId":"`+session+`","projectHash":"3f9c0d","startTime":"2026-12-07T10:30:00Z"}
{"type":"user","id":"1","timestamp":"2026-12-07T10:30:05Z","content":[{"text":"Which rounding does the ledger export use?"}]}
{"type":"gemini","id":"2","timestamp":"2026-12-07T10:30:09Z","content":[{"text":"The ledger export truncates to the cent instead of rounding."}],"model":"gemini-2.5-pro"}
`), 0o600)
	vars := map[string]string{"$SESSION": session, "$TRANSCRIPT": transcript}
	answer := s.run(command("SessionStart"), "gemini/input-SessionStart.json", vars)
	specific, _ := answer["hookSpecificOutput"].(map[string]any)
	if ctx, _ := specific["additionalContext"].(string); !strings.Contains(ctx, decision) {
		t.Fatalf("SessionStart answer: %v", answer)
	}
	s.run(command("AfterAgent"), "gemini/input-AfterAgent.json", vars)
	if e := s.lastRun(); e.Status != "ok" || e.Result.Transcript != transcript || e.Result.Wing != "billing" {
		t.Fatalf("AfterAgent run: %+v", e)
	}
	if got := s.palace("search", "ledger export truncates", "--wing", "billing"); !strings.Contains(got, transcript) {
		t.Errorf("the Gemini session is not in the wing:\n%s", got)
	}
	s.palace("hook", "uninstall", "gemini", "--yes")
	if _, err := os.Stat(settings); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s", settings)
	}
}

// TestHookAgentsCursor: Cursor's hooks.json gets sessionStart, its
// mcp.json the server; sessionStart answers with additional_context for
// the project workspace_roots names.
func TestHookAgentsCursor(t *testing.T) {
	s := newAgSetup(t)
	s.palace("hook", "install", "cursor", "--yes")
	var hooks struct {
		Version int
		Hooks   map[string][]struct {
			Command string
			Timeout int
		}
	}
	readJSON(t, filepath.Join(s.userHome, ".cursor", "hooks.json"), &hooks)
	start := hooks.Hooks["sessionStart"]
	if hooks.Version != 1 || len(hooks.Hooks) != 1 || len(start) != 1 || !strings.HasPrefix(start[0].Command, palaceBin) {
		t.Fatalf("hooks.json: %+v", hooks)
	}
	answer := s.run(start[0].Command, "cursor/input-sessionStart.json", map[string]string{"$SESSION": "c7d1e2f3-4a5b-4c6d-8e9f-a0b1c2d3e4f5"})
	if ctx, _ := answer["additional_context"].(string); !strings.Contains(ctx, decision) || len(answer) != 1 {
		t.Fatalf("sessionStart answer: %v", answer)
	}
	if e := s.lastRun(); e.Result == nil || e.Result.Wing != "billing" {
		t.Errorf("sessionStart run: %+v", e)
	}
	s.palace("hook", "uninstall", "cursor", "--yes")
	for _, f := range []string{"hooks.json", "mcp.json"} {
		if _, err := os.Stat(filepath.Join(s.userHome, ".cursor", f)); !os.IsNotExist(err) {
			t.Errorf("uninstall left %s", f)
		}
	}
}

// The server `hook install claude-code` registers in ~/.claude.json is one
// an MCP client can start as Claude Code would, by that command line, and
// it offers the tools the save prompt names; project scope registers it
// under the project, and uninstall takes both out.
func TestHookInstallRegistersMCP(t *testing.T) {
	s := newAgSetup(t)
	s.palace("hook", "install", "claude-code", "--yes")
	s.palace("hook", "install", "claude-code", "--yes", "--scope", "project", "--dir", s.cwd)
	type server struct {
		Type, Command string
		Args          []string
	}
	var cfg struct {
		MCPServers map[string]server
		Projects   map[string]struct{ MCPServers map[string]server }
	}
	claudeJSON := filepath.Join(s.userHome, ".claude.json")
	readJSON(t, claudeJSON, &cfg)
	user := cfg.MCPServers["palace"]
	if user.Type != "stdio" || user.Command != palaceBin || cfg.Projects[s.cwd].MCPServers["palace"].Command != palaceBin {
		t.Fatalf("~/.claude.json: %+v", cfg)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tr := transport.NewStdioWithOptions(user.Command, agEnv(s.userHome), user.Args)
	if err := tr.Start(ctx); err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "claude-code", Version: "2"}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize the registered server: %v", err)
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"palace_remember", "palace_search"} {
		if !names[want] {
			t.Errorf("the registered server has no %s: %v", want, names)
		}
	}

	s.palace("hook", "uninstall", "claude-code", "--yes", "--scope", "project", "--dir", s.cwd)
	s.palace("hook", "uninstall", "claude-code", "--yes")
	if b, err := os.ReadFile(claudeJSON); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s:\n%s", claudeJSON, b)
	}
	if out := s.palace("hook", "uninstall", "claude-code", "--yes"); !strings.Contains(out, "nothing to do") {
		t.Errorf("a second uninstall: %s", out)
	}
}
