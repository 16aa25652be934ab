package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

const agentsFixtures = "testdata/agents"

// named are the objects whose keys are names the user chose (servers,
// projects): their shape is the same whatever the name.
var named = map[string]bool{"mcpServers": true, "servers": true, "projects": true}

// shape is the set of "path:type" of every value in a JSON document, with
// array indexes as [] and the names under mcpServers, servers and
// projects as *: what a documented file allows a key to be.
func shape(v any, path string, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		out[path+":object"] = true
		base := path[strings.LastIndex(path, ".")+1:]
		for k, e := range x {
			if named[base] {
				k = "*"
			}
			shape(e, strings.TrimPrefix(path+"."+k, "."), out)
		}
	case []any:
		out[path+":array"] = true
		for _, e := range x {
			shape(e, path+"[]", out)
		}
	case string:
		out[path+":string"] = true
	case float64:
		out[path+":number"] = true
	case bool:
		out[path+":bool"] = true
	case nil:
		out[path+":null"] = true
	}
}

// leaves maps every scalar of a JSON document to its exact path, array
// indexes included.
func leaves(v any, path string, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			leaves(e, path+"."+k, out)
		}
	case []any:
		for i, e := range x {
			leaves(e, fmt.Sprintf("%s[%d]", path, i), out)
		}
	default:
		b, _ := json.Marshal(x)
		out[path] = string(b)
	}
}

func decodeJSON(t *testing.T, b []byte, name string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, b)
	}
	return v
}

// agentCase is one agent and scope: the files install must write (paths
// relative to the user's home, or to the project with a "PROJECT/"
// prefix), each with the documented fixture its shape must fit and
// whether the file starts out as that fixture.
type agentCase struct {
	agent, scope string
	files        []agentFile
}

type agentFile struct {
	path, fixture string
	preload       bool
}

func agentCases() []agentCase {
	vscode := ".config/Code/User/mcp.json"
	if runtime.GOOS == "darwin" {
		vscode = "Library/Application Support/Code/User/mcp.json"
	}
	return []agentCase{
		{AgentClaudeCode, ScopeUser, []agentFile{
			{".claude/settings.json", "claude-code/settings.json", true},
			{".claude.json", "claude-code/claude.json", true},
		}},
		{AgentClaudeCode, ScopeProject, []agentFile{
			{"PROJECT/.claude/settings.local.json", "claude-code/settings.json", false},
			{".claude.json", "claude-code/claude.json", true},
		}},
		{AgentCodex, ScopeUser, []agentFile{
			{".codex/hooks.json", "codex/hooks.json", true},
			{".codex/config.toml", "codex/config.toml", true},
		}},
		{AgentCodex, ScopeProject, []agentFile{
			{"PROJECT/.codex/hooks.json", "codex/hooks.json", false},
			{"PROJECT/.codex/config.toml", "codex/config.toml", true},
		}},
		{AgentCopilot, ScopeUser, []agentFile{
			{".copilot/hooks/palace.json", "copilot/hooks.json", false},
			{".copilot/mcp-config.json", "copilot/mcp-config.json", true},
			{vscode, "copilot/vscode-mcp.json", true},
		}},
		{AgentCopilot, ScopeProject, []agentFile{
			{"PROJECT/.github/hooks/palace.json", "copilot/hooks.json", false},
			{"PROJECT/.vscode/mcp.json", "copilot/vscode-mcp.json", true},
			{"PROJECT/.mcp.json", "copilot/mcp-config.json", false},
		}},
		{AgentGemini, ScopeUser, []agentFile{
			{".gemini/settings.json", "gemini/settings.json", true},
		}},
		{AgentCursor, ScopeUser, []agentFile{
			{".cursor/hooks.json", "cursor/hooks.json", true},
			{".cursor/mcp.json", "cursor/mcp.json", true},
		}},
		{AgentCursor, ScopeProject, []agentFile{
			{"PROJECT/.cursor/hooks.json", "cursor/hooks.json", false},
			{"PROJECT/.cursor/mcp.json", "cursor/mcp.json", false},
		}},
	}
}

