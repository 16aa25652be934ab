package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// loopHookTimeout bounds one hook run from outside: the hook bounds
// itself to 5 s, so past this it is hung.
const loopHookTimeout = 30 * time.Second

// loopMachine is the machine one scenario runs on: a fresh palace home,
// a user home holding the agents' settings and transcripts, a folder the
// projects sit side by side in, and the hooks `palace hook install` wrote
// for each agent, run as the agents run them.
type loopMachine struct {
	exe, home, user, work string
	env                   []string
	// hooks are the commands install registered, by agent, then by the
	// agent's event name (SessionStart, Stop, PreCompact, ...).
	hooks map[string]map[string]string
	// noHooks says why an agent has none (install refused it).
	noHooks map[string]string
	// ms are the hook runs' wall times, by event name.
	ms map[string][]float64
	// complaints are the first lines hook runs wrote to stderr.
	complaints []string
}

func newLoopMachine(exe, dir string) (*loopMachine, error) {
	m := &loopMachine{exe: exe, home: filepath.Join(dir, "palace"), user: filepath.Join(dir, "user"), work: filepath.Join(dir, "work"),
		hooks: map[string]map[string]string{}, noHooks: map[string]string{}, ms: map[string][]float64{}}
	for _, d := range []string{m.home, m.user, m.work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("bench loop: %w", err)
		}
	}
	// The agents run hooks and servers with the user's home and none of
	// the variables that would move their folders elsewhere.
	for _, kv := range childEnv(m.home) {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME":
			continue
		}
		m.env = append(m.env, kv)
	}
	m.env = append(m.env, "HOME="+m.user)
	return m, nil
}

// command is the palace binary with this machine's home and environment.
func (m *loopMachine) command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := childCmd(ctx, m.exe, m.home, args...)
	cmd.Env, cmd.Dir = m.env, dir
	return cmd
}

// settingsOf is where an agent's installed hooks live, under the user's
// home.
func settingsOf(agent string) string {
	if agent == loopCodex {
		return filepath.Join(".codex", "hooks.json")
	}
	return filepath.Join(".claude", "settings.json")
}

// install runs `palace hook install AGENT --yes`, as a user setting the
// agent up would, and reads back the commands it registered. An agent
// install refuses runs without hooks (noted), as such a user's would.
func (m *loopMachine) install(ctx context.Context, agent string) error {
	if _, done := m.hooks[agent]; done {
		return nil
	}
	if _, done := m.noHooks[agent]; done {
		return nil
	}
	var stderr bytes.Buffer
	cmd := m.command(ctx, m.work, "hook", "install", agent, "--yes")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		m.noHooks[agent] = fmt.Sprintf("hook install %s: %v: %s", agent, err, strings.TrimSpace(stderr.String()))
		return nil
	}
	path := filepath.Join(m.user, settingsOf(agent))
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("hook install %s wrote no settings: %w", agent, err)
	}
	// The settings' shape, Claude Code's and Codex's alike:
	// {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": ...}]}]}}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	cmds := map[string]string{}
	for ev, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Type == "command" && strings.Contains(h.Command, " hook run ") {
					cmds[ev] = h.Command
				}
			}
		}
	}
	if len(cmds) == 0 {
		return fmt.Errorf("hook install %s registered no palace hook in %s", agent, path)
	}
	m.hooks[agent] = cmds
	return nil
}

