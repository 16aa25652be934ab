package hook

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Agents.
const (
	AgentClaudeCode = "claude-code"
	AgentCodex      = "codex"
	AgentCopilot    = "copilot"
	AgentGemini     = "gemini"
	AgentCursor     = "cursor"
)

// Agents lists the agents Palace installs into.
var Agents = []string{AgentClaudeCode, AgentCodex, AgentCopilot, AgentGemini, AgentCursor}

// IsAgent reports whether name is one of Agents.
func IsAgent(name string) bool {
	_, ok := agentFolders[name]
	return ok
}

// agentFolder is where an agent keeps its files: env names the variable
// that moves the agent's own folder, dir is that folder in the user's
// home; hooksUser is the hooks file in the agent's folder, hooksProject
// the one in a project.
type agentFolder struct {
	env, dir                string
	hooksUser, hooksProject string
}

var agentFolders = map[string]agentFolder{
	AgentClaudeCode: {"CLAUDE_CONFIG_DIR", ".claude", "settings.json", filepath.Join(".claude", "settings.local.json")},
	AgentCodex:      {"CODEX_HOME", ".codex", "hooks.json", filepath.Join(".codex", "hooks.json")},
	AgentCopilot:    {"COPILOT_HOME", ".copilot", filepath.Join("hooks", "palace.json"), filepath.Join(".github", "hooks", "palace.json")},
	AgentGemini:     {"", ".gemini", "settings.json", filepath.Join(".gemini", "settings.json")},
	AgentCursor:     {"", ".cursor", "hooks.json", filepath.Join(".cursor", "hooks.json")},
}

// agentEvent maps one of Palace's events to the name the agent's hooks
// file gives it.
type agentEvent struct{ event, key string }

// agentSpec is what installing Palace into one agent takes besides its
// folders: the shape of the entries Palace writes into its files. The
// formats are each agent's documented ones; server/hook/testdata/agents
// keeps a fixture per format, copied from the page it cites.
type agentSpec struct {
	// events are the hook events Palace registers, in the order written.
	events []agentEvent
	// flat says the hooks file lists handlers under each event directly,
	// with a top-level "version": 1 ({"version": 1, "hooks":
	// {"sessionStart": [handler]}}), rather than in matcher groups
	// ({"hooks": {"SessionStart": [{"hooks": [handler]}]}}).
	flat bool
	// entry is what Palace adds under one event: a matcher group or,
	// when flat, a handler.
	entry func(o InstallOptions, event string) *object
	// mcp are the MCP configurations the server is registered in.
	mcp func(o InstallOptions) []mcpTarget
	// notes are things the user should know after install.
	notes func(o InstallOptions) []string
}

