package hook

import (
	"fmt"
	"regexp"
	"strings"
)

// MCPServerName is the name Palace's MCP server is registered under in
// every agent's configuration.
const MCPServerName = "palace"

// mcpTarget is one MCP configuration file and where in it the server
// goes: the entry under the object keys lead to, in a JSON file; a
// [mcp_servers.palace] table, in a TOML one (Codex).
type mcpTarget struct {
	path  string
	keys  []string
	entry *object
	toml  bool
}

// serverEntry is the stdio server `palace serve --mcp`, by the absolute
// path of palace (agents start servers without the user's PATH); typ is
// the "type" the file's format wants ("" for none).
func serverEntry(o InstallOptions, typ string) *object {
	e := newObject()
	if typ != "" {
		e.set("type", typ)
	}
	e.set("command", o.Binary)
	e.set("args", stringsToAny(o.ServeArgs()))
	return e
}

// ourServer reports whether a configured server is Palace's: it runs
// `serve --mcp` (whatever binary, home or type).
func ourServer(v any) bool {
	obj, ok := v.(*object)
	if !ok {
		return false
	}
	args, _ := obj.vals["args"].([]any)
	var serve, mcp bool
	for _, a := range args {
		serve = serve || a == "serve"
		mcp = mcp || a == "--mcp"
	}
	return serve && mcp
}

// mcpEdit adds or removes Palace's server in a JSON configuration. On
// install an entry of that name is updated in place (keys Palace does not
// write, an "env" the user added, stay); on uninstall only an entry that
// runs `serve --mcp` is removed, with the objects that removal emptied.
func mcpEdit(t mcpTarget) jsonEdit {
	return func(root *object, install bool) (bool, error) {
		chain := []*object{root}
		cur := root
		for i, k := range t.keys {
			v, ok := cur.get(k)
			if !ok {
				if !install {
					return false, nil
				}
				n := newObject()
				cur.set(k, n)
				v = n
			}
			next, isObj := v.(*object)
			if !isObj {
				return false, fmt.Errorf("%q is not an object", strings.Join(t.keys[:i+1], "."))
			}
			cur = next
			chain = append(chain, cur)
		}
		old, exists := cur.get(MCPServerName)
		found := exists && ourServer(old)
		if install {
			if o, ok := old.(*object); ok {
				for _, k := range t.entry.keys {
					o.set(k, t.entry.vals[k])
				}
			} else {
				cur.set(MCPServerName, t.entry)
			}
			return found, nil
		}
		if !found {
			return false, nil
		}
		cur.del(MCPServerName)
		for i := len(t.keys) - 1; i >= 0 && len(chain[i+1].keys) == 0; i-- {
			chain[i].del(t.keys[i])
		}
		return true, nil
	}
}

// Codex's config.toml is edited as text, so every byte of the user's
// file that is not Palace's table stays: the table is appended, and
// removed again line for line.
var (
	tomlHeader = regexp.MustCompile(`^\s*\[`)
	// ourHeader is [mcp_servers.palace] and its sub-tables
	// ([mcp_servers.palace.env]), the name bare or quoted.
	ourHeader = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*(?:palace|"palace"|'palace')\s*(?:\]|\.)`)
	// otherForms are definitions of the same server this editor does
	// not rewrite: a dotted key, or `palace = {...}` under [mcp_servers].
	dottedKey = regexp.MustCompile(`^\s*mcp_servers\s*\.\s*(?:palace|"palace"|'palace')\s*[.=]`)
	serversHd = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\]`)
	palaceKey = regexp.MustCompile(`^\s*(?:palace|"palace"|'palace')\s*[.=]`)
)

func blank(line string) bool { return strings.TrimSpace(line) == "" }

// tomlBlock is Palace's server table for Codex.
func tomlBlock(o InstallOptions) string {
	args := make([]string, 0, 4)
	for _, a := range o.ServeArgs() {
		args = append(args, tomlString(a))
	}
	return fmt.Sprintf("[mcp_servers.%s]\ncommand = %s\nargs = [%s]\n", MCPServerName, tomlString(o.Binary), strings.Join(args, ", "))
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlEdit adds or removes Palace's table in a TOML file's text and
// reports whether the text had Palace's table. A table that is already
// exactly Palace's stays where it is. The table runs from its header to
// the next header that is not one of its sub-tables, less the blank and
// comment lines at its end (they introduce what follows).
func tomlEdit(old []byte, block string, install bool) ([]byte, bool, error) {
	lines := strings.SplitAfter(string(old), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	start, end := -1, -1
	inServers := false
	for i, l := range lines {
		header := tomlHeader.MatchString(l)
		if header {
			inServers = serversHd.MatchString(l)
		}
		if dottedKey.MatchString(l) || (inServers && !header && palaceKey.MatchString(l)) {
			return nil, false, fmt.Errorf("line %d defines mcp_servers.%s in a form Palace does not edit", i+1, MCPServerName)
		}
		switch {
		case start < 0 && ourHeader.MatchString(l):
			start, end = i, i+1
		case start >= 0 && end == i && (!header || ourHeader.MatchString(l)):
			end = i + 1
		}
	}
	for end > start+1 && start >= 0 {
		t := strings.TrimSpace(lines[end-1])
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
		end--
	}
	found := false
	var table string
	if start >= 0 {
		table = strings.Join(lines[start:end], "")
		found = strings.Contains(table, `"--mcp"`) && strings.Contains(table, `"serve"`)
	}
	if install && strings.TrimRight(table, "\n") == strings.TrimRight(block, "\n") {
		return old, found, nil
	}
	if !install && !found {
		return old, false, nil
	}
	kept := lines
	if start >= 0 {
		// A table Palace appended went in after a blank line: when a
		// blank line or the end of the file follows the table, the one
		// before it goes with it.
		from := start
		if start > 0 && blank(lines[start-1]) && (end == len(lines) || blank(lines[end])) {
			from--
		}
		kept = append(append([]string{}, lines[:from]...), lines[end:]...)
	}
	text := strings.Join(kept, "")
	if install {
		switch {
		case text == "", strings.HasSuffix(text, "\n\n"):
		case strings.HasSuffix(text, "\n"):
			text += "\n"
		default:
			text += "\n\n"
		}
		text += block
	}
	return []byte(text), found, nil
}
