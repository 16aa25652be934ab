package lsp

import (
	"context"
	"encoding/json"
)

// requests and notifications are every method the server answers, in one
// table: a method is its own file (named for it) plus one line here.
var (
	requests = map[string]request{
		"initialize":         {fn: initialize, inline: true, early: true},
		"palace/drawer":      {fn: palaceDrawer},
		"palace/forget":      {fn: palaceForget},
		"palace/graph":       {fn: palaceGraph},
		"palace/map":         {fn: palaceMap},
		"palace/mine":        {fn: palaceMine},
		"palace/relevant":    {fn: palaceRelevant},
		"palace/remember":    {fn: palaceRemember},
		"palace/search":      {fn: palaceSearch},
		"palace/status":      {fn: palaceStatus},
		"palace/wakeUp":      {fn: palaceWakeUp},
		"shutdown":           {fn: shutdown, inline: true},
		"textDocument/hover": {fn: hover},
	}
	notifications = map[string]func(ctx context.Context, s *server, params json.RawMessage) error{
		"$/cancelRequest":                     cancelRequest,
		"exit":                                exit,
		"initialized":                         initialized,
		"textDocument/didChange":              didChange,
		"textDocument/didClose":               didClose,
		"textDocument/didOpen":                didOpen,
		"textDocument/didSave":                didSave,
		"window/workDoneProgress/cancel":      workDoneProgressCancel,
		"workspace/didChangeWatchedFiles":     didChangeWatchedFiles,
		"workspace/didChangeWorkspaceFolders": didChangeWorkspaceFolders,
		"workspace/didDeleteFiles":            didDeleteFiles,
		"workspace/didRenameFiles":            didRenameFiles,
	}
)
