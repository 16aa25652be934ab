package team_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/team"
)

// stall stands between members and PostgreSQL like fault_test.go's
// proxy, but going quiet instead of cutting: every connection stays open,
// what members send is swallowed and nothing comes back, as from a hung
// server or a proxy whose other side is gone. With no target it is quiet
// from the start: a port that accepts TCP and never answers.
type stall struct {
	addr  string
	quiet atomic.Bool
}

func newStall(t *testing.T, target string) *stall {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("stall: %v", err)
	}
	s := &stall{addr: ln.Addr().String()}
	s.quiet.Store(target == "")
	var mu sync.Mutex
	var conns []net.Conn
	keep := func(c net.Conn) {
		mu.Lock()
		defer mu.Unlock()
		conns = append(conns, c)
	}
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			keep(c)
			if s.quiet.Load() {
				go io.Copy(io.Discard, c)
				continue
			}
			srv, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			keep(srv)
			go s.pipe(srv, c)
			go s.pipe(c, srv)
		}
	}()
	return s
}

// pipe copies src to dst until src ends, dropping what comes while quiet.
func (s *stall) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !s.quiet.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				src.Close()
				return
			}
		}
		if err != nil {
			dst.Close()
			return
		}
	}
}

// via rewrites a connection string to go through the stall.
func (s *stall) via(t *testing.T, u string) string {
	t.Helper()
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	pu.Host = s.addr
	return pu.String()
}

// hangGuard is far above every bound here: it only catches a hang.
const hangGuard = time.Minute

// returns runs f, failing the test when it has not returned within
// hangGuard (the old code waited forever on a silent server).
func returns[T any](t *testing.T, what string, f func(context.Context) (T, error)) (T, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	v, err := f(ctx)
	if ctx.Err() != nil {
		t.Fatalf("%s still waited for the silent server after %s", what, hangGuard)
	}
	return v, err
}

// isTimeout checks err is the team server's timeout of step after bound,
// naming host and never the password, classed as a deadline.
func isTimeout(t *testing.T, what string, err error, step, host string, bound time.Duration) {
	t.Helper()
	var te *team.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("%s: %v, want the team server's timeout", what, err)
	}
	if te.Step != step || te.Host != host || te.After != bound {
		t.Fatalf("%s: timeout of step %q at %s after %s, want %q at %s after %s", what, te.Step, te.Host, te.After, step, host, bound)
	}
	msg := err.Error()
	if !strings.Contains(msg, host) || !strings.Contains(msg, "did not answer within "+bound.String()) || strings.Contains(msg, "secretpw") {
		t.Fatalf("%s: %q, want the host, the bound and no password", what, msg)
	}
	if c := ops.Classify(err); c != ops.Cancelled {
		t.Fatalf("%s: classified %q, want %q as every deadline", what, c, ops.Cancelled)
	}
}

// TestTeamSilentServerTimesOut: against a port that accepts TCP and never
// answers, join (with the default bound), sync, share, grant and status
// each give up within their bound, naming the host; the request's bound
// wins over PALACE_TEAM_TIMEOUT, which wins over the default. Issue 46:
// each waited forever unless the URL set connect_timeout.
func TestTeamSilentServerTimesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out each timeout bound (about 12 s)")
	}
	s := newStall(t, "")
	u := "postgres://alice:secretpw@" + s.addr + "/team"
	p := palacetest.OpenPalace(t)

	_, err := returns(t, "join", func(ctx context.Context) (ops.TeamJoinResult, error) {
		return ops.TeamJoin(ctx, p, ops.TeamJoinRequest{URL: u})
	})
	isTimeout(t, "join with the default bound", err, "connect", s.addr, ops.TeamTimeout)

	t.Setenv(ops.TeamURLEnv, u)
	const short = 300 * time.Millisecond
	_, err = returns(t, "sync", func(ctx context.Context) (ops.SyncResult, error) {
		return ops.Sync(ctx, p, ops.SyncRequest{Timeout: short})
	})
	isTimeout(t, "sync", err, "connect", s.addr, short)
	_, err = returns(t, "share", func(ctx context.Context) (ops.TeamShareResult, error) {
		return ops.TeamShare(ctx, p, ops.TeamShareRequest{Wing: "api", Timeout: short})
	})
	isTimeout(t, "share", err, "connect", s.addr, short)
	_, err = returns(t, "grant", func(ctx context.Context) (ops.TeamGrantRequest, error) {
		return ops.TeamGrant(ctx, p, ops.TeamGrantRequest{Wing: "api", Role: "bob", Timeout: short})
	})
	isTimeout(t, "grant", err, "connect", s.addr, short)

	t.Setenv(ops.TeamTimeoutEnv, "400ms")
	_, err = returns(t, "sync", func(ctx context.Context) (ops.SyncResult, error) {
		return ops.Sync(ctx, p, ops.SyncRequest{})
	})
	isTimeout(t, "sync bounded by "+ops.TeamTimeoutEnv, err, "connect", s.addr, 400*time.Millisecond)
	_, err = returns(t, "sync", func(ctx context.Context) (ops.SyncResult, error) {
		return ops.Sync(ctx, p, ops.SyncRequest{Timeout: short})
	})
	isTimeout(t, "sync whose request names a bound", err, "connect", s.addr, short)
	// Status works offline: the team's part is replaced by the error.
	st, err := returns(t, "status", func(ctx context.Context) (ops.TeamStatusResult, error) {
		return ops.TeamStatus(ctx, p, ops.TeamStatusRequest{})
	})
	if err != nil || !st.Joined || !strings.Contains(st.Error, s.addr+" did not answer within 400ms") {
		t.Fatalf("status: %v, joined %v, error %q; want the timeout in its error", err, st.Joined, st.Error)
	}

	t.Setenv(ops.TeamTimeoutEnv, "soon")
	if _, err := ops.Sync(context.Background(), p, ops.SyncRequest{}); ops.Classify(err) != ops.Invalid || !strings.Contains(err.Error(), ops.TeamTimeoutEnv) {
		t.Fatalf("sync with %s=soon: %v, want it refused naming the variable", ops.TeamTimeoutEnv, err)
	}
	if _, err := ops.Sync(context.Background(), p, ops.SyncRequest{Timeout: -time.Second}); ops.Classify(err) != ops.Invalid {
		t.Fatalf("sync with a negative timeout: %v, want it refused", err)
	}
}

