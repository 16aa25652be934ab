package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/relevant"
	"github.com/palace-dev/palace/core/search"
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
	snip := strings.Join(strings.Fields(search.Highlight(top.Snippet, snippetMark, snippetMark)), " ")
	fmt.Fprintf(&b, "> %s\n\n— %s [%s/%s]", snip, top.Citation, top.Wing, top.Room)
	return b.String()
}
