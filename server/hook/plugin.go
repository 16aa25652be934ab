package hook

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Plugin and marketplace names: `/plugin install palace@palace`.
const (
	PluginName      = "palace"
	MarketplaceName = "palace"
	pluginVersion   = "1.0.0"
	pluginAbout     = "Palace: local long-term memory. Its MCP tools search and remember; its hooks give each session the wake-up, store the transcript and the project, and ask the agent to save what matters."
)

// Plugin is Palace packaged as a Claude Code plugin inside a marketplace
// of its own, as files by path relative to the marketplace folder:
//
//	.claude-plugin/marketplace.json   the marketplace, listing ./palace
//	palace/.claude-plugin/plugin.json the plugin's manifest
//	palace/hooks/hooks.json           the same hooks `palace hook install claude-code` writes
//	palace/.mcp.json                  the MCP server, `palace serve --mcp`
//
// Every command names o.Binary by its absolute path (and o.Home as
// --home when set): Claude Code runs plugin hooks and servers without
// the user's shell PATH, as it runs settings hooks.
func Plugin(o InstallOptions) (map[string][]byte, error) {
	o.Agent, o.Scope = AgentClaudeCode, ScopeUser
	if o.UserHome == "" {
		o.UserHome = "/" // unused: a plugin names no settings file
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	files := map[string][]byte{}

	owner := newObject()
	owner.set("name", "Palace")
	entry := newObject()
	entry.set("name", PluginName)
	entry.set("source", "./"+PluginName)
	entry.set("description", pluginAbout)
	entry.set("version", pluginVersion)
	market := newObject()
	market.set("name", MarketplaceName)
	market.set("owner", owner)
	market.set("plugins", []any{entry})
	files[filepath.Join(".claude-plugin", "marketplace.json")] = encode(market)

	manifest := newObject()
	manifest.set("name", PluginName)
	manifest.set("version", pluginVersion)
	manifest.set("description", pluginAbout)
	files[filepath.Join(PluginName, ".claude-plugin", "plugin.json")] = encode(manifest)

	events := newObject()
	spec := agentSpecs[AgentClaudeCode]
	for _, ev := range spec.events {
		events.set(ev.key, []any{spec.entry(o, ev.event)})
	}
	hooks := newObject()
	hooks.set("hooks", events)
	files[filepath.Join(PluginName, "hooks", "hooks.json")] = encode(hooks)

	servers := newObject()
	servers.set(MCPServerName, serverEntry(o, "stdio"))
	mcp := newObject()
	mcp.set("mcpServers", servers)
	files[filepath.Join(PluginName, ".mcp.json")] = encode(mcp)
	return files, nil
}

// ServeArgs are the arguments of the MCP server a plugin declares.
func (o InstallOptions) ServeArgs() []string {
	var args []string
	if o.Home != "" {
		args = append(args, "--home", o.Home)
	}
	return append(args, "serve", "--mcp")
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// PluginHelp is what to type in Claude Code once the marketplace is in dir.
func PluginHelp(dir string) string {
	q := dir
	if strings.ContainsAny(dir, " \t'\"") {
		q = fmt.Sprintf("%q", dir)
	}
	return fmt.Sprintf("/plugin marketplace add %s\n/plugin install %s@%s\n", q, PluginName, MarketplaceName)
}

// WriteFiles writes files (paths relative to dir) under dir, each
// atomically, replacing what an earlier run wrote; a file that is a
// symbolic link is written where it leads, and stays a link.
func WriteFiles(dir string, files map[string][]byte) error {
	for rel, b := range files {
		if err := writeThrough(filepath.Join(dir, rel), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
