package mcp

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/core/fsx"
	"github.com/palace-dev/palace/core/ops"
)

func toolMine() *tool {
	return &tool{
		name:  "palace_mine",
		title: "Mine a folder or transcript",
		desc: "Index a project folder, a file, or a conversation export into the palace, incrementally: unchanged files cost nothing, changed files are replaced, " +
			"deleted ones pruned. Only paths inside the client's workspace roots (or folders the user allowed with --allow-path) can be mined, " +
			"and never the user's home folder, a folder holding it or the file system root: mine a project folder inside them. " +
			"Returns the mining summary (files seen, mined, unchanged, skipped by reason; drawers added and removed), how many drawers got vectors, " +
			"and a notice when an export was only partly readable or embedding stopped early (the rest is searchable lexically).",
		// Mining replaces the drawers of changed files and prunes those of
		// deleted ones; running it again on an unchanged tree changes nothing.
		// Hooks and the LSP server mine as the agent works, so a session
		// loop seldom calls it: the full profile serves it.
		destructive: true, idempotent: true, full: true,
		params: []param{
			{name: "path", kind: kString, required: true, maxLen: ops.MaxPathBytes,
				desc: "The folder or file to mine: an absolute path, or relative to the workspace root when the client has exactly one."},
			{name: "mode", kind: kString, enum: ops.MineModes,
				desc: "auto (default: project files, plus JSON chat exports as conversations), projects (every text file as a project file), " +
					"or convos (conversations only; a text file with a single \"> \" line counts as a transcript, use it for a session the user names)."},
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "The wing to mine into. Omit it: the session's project wing, else the path's palace.yaml or folder name."},
		},
		run: runMine,
	}
}

type mineArgs struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Wing string `json:"wing"`
}

func runMine(ctx context.Context, s *Server, a args) (any, error) {
	var in mineArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	req := ops.MineRequest{Path: in.Path, Mode: in.Mode, Wing: in.Wing, EmbedBudget: s.opts.EmbedBudget, Progress: s.progress(ctx)}
	// Bad arguments are named before the path is resolved against roots;
	// the path, relative to a root rather than to the server's working
	// directory, is judged by ops.Mine once resolved (a home folder or the
	// file system root is refused there, with no override over MCP).
	if err := req.ValidateArgs(); err != nil {
		return nil, err
	}
	path, under, err := s.minePath(ctx, in.Path)
	if err != nil {
		return nil, err
	}
	req.Path = path
	if req.Wing == "" {
		req.Wing = s.opts.Wing
	}
	if under != nil {
		// A folder inside a root mines into the root's wing unless it has
		// a palace.yaml of its own.
		req.DefaultWing = under.Wing
	}
	res, err := ops.Mine(ctx, s.p, req)
	if res.Summary != nil && (res.DrawersAdded > 0 || res.DrawersRemoved > 0) {
		s.changed(statusURI)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// minePath resolves the path to mine and checks it lies inside a client
// root or an allowed folder, after symlinks: a link inside the workspace
// must not lead mining elsewhere. Nothing outside them is looked at, so the
// refusal of a path outside does not tell whether it exists. It returns the
// root the path is under (nil for an allowed folder).
func (s *Server) minePath(ctx context.Context, given string) (string, *root, error) {
	all, rootsErr := s.roots(ctx)
	// Only local folders confine a mine; a root that maps to no wing
	// still does (its subfolders mine into their own project's wing).
	var rs []root
	for _, r := range all {
		if r.Dir != "" {
			rs = append(rs, r)
		}
	}
	p := filepath.Clean(given)
	if !filepath.IsAbs(p) {
		if len(rs) != 1 {
			return "", nil, invalidf("path", "%q is relative; give an absolute path (the client has %d workspace roots)", given, len(rs))
		}
		p = filepath.Join(rs[0].Dir, p)
	}
	dirs := make([]string, len(rs))
	for i := range rs {
		dirs[i] = rs[i].Dir
	}
	// The innermost root wins: its wing is the most specific.
	real, at, err := fsx.Inside(p, dirs)
	if err != nil {
		return "", nil, invalidf("path", "%q: %v", given, err)
	}
	if at >= 0 {
		return real, &rs[at], nil
	}
	var allowed []string
	for _, d := range s.opts.AllowPaths {
		if abs, err := filepath.Abs(d); err == nil {
			allowed = append(allowed, abs)
		}
	}
	real, at, err = fsx.Inside(p, allowed)
	if err != nil {
		return "", nil, invalidf("path", "%q: %v", given, err)
	}
	if at >= 0 {
		return real, nil, nil
	}
	tried := append(dirs, allowed...)
	why := "the client shares no workspace roots"
	if rootsErr != nil {
		why = "the client's roots could not be read (" + rootsErr.Error() + ")"
	}
	if len(tried) > 0 {
		why = "it is outside " + strings.Join(tried, ", ")
	}
	return "", nil, invalidf("path", "%q cannot be mined: %s; open it as a workspace folder or ask the user to start palace with --allow-path", given, why)
}

// progress reports mining progress to the client when the call asked for
// it (a progressToken), at most a few times a second.
func (s *Server) progress(ctx context.Context) func(done, total int) {
	token := progressToken(ctx)
	if token == nil {
		return nil
	}
	var mu sync.Mutex
	var last time.Time
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if done != total && time.Since(last) < 250*time.Millisecond {
			return
		}
		last = time.Now()
		err := s.mcp.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": done, "total": total, "message": "mining",
		})
		if err != nil {
			s.log.Debug("progress not sent", "error", err)
		}
	}
}

type progressKey struct{}

// progressToken is the token of the tool call in ctx, set by the handler.
func progressToken(ctx context.Context) mcp.ProgressToken {
	t, _ := ctx.Value(progressKey{}).(mcp.ProgressToken)
	return t
}