var agentSpecs = map[string]agentSpec{
	// Claude Code: docs.anthropic.com, "Hooks reference" and "MCP"
	// (what `claude mcp add --scope user|local` writes).
	AgentClaudeCode: {
		events: []agentEvent{{EventStop, "Stop"}, {EventPreCompact, "PreCompact"}, {EventSessionStart, "SessionStart"}, {EventSessionEnd, "SessionEnd"}},
		entry: func(o InstallOptions, event string) *object {
			return group(handler("type", "command", "command", o.Command(event), "timeout", agentTimeout))
		},
		mcp: claudeMCP,
	},
	// Codex: developers.openai.com/codex/hooks and the Codex repository's
	// docs/config.md (mcp_servers).
	AgentCodex: {
		events: []agentEvent{{EventStop, "Stop"}, {EventPreCompact, "PreCompact"}, {EventSessionStart, "SessionStart"}},
		// No timeout: Codex's handler fields differ between releases,
		// and palace's own deadline bounds the run anyway.
		entry: func(o InstallOptions, event string) *object {
			return group(handler("type", "command", "command", o.Command(event)))
		},
		mcp: func(o InstallOptions) []mcpTarget {
			path := filepath.Join(o.agentDir(AgentCodex), "config.toml")
			if o.Scope == ScopeProject {
				// Codex reads a trusted project's .codex/config.toml.
				path = filepath.Join(o.projectDir(), ".codex", "config.toml")
			}
			return []mcpTarget{{path: path, toml: true}}
		},
		notes: codexNotes,
	},
	// GitHub Copilot: docs.github.com "GitHub Copilot hooks reference"
	// (Copilot CLI) and code.visualstudio.com "Agent hooks" (VS Code),
	// which both read ~/.copilot/hooks/*.json and .github/hooks/*.json.
	// The PascalCase event names make Copilot CLI send the VS Code
	// compatible input (session_id, transcript_path, stop_hook_active),
	// the same fields Claude Code sends. "command" is the field VS Code
	// reads and Copilot CLI's cross-platform one; "bash" is the field
	// Copilot CLI releases before "command" required.
	AgentCopilot: {
		events: []agentEvent{{EventStop, "Stop"}, {EventPreCompact, "PreCompact"}, {EventSessionStart, "SessionStart"}},
		flat:   true,
		entry: func(o InstallOptions, event string) *object {
			c := o.Command(event)
			return handler("type", "command", "command", c, "bash", c)
		},
		mcp: copilotMCP,
		notes: func(o InstallOptions) []string {
			return []string{"Copilot CLI and VS Code's agent both read this hooks file; the wake-up reaches the session as SessionStart additionalContext, and palace_wake_up over MCP gives the same text."}
		},
	},
	// Gemini CLI: geminicli.com/docs/hooks and its reference. AfterAgent
	// is its Stop, PreCompress its PreCompact; timeouts are milliseconds.
	AgentGemini: {
		events: []agentEvent{{EventStop, "AfterAgent"}, {EventPreCompact, "PreCompress"}, {EventSessionStart, "SessionStart"}},
		entry: func(o InstallOptions, event string) *object {
			return group(handler("name", "palace-"+event, "type", "command", "command", o.Command(event), "timeout", agentTimeout*1000))
		},
		mcp: func(o InstallOptions) []mcpTarget {
			// Gemini keeps its MCP servers in the same settings.json.
			path, _ := o.SettingsPath()
			return []mcpTarget{{path: path, keys: []string{"mcpServers"}, entry: serverEntry(o, "")}}
		},
		notes: geminiNotes,
	},
	// Cursor: cursor.com/docs/agent/hooks and cursor.com/docs/mcp. Only
	// SessionStart: Palace has no parser for Cursor's agent transcripts,
	// so a stop has nothing to mine.
	AgentCursor: {
		events: []agentEvent{{EventSessionStart, "sessionStart"}},
		flat:   true,
		entry: func(o InstallOptions, event string) *object {
			return handler("command", o.Command(event), "timeout", agentTimeout)
		},
		mcp: func(o InstallOptions) []mcpTarget {
			path := filepath.Join(o.agentDir(AgentCursor), "mcp.json")
			if o.Scope == ScopeProject {
				path = filepath.Join(o.projectDir(), ".cursor", "mcp.json")
			}
			return []mcpTarget{{path: path, keys: []string{"mcpServers"}, entry: serverEntry(o, "")}}
		},
		notes: func(o InstallOptions) []string {
			return []string{"Cursor gets the wake-up at sessionStart and the MCP server; its transcripts are not mined (Palace reads no Cursor transcript format yet)."}
		},
	},
}

// agentDir is the agent's own folder: the one its variable names, else
// the one in the user's home.
func (o InstallOptions) agentDir(agent string) string {
	s := agentFolders[agent]
	if s.env != "" {
		if d := o.getenv(s.env); d != "" {
			return d
		}
	}
	return filepath.Join(o.UserHome, s.dir)
}

// projectDir is the absolute project folder; check has made sure it is
// usable.
func (o InstallOptions) projectDir() string {
	d, err := filepath.Abs(o.ProjectDir)
	if err != nil {
		return o.ProjectDir
	}
	return d
}

// handler builds an object from key, value pairs, in order.
func handler(kv ...any) *object {
	h := newObject()
	for i := 0; i+1 < len(kv); i += 2 {
		h.set(kv[i].(string), kv[i+1])
	}
	return h
}

// group is a matcher group for every matcher, holding one handler.
func group(h *object) *object {
	g := newObject()
	g.set("hooks", []any{h})
	return g
}

// claudeMCP registers the server the way `claude mcp add` does: in
// ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json), at the top for the
// user scope and under the project's path for a project (Claude Code's
// "local" scope: private to this user, where the project's .mcp.json
// would be committed with this machine's path to palace in it).
func claudeMCP(o InstallOptions) []mcpTarget {
	path := filepath.Join(o.UserHome, ".claude.json")
	if d := o.getenv("CLAUDE_CONFIG_DIR"); d != "" {
		path = filepath.Join(d, ".claude.json")
	}
	keys := []string{"mcpServers"}
	if o.Scope == ScopeProject {
		keys = []string{"projects", o.projectDir(), "mcpServers"}
	}
	return []mcpTarget{{path: path, keys: keys, entry: serverEntry(o, "stdio")}}
}

