package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// initializeParams is the part of InitializeParams the server reads. It is
// declared here rather than taken whole from protocol v0.12.0 (LSP 3.16):
// newer clients send 3.17 capability shapes that the old typed structs may
// refuse, and a refused initialize would leave the editor without a server.
type initializeParams struct {
	ProcessID  *int32 `json:"processId"`
	ClientInfo *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
	RootURI               string                     `json:"rootUri"`
	RootPath              string                     `json:"rootPath"`
	WorkspaceFolders      []protocol.WorkspaceFolder `json:"workspaceFolders"`
	InitializationOptions json.RawMessage            `json:"initializationOptions"`
	Capabilities          struct {
		Window struct {
			WorkDoneProgress bool `json:"workDoneProgress"`
		} `json:"window"`
		Workspace struct {
			DidChangeWatchedFiles struct {
				DynamicRegistration bool `json:"dynamicRegistration"`
			} `json:"didChangeWatchedFiles"`
		} `json:"workspace"`
	} `json:"capabilities"`
}

// clientInfo is what the server remembers of the client.
type clientInfo struct {
	name             string
	progress         bool // window/workDoneProgress/create is supported
	watchRegistation bool // didChangeWatchedFiles can be registered dynamically
	pid              int
}

// Custom methods, advertised in capabilities.experimental.palace.
var (
	customRequests      = []string{"palace/relevant", "palace/search", "palace/drawer", "palace/remember", "palace/forget", "palace/status", "palace/wakeUp", "palace/mine", "palace/map", "palace/graph"}
	customNotifications = []string{"palace/didIndex", "palace/changed"}
)

// initialize opens the palace, records the folders and answers with the
// server's capabilities. It runs on the read loop: nothing else may happen
// before it is answered.
func initialize(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	s.mu.Lock()
	again := s.initialized
	s.mu.Unlock()
	if again {
		return nil, invalidParams("initialize: the server is already initialized")
	}
	var ps initializeParams
	if err := decode(raw, &ps); err != nil {
		return nil, err
	}
	cfg, unknown, err := parseInitOptions(ps.InitializationOptions)
	if err != nil {
		return nil, err
	}
	if len(unknown) > 0 {
		s.warnf("initializationOptions: ignoring unknown keys %v", unknown)
	}
	home := s.opts.Home
	if home == "" {
		home = cfg.home
	}
	s.client = clientInfo{
		progress:         ps.Capabilities.Window.WorkDoneProgress,
		watchRegistation: ps.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration,
	}
	if ps.ClientInfo != nil {
		s.client.name = ps.ClientInfo.Name
	}
	if ps.ProcessID != nil {
		s.client.pid = int(*ps.ProcessID)
	}
	p, err := ops.Open(ctx, home, palace.Options{ModelDir: s.opts.ModelDir, Actor: "lsp", Client: s.client.name})
	if err != nil {
		return nil, err
	}
	s.p, s.cfg = p, cfg
	s.folders = &folders{}
	var given []protocol.WorkspaceFolder
	switch {
	case len(ps.WorkspaceFolders) > 0:
		given = ps.WorkspaceFolders
	case ps.RootURI != "":
		given = []protocol.WorkspaceFolder{{URI: ps.RootURI}}
	case ps.RootPath != "":
		given = []protocol.WorkspaceFolder{{URI: fileURI(ps.RootPath)}}
	}
	for _, f := range given {
		if _, _, why := s.folders.add(f.URI, f.Name, cfg); why != "" {
			s.refuseFolder(f.URI, why)
		}
	}
	s.idx = newIndexer(s)
	s.mu.Lock()
	s.initialized = true
	s.mu.Unlock()
	s.watchParent()
	s.infof("palace %s; folders: %s", p.Home(), describeFolders(s.folders.all()))
	return protocol.InitializeResult{
		Capabilities: capabilities(cfg),
		ServerInfo:   &protocol.ServerInfo{Name: "palace", Version: s.opts.Version},
	}, nil
}

func capabilities(cfg config) protocol.ServerCapabilities {
	everything := &protocol.FileOperationRegistrationOptions{Filters: []protocol.FileOperationFilter{
		{Scheme: "file", Pattern: protocol.FileOperationPattern{Glob: "**/*"}},
	}}
	c := protocol.ServerCapabilities{
		// Full sync keeps the editor's current text for palace/relevant
		// and hover; a save carries no text (the palace mines the file).
		TextDocumentSync: protocol.TextDocumentSyncOptions{
			OpenClose: true,
			Change:    protocol.TextDocumentSyncKindFull,
			Save:      &protocol.SaveOptions{IncludeText: false},
		},
		Workspace: &protocol.ServerCapabilitiesWorkspace{
			WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{Supported: true, ChangeNotifications: true},
			FileOperations: &protocol.ServerCapabilitiesWorkspaceFileOperations{
				DidDelete: everything,
				DidRename: everything,
			},
		},
		Experimental: map[string]any{
			"palace": map[string]any{
				"requests":      customRequests,
				"notifications": customNotifications,
				"hover":         cfg.hover,
				"mineOnSave":    cfg.mineOnSave,
			},
		},
	}
	if cfg.hover {
		c.HoverProvider = true
	}
	return c
}

func describeFolders(fs []*folder) string {
	if len(fs) == 0 {
		return "none"
	}
	out := ""
	for i, f := range fs {
		if i > 0 {
			out += ", "
		}
		out += f.path + " (wing " + f.wing() + ")"
	}
	return out
}
