package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func opts(t *testing.T, agent string) InstallOptions {
	home := t.TempDir()
	return InstallOptions{Agent: agent, Binary: "/opt/palace bin/palace", UserHome: home,
		Env: func(string) string { return "" }}
}

// hooksPlan is the plan of the hooks file alone (NoMCP), for the tests of
// the hooks file.
func hooksPlan(plan func(InstallOptions) ([]Plan, error), o InstallOptions) (Plan, error) {
	o.NoMCP = true
	ps, err := plan(o)
	if err != nil {
		return Plan{}, err
	}
	return ps[0], nil
}

func TestOrderedJSONRoundTrip(t *testing.T) {
	in := `{
  "zeta": 1,
  "alpha": {
    "b": [1, 2.50, "x<&>"],
    "a": null
  },
  "mid": true
}
`
	o, err := decodeObject([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"zeta\": 1,\n  \"alpha\": {\n    \"b\": [\n      1,\n      2.50,\n      \"x<&>\"\n    ],\n    \"a\": null\n  },\n  \"mid\": true\n}\n"
	if got := string(encode(o)); got != want {
		t.Errorf("round trip:\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{`[1]`, `{"a":1}{"b":2}`, `{"a":1,"a":2}`, `{"a":`} {
		if _, err := decodeObject([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestInstallClaudeCodeMergesAndIsIdempotent(t *testing.T) {
	o := opts(t, AgentClaudeCode)
	path, _ := o.SettingsPath()
	if path != filepath.Join(o.UserHome, ".claude", "settings.json") {
		t.Fatalf("path %s", path)
	}
	existing := `{
  "model": "opus",
  "hooks": {
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "afplay /System/Library/Sounds/Glass.aiff" }
        ]
      }
    ],
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "audit-bash" } ] }
    ]
  },
  "permissions": { "allow": ["Bash(go test:*)"] }
}
`
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(existing), 0o644)
	p, err := hooksPlan(PlanInstall, o)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Changed || !strings.Contains(p.Diff(), `+             "command": "'/opt/palace bin/palace' hook run --agent claude-code --event stop",`) {
		t.Fatalf("diff:\n%s", p.Diff())
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	s := string(got)
	for _, keep := range []string{`"model": "opus"`, "afplay", "audit-bash", `"Bash(go test:*)"`, `"PreCompact"`, `"timeout": 30`} {
		if !strings.Contains(s, keep) {
			t.Errorf("settings lost %s:\n%s", keep, s)
		}
	}
	if strings.Index(s, `"model"`) > strings.Index(s, `"hooks"`) || strings.Index(s, `"hooks"`) > strings.Index(s, `"permissions"`) {
		t.Errorf("key order changed:\n%s", s)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode changed to %v", fi.Mode().Perm())
	}
	again, err := hooksPlan(PlanInstall, o)
	if err != nil || again.Changed {
		t.Errorf("second install changes the file: %v\n%s", err, again.Diff())
	}
	// A moved binary replaces the old entry rather than adding a second.
	o.Binary = "/usr/local/bin/palace"
	moved, _ := hooksPlan(PlanInstall, o)
	moved.Apply()
	got, _ = os.ReadFile(path)
	if strings.Count(string(got), "hook run --agent claude-code") != len(agentSpecs[AgentClaudeCode].events) || strings.Contains(string(got), "/opt/palace bin") {
		t.Errorf("reinstall:\n%s", got)
	}
	un, _ := hooksPlan(PlanUninstall, o)
	if err := un.Apply(); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	if strings.Contains(string(got), "hook run") || strings.Contains(string(got), "PreCompact") || !strings.Contains(string(got), "afplay") {
		t.Errorf("uninstall:\n%s", got)
	}
	none, _ := hooksPlan(PlanUninstall, o)
	if none.Changed {
		t.Errorf("second uninstall changes the file")
	}
}

func TestInstallNewFilesAndScopes(t *testing.T) {
	o := opts(t, AgentCodex)
	o.Home = "/home/u/.palace"
	p, err := hooksPlan(PlanInstall, o)
	if err != nil || p.Old != nil || !p.Changed {
		t.Fatalf("%+v %v", p, err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(o.UserHome, ".codex", "hooks.json")
	b, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"command": "'/opt/palace bin/palace' --home /home/u/.palace hook run --agent codex --event precompact"`) ||
		strings.Contains(string(b), "timeout") {
		t.Errorf("codex hooks.json:\n%s", b)
	}
	if fi, _ := os.Stat(want); fi.Mode().Perm() != 0o600 {
		t.Errorf("new settings file mode %v", fi.Mode().Perm())
	}
	if len(p.Notes) == 0 {
		t.Errorf("no note about Codex's review and feature flag")
	}
	os.WriteFile(filepath.Join(o.UserHome, ".codex", "config.toml"), []byte("[features]\nhooks = false\n"), 0o600)
	p, _ = hooksPlan(PlanInstall, o)
	if !strings.Contains(strings.Join(p.Notes, " "), "switches Codex hooks off") {
		t.Errorf("notes: %v", p.Notes)
	}

	proj := t.TempDir()
	c := InstallOptions{Agent: AgentClaudeCode, Scope: ScopeProject, ProjectDir: proj, Binary: "/bin/palace"}
	if path, _ := c.SettingsPath(); path != filepath.Join(proj, ".claude", "settings.local.json") {
		t.Errorf("project path %s", path)
	}
	c.Env = func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": "/cfg"}[k] }
	c.Scope = ScopeUser
	if path, _ := c.SettingsPath(); path != "/cfg/settings.json" {
		t.Errorf("CLAUDE_CONFIG_DIR path %s", path)
	}
	for _, bad := range []InstallOptions{
		{Agent: "windsurf", Binary: "/bin/palace", UserHome: "/h"},
		{Agent: AgentCodex, Scope: "global", Binary: "/bin/palace", UserHome: "/h"},
		{Agent: AgentCodex, Binary: "palace", UserHome: "/h"},
	} {
		if _, err := hooksPlan(PlanInstall, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestInstallRefusesBrokenSettings(t *testing.T) {
	o := opts(t, AgentClaudeCode)
	path, _ := o.SettingsPath()
	os.MkdirAll(filepath.Dir(path), 0o755)
	for _, bad := range []string{`{"model": "opus",}`, `{"hooks": []}`, `{"hooks": {"Stop": {}}}`} {
		os.WriteFile(path, []byte(bad), 0o644)
		if _, err := hooksPlan(PlanInstall, o); err == nil || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("%s: %v", bad, err)
		}
		if b, _ := os.ReadFile(path); string(b) != bad {
			t.Errorf("broken settings were rewritten")
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/palace":   "/usr/bin/palace",
		"/opt/my apps/p":    "'/opt/my apps/p'",
		"/x/it's":           `'/x/it'\''s'`,
		"/x/$(rm -rf ~)":    "'/x/$(rm -rf ~)'",
		"/x/a;b":            "'/x/a;b'",
		"/home/u/.palace-2": "/home/u/.palace-2",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