// TestTeamStalledServerTimesOutEachStep: a server that answered the
// connection and then goes quiet fails the step in progress (a batch
// pushed, one pulled, a join, a status read) within the bound, naming it;
// a sync then fails at connecting; nothing queued is lost, and once the
// server answers again one sync sends it all.
func TestTeamStalledServerTimesOutEachStep(t *testing.T) {
	ctx := context.Background()
	urls := teamDB(t, "alice")
	pu, err := url.Parse(urls["alice"])
	if err != nil {
		t.Fatal(err)
	}
	s := newStall(t, pu.Host)
	via := s.via(t, urls["alice"])
	a := palacetest.OpenPalace(t)
	join(t, a, via)
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, a, ops.TeamShareRequest{Wing: "api"}))
	for _, text := range []string{"the deploy freeze starts on Friday", "staging moved to the new cluster", "we pinned pgx to v5.12"} {
		must[ops.RememberResult](t)(ops.Remember(ctx, a, ops.RememberRequest{Importance: ops.DefaultImportance, Text: text, Wing: "api"}))
	}

	const bound = 500 * time.Millisecond
	steps := map[string]func(context.Context, *team.Conn) error{
		"push": func(ctx context.Context, c *team.Conn) error {
			_, err := team.Sync(ctx, a, c, "")
			return err
		},
		"pull": func(ctx context.Context, c *team.Conn) error {
			_, err := c.Pull(ctx, "api", 0, team.Batch)
			return err
		},
		"join": func(ctx context.Context, c *team.Conn) error { return c.Join(ctx) },
		"status": func(ctx context.Context, c *team.Conn) error {
			_, _, err := c.Status(ctx)
			return err
		},
	}
	for step, f := range steps {
		s.quiet.Store(false)
		c, err := team.Connect(ctx, via, bound)
		if err != nil {
			t.Fatalf("connect before the %s stalls: %v", step, err)
		}
		s.quiet.Store(true)
		_, err = returns(t, step, func(ctx context.Context) (struct{}, error) { return struct{}{}, f(ctx, c) })
		isTimeout(t, step, err, step, s.addr, bound)
		if _, err := returns(t, "close", func(ctx context.Context) (struct{}, error) { return struct{}{}, c.Close(ctx) }); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			t.Logf("close after the %s stalled: %v", step, err)
		}
	}

	_, err = returns(t, "sync", func(ctx context.Context) (ops.SyncResult, error) {
		return ops.Sync(ctx, a, ops.SyncRequest{Timeout: bound})
	})
	isTimeout(t, "sync through the quiet server", err, "connect", s.addr, bound)

	s.quiet.Store(false)
	if res := must[ops.SyncResult](t)(ops.Sync(ctx, a, ops.SyncRequest{})); res.Pushed != 3 {
		t.Fatalf("the sync after the server answered again pushed %d operations, want the 3 queued", res.Pushed)
	}
}

// TestTeamStatementTimeout: Connect sets the server's statement_timeout to
// the step's bound, so a statement the client gave up on does not go on
// holding locks; a lower one the connection string (or the role) set is
// kept, and the server's cancel is reported as the team server's timeout.
func TestTeamStatementTimeout(t *testing.T) {
	ctx := context.Background()
	urls := teamDB(t, "alice")
	c, err := team.Connect(ctx, urls["alice"], 7*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if v, err := c.Setting(ctx, "statement_timeout"); err != nil || v != "7s" {
		t.Fatalf("statement_timeout after Connect with 7s: %q %v, want 7s", v, err)
	}

	pu, err := url.Parse(urls["alice"])
	if err != nil {
		t.Fatal(err)
	}
	q := pu.Query()
	q.Set("statement_timeout", "300") // a startup parameter, in ms
	pu.RawQuery = q.Encode()
	lower, err := team.Connect(ctx, pu.String(), 7*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer lower.Close(ctx)
	if v, err := lower.Setting(ctx, "statement_timeout"); err != nil || v != "300ms" {
		t.Fatalf("statement_timeout with 300 in the connection string: %q %v, want it kept", v, err)
	}
	err = lower.ExecWithin(ctx, "pull", `SELECT pg_sleep(5)`)
	isTimeout(t, "a statement the server cancelled", err, "pull", pu.Host, 300*time.Millisecond)
	// The server cancelled it, not the client: the connection is intact.
	if err := lower.ExecWithin(ctx, "pull", `SELECT 1`); err != nil {
		t.Fatalf("the connection after the server's cancel: %v", err)
	}
}
