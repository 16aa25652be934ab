//go:build linux

// Security tests (issue #11): private file modes whatever the umask, no
// network listener unless asked, a loopback-only, token-guarded HTTP mode,
// and hooks that never hand their input to a shell. They run the real binary
// and read /proc, hence linux.
package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	palacemcp "github.com/palace-dev/palace/server/mcp"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// secUmask makes cmd run under umask 000, so only the modes palace asks for
// protect what it creates.
func secUmask(t *testing.T, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Path = sh
	cmd.Args = append([]string{"sh", "-c", `umask 000 && exec "$0" "$@"`}, cmd.Args...)
	return cmd
}

// secRun runs palace under umask 000 with stdin and extra environment.
func secRun(t *testing.T, home, stdin string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := secUmask(t, palaceCmd(ctx, home, args...))
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	return clitest.Run(t, cmd)
}

// secServer is a running `palace serve` whose stderr is collected.
type secServer struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	logs *badLog
	done chan error
}

// secStart starts palace with stdin and stdout as pipes; the server stops
// at the end of the test.
func secStart(t *testing.T, cmd *exec.Cmd) *secServer {
	t.Helper()
	s := &secServer{cmd: cmd, logs: &badLog{}, done: make(chan error, 1)}
	cmd.Stderr = s.logs
	var err error
	if s.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.out = bufio.NewReader(stdout)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() { s.stop(t) })
	return s
}

// stop ends the server (closing stdin ends a stdio server; SIGINT the
// HTTP one) and waits for it.
func (s *secServer) stop(t *testing.T) {
	t.Helper()
	if s.cmd.ProcessState != nil {
		return
	}
	s.in.Close()
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		t.Errorf("palace %v did not stop within 10s", s.cmd.Args)
	}
}

// waitLog waits for a line of the server's stderr that re matches and
// returns the match's first group.
func (s *secServer) waitLog(t *testing.T, re *regexp.Regexp) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(s.logs.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("palace %v exited (%v) before logging %s:\n%s", s.cmd.Args, err, re, s.logs.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("palace %v did not log %s within 30s:\n%s", s.cmd.Args, re, s.logs.String())
	return ""
}

var secEndpoint = regexp.MustCompile(`streamable HTTP at (http://\S+/mcp)`)

// secMode checks a path's permission bits.
func secMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s has mode %v, want %v", path, got, want)
	}
}

