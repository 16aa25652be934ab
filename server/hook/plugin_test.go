package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// pluginDir is the plugin kept in the repository, for a palace installed
// as /usr/local/bin/palace. PALACE_WRITE_PLUGIN=1 writes it again.
var pluginDir = filepath.Join("..", "..", "editors", "claude-code")

const pluginBinary = "/usr/local/bin/palace"

// Claude Code's manifest rules: kebab-case names, a marketplace owner
// with a name, plugin sources relative to the marketplace ("./..."),
// hook handlers of a known event with a command.
var (
	kebab     = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	semver    = regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	hookEvent = map[string]bool{"SessionStart": true, "Stop": true, "PreCompact": true, "UserPromptSubmit": true,
		"PreToolUse": true, "PostToolUse": true, "SessionEnd": true, "SubagentStop": true, "Notification": true}
)

func TestPluginInRepositoryIsTheGeneratedOne(t *testing.T) {
	files, err := Plugin(InstallOptions{Binary: pluginBinary})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("PALACE_WRITE_PLUGIN") == "1" {
		if err := WriteFiles(pluginDir, files); err != nil {
			t.Fatal(err)
		}
	}
	var onDisk []string
	filepath.WalkDir(pluginDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "README.md" {
			rel, _ := filepath.Rel(pluginDir, p)
			onDisk = append(onDisk, rel)
		}
		return nil
	})
	var want []string
	for rel, b := range files {
		want = append(want, rel)
		got, err := os.ReadFile(filepath.Join(pluginDir, rel))
		if err != nil || string(got) != string(b) {
			t.Errorf("%s differs from what `palace hook plugin` writes (PALACE_WRITE_PLUGIN=1 go test ./server/hook writes it): %v\n%s", rel, err, b)
		}
	}
	sort.Strings(onDisk)
	sort.Strings(want)
	if !reflect.DeepEqual(onDisk, want) {
		t.Errorf("files in %s: %v, want %v", pluginDir, onDisk, want)
	}
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// The manifests follow Claude Code's documented format, and the hooks and
// server they declare are the ones `palace hook install claude-code`
// writes.
func TestPluginManifests(t *testing.T) {
	market := readJSON(t, filepath.Join(pluginDir, ".claude-plugin", "marketplace.json"))
	owner, _ := market["owner"].(map[string]any)
	plugins, _ := market["plugins"].([]any)
	if name, _ := market["name"].(string); !kebab.MatchString(name) || owner["name"] == "" || len(plugins) != 1 {
		t.Fatalf("marketplace: %v", market)
	}
	entry, _ := plugins[0].(map[string]any)
	source, _ := entry["source"].(string)
	if !strings.HasPrefix(source, "./") || !kebab.MatchString(entry["name"].(string)) {
		t.Fatalf("plugin entry: %v", entry)
	}
	root := filepath.Join(pluginDir, source)
	manifest := readJSON(t, filepath.Join(root, ".claude-plugin", "plugin.json"))
	if manifest["name"] != entry["name"] || !semver.MatchString(manifest["version"].(string)) {
		t.Fatalf("plugin.json %v for entry %v", manifest, entry)
	}

	hooks := readJSON(t, filepath.Join(root, "hooks", "hooks.json"))
	events, _ := hooks["hooks"].(map[string]any)
	for ev, groups := range events {
		if !hookEvent[ev] {
			t.Errorf("unknown hook event %s", ev)
		}
		for _, g := range groups.([]any) {
			for _, h := range g.(map[string]any)["hooks"].([]any) {
				h := h.(map[string]any)
				if h["type"] != "command" || !strings.HasPrefix(h["command"].(string), pluginBinary+" hook run ") {
					t.Errorf("%s handler %v", ev, h)
				}
			}
		}
	}
	o := opts(t, AgentClaudeCode)
	o.Binary = pluginBinary
	p, err := hooksPlan(PlanInstall, o)
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	json.Unmarshal(p.New, &settings)
	if !reflect.DeepEqual(settings["hooks"], hooks["hooks"]) {
		t.Errorf("plugin hooks %v\ndiffer from install's %v", hooks["hooks"], settings["hooks"])
	}

	mcp := readJSON(t, filepath.Join(root, ".mcp.json"))
	server, _ := mcp["mcpServers"].(map[string]any)["palace"].(map[string]any)
	if server["type"] != "stdio" || server["command"] != pluginBinary || !reflect.DeepEqual(server["args"], []any{"serve", "--mcp"}) {
		t.Errorf("MCP server: %v", server)
	}
}
