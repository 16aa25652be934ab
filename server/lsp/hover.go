package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/lang"
	"github.com/palace-dev/palace/core/ops"
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
	req := ops.MentionsRequest{Path: path, Text: text, At: toCore(text, ps.Position)}
	if f := s.folders.of(path); f != nil {
		req.Wing = f.wing()
	}
	m, err := ops.MentionsAt(ctx, s.p, req)
	if err != nil || m.Count == 0 {
		return nil, err
	}
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: hoverText(m)}}, nil
}

func hoverText(m ops.Mentions) string {
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

// fenceLang is the Markdown fence language of a drawer, for the editor's
// highlighting: its file's (core/lang's table); notes, conversations and
// files the table does not know are text.
func fenceLang(kind, source string) string {
	if kind == ops.KindFile {
		return lang.Fence(source)
	}
	return "text"
}