// hook runs the command the agent's settings hold for event, through sh
// in cwd with in on stdin, as the agent does, and times it. ran is false
// when no such hook is installed; answer is the JSON object it printed,
// nil for none.
func (m *loopMachine) hook(ctx context.Context, agent, event, cwd string, in map[string]any) (answer map[string]any, ran bool, err error) {
	line, ok := m.hooks[agent][event]
	if !ok {
		return nil, false, nil
	}
	b, err := json.Marshal(in)
	if err != nil {
		return nil, true, err
	}
	ctx, cancel := context.WithTimeout(ctx, loopHookTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Env, cmd.Dir, cmd.Stdin = m.env, cwd, bytes.NewReader(b)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t := time.Now()
	err = cmd.Run()
	m.ms[event] = append(m.ms[event], msBetween(t, time.Now()))
	if err != nil {
		return nil, true, fmt.Errorf("%s %s hook: %w: %s", agent, event, err, strings.TrimSpace(stderr.String()))
	}
	if s := strings.TrimSpace(stderr.String()); s != "" && len(m.complaints) < 5 {
		m.complaints = append(m.complaints, fmt.Sprintf("%s %s: %s", agent, event, firstLine(s)))
	}
	if bytes.TrimSpace(stdout.Bytes()) == nil {
		return nil, true, nil
	}
	if err := json.Unmarshal(stdout.Bytes(), &answer); err != nil {
		return nil, true, fmt.Errorf("%s %s hook: stdout is not one JSON object: %q", agent, event, stdout.String())
	}
	return answer, true, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// contextOf is the text a SessionStart answer adds to the agent's
// context (hookSpecificOutput.additionalContext), "" for none.
func contextOf(answer map[string]any) string {
	out, _ := answer["hookSpecificOutput"].(map[string]any)
	s, _ := out["additionalContext"].(string)
	return s
}

// blocks says whether a Stop or PreCompact answer holds the agent.
func blocks(answer map[string]any) bool { return answer["decision"] == "block" }

// clientNameOf is the name an agent gives in MCP's initialize
// (clientInfo.name), which Palace takes as the diary's default agent.
func clientNameOf(agent string) string {
	if agent == loopCodex {
		return "codex-mcp-client"
	}
	return "claude-code"
}

// loopMCP is mcp-go's client on a `palace serve --mcp` the bench started
// in a project folder, as an agent does, with that folder as its one root.
type loopMCP struct {
	*serverProc
	cl  *client.Client
	tap *wireTap
}

type loopRoots []string

func (r loopRoots) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	res := &mcp.ListRootsResult{Roots: []mcp.Root{}}
	for _, d := range r {
		res.Roots = append(res.Roots, mcp.Root{URI: (&url.URL{Scheme: "file", Path: d}).String(), Name: filepath.Base(d)})
	}
	return res, nil
}

// startMCP starts the server in dir with dir as its root and completes
// the handshake as agent; the handshake's result is returned for the
// start cost.
func (m *loopMachine) startMCP(ctx context.Context, agent, dir string) (*loopMCP, *mcp.InitializeResult, error) {
	cmd := m.command(ctx, dir, "serve", "--mcp")
	sp, err := startCmd(cmd, "serve --mcp")
	if err != nil {
		return nil, nil, err
	}
	tap := &wireTap{r: sp.stdout}
	cl := client.NewClient(transport.NewIO(tap, sp.stdin, nil), client.WithRootsHandler(loopRoots{dir}))
	if err := cl.Start(ctx); err != nil {
		sp.kill()
		return nil, nil, sp.failed("start", err)
	}
	c := &loopMCP{serverProc: sp, cl: cl, tap: tap}
	ictx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	// The handshake Claude Code and Codex speak today: initialize, then
	// the initialized notification.
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: clientNameOf(agent), Version: "1"}
	res, err := cl.Initialize(ictx, req)
	if err != nil {
		c.kill()
		return nil, nil, c.failed("initialize", err)
	}
	return c, res, nil
}

// call calls a tool; a tool error is returned as toolErr (the text the
// agent reads), not as err, which is for a broken connection.
func (c *loopMCP) call(ctx context.Context, name string, args map[string]any) (structured json.RawMessage, toolErr string, err error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.cl.CallTool(ctx, req)
	if err != nil {
		// A schema refusal (-32602) is the agent's mistake, told to it.
		if errors.Is(err, mcp.ErrInvalidParams) {
			return nil, err.Error(), nil
		}
		return nil, "", c.failed(name, err)
	}
	if res.IsError {
		var texts []string
		for _, ct := range res.Content {
			if tc, ok := ct.(mcp.TextContent); ok {
				texts = append(texts, tc.Text)
			}
		}
		return nil, strings.Join(texts, " "), nil
	}
	b, err := json.Marshal(res.StructuredContent)
	return b, "", err
}

