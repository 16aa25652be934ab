package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/palace-dev/palace/core/palace"
)

// HTTP settings.
const (
	// EndpointPath is where the streamable HTTP endpoint lives.
	EndpointPath = "/mcp"
	// TokenFileName is the bearer token's file in $PALACE_HOME.
	TokenFileName = "mcp-token"
	// maxBody bounds a request body: a note is at most 1 MiB, so this is
	// generous, yet a runaway client cannot exhaust memory.
	maxBody = 8 << 20
)

// ServeHTTP serves MCP over streamable HTTP on opts.HTTP until ctx ends.
func ServeHTTP(ctx context.Context, p *palace.Palace, opts Options) error {
	return New(p, opts).ServeHTTP(ctx)
}

// ServeHTTP serves this server over streamable HTTP at opts.HTTP.
// The address must be loopback unless opts.AllowRemote; every request must
// carry the bearer token from the token file; on loopback, requests whose
// Host or Origin is not loopback are refused (DNS rebinding: a web page
// must not reach the palace through the user's browser).
func (s *Server) ServeHTTP(ctx context.Context) error {
	loopback, err := CheckAddr(s.opts.HTTP, s.opts.AllowRemote)
	if err != nil {
		return err
	}
	tokenFile := s.opts.TokenFile
	if tokenFile == "" {
		tokenFile = filepath.Join(s.p.Home(), TokenFileName)
	}
	token, err := LoadOrCreateToken(tokenFile)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", s.opts.HTTP)
	if err != nil {
		return fmt.Errorf("mcp http: %w", err)
	}
	streamable := server.NewStreamableHTTPServer(s.mcp,
		server.WithEndpointPath(EndpointPath),
		server.WithStreamableHTTPLogger(s.log),
	)
	mux := http.NewServeMux()
	mux.Handle(EndpointPath, s.guard(loopback, token, streamable))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = streamable.Shutdown(sctx)
		_ = srv.Shutdown(sctx)
	}()
	endpoint := "http://" + ln.Addr().String() + EndpointPath
	s.logf("serving MCP over streamable HTTP at %s (bearer token in %s)", endpoint, tokenFile)
	if !loopback {
		s.logf("warning: %s is reachable from other machines and the traffic is not encrypted; the token is all that protects the palace", ln.Addr())
	}
	if s.opts.Ready != nil {
		s.opts.Ready(endpoint)
	}
	err = srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		<-stopped
		return nil
	}
	return fmt.Errorf("mcp http: %w", err)
}

// CheckAddr accepts a loopback host:port, or with allowRemote any address.
// An empty host (":8080") listens everywhere, so it is not loopback. The CLI
// calls it before opening the palace, so a refused address changes nothing.
func CheckAddr(addr string, allowRemote bool) (loopback bool, err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("--http %q: want HOST:PORT, such as 127.0.0.1:8765: %w", addr, err)
	}
	if isLoopback(host) {
		return true, nil
	}
	if !allowRemote {
		return false, fmt.Errorf("--http %q: refusing a non-loopback address, which would expose the palace to the network; use 127.0.0.1 or [::1], or pass --allow-remote (clients then need the bearer token)", addr)
	}
	return false, nil
}

// isLoopback reports whether host (no port) is localhost or a loopback IP.
func isLoopback(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// guard checks Host and Origin (on loopback), then the bearer token, then
// the tool call's arguments, before mcp-go sees the request; it keeps the
// request's id exact and bounds error text in the answer.
func (s *Server) guard(loopback bool, token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if loopback {
			if host := hostOnly(r.Host); !isLoopback(host) {
				http.Error(w, fmt.Sprintf("forbidden: Host %q is not a loopback name", r.Host), http.StatusForbidden)
				return
			}
			if o := r.Header.Get("Origin"); o != "" && !loopbackOrigin(o) {
				http.Error(w, fmt.Sprintf("forbidden: Origin %q is not a loopback origin", o), http.StatusForbidden)
				return
			}
		}
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="palace"`)
			http.Error(w, "unauthorized: send the token from $PALACE_HOME/"+TokenFileName+" as 'Authorization: Bearer TOKEN'", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost && r.Body != nil {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
			if err != nil {
				http.Error(w, "request body: "+err.Error(), http.StatusRequestEntityTooLarge)
				return
			}
			if resp := s.precheck(body); resp != nil {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusOK)
				_, _ = w.Write(resp)
				return
			}
			scope := r.Header.Get(server.HeaderKeySessionID)
			body, tok := s.ids.in(body, scope)
			if tok != "" {
				defer s.ids.forget(scope, tok)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			w = &idWriter{ResponseWriter: w, ids: s.ids, scope: scope}
		}
		next.ServeHTTP(w, r)
	})
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return isLoopback(u.Hostname())
}

// LoadOrCreateToken reads the bearer token from path, or creates the file
// (0600, in a 0700 folder) with a fresh random token. The token is kept
// across restarts so client configurations stay valid; delete the file to
// rotate it.
func LoadOrCreateToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		tok := strings.TrimSpace(string(b))
		if len(tok) < 16 {
			return "", fmt.Errorf("token file %s holds no usable token (at least 16 characters); delete it to get a new one", path)
		}
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			return "", fmt.Errorf("token file %s is readable by other users (mode %v); chmod 600 it", path, fi.Mode().Perm())
		}
		return tok, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("token file: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	tok := hex.EncodeToString(raw)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return LoadOrCreateToken(path) // another server created it first
	}
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	if _, err := f.WriteString(tok + "\n"); err != nil {
		f.Close()
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	return tok, nil
}