// Every agent's installation, in both scopes, against the formats its
// documentation shows (testdata/agents, each file citing its page): the
// files written are exactly the agent's hooks file and MCP
// configurations; every key Palace writes is one the documented file has,
// with the same type; everything a file held stays; a second install
// changes nothing; uninstall gives every file back byte for byte and
// removes the files install created.
func TestInstallDocumentedFormats(t *testing.T) {
	for _, c := range agentCases() {
		t.Run(c.agent+"/"+c.scope, func(t *testing.T) {
			home, proj := t.TempDir(), t.TempDir()
			abs := func(rel string) string {
				if r, ok := strings.CutPrefix(rel, "PROJECT/"); ok {
					return filepath.Join(proj, r)
				}
				return filepath.Join(home, rel)
			}
			if err := os.MkdirAll(filepath.Join(home, ".config", "Code", "User"), 0o700); err != nil {
				t.Fatal(err)
			}
			if runtime.GOOS == "darwin" {
				os.MkdirAll(filepath.Join(home, "Library", "Application Support", "Code", "User"), 0o700)
			}
			for _, f := range c.files {
				if f.preload {
					b, err := os.ReadFile(filepath.Join(agentsFixtures, f.fixture))
					if err != nil {
						t.Fatal(err)
					}
					os.MkdirAll(filepath.Dir(abs(f.path)), 0o700)
					if err := os.WriteFile(abs(f.path), b, 0o600); err != nil {
						t.Fatal(err)
					}
				}
			}
			o := InstallOptions{Agent: c.agent, Scope: c.scope, Binary: "/opt/palace/bin/palace", Home: "/home/u/.palace",
				UserHome: home, ProjectDir: proj, StateDir: t.TempDir(), Env: func(string) string { return "" }}
			ps, err := PlanInstall(o)
			if err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, p := range ps {
				got = append(got, p.Path)
				if !p.Changed {
					t.Errorf("install leaves %s as it is", p.Path)
				}
				if err := p.Apply(); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range c.files {
				want = append(want, abs(f.path))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("install writes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, f := range c.files {
				checkDocumented(t, abs(f.path), filepath.Join(agentsFixtures, f.fixture), f.preload, o)
			}
			again, err := PlanInstall(o)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range again {
				if p.Changed {
					t.Errorf("a second install changes %s:\n%s", p.Path, p.Diff())
				}
			}
			un, err := PlanUninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range un {
				if err := p.Apply(); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range c.files {
				b, err := os.ReadFile(abs(f.path))
				if !f.preload {
					if err == nil {
						t.Errorf("uninstall left %s, which install created:\n%s", f.path, b)
					}
					continue
				}
				doc, _ := os.ReadFile(filepath.Join(agentsFixtures, f.fixture))
				if !bytes.Equal(b, doc) {
					t.Errorf("uninstall did not give %s back:\n got %q\nwant %q", f.path, b, doc)
				}
			}
		})
	}
}

var tomlKey = regexp.MustCompile(`(?m)^\s*([A-Za-z0-9_-]+)\s*=`)

// checkDocumented checks an installed file against its documented format.
func checkDocumented(t *testing.T, path, fixture string, preloaded bool, o InstallOptions) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".toml") {
		// The documented file, a blank line, then Palace's table, whose
		// keys are the ones the documented server table has.
		if want := string(doc) + "\n" + tomlBlock(o); string(b) != want {
			t.Fatalf("%s:\n%s\nwant\n%s", path, b, want)
		}
		documented := map[string]bool{}
		for _, m := range tomlKey.FindAllStringSubmatch(string(doc), -1) {
			documented[m[1]] = true
		}
		for _, m := range tomlKey.FindAllStringSubmatch(tomlBlock(o), -1) {
			if !documented[m[1]] {
				t.Errorf("%s: key %s is not in the documented table", path, m[1])
			}
		}
		return
	}
	ours, theirs := map[string]bool{}, map[string]bool{}
	shape(decodeJSON(t, b, path), "", ours)
	shape(decodeJSON(t, doc, fixture), "", theirs)
	var extra []string
	for k := range ours {
		if !theirs[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("%s has keys the documented format (%s) does not: %v\n%s", path, fixture, extra, b)
	}
	if !bytes.Contains(b, []byte(o.Binary)) {
		t.Errorf("%s does not name the palace binary:\n%s", path, b)
	}
	if !preloaded {
		return
	}
	kept, was := map[string]string{}, map[string]string{}
	leaves(decodeJSON(t, b, path), "", kept)
	leaves(decodeJSON(t, doc, fixture), "", was)
	for k, v := range was {
		if kept[k] != v {
			t.Errorf("%s lost %s = %s (now %q)", path, k, v, kept[k])
		}
	}
}

// Without a record (the palace home gone, or the file changed since),
// uninstall removes Palace's entries only: everything the user had stays,
// and a file with none of Palace's entries is left byte for byte.
func TestUninstallWithoutRecord(t *testing.T) {
	for _, c := range agentCases() {
		t.Run(c.agent+"/"+c.scope, func(t *testing.T) {
			home, proj := t.TempDir(), t.TempDir()
			os.MkdirAll(filepath.Join(home, ".config", "Code", "User"), 0o700)
			o := InstallOptions{Agent: c.agent, Scope: c.scope, Binary: "/opt/palace", UserHome: home, ProjectDir: proj,
				Env: func(string) string { return "" }}
			abs := func(rel string) string {
				if r, ok := strings.CutPrefix(rel, "PROJECT/"); ok {
					return filepath.Join(proj, r)
				}
				return filepath.Join(home, rel)
			}
			for _, f := range c.files {
				if f.preload {
					b, _ := os.ReadFile(filepath.Join(agentsFixtures, f.fixture))
					os.MkdirAll(filepath.Dir(abs(f.path)), 0o700)
					os.WriteFile(abs(f.path), b, 0o600)
				}
			}
			un, err := PlanUninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range un {
				if p.Changed {
					t.Errorf("uninstall before install changes %s", p.Path)
				}
			}
			ps, _ := PlanInstall(o)
			for _, p := range ps {
				p.Apply()
			}
			un, _ = PlanUninstall(o)
			for _, p := range un {
				if err := p.Apply(); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range c.files {
				if !f.preload {
					continue
				}
				b, _ := os.ReadFile(abs(f.path))
				doc, _ := os.ReadFile(filepath.Join(agentsFixtures, f.fixture))
				if strings.HasSuffix(f.path, ".toml") {
					if !bytes.Equal(b, doc) {
						t.Errorf("%s:\n got %q\nwant %q", f.path, b, doc)
					}
					continue
				}
				now, was := map[string]string{}, map[string]string{}
				leaves(decodeJSON(t, b, f.path), "", now)
				leaves(decodeJSON(t, doc, f.fixture), "", was)
				if fmt.Sprint(now) != fmt.Sprint(was) {
					t.Errorf("%s after uninstall without a record:\n%s", f.path, b)
				}
			}
		})
	}
}

// Codex's config.toml is edited as text: Palace's table is appended after
// a blank line, found again wherever it is (with sub-tables, quoted name,
// comments that introduce the next table kept), replaced when it differs
// (a moved binary) and left in place when it does not; a definition of
// the same server in a form Palace does not rewrite is refused.
func TestTOMLEdit(t *testing.T) {
	o := InstallOptions{Binary: `/opt/my "palace"/palace`}
	block := tomlBlock(o)
	if !strings.Contains(block, `command = "/opt/my \"palace\"/palace"`) || !strings.Contains(block, `args = ["serve", "--mcp"]`) {
		t.Fatalf("block:\n%s", block)
	}
	for _, c := range []struct{ name, in, out string }{
		{"empty", "", block},
		{"no final newline", `model = "o3"`, "model = \"o3\"\n\n" + block},
		{"ends with a blank line", "model = \"o3\"\n\n", "model = \"o3\"\n\n" + block},
		{"ours in the middle stays", "a = 1\n\n" + block + "\n# the next one\n[mcp_servers.x]\ncommand = \"x\"\n", "a = 1\n\n" + block + "\n# the next one\n[mcp_servers.x]\ncommand = \"x\"\n"},
		{"an old one is replaced", "a = 1\n\n[mcp_servers.\"palace\"]\ncommand = \"/old/palace\"\nargs = [\"serve\", \"--mcp\"]\n[mcp_servers.palace.env]\nK = \"v\"\n\n# next\n[profiles.x]\nmodel = \"o3\"\n",
			"a = 1\n\n# next\n[profiles.x]\nmodel = \"o3\"\n\n" + block},
	} {
		got, _, err := tomlEdit([]byte(c.in), block, true)
		if err != nil || string(got) != c.out {
			t.Errorf("%s: %v\n got %q\nwant %q", c.name, err, got, c.out)
		}
		if c.name == "an old one is replaced" {
			continue
		}
		back, found, err := tomlEdit(got, block, false)
		if err != nil || !found {
			t.Errorf("%s: uninstall found nothing (%v)", c.name, err)
		}
		if strings.Contains(string(back), "mcp_servers.palace") {
			t.Errorf("%s: uninstall left the table:\n%s", c.name, back)
		}
	}
	for _, bad := range []string{"mcp_servers.palace.command = \"p\"\n", "[mcp_servers]\npalace = { command = \"p\" }\n"} {
		if _, _, err := tomlEdit([]byte(bad), block, true); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// A table of that name that is not `serve --mcp` is not Palace's to
	// remove.
	theirs := "[mcp_servers.palace]\ncommand = \"/usr/bin/other\"\n"
	if got, found, _ := tomlEdit([]byte(theirs), block, false); found || string(got) != theirs {
		t.Errorf("uninstall removed someone else's table: %q", got)
	}
}

// A server of Palace's name keeps what the user added to it (its env)
// when install updates it; uninstall removes only a server that runs
// `serve --mcp`.
func TestMCPEditKeepsTheUsersKeys(t *testing.T) {
	o := InstallOptions{Binary: "/new/palace"}
	root, err := decodeObject([]byte(`{"mcpServers": {"palace": {"command": "/old/palace", "args": ["serve", "--mcp"], "env": {"PALACE_HOME": "/h"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	edit := mcpEdit(mcpTarget{keys: []string{"mcpServers"}, entry: serverEntry(o, "")})
	if found, err := edit(root, true); err != nil || !found {
		t.Fatalf("install: %v %v", found, err)
	}
	if got := string(encode(root)); !strings.Contains(got, `"command": "/new/palace"`) || !strings.Contains(got, `"PALACE_HOME": "/h"`) {
		t.Errorf("after install:\n%s", got)
	}
	other, _ := decodeObject([]byte(`{"mcpServers": {"palace": {"command": "palace-cloud"}}}`))
	if found, _ := edit(other, false); found || !strings.Contains(string(encode(other)), "palace-cloud") {
		t.Errorf("uninstall removed a server that is not Palace's")
	}
	bad, _ := decodeObject([]byte(`{"mcpServers": []}`))
	if _, err := edit(bad, true); err == nil {
		t.Errorf("mcpServers as an array accepted")
	}
}

// --no-mcp installs the hooks file only.
func TestInstallNoMCP(t *testing.T) {
	for _, agent := range Agents {
		o := opts(t, agent)
		o.NoMCP = true
		ps, err := PlanInstall(o)
		if err != nil {
			t.Fatal(err)
		}
		path, _ := o.SettingsPath()
		if len(ps) != 1 || ps[0].Path != path {
			t.Errorf("%s --no-mcp plans %d files", agent, len(ps))
		}
	}
}

// The hook inputs the agents document (testdata/agents/*/input-*.json)
// read into the fields Palace uses, whatever the agent calls them.
func TestReadAgentInput(t *testing.T) {
	for _, c := range []struct {
		agent, file string
		want        Input
	}{
		{AgentCopilot, "copilot/input-SessionStart.json", Input{SessionID: "S", CWD: "/p", HookEventName: "SessionStart", Source: "new"}},
		{AgentCopilot, "copilot/input-Stop.json", Input{SessionID: "S", CWD: "/p", TranscriptPath: "/t.jsonl", HookEventName: "Stop"}},
		{AgentCopilot, "copilot/input-PreCompact.json", Input{SessionID: "S", CWD: "/p", TranscriptPath: "/t.jsonl", HookEventName: "PreCompact", Trigger: "auto"}},
		{AgentCopilot, "copilot/input-vscode-Stop.json", Input{SessionID: "S", CWD: "/p", TranscriptPath: "/t.jsonl", HookEventName: "Stop"}},
		{AgentGemini, "gemini/input-SessionStart.json", Input{SessionID: "S", CWD: "/p", TranscriptPath: "/t.jsonl", HookEventName: "SessionStart", Source: "startup"}},
		{AgentGemini, "gemini/input-AfterAgent.json", Input{SessionID: "S", CWD: "/p", TranscriptPath: "/t.jsonl", HookEventName: "AfterAgent"}},
		{AgentCursor, "cursor/input-sessionStart.json", Input{SessionID: "S", CWD: "/p", HookEventName: "sessionStart"}},
	} {
		b, err := os.ReadFile(filepath.Join(agentsFixtures, c.file))
		if err != nil {
			t.Fatal(err)
		}
		in := strings.NewReplacer("$SESSION", "S", "$CWD", "/p", "$TRANSCRIPT", "/t.jsonl").Replace(string(b))
		got, err := ReadAgentInput(c.agent, strings.NewReader(in))
		if err != nil || got != c.want {
			t.Errorf("%s: %+v %v, want %+v", c.file, got, err, c.want)
		}
	}
	if _, err := ReadAgentInput(AgentCopilot, strings.NewReader(`{"sessionId": 7}`)); err != nil {
		t.Errorf("an alias of another type refused the input: %v", err)
	}
	if _, err := ReadAgentInput(AgentCopilot, strings.NewReader("not json")); err == nil {
		t.Errorf("not JSON accepted")
	}
}

// Answers in Claude Code's protocol become each agent's: Copilot gets the
// context at the top as well (Copilot CLI) and the block in
// hookSpecificOutput as well (VS Code); Cursor its snake_case fields;
// Claude Code, Codex and Gemini CLI the answer as it is.
func TestAgentAnswer(t *testing.T) {
	ctx := contextAnswer("wake-up <text> & more")
	block := blockAnswer("save first")
	for _, c := range []struct {
		agent, event string
		in           []byte
		want         string
	}{
		{AgentClaudeCode, EventSessionStart, ctx, string(ctx)},
		{AgentGemini, EventStop, block, string(block)},
		{AgentCopilot, EventSessionStart, ctx, `{"additionalContext":"wake-up <text> & more","hookSpecificOutput":{"additionalContext":"wake-up <text> & more","hookEventName":"SessionStart"}}`},
		{AgentCopilot, EventStop, block, `{"decision":"block","hookSpecificOutput":{"decision":"block","hookEventName":"Stop","reason":"save first"},"reason":"save first"}`},
		{AgentCursor, EventSessionStart, ctx, `{"additional_context":"wake-up <text> & more"}`},
		{AgentCursor, EventStop, block, `{"followup_message":"save first"}`},
		{AgentCopilot, EventStop, []byte("not json"), "not json"},
		{AgentCopilot, EventStop, nil, ""},
	} {
		if got := string(AgentAnswer(c.agent, c.event, c.in)); got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.agent, c.event, got, c.want)
		}
	}
}

// Copilot's transcripts are found where Copilot CLI and VS Code keep
// them, and by the session id when the input names none.
func TestCopilotTranscripts(t *testing.T) {
	home := t.TempDir()
	roots := TranscriptRoots(AgentCopilot, home, func(string) string { return "" })
	if roots[0] != filepath.Join(home, ".copilot", "session-state") {
		t.Fatalf("roots %v", roots)
	}
	events := filepath.Join(roots[0], "abc-123", "events.jsonl")
	os.MkdirAll(filepath.Dir(events), 0o700)
	os.WriteFile(events, []byte(`{"type":"session.start","data":{"sessionId":"abc-123"},"id":"1","timestamp":"2026-12-07T10:00:00Z","parentId":null}`+"\n"), 0o600)
	tr, _, err := Check(Input{SessionID: "abc-123", CWD: home}, RunOptions{Agent: AgentCopilot, Event: EventStop, UserHome: home, Env: func(string) string { return "" }})
	if err != nil || tr != events {
		t.Errorf("by session id: %q %v", tr, err)
	}
	vscode := filepath.Join(home, ".config", "Code", "User", "workspaceStorage", "9f2c", "GitHub.copilot-chat", "transcripts", "s1.jsonl")
	os.MkdirAll(filepath.Dir(vscode), 0o700)
	os.WriteFile(vscode, []byte("{}\n"), 0o600)
	if tr, _, err := Check(Input{SessionID: "s1", TranscriptPath: vscode}, RunOptions{Agent: AgentCopilot, Event: EventStop, UserHome: home, Env: func(string) string { return "" }}); err != nil || tr != vscode {
		t.Errorf("VS Code transcript: %q %v", tr, err)
	}
	outside := filepath.Join(home, "elsewhere.jsonl")
	os.WriteFile(outside, []byte("{}\n"), 0o600)
	if _, _, err := Check(Input{SessionID: "s1", TranscriptPath: outside}, RunOptions{Agent: AgentCopilot, Event: EventStop, UserHome: home, Env: func(string) string { return "" }}); err == nil {
		t.Errorf("a transcript outside Copilot's folders accepted")
	}
}

// ~/.claude.json holds the user scope's server and each project's: each
// installation keeps its own record, so uninstalling them in the reverse
// order gives the file back byte for byte, and in any order takes out
// Palace's servers only.
func TestSharedFileRecords(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(agentsFixtures, "claude-code", "claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, reverse := range []bool{true, false} {
		home, state := t.TempDir(), t.TempDir()
		claudeJSON := filepath.Join(home, ".claude.json")
		os.WriteFile(claudeJSON, doc, 0o600)
		var scopes []InstallOptions
		for _, proj := range []string{"", t.TempDir(), t.TempDir()} {
			o := InstallOptions{Agent: AgentClaudeCode, Scope: ScopeUser, Binary: "/opt/palace", UserHome: home, StateDir: state,
				Env: func(string) string { return "" }}
			if proj != "" {
				o.Scope, o.ProjectDir = ScopeProject, proj
			}
			scopes = append(scopes, o)
			ps, err := PlanInstall(o)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				p.Apply()
			}
		}
		b, _ := os.ReadFile(claudeJSON)
		if n := strings.Count(string(b), `"command": "/opt/palace"`); n != 3 {
			t.Fatalf("%d servers in ~/.claude.json:\n%s", n, b)
		}
		for i := range scopes {
			o := scopes[i]
			if reverse {
				o = scopes[len(scopes)-1-i]
			}
			ps, err := PlanUninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				if err := p.Apply(); err != nil {
					t.Fatal(err)
				}
			}
		}
		b, _ = os.ReadFile(claudeJSON)
		if reverse && !bytes.Equal(b, doc) {
			t.Errorf("uninstalled in reverse order:\n got %s\nwant %s", b, doc)
		}
		now, was := map[string]string{}, map[string]string{}
		leaves(decodeJSON(t, b, claudeJSON), "", now)
		leaves(decodeJSON(t, doc, "claude.json"), "", was)
		if fmt.Sprint(now) != fmt.Sprint(was) {
			t.Errorf("uninstalled (reverse %v): %s", reverse, b)
		}
	}
}

// A record kept under the name the previous release gave it (the file's
// path alone) still gives the file back, and is then removed.
func TestRecordUnderOlderName(t *testing.T) {
	o := opts(t, AgentClaudeCode)
	o.StateDir = t.TempDir()
	path, _ := o.SettingsPath()
	before := "{\"model\":   \"opus\"}"
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(before), 0o600)
	p, err := hooksPlan(PlanInstall, o)
	if err != nil || p.Apply() != nil {
		t.Fatal(err)
	}
	legacy := recordPath(o.StateDir, path, "")
	if err := os.Rename(recordPath(o.StateDir, path, owner(o)), legacy); err != nil {
		t.Fatal(err)
	}
	if p, err = hooksPlan(PlanUninstall, o); err != nil || p.Apply() != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != before {
		t.Errorf("restored %q, want %q", b, before)
	}
	if _, err := os.Stat(legacy); !os.IsNotExist(err) {
		t.Errorf("the older record is still there: %v", err)
	}
}
