package lsp

import (
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/ops"
)

// hit is a drawer as palace/relevant and palace/search return it: the core
// hit (drawer fields, citation, time, scores, matched clues, why), plus
// where an editor can open it and how to name it in a list.
type hit struct {
	ops.RelevantHit
	// URI and Range locate a drawer mined from a file; notes and diaries
	// have neither.
	URI   string          `json:"uri,omitempty"`
	Range *protocol.Range `json:"range,omitempty"`
	// RelPath is the source relative to the workspace folder holding it,
	// else the source as stored (a file outside every folder, a note's
	// source).
	RelPath string `json:"relPath"`
	// RoomRedundant is true when the room only repeats RelPath's first
	// folder, so a list need not show it.
	RoomRedundant bool `json:"roomRedundant"`
}

// snippetMark wraps matched words in snippets: Markdown bold, which editors
// render in hovers and lists alike.
const snippetMark = "**"

func (s *server) toHits(hs []ops.RelevantHit) []hit {
	out := make([]hit, 0, len(hs))
	for _, h := range hs {
		h.Snippet = ops.Highlight(h.Snippet, snippetMark, snippetMark)
		x := hit{RelevantHit: h, RelPath: h.Source}
		x.URI, x.Range = locate(h.Kind, h.Source, h.LineStart, h.LineEnd)
		if x.URI != "" {
			if f := s.folders.of(h.Source); f != nil {
				x.RelPath = ops.RelPath(h.Source, f.path)
				x.RoomRedundant = ops.RoomRepeatsPath(h.Room, x.RelPath)
			}
		}
		out = append(out, x)
	}
	return out
}

// locate gives the URI and range of a mined drawer's source.
func locate(kind, source string, start, end int) (string, *protocol.Range) {
	if (kind != ops.KindFile && kind != ops.KindConversation) || !filepath.IsAbs(source) {
		return "", nil
	}
	return fileURI(source), lspRange(start, end)
}