func TestFileModes(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "palace") // created by the first command
	proj := filepath.Join(root, "proj")
	clitest.WriteTree(t, proj, map[string]string{"a.md": "tokmodes text\n", "sub/b.go": "package sub\n"})
	userHome := t.TempDir()
	transcript, cwd := claudeSession(t, userHome)
	steps := []struct {
		stdin string
		args  []string
	}{
		{"", []string{"mine", proj}},
		{"", []string{"remember", "tokmodes note", "--wing", "proj"}},
		{"", []string{"diary", "write", "claude", "tokmodes entry"}},
		{"", []string{"kg", "add", "Alice", "works_at", "Acme"}},
		{"", []string{"taxonomy", "set", "proj", "ops", "--keywords", "deploy"}},
		{hookJSON(sessionID, transcript, cwd), []string{"hook", "run", "--agent", "claude-code", "--event", "stop"}},
		{"not json", []string{"hook", "run", "--agent", "claude-code", "--event", "stop"}},
	}
	for _, s := range steps {
		_, errOut, code := secRun(t, home, s.stdin, []string{"HOME=" + userHome, "CLAUDE_CONFIG_DIR="}, s.args...)
		if code != 0 {
			t.Fatalf("palace %v: exit %d, %q", s.args, code, errOut)
		}
	}
	if got := conversationDrawers(t, home); got["shop"] == 0 {
		t.Fatalf("the hook mined nothing (conversation drawers by wing: %v)", got)
	}

	// The HTTP server creates the token, and keeps the palace open: its
	// WAL side files exist while it runs.
	srv := secStart(t, secUmask(t, palaceCmd(context.Background(), home, "serve", "--mcp", "--http", "127.0.0.1:0")))
	srv.waitLog(t, secEndpoint)
	db := filepath.Join(home, "palace.db")
	for _, p := range []string{db + "-wal", db + "-shm"} {
		secMode(t, p, 0o600)
	}
	srv.stop(t)

	secMode(t, home, 0o700)
	secMode(t, db, 0o600)
	secMode(t, filepath.Join(home, "audit"), 0o700)
	secMode(t, filepath.Join(home, "audit", "write_log.jsonl"), 0o600)
	secMode(t, filepath.Join(home, palacemcp.TokenFileName), 0o600)
	secMode(t, filepath.Join(home, "logs"), 0o700)
	secMode(t, filepath.Join(home, "logs", "hook.log"), 0o600)
	// Nothing else under the palace is readable by others either.
	err := filepath.Walk(home, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v: group or others can reach it", p, fi.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// secSockets returns the inodes of the sockets pid holds.
func secSockets(t *testing.T, pid int) map[string]bool {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range ents {
		l, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err == nil && strings.HasPrefix(l, "socket:[") {
			out[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	return out
}

// secInet lists the IP sockets of this network namespace: inode -> local
// address (hex, as /proc/net shows it) and TCP state ("0A" is LISTEN).
func secInet(t *testing.T) map[string][2]string {
	t.Helper()
	out := map[string][2]string{}
	for _, f := range []string{"tcp", "tcp6", "udp", "udp6"} {
		b, err := os.ReadFile("/proc/net/" + f)
		if err != nil {
			continue // no IPv6 here
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) < 10 {
				continue
			}
			out[fs[9]] = [2]string{fs[1], fs[3]}
		}
	}
	return out
}

// secLoopback reports whether a /proc/net local address (hex IP:port) is a
// loopback one.
func secLoopback(addr string) bool {
	ip := strings.Split(addr, ":")[0]
	switch len(ip) {
	case 8: // IPv4, little-endian: 127.x.x.x ends in 7F
		return strings.HasSuffix(ip, "7F")
	case 32: // ::1, or ::ffff:127.x.x.x
		return ip == "00000000000000000000000001000000" || (strings.HasPrefix(ip, "0000000000000000FFFF0000") && strings.HasSuffix(ip, "7F"))
	}
	return false
}

func TestNoListenerUnlessAsked(t *testing.T) {
	home := t.TempDir()
	mineOK(t, home, func() string {
		d := filepath.Join(t.TempDir(), "proj")
		clitest.WriteTree(t, d, map[string]string{"a.md": "toklisten\n"})
		return d
	}())

	// The stdio servers: answer an initialize, then hold no IP socket.
	mcpSrv := secStart(t, palaceCmd(context.Background(), home, "serve", "--mcp"))
	fmt.Fprintln(mcpSrv.in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sec","version":"1"}}}`)
	if line, err := mcpSrv.out.ReadString('\n'); err != nil || !strings.Contains(line, `"serverInfo"`) {
		t.Fatalf("serve --mcp initialize: %q %v\n%s", line, err, mcpSrv.logs.String())
	}
	lspSrv := secStart(t, palaceCmd(context.Background(), home, "serve", "--lsp"))
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"capabilities":{}}}`
	fmt.Fprintf(lspSrv.in, "Content-Length: %d\r\n\r\n%s", len(body), body)
	if _, err := lspSrv.out.ReadString('{'); err != nil {
		t.Fatalf("serve --lsp initialize: %v\n%s", err, lspSrv.logs.String())
	}
	inet := secInet(t)
	for name, s := range map[string]*secServer{"serve --mcp": mcpSrv, "serve --lsp": lspSrv} {
		for ino := range secSockets(t, s.cmd.Process.Pid) {
			if a, ok := inet[ino]; ok {
				t.Errorf("%s holds an IP socket (local %s, state %s); stdio servers need none", name, a[0], a[1])
			}
		}
	}

	// Asked for HTTP: one listener, on loopback, that wants the token.
	srv := secStart(t, palaceCmd(context.Background(), home, "serve", "--mcp", "--http", "127.0.0.1:0"))
	endpoint := srv.waitLog(t, secEndpoint)
	listening := 0
	inet = secInet(t)
	for ino := range secSockets(t, srv.cmd.Process.Pid) {
		a, ok := inet[ino]
		if !ok {
			continue
		}
		if a[1] == "0A" {
			listening++
		}
		if !secLoopback(a[0]) {
			t.Errorf("serve --mcp --http 127.0.0.1:0 holds a socket on %s", a[0])
		}
	}
	if listening != 1 {
		t.Errorf("serve --mcp --http listens on %d sockets, want 1", listening)
	}
	token, err := os.ReadFile(filepath.Join(home, palacemcp.TokenFileName))
	if err != nil {
		t.Fatal(err)
	}
	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sec","version":"1"}}}`
	for _, c := range []struct {
		name, auth, host string
		want             int
	}{
		{"no token", "", "", http.StatusUnauthorized},
		{"wrong token", "Bearer " + strings.Repeat("0", 64), "", http.StatusUnauthorized},
		{"token without Bearer", strings.TrimSpace(string(token)), "", http.StatusUnauthorized},
		{"DNS rebinding", "Bearer " + strings.TrimSpace(string(token)), "evil.example:80", http.StatusForbidden},
		{"the token", "Bearer " + strings.TrimSpace(string(token)), "", http.StatusOK},
	} {
		req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(initBody))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: HTTP %d, want %d (%s)", c.name, resp.StatusCode, c.want, b)
		}
		if c.want == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: 401 without WWW-Authenticate", c.name)
		}
		if c.want != http.StatusOK && bytes.Contains(b, []byte(`"serverInfo"`)) {
			t.Errorf("%s: refused request still got an initialize result", c.name)
		}
	}
	srv.stop(t)

	// Non-loopback addresses are refused without --allow-remote, before
	// anything listens. Like any refused flag value that is a usage error:
	// exit 2, and no palace created (see TestUsageErrors).
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:8765"} {
		fresh := filepath.Join(t.TempDir(), "fresh")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		out, errOut, code := clitest.Run(t, palaceCmd(ctx, fresh, "serve", "--mcp", "--http", addr))
		cancel()
		if code == 0 || out != "" || !strings.Contains(errOut, "non-loopback") || !strings.Contains(errOut, "--allow-remote") {
			t.Errorf("--http %s: exit %d, stdout %q, stderr %q; want a refusal naming --allow-remote", addr, code, out, errOut)
		}
		if code != 2 {
			t.Errorf("--http %s: exit %d, want 2 (a refused flag value is a usage error)", addr, code)
		}
		if _, err := os.Stat(fresh); err == nil {
			t.Errorf("--http %s: the refused command created the palace %s", addr, fresh)
		}
	}
	// With --allow-remote it listens everywhere, and still wants the token.
	remote := secStart(t, palaceCmd(context.Background(), home, "serve", "--mcp", "--http", "0.0.0.0:0", "--allow-remote"))
	ep := remote.waitLog(t, secEndpoint)
	port := ep[strings.LastIndex(ep, ":")+1 : strings.LastIndex(ep, "/mcp")]
	resp, err := http.Post("http://127.0.0.1:"+port+"/mcp", "application/json", strings.NewReader(initBody))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("--allow-remote without the token: HTTP %d, want 401", resp.StatusCode)
	}
	if !strings.Contains(remote.logs.String(), "reachable from other machines") {
		t.Errorf("--allow-remote gave no warning:\n%s", remote.logs.String())
	}
}

