package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/palace-dev/palace/core/ops"
)

// session is what the server knows about one client connection: its roots,
// asked for lazily (never while initialize is in flight: some clients
// cannot answer a roots/list request until they have the initialize
// result, see Memorix #79) and forgotten when the client says they changed.
type session struct {
	// initialized is set once initialize has been answered; guarded by
	// Server.mu (see requireInitialize).
	initialized bool

	// id names the session in what it saves (ops.Provenance.Session):
	// mcp-go's own ids are not enough, a stdio session is always "stdio".
	id string

	mu    sync.Mutex
	known bool
	roots []root
}

// root is a client root as a local folder and the wing it maps to
// (ops.ResolveWing). A root that maps to no wing is kept, with Error
// saying why, so palace_status shows it rather than the root vanishing;
// Dir is "" when the URI is no local folder.
type root struct {
	URI  string `json:"uri"`
	Dir  string `json:"dir,omitempty"`
	Wing string `json:"wing,omitempty"`
	// Project is the folder that decided the wing: the palace.yaml's or
	// the git work tree's above Dir, or Dir.
	Project string `json:"project,omitempty"`
	Error   string `json:"error,omitempty"`
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
		ss = &session{id: newSessionID()}
		s.sessions[id] = ss
	}
	return ss
}

// newSessionID is a fresh session name, "mcp-" and 16 hex digits.
func newSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on the supported systems
	return "mcp-" + hex.EncodeToString(b[:])
}

// provenance is what a write made in this call's session records of it.
func (s *Server) provenance(ctx context.Context) ops.Provenance {
	return ops.Provenance{Session: s.sessionFor(ctx).id}
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
		rs = append(rs, s.rootOf(r.URI))
	}
	ss.mu.Lock()
	ss.known, ss.roots = true, rs
	ss.mu.Unlock()
	return rs, nil
}

// rootOf maps a client root to its folder and wing. A root that maps to
// no wing (not a local folder, a home folder, a palace.yaml that cannot
// be read) is logged and kept with its error: the session's wing comes
// from the other roots, and palace_status says what happened to this one.
func (s *Server) rootOf(uri string) root {
	r := root{URI: uri}
	dir, err := rootDir(uri)
	if err == nil {
		r.Dir = dir
		var w ops.ResolvedWing
		if w, err = ops.ResolveWing(dir); err == nil {
			r.Wing, r.Project = w.Wing, w.Project
			return r
		}
	}
	r.Error = err.Error()
	s.log.Warn("root maps to no wing", "uri", uri, "error", err)
	return r
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
	var wings, failed []string
	for _, r := range rs {
		switch {
		case r.Wing == "":
			failed = append(failed, r.URI+": "+r.Error)
		case !slices.Contains(wings, r.Wing):
			wings = append(wings, r.Wing)
		}
	}
	switch {
	case len(wings) == 1:
		return wings[0], nil
	case len(wings) == 0 && len(failed) > 0:
		return "", invalidf("wing", "is needed, and no root of the client maps to one (%s): pass \"wing\" (palace_status lists the wings)", strings.Join(failed, "; "))
	case len(wings) == 0:
		return "", invalidf("wing", "is needed and none is known for this session: pass \"wing\" (palace_status lists the wings), start the server with --wing, or use a client that shares its workspace folder as an MCP root")
	}
	return "", invalidf("wing", "is needed, and the client's roots map to several wings (%s): pass \"wing\"", strings.Join(wings, ", "))
}
