package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// silentServer accepts TCP connections and never answers, as a hung
// PostgreSQL or a proxy whose other side is gone; it returns its address.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
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
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go io.Copy(io.Discard, c)
		}
	}()
	return ln.Addr().String()
}

// runTeam runs palace with env added, failing the test when it has not
// returned within a minute: far above every bound here, it only catches
// the hang.
func runTeam(t *testing.T, home string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := palaceCmd(ctx, home, args...)
	cmd.Env = append(cmd.Env, env...)
	stdout, stderr, code = clitest.Run(t, cmd)
	if ctx.Err() != nil {
		t.Fatalf("palace %v still waited for the silent team server after a minute", args)
	}
	return stdout, stderr, code
}

// TestTeamSilentServer: against a team server that accepts TCP and never
// answers, 'team join' gives up after the default 10s, 'sync' and 'team
// share' after --timeout, each exit 1 naming the host and the bound (and
// never the password); 'team status' reports it and exits 0, as it does
// offline; --timeout 0 is a usage error. Issue 46: each waited forever
// unless the URL set connect_timeout.
func TestTeamSilentServer(t *testing.T) {
	addr := silentServer(t)
	u := "postgres://alice:secretpw@" + addr + "/team"
	home := t.TempDir()
	said := func(what, stderr, bound string) {
		t.Helper()
		if !strings.Contains(stderr, "the team server at "+addr+" did not answer within "+bound) || strings.Contains(stderr, "secretpw") {
			t.Fatalf("%s: stderr %q, want the host, the bound %s and no password", what, stderr, bound)
		}
	}

	_, errOut, code := runTeam(t, home, nil, "team", "join", u)
	if code != 1 {
		t.Fatalf("team join: exit %d, want 1; stderr %q", code, errOut)
	}
	said("team join", errOut, "10s")

	env := []string{"PALACE_TEAM_URL=" + u}
	_, errOut, code = runTeam(t, home, env, "sync", "--timeout", "1s")
	if code != 1 {
		t.Fatalf("sync --timeout 1s: exit %d, want 1; stderr %q", code, errOut)
	}
	said("sync --timeout 1s", errOut, "1s")
	_, errOut, code = runTeam(t, home, env, "team", "share", "api", "--timeout", "500ms")
	if code != 1 {
		t.Fatalf("team share --timeout 500ms: exit %d, want 1; stderr %q", code, errOut)
	}
	said("team share", errOut, "500ms")

	out, errOut, code := runTeam(t, home, append(env, "PALACE_TEAM_TIMEOUT=1s"), "team", "status", "--json")
	var st struct {
		Joined bool   `json:"joined"`
		Error  string `json:"error"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || !st.Joined {
		t.Fatalf("team status: exit %d, stdout %q, stderr %q; want a joined status", code, out, errOut)
	}
	said("team status with PALACE_TEAM_TIMEOUT=1s", st.Error, "1s")

	if _, errOut, code := runTeam(t, home, env, "sync", "--timeout", "0"); code != 2 || !strings.Contains(errOut, "--timeout") {
		t.Fatalf("sync --timeout 0: exit %d, stderr %q; want a usage error naming the flag", code, errOut)
	}
}
