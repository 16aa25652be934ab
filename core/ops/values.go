package ops

import (
	"context"
	"github.com/palace-dev/palace/core/palace"

	"github.com/palace-dev/palace/core/code"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/relevant"
	"github.com/palace-dev/palace/core/search"
)

// What the servers show of a result, named by the contract so a front
// imports core/ops alone (core/deps_test.go holds it to that).

// Highlight wraps the matched words of a hit's snippet (marked by the
// search) in open and close: Markdown bold for an editor.
func Highlight(snippet, open, close string) string { return search.Highlight(snippet, open, close) }

// ExplainHits are a search's hits with why each was found, as an editor
// lists them beside the Relevant panel's.
func ExplainHits(res SearchResult) []RelevantHit { return relevant.Explain(res.Result) }

// RelPath is path relative to root when it lies inside it, else path as it
// is: how a panel names a file of the workspace.
func RelPath(path, root string) string { return relevant.RelPath(path, root) }

// RoomRepeatsPath reports whether room only repeats the first folder of
// rel (a path relative to the wing's folder), so a list need not show it.
func RoomRepeatsPath(room, rel string) bool { return mine.RoomRepeatsPath(room, rel) }

// Configures reports whether path is a file that changes what a mine of
// its folder takes (palace.yaml, an ignore file): saving it calls for a
// mine of the whole folder, not of the file alone.
func Configures(path string) bool { return mine.Configures(path) }

// SkippedByName reports whether a mine never enters a folder of this name
// (.git, node_modules, ...): a cheap filter against floods of file events.
func SkippedByName(name string) bool { return mine.SkippedByName(name) }

// Trees keeps the syntax trees and cuts of the source files an editor
// mined or changed last, so that a save re-parses its file incrementally
// (MineRequest.Trees), or not at all when Prepare cut the saved text.
type Trees = code.Trees

// NewTrees keeps the trees of up to n files.
func NewTrees(n int) *Trees { return code.NewTrees(n) }

// Preparer cuts the files an editor changes while the user types, once
// the typing pauses, into Trees: the save that follows only writes.
type Preparer = code.Preparer

// NewPreparer starts a Preparer filling trees until ctx ends.
func NewPreparer(ctx context.Context, trees *Trees) *Preparer { return code.NewPreparer(ctx, trees) }

// CheckpointWAL moves the write-ahead log's pages into the database file,
// as an editor's server does once a save is answered: no later save's
// commit pays for SQLite's own checkpoint.
func CheckpointWAL(ctx context.Context, p *palace.Palace) error { return p.Store.Checkpoint(ctx) }

// LexicalNotice is one line saying why search is lexical only (no model,
// vectors of another model, none yet) and how to fix it; "" when the
// palace's vectors serve hybrid search.
func LexicalNotice(ctx context.Context, p *palace.Palace) (string, error) {
	_, notice, err := search.VectorsReady(ctx, p)
	return notice, err
}

// Bounds on an argument's text where no operation has a tighter rule: the
// MCP schema advertises them as maxLength, and a longer value is refused
// before any operation runs. Names use MaxNameBytes, paths MaxPathBytes.
const (
	MaxIDBytes    = 200 // a drawer id ("d_" and 24 hex digits, with room)
	MaxDateBytes  = 64  // a date or time in any form core/dates reads
	MaxTokenBytes = 64  // an entity type, a fact id
)

// MineSummary is what a mine did: files seen and mined, drawers added and
// removed, what was skipped and why.
type MineSummary = mine.Summary

// MineConvos is the mine mode that takes every file for a conversation
// (an agent's transcript).
const MineConvos = mine.ModeConvos