// TestSecHookRunSpawnsNothing runs `palace hook run` on input full of shell
// syntax — a valid session whose working folder's name is a command
// substitution, and forged values — and checks that the binary executes no
// program (strace, when it can trace) and that no shell ran the payload (a
// sentinel file it would create). TestHookRunRefusesHostileInput covers the
// refusals in process.
func TestSecHookRunSpawnsNothing(t *testing.T) {
	userHome, home := t.TempDir(), filepath.Join(t.TempDir(), "palace")
	transcript, _ := claudeSession(t, userHome)
	sentinel := filepath.Join(t.TempDir(), "pwned")
	payload := "$(touch " + sentinel + ")"
	cwd := filepath.Join(t.TempDir(), "shop "+payload+"; touch "+sentinel+" `touch "+sentinel+"` | sh")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	strace, _ := exec.LookPath("strace")
	if strace != "" && exec.Command(strace, "-f", "-o", "/dev/null", "true").Run() != nil {
		strace = "" // not allowed to trace here (no ptrace)
	}
	inputs := []struct {
		stdin, status string // status: the hook log's, "" for ok or refused
	}{
		{hookJSON(sessionID, transcript, cwd), "ok"},
		{hookJSON(payload, transcript, cwd), "refused"},
		{hookJSON(sessionID, transcript+"; touch "+sentinel, cwd), "refused"},
		{`{"session_id": "` + sessionID + `", "transcript_path": "` + transcript + `", "cwd": "` + cwd + `", "hook_event_name": "Stop` + "`touch " + sentinel + "`" + `"}`, ""},
	}
	for i, in := range inputs {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := palaceCmd(ctx, home, "hook", "run", "--agent", "claude-code", "--event", "stop")
		cmd.Env = append(cmd.Env, "HOME="+userHome, "CLAUDE_CONFIG_DIR=", "SHELL=/bin/sh")
		cmd.Stdin = strings.NewReader(in.stdin)
		trace := filepath.Join(t.TempDir(), "trace")
		if strace != "" {
			cmd.Args = append([]string{"strace", "-f", "-qq", "-e", "trace=execve,execveat", "-o", trace}, cmd.Args...)
			cmd.Path = strace
		}
		out, errOut, code := clitest.Run(t, cmd)
		cancel()
		if code != 0 || out != "" {
			t.Errorf("input %d: exit %d, stdout %q, stderr %q", i, code, out, errOut)
		}
		if strace != "" {
			b, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			var execs []string
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if strings.Contains(l, "execve") && !strings.Contains(l, "= -1") {
					execs = append(execs, l)
				}
			}
			if len(execs) != 1 || !strings.Contains(execs[0], palaceBin) {
				t.Errorf("input %d: the hook executed programs besides itself:\n%s", i, strings.Join(execs, "\n"))
			}
		}
	}
	if _, err := os.Stat(sentinel); err == nil {
		t.Fatal("a shell ran the hook's input")
	}
	if strace == "" {
		t.Log("strace is unavailable: only the sentinel file was checked")
	}
	// The valid session was mined; the forged ones were refused and logged.
	n := 0
	for _, c := range conversationDrawers(t, home) {
		n += c
	}
	if n == 0 {
		t.Errorf("the valid session was not mined")
	}
	log := hookLog(t, home)
	if len(log) != len(inputs) {
		t.Fatalf("hook log has %d lines for %d runs: %+v", len(log), len(inputs), log)
	}
	for i, e := range log {
		if want := inputs[i].status; (want != "" && e.Status != want) || (want == "" && e.Status != "ok" && e.Status != "refused") {
			t.Errorf("input %d logged %q, want %q", i, e.Status, want)
		}
	}
}
