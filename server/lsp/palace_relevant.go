package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/ops"
)

// relevantParams are palace/relevant's parameters.
type relevantParams struct {
	TextDocument textDocument       `json:"textDocument"`
	Position     *protocol.Position `json:"position"`
	Range        *protocol.Range    `json:"range"`
	// VisibleRange, when the client knows it, is left out too: drawers of
	// the lines on screen tell the reader nothing new.
	VisibleRange *protocol.Range `json:"visibleRange"`
	Limit        int             `json:"limit"`
	Mode         *string         `json:"mode"`
	// Conversations (default true) adds conversation drawers of every wing.
	Conversations *bool `json:"conversations"`
}

// relevantResult is {query, hits} plus the clues the query was built from.
type relevantResult struct {
	ops.RelevantResult
	Hits []hit `json:"hits"`
}

// palaceRelevant returns the drawers relevant at a cursor or selection:
// the query built from what is there, searched in the folder's wing and the
// conversations, without the drawers of the lines on screen.
func palaceRelevant(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps relevantParams
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	if err := ps.TextDocument.check("textDocument"); err != nil {
		return nil, err
	}
	if ps.Position == nil && ps.Range == nil {
		return nil, invalidParams("position or range is required")
	}
	text, path, err := s.docs.text("textDocument.uri", ps.TextDocument.URI, s.folders)
	if err != nil {
		return nil, err
	}
	req := ops.RelevantRequest{Path: path, Text: text, Limit: ps.Limit, Mode: s.cfg.relevantMode}
	if ps.Mode != nil {
		req.Mode = *ps.Mode
	}
	if ps.Conversations != nil {
		req.NoConversations = !*ps.Conversations
	}
	if ps.Range != nil {
		req.Start, req.End = toCore(text, ps.Range.Start), toCore(text, ps.Range.End)
	} else {
		req.Start = toCore(text, *ps.Position)
		req.End = req.Start
	}
	if ps.VisibleRange != nil {
		req.Exclude = []ops.LineSpan{{Start: int(ps.VisibleRange.Start.Line) + 1, End: int(ps.VisibleRange.End.Line) + 1}}
	}
	if f := s.folders.of(path); f != nil {
		req.Root, req.Wing = f.path, f.wing()
	}
	res, err := ops.Relevant(ctx, s.p, req)
	if err != nil {
		return nil, err
	}
	return relevantResult{RelevantResult: res, Hits: s.toHits(res.Hits)}, nil
}
