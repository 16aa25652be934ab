package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/relevant"
)

// hover shows how many memories mention the symbol under the cursor, with
// the top snippet. It is off unless initializationOptions.hover is true
// (then the capability is advertised); an editor asks on every pause of
// the mouse, so it searches lexically only.
func hover(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	if !s.cfg.hover {
		return nil, nil
	}
	var ps struct {
		TextDocument textDocument      `json:"textDocument"`
		Position     protocol.Position `json:"position"`
	}
	if err := decode(raw, &ps); err != nil {
		return nil, err
	}
	if err := ps.TextDocument.check("textDocument"); err != nil {
		return nil, err
	}
	text, path, err := s.docs.text("textDocument.uri", ps.TextDocument.URI, s.folders)
	if err != nil {
		return nil, err
	}
	pos := toCore(text, ps.Position)
	sym := relevant.Extract(text, pos, pos, "", "").Identifier
	if sym == "" {
		return nil, nil
	}
	req := relevant.MentionsRequest{Symbol: sym, Path: path, Line: pos.Line + 1}
	if f := s.folders.of(path); f != nil {
		req.Wing = f.wing()
	}
	m, err := relevant.FindMentions(ctx, s.p, req)
	if err != nil || m.Count == 0 {
		return nil, err
	}
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: hoverText(m)}}, nil
}

func hoverText(m relevant.Mentions) string {
	count := fmt.Sprint(m.Count)
	if m.More {
		count += "+"
	}
	noun := "memories mention"
	if m.Count == 1 && !m.More {
		noun = "memory mentions"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Palace:** %s %s `%s`\n\n", count, noun, m.Symbol)
	top := m.Top[0]
	// A fence, not a '>' quote: code keeps its '*' and '_' (Markdown read
	// them as emphasis) and its indentation, and the editor colours it.
	excerpt := excerptOf(top.Content, m.Symbol)
	fence := "```"
	for strings.Contains(excerpt, fence) {
		fence += "`"
	}
	fmt.Fprintf(&b, "%s%s\n%s\n%s\n\n— %s [%s/%s]", fence, fenceLang(top.Kind, top.Source), excerpt, fence, top.Citation, top.Wing, top.Room)
	return b.String()
}

// hoverLines is how many lines of a drawer a hover shows around the
// symbol's first mention.
const hoverLines = 8

// excerptOf is up to hoverLines lines of content around the first line
// mentioning sym (two before it), their common indentation removed.
func excerptOf(content, sym string) string {
	lines := strings.Split(strings.TrimRight(content, "\n"), "\n")
	at := 0
	for i, l := range lines {
		if strings.Contains(strings.ToLower(l), strings.ToLower(sym)) {
			at = i
			break
		}
	}
	from := max(0, at-2)
	lines = lines[from:min(len(lines), from+hoverLines)]
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l[min(len(l), max(indent, 0)):], " \t\r")
	}
	return strings.Join(lines, "\n")
}

// fenceLangs are the Markdown fence languages of source extensions, for
// the editor's highlighting; other files and notes are text.
var fenceLangs = map[string]string{
	".go": "go", ".py": "python", ".js": "javascript", ".jsx": "jsx", ".mjs": "javascript", ".ts": "typescript",
	".tsx": "tsx", ".rs": "rust", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp",
	".java": "java", ".kt": "kotlin", ".cs": "csharp", ".rb": "ruby", ".php": "php", ".swift": "swift",
	".sh": "sh", ".bash": "bash", ".lua": "lua", ".sql": "sql", ".md": "markdown", ".json": "json",
	".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".html": "html", ".css": "css", ".el": "elisp",
}

func fenceLang(kind, source string) string {
	if kind == ops.KindFile {
		if l, ok := fenceLangs[strings.ToLower(filepath.Ext(source))]; ok {
			return l
		}
	}
	return "text"
}
