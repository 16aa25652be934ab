package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/core/fsx"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/vectors"
)

func toolMine() *tool {
	return &tool{
		name:  "palace_mine",
		title: "Mine a folder or transcript",
		desc: "Index a project folder, a file, or a conversation export into the palace, incrementally: unchanged files cost nothing, changed files are replaced, " +
			"deleted ones pruned. Only paths inside the client's workspace roots (or folders the user allowed with --allow-path) can be mined. " +
			"Returns the mining summary (files seen, mined, unchanged, skipped by reason; drawers added and removed) and how many drawers got vectors.",
		// Mining replaces the drawers of changed files and prunes those of
		// deleted ones; running it again on an unchanged tree changes nothing.
		destructive: true, idempotent: true,
		params: []param{
			{name: "path", kind: kString, required: true, maxLen: 4096,
				desc: "The folder or file to mine: an absolute path, or relative to the workspace root when the client has exactly one."},
			{name: "mode", kind: kString, enum: []string{mine.ModeAuto, mine.ModeProjects, mine.ModeConvos},
				desc: "auto (default: project files, plus JSON chat exports as conversations), projects (every text file as a project file), or convos (conversations only, plain-text transcripts included)."},
			{name: "wing", kind: kString, maxLen: 200,
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

type mineResult struct {
	*mine.Summary
	Vectors vectors.Summary `json:"vectors"`
	Notice  string          `json:"notice,omitempty"`
}

func runMine(ctx context.Context, s *Server, a args) (any, error) {
	var in mineArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	path, under, err := s.minePath(ctx, in.Path)
	if err != nil {
		return nil, err
	}
	wing := in.Wing
	if wing == "" {
		wing = s.opts.Wing
	}
	if wing == "" && under != nil && !hasOwnConfig(path) {
		wing = under.Wing
	}
	o := mine.Options{Wing: wing, Mode: in.Mode, Progress: s.progress(ctx)}
	sum, err := mine.Run(ctx, s.p, path, o)
	if sum != nil && (sum.DrawersAdded > 0 || sum.DrawersRemoved > 0) {
		defer s.changed(statusURI)
	}
	if err != nil {
		return nil, err
	}
	res := mineResult{Summary: sum}
	if len(sum.Errors) > 0 {
		res.Notice = fmt.Sprintf("%d export(s) only partly readable; their valid part was mined (see errors)", len(sum.Errors))
	}
	// The lexical index is committed; vectors follow within a budget so the
	// call returns. Filling is resumable: the rest is embedded by the next
	// mine or `palace reindex`, and those drawers are found lexically
	// meanwhile.
	ectx, cancel := context.WithTimeout(ctx, s.opts.EmbedBudget)
	defer cancel()
	res.Vectors, err = vectors.Fill(ectx, s.p, vectors.Options{})
	switch {
	case err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		res.Notice = strings.TrimSpace(res.Notice + fmt.Sprintf(" embedding stopped after %s with %d drawers left; they are searchable lexically and get vectors at the next mine or `palace reindex`",
			s.opts.EmbedBudget, res.Vectors.Pending))
	case err != nil:
		return nil, err
	}
	return res, nil
}

// minePath resolves the path to mine and checks it lies inside a client
// root or an allowed folder, after symlinks: a link inside the workspace
// must not lead mining elsewhere. It returns the root the path is under
// (nil for an allowed folder).
func (s *Server) minePath(ctx context.Context, given string) (string, *root, error) {
	rs, rootsErr := s.roots(ctx)
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
	real, at, err := fsx.Within(p, dirs)
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
	if _, at, err := fsx.Within(real, allowed); err == nil && at >= 0 {
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

// hasOwnConfig reports whether the mined folder (a file's folder) has its
// own palace.yaml naming a wing: mine then takes the wing from it rather
// than from the enclosing root.
func hasOwnConfig(path string) bool {
	dir := path
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		dir = filepath.Dir(path)
	}
	cfg, err := mine.LoadConfig(dir)
	return err == nil && cfg != nil && strings.TrimSpace(cfg.Wing) != ""
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