// stop ends the stdio session and waits for the server to exit with 0.
func (c *loopMCP) stop() error {
	c.cl.Close()
	err := c.wait(10 * time.Second)
	c.stdout.Close()
	return err
}

// wireTap keeps what the server wrote on stdout while on, so the start
// cost is counted on the bytes sent, not on the client's decoding of them.
type wireTap struct {
	r  *os.File
	mu sync.Mutex
	on bool
	b  []byte
}

func (t *wireTap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.mu.Lock()
	if t.on {
		t.b = append(t.b, p[:n]...)
	}
	t.mu.Unlock()
	return n, err
}

func (t *wireTap) record(on bool) {
	t.mu.Lock()
	t.on = on
	t.mu.Unlock()
}

// LoopMCPStart is what an agent reads from the MCP server before its
// first call: the initialize instructions and the tools/list result.
type LoopMCPStart struct {
	// Chars is InstructionsChars + ToolsListChars, characters (runes).
	Chars             int `json:"chars"`
	InstructionsChars int `json:"instructions_chars"`
	// ToolsListChars is the tools/list result as sent (its JSON).
	ToolsListChars int `json:"tools_list_chars"`
	Tools          int `json:"tools"`
	// Largest are the five largest tools, by the characters of their
	// JSON in the result.
	Largest []LoopToolSize `json:"largest"`
	Target  int            `json:"target"`
}

// LoopToolSize is one tool's share of tools/list.
type LoopToolSize struct {
	Name  string `json:"name"`
	Chars int    `json:"chars"`
}

// TargetMCPStartChars is the bound on the default profile.
const TargetMCPStartChars = 8000

// mcpStart starts a server in an empty project as a new agent would and
// counts what initialize and tools/list sent.
func (m *loopMachine) mcpStart(ctx context.Context) (LoopMCPStart, error) {
	out := LoopMCPStart{Target: TargetMCPStartChars}
	dir := filepath.Join(m.work, "empty")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return out, err
	}
	c, init, err := m.startMCP(ctx, loopClaude, dir)
	if err != nil {
		return out, err
	}
	out.InstructionsChars = utf8.RuneCountInString(init.Instructions)
	c.tap.record(true)
	lctx, cancel := context.WithTimeout(ctx, callTimeout)
	_, err = c.cl.ListTools(lctx, mcp.ListToolsRequest{})
	cancel()
	c.tap.record(false)
	if err != nil {
		c.kill()
		return out, c.failed("tools/list", err)
	}
	if err := c.stop(); err != nil {
		return out, err
	}
	// The tap holds whole lines up to the tools/list response; the
	// response is the line whose result holds tools.
	sc := bufio.NewScanner(bytes.NewReader(c.tap.b))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var msg struct {
			Result *struct {
				Tools []json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		var raw struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.Result == nil || msg.Result.Tools == nil {
			continue
		}
		_ = json.Unmarshal(sc.Bytes(), &raw)
		out.ToolsListChars = utf8.RuneCount(raw.Result)
		out.Tools = len(msg.Result.Tools)
		for _, t := range msg.Result.Tools {
			var named struct{ Name string }
			_ = json.Unmarshal(t, &named)
			out.Largest = append(out.Largest, LoopToolSize{named.Name, utf8.RuneCount(t)})
		}
	}
	if out.Tools == 0 {
		return out, errors.New("bench loop: no tools/list response on the wire")
	}
	slices.SortStableFunc(out.Largest, func(a, b LoopToolSize) int { return b.Chars - a.Chars })
	if len(out.Largest) > 5 {
		out.Largest = out.Largest[:5]
	}
	out.Chars = out.InstructionsChars + out.ToolsListChars
	return out, nil
}