// copilotMCP registers the server for Copilot CLI ($COPILOT_HOME/
// mcp-config.json, "local" servers) and, when VS Code is installed, in
// its user profile's mcp.json ("servers"); for a project, in
// .vscode/mcp.json (VS Code) and .mcp.json (Copilot CLI's per-checkout
// file), as docs.github.com "Adding MCP servers for GitHub Copilot CLI"
// and code.visualstudio.com "MCP configuration reference" describe.
func copilotMCP(o InstallOptions) []mcpTarget {
	if o.Scope == ScopeProject {
		dir := o.projectDir()
		return []mcpTarget{
			{path: filepath.Join(dir, ".vscode", "mcp.json"), keys: []string{"servers"}, entry: serverEntry(o, "stdio")},
			{path: filepath.Join(dir, ".mcp.json"), keys: []string{"mcpServers"}, entry: serverEntry(o, "stdio")},
		}
	}
	cli := serverEntry(o, "local")
	cli.set("tools", []any{"*"})
	ts := []mcpTarget{{path: filepath.Join(o.agentDir(AgentCopilot), "mcp-config.json"), keys: []string{"mcpServers"}, entry: cli}}
	if d := vscodeUserDir(o); d != "" {
		ts = append(ts, mcpTarget{path: filepath.Join(d, "mcp.json"), keys: []string{"servers"}, entry: serverEntry(o, "stdio")})
	}
	return ts
}

// vscodeUserDir is VS Code's user profile folder when VS Code is
// installed (the folder exists), else "".
func vscodeUserDir(o InstallOptions) string {
	var d string
	switch runtime.GOOS {
	case "darwin":
		d = filepath.Join(o.UserHome, "Library", "Application Support", "Code", "User")
	case "windows":
		d = filepath.Join(o.getenv("APPDATA"), "Code", "User")
	default:
		cfg := o.getenv("XDG_CONFIG_HOME")
		if cfg == "" {
			cfg = filepath.Join(o.UserHome, ".config")
		}
		d = filepath.Join(cfg, "Code", "User")
	}
	if fi, err := os.Stat(d); err == nil && fi.IsDir() {
		return d
	}
	return ""
}

// geminiNotes tells the user that Gemini CLI runs hooks only with its
// hooks system on, and warns when the settings switch it off.
func geminiNotes(o InstallOptions) []string {
	path, _ := o.SettingsPath()
	b, _ := os.ReadFile(path)
	if strings.Contains(strings.ReplaceAll(string(b), " ", ""), `"enableHooks":false`) {
		return []string{path + " switches Gemini CLI hooks off (enableHooks: false): set it to true, or the hooks never run."}
	}
	return []string{"Gemini CLI runs hooks with its hooks system on (/settings, Advanced, \"Enable Hooks System\"; tools.enableHooks in settings.json)."}
}

// agentTranscriptRoots are the folders the agents Palace added after
// Claude Code and Codex keep their transcripts in: Copilot CLI's
// session-state ($COPILOT_HOME, else ~/.copilot) and VS Code's
// workspaceStorage (its Copilot Chat transcripts), Gemini CLI's
// ~/.gemini/tmp.
func agentTranscriptRoots(agent, userHome string, get func(string) string) []string {
	switch agent {
	case AgentCopilot:
		d := get("COPILOT_HOME")
		if d == "" {
			d = filepath.Join(userHome, ".copilot")
		}
		roots := []string{filepath.Join(d, "session-state")}
		cfg := get("XDG_CONFIG_HOME")
		if cfg == "" {
			cfg = filepath.Join(userHome, ".config")
		}
		for _, base := range []string{
			filepath.Join(cfg, "Code", "User"),
			filepath.Join(cfg, "Code - Insiders", "User"),
			filepath.Join(userHome, "Library", "Application Support", "Code", "User"),
			filepath.Join(userHome, "Library", "Application Support", "Code - Insiders", "User"),
			filepath.Join(userHome, ".vscode-server", "data", "User"),
		} {
			roots = append(roots, filepath.Join(base, "workspaceStorage"))
		}
		return roots
	case AgentGemini:
		return []string{filepath.Join(userHome, ".gemini", "tmp")}
	}
	return nil
}

// findTranscript finds the transcript of a session whose hook input named
// none: Codex's rollout file by the session id, Copilot CLI's
// session-state/ID/events.jsonl; "" when there is none.
func findTranscript(agent string, roots []string, session string) string {
	switch agent {
	case AgentCodex:
		return findRollout(roots, session)
	case AgentCopilot:
		for _, root := range roots {
			p := filepath.Join(root, session, "events.jsonl")
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return ""
}
