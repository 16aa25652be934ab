//go:build unix

package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/ops"
)

// A user's home folder, a folder holding it and the file system root are
// never mined whole by accident: `palace mine ~` mined 7,707 files in 8 s
// and palace_mine with the client's root at $HOME 9,001. Every front
// refuses them as invalid input naming the folder and why, and nothing is
// mined; only the CLI mines one when asked with --allow-home-or-root. HOME
// is a temporary folder here, holding files of its own, inside a folder of
// users' homes.
func TestMineHomeRefusedOnEveryFront(t *testing.T) {
	base := t.TempDir()
	users := filepath.Join(base, "users")
	userHome := filepath.Join(users, "bob")
	clitest.WriteTree(t, userHome, map[string]string{
		".bashrc":        "export TOKDOTFILE=1\n",
		"notes.md":       "tokminehome notes of the user\n",
		"proj/a.md":      "tokhomeproject is a project inside home\n",
		"proj/.git/HEAD": "ref: refs/heads/main\n",
	})
	clitest.WriteTree(t, filepath.Join(users, "alice"), map[string]string{"notes.md": "tokotheruser\n"})
	env := []string{"HOME=" + userHome}
	found := func(t *testing.T, home, token string) int {
		t.Helper()
		out, errOut, code := secRun(t, home, "", env, "search", token, "--json")
		if code != 0 {
			t.Fatalf("search %s: exit %d: %s", token, code, errOut)
		}
		var res struct {
			Hits []json.RawMessage `json:"hits"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("search %s: %v: %s", token, err, out)
		}
		return len(res.Hits)
	}

	t.Run("cli", func(t *testing.T) {
		home := filepath.Join(t.TempDir(), "palace")
		for _, c := range []struct{ path, why string }{
			{userHome, "it is your home folder"},
			{users, "it holds your home folder"},
			{userHome + "/", "it is your home folder"},
		} {
			_, errOut, code := secRun(t, home, "", env, "mine", c.path, "--no-vectors")
			if code != 2 || !strings.Contains(errOut, c.why) || !strings.Contains(errOut, "--allow-home-or-root") {
				t.Errorf("mine %s: exit %d, stderr %q; want 2, %q and the flag that mines it", c.path, code, errOut, c.why)
			}
		}
		if _, err := os.Stat(filepath.Join(home, "palace.db")); err == nil {
			if n := found(t, home, "tokminehome"); n != 0 {
				t.Errorf("a refused mine stored %d drawers of the home folder", n)
			}
		}
		if _, errOut, code := secRun(t, home, "", env, "mine", filepath.Join(userHome, "proj"), "--no-vectors"); code != 0 {
			t.Fatalf("a project inside home: exit %d: %s", code, errOut)
		}
		if n := found(t, home, "tokminehome"); n != 0 {
			t.Errorf("mining a project inside home stored %d drawers of home itself", n)
		}
		if _, errOut, code := secRun(t, home, "", env, "mine", userHome, "--no-vectors", "--allow-home-or-root"); code != 0 {
			t.Fatalf("mine HOME --allow-home-or-root: exit %d: %s", code, errOut)
		}
		if n := found(t, home, "tokminehome"); n != 1 {
			t.Errorf("after --allow-home-or-root: %d hits for the home folder's note, want 1", n)
		}
	})

	t.Run("mcp", func(t *testing.T) {
		home := filepath.Join(t.TempDir(), "palace")
		// The user allowed the whole base: the refusal is not about
		// confinement, and no argument overrides it.
		cl := startHomeMCP(t, home, userHome, base)
		m := &mcpFront{cl: cl}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		for _, c := range []struct {
			args map[string]any
			why  string
		}{
			{map[string]any{"path": userHome}, "it is your home folder"},
			{map[string]any{"path": users}, "it holds your home folder"},
			{map[string]any{"path": userHome, "allow_home_or_root": true}, "allow_home_or_root"},
		} {
			got, err := m.call(ctx, "mine", c.args)
			if err != nil {
				t.Fatalf("palace_mine %v: %v", c.args, err)
			}
			if got.class != ops.Invalid || !strings.Contains(got.msg, c.why) {
				t.Errorf("palace_mine %v: %s %q; want invalid input saying %q", c.args, got.class, got.msg, c.why)
			}
		}
		if got, err := m.call(ctx, "mine", map[string]any{"path": filepath.Join(userHome, "proj")}); err != nil || got.class != ops.OK {
			t.Fatalf("palace_mine of a project inside home: %+v %v", got, err)
		}
		if n := found(t, home, "tokminehome"); n != 0 {
			t.Errorf("palace_mine stored %d drawers of the home folder", n)
		}
	})

	t.Run("lsp", func(t *testing.T) {
		home := filepath.Join(t.TempDir(), "palace")
		conn, warnings := startHomeLSP(t, home, userHome, users, filepath.Join(userHome, "proj"))
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		var res json.RawMessage
		_, err := conn.Call(ctx, "palace/mine", map[string]any{"uri": "file://" + users}, &res)
		var we *jsonrpc2.Error
		if !errors.As(err, &we) || we.Code != jsonrpc2.InvalidParams {
			t.Errorf("palace/mine of the folder holding home: %v %s; want invalid params", err, res)
		}
		var st struct {
			Server struct {
				Folders []struct {
					Path string `json:"path"`
				} `json:"folders"`
			} `json:"server"`
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			if _, err := conn.Call(ctx, "palace/status", map[string]any{}, &st); err != nil {
				t.Fatal(err)
			}
			if len(st.Server.Folders) == 1 || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if len(st.Server.Folders) != 1 || st.Server.Folders[0].Path != filepath.Join(userHome, "proj") {
			t.Errorf("workspace folders: %+v; want only the project", st.Server.Folders)
		}
		if w := warnings(); !strings.Contains(w, users) || !strings.Contains(w, "it holds your home folder") {
			t.Errorf("warnings shown: %q; want the folder holding home refused, saying why", w)
		}
	})
}

// homeServer starts `palace serve args...` on pipes with HOME set to
// userHome, its stderr logged when the test fails.
func homeServer(t *testing.T, home, userHome string, args ...string) (stdin *os.File, stdout *os.File) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := palaceCmd(ctx, home, args...)
	cmd.Env = append(cmd.Env, "HOME="+userHome)
	var logs strings.Builder
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(b []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return logs.Write(b) })
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	t.Cleanup(func() {
		inW.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cancel()
			<-done
		}
		cancel()
		outR.Close()
		if t.Failed() {
			mu.Lock()
			t.Logf("palace %s stderr:\n%s", strings.Join(args, " "), logs.String())
			mu.Unlock()
		}
	})
	return inW, outR
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// startHomeMCP is mcp-go's client on `palace serve --mcp --profile full
// --allow-path allow` (palace_mine is in the full profile).
func startHomeMCP(t *testing.T, home, userHome, allow string) *client.Client {
	t.Helper()
	stdin, stdout := homeServer(t, home, userHome, "serve", "--mcp", "--profile", "full", "--allow-path", allow)
	cl := client.NewClient(transport.NewIO(stdout, stdin, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cl.Start(ctx); err != nil {
		t.Fatalf("mcp: start: %v", err)
	}
	t.Cleanup(func() { cl.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "palace-minehome-test", Version: "1"}
	if _, err := cl.Initialize(ctx, req); err != nil {
		t.Fatalf("mcp: initialize: %v", err)
	}
	return cl
}

// startHomeLSP is a jsonrpc2 client on `palace serve --lsp` opened on the
// given workspace folders; warnings returns the window/showMessage texts
// received so far.
func startHomeLSP(t *testing.T, home, userHome string, folders ...string) (jsonrpc2.Conn, func() string) {
	t.Helper()
	stdin, stdout := homeServer(t, home, userHome, "serve", "--lsp")
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRW{stdout, stdin}))
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var shown []string
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "window/showMessage" {
			var m struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal(req.Params(), &m)
			mu.Lock()
			shown = append(shown, m.Message)
			mu.Unlock()
		}
		if _, ok := req.(*jsonrpc2.Call); ok {
			return reply(ctx, nil, nil)
		}
		return nil
	})
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer scancel()
		var res any
		if _, err := conn.Call(sctx, "shutdown", nil, &res); err == nil {
			_ = conn.Notify(sctx, "exit", nil)
		}
		cancel()
		conn.Close()
	})
	ws := make([]protocol.WorkspaceFolder, len(folders))
	for i, f := range folders {
		ws[i] = protocol.WorkspaceFolder{URI: "file://" + f, Name: filepath.Base(f)}
	}
	ictx, icancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer icancel()
	var initRes json.RawMessage
	if _, err := conn.Call(ictx, "initialize", protocol.InitializeParams{
		ProcessID:             int32(os.Getpid()),
		ClientInfo:            &protocol.ClientInfo{Name: "palace-minehome-test"},
		InitializationOptions: map[string]any{"vectors": false},
		WorkspaceFolders:      ws,
	}, &initRes); err != nil {
		t.Fatalf("lsp: initialize: %v", err)
	}
	if err := conn.Notify(ictx, "initialized", protocol.InitializedParams{}); err != nil {
		t.Fatalf("lsp: initialized: %v", err)
	}
	return conn, func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(shown, "\n")
	}
}
