package mcp

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/palace-dev/palace/core/mine"
)

// session is what the server knows about one client connection: its roots,
// asked for lazily (never while initialize is in flight: some clients
// cannot answer a roots/list request until they have the initialize
// result, see Memorix #79) and forgotten when the client says they changed.
type session struct {
	// initialized is set once initialize has been answered; guarded by
	// Server.mu (see requireInitialize).
	initialized bool

	mu    sync.Mutex
	known bool
	roots []root
}

// root is a client root as a local folder and the wing it maps to.
type root struct {
	URI  string `json:"uri"`
	Dir  string `json:"dir"`
	Wing string `json:"wing"`
}

func (ss *session) forgetRoots() {
	ss.mu.Lock()
	ss.known, ss.roots = false, nil
	ss.mu.Unlock()
}

// sessionFor returns the state of the session ctx belongs to.
func (s *Server) sessionFor(ctx context.Context) *session {
	id := ""
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		id = cs.SessionID()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[id]
	if ss == nil {
		ss = &session{}
		s.sessions[id] = ss
	}
	return ss
}

// clientName is the name the client gave in initialize, "" if none.
func clientName(ctx context.Context) string {
	if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return cs.GetClientInfo().Name
	}
	return ""
}

// roots returns the client's roots, asking the client the first time.
// A client without the roots capability has none; a failed request is
// logged and retried on the next call rather than remembered.
func (s *Server) roots(ctx context.Context) ([]root, error) {
	ss := s.sessionFor(ctx)
	ss.mu.Lock()
	if ss.known {
		defer ss.mu.Unlock()
		return ss.roots, nil
	}
	ss.mu.Unlock()
	cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok || cs.GetClientCapabilities().Roots == nil {
		return nil, nil
	}
	rctx, cancel := context.WithTimeout(ctx, s.opts.RootsTimeout)
	defer cancel()
	res, err := s.mcp.RequestRoots(rctx, mcp.ListRootsRequest{})
	if err != nil {
		s.log.Warn("roots/list failed", "error", err)
		return nil, fmt.Errorf("ask the client for its roots: %w", err)
	}
	var rs []root
	for _, r := range res.Roots {
		dir, err := rootDir(r.URI)
		if err != nil {
			s.log.Warn("root skipped", "uri", r.URI, "error", err)
			continue
		}
		w, err := mine.WingOfDir(dir)
		if err != nil {
			s.log.Warn("root skipped", "uri", r.URI, "error", err)
			continue
		}
		rs = append(rs, root{URI: r.URI, Dir: dir, Wing: w})
	}
	ss.mu.Lock()
	ss.known, ss.roots = true, rs
	ss.mu.Unlock()
	return rs, nil
}

// rootDir turns a file:// root URI into a cleaned absolute path.
func rootDir(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("root %q: %w", uri, err)
	}
	if u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return "", fmt.Errorf("root %q is not a local file:// URI", uri)
	}
	if !filepath.IsAbs(u.Path) {
		return "", fmt.Errorf("root %q has no absolute path", uri)
	}
	return filepath.Clean(u.Path), nil
}

// wing resolves the wing a tool writes to: the argument, else --wing, else
// the one wing the client's roots map to. It never guesses: several roots
// with different wings, or none at all, is an input error that says what to
// do.
func (s *Server) wing(ctx context.Context, given string) (string, error) {
	if given != "" {
		return given, nil
	}
	if s.opts.Wing != "" {
		return s.opts.Wing, nil
	}
	rs, err := s.roots(ctx)
	if err != nil {
		return "", invalidf("wing", "is needed, and the client's roots could not be read (%v): pass \"wing\" (palace_status lists the wings)", err)
	}
	var wings []string
	for _, r := range rs {
		if !slices.Contains(wings, r.Wing) {
			wings = append(wings, r.Wing)
		}
	}
	switch len(wings) {
	case 1:
		return wings[0], nil
	case 0:
		return "", invalidf("wing", "is needed and none is known for this session: pass \"wing\" (palace_status lists the wings), start the server with --wing, or use a client that shares its workspace folder as an MCP root")
	}
	return "", invalidf("wing", "is needed, and the client's roots map to several wings (%s): pass \"wing\"", strings.Join(wings, ", "))
}
