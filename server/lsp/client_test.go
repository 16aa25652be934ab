package lsp

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

	"go.lsp.dev/jsonrpc2"
)

// testClient drives an in-process server over pipes, as an editor would
// over stdio: it answers the server's requests (progress tokens,
// registrations) and records every notification.
type testClient struct {
	t    testing.TB
	conn jsonrpc2.Conn
	home string
	done chan error // Serve's result

	mu       sync.Mutex
	notes    []note
	changed  chan struct{}
	requests []string // methods the server called
}

type note struct {
	Method string
	Params json.RawMessage
}

// startServer starts a server on a fresh palace (or opts.Home) and returns
// a client that has not initialized yet.
func startServer(t testing.TB, opts Options) *testClient {
	t.Helper()
	if opts.Home == "" {
		opts.Home = t.TempDir()
	}
	if opts.Log == nil {
		opts.Log = &testLog{t: t}
	}
	// No embedding model, whatever the environment says: tests are lexical.
	t.Setenv("PALACE_MODEL_DIR", "")
	// OS pipes, as an editor gives: their buffers let both ends write at
	// once (io.Pipe would make each write wait for the other's read).
	cr, cw, err := os.Pipe() // client -> server
	if err != nil {
		t.Fatal(err)
	}
	sr, sw, err := os.Pipe() // server -> client
	if err != nil {
		t.Fatal(err)
	}
	c := &testClient{t: t, home: opts.Home, done: make(chan error, 1), changed: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		c.done <- Serve(ctx, cr, sw, opts)
		sw.Close()
	}()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(&stdio{in: sr, out: cw}))
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		cancel()
		c.conn.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Errorf("server did not stop")
		}
	})
	return c
}

// testLog sends server logs to the test's log, shown on failure or -v.
type testLog struct {
	t  testing.TB
	mu sync.Mutex
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func (c *testClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if _, ok := req.(*jsonrpc2.Call); ok {
		c.mu.Lock()
		c.requests = append(c.requests, req.Method())
		c.mu.Unlock()
		// Answer off the read loop, as a real editor does; an error is
		// never returned (see server.handle).
		go func() { _ = reply(ctx, nil, nil) }()
		return nil
	}
	c.mu.Lock()
	c.notes = append(c.notes, note{req.Method(), append(json.RawMessage(nil), req.Params()...)})
	c.mu.Unlock()
	select {
	case c.changed <- struct{}{}:
	default:
	}
	return nil
}

// initialize runs initialize and initialized with the given folders and
// initializationOptions.
func (c *testClient) initialize(initOpts any, folders ...string) map[string]any {
	c.t.Helper()
	var fs []map[string]string
	for _, f := range folders {
		fs = append(fs, map[string]string{"uri": fileURI(f), "name": filepath.Base(f)})
	}
	params := map[string]any{
		"processId":             os.Getpid(),
		"clientInfo":            map[string]string{"name": "go-test"},
		"workspaceFolders":      fs,
		"initializationOptions": initOpts,
		"capabilities": map[string]any{
			"window":    map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}},
		},
	}
	var res map[string]any
	if err := c.call("initialize", params, &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.notify("initialized", map[string]any{})
	return res
}

func (c *testClient) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

// mustCall calls and fails the test on an error.
func (c *testClient) mustCall(method string, params any) map[string]any {
	c.t.Helper()
	var res map[string]any
	if err := c.call(method, params, &res); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	return res
}

// callErr calls a method that must fail and returns its wire error.
func (c *testClient) callErr(method string, params any) *jsonrpc2.Error {
	c.t.Helper()
	var res any
	err := c.call(method, params, &res)
	var we *jsonrpc2.Error
	if !errors.As(err, &we) {
		c.t.Fatalf("%s: want a JSON-RPC error, got %v (result %v)", method, err, res)
	}
	return we
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("notify %s: %v", method, err)
	}
}

// waitNote waits for the first notification of method, at or after index
// from, that match accepts, and returns its index and params.
func (c *testClient) waitNote(from int, method string, match func(map[string]any) bool, timeout time.Duration) (int, map[string]any) {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		for i := from; i < len(c.notes); i++ {
			n := c.notes[i]
			if n.Method != method {
				continue
			}
			var m map[string]any
			_ = json.Unmarshal(n.Params, &m)
			if match == nil || match(m) {
				c.mu.Unlock()
				return i, m
			}
		}
		c.mu.Unlock()
		select {
		case <-c.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no %s notification within %s", method, timeout)
		}
	}
}

// mark is the index the next notification will have.
func (c *testClient) mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.notes)
}

// waitIdle waits until no folder is queued or mining.
func (c *testClient) waitIdle() map[string]any {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := c.mustCall("palace/status", nil)
		busy := false
		for _, f := range st["server"].(map[string]any)["folders"].([]any) {
			if f.(map[string]any)["state"] != "idle" {
				busy = true
			}
		}
		if !busy {
			return st
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("folders still busy: %v", st["server"])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// save writes content to path and sends didSave, returning the mark from
// which its palace/didIndex is to be found.
func (c *testClient) save(path, content string) int {
	c.t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		c.t.Fatal(err)
	}
	m := c.mark()
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]string{"uri": fileURI(path)}})
	return m
}

// waitIndexed waits for the palace/didIndex of path.
func (c *testClient) waitIndexed(from int, path string) map[string]any {
	c.t.Helper()
	u := fileURI(path)
	_, n := c.waitNote(from, "palace/didIndex", func(m map[string]any) bool { return m["uri"] == u }, 30*time.Second)
	return n
}

// shutdown sends shutdown and exit and returns Serve's result.
func (c *testClient) shutdown() error {
	c.t.Helper()
	var res any
	if err := c.call("shutdown", nil, &res); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		c.done <- err // for Cleanup
		return err
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
	}
	return nil
}

// writeTree writes files (slash paths relative to root) and returns root.
func writeTree(t testing.TB, root string, files map[string]string) string {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// hitsOf returns the hits of a search or relevant result.
func hitsOf(t testing.TB, res map[string]any) []map[string]any {
	t.Helper()
	raw, ok := res["hits"].([]any)
	if !ok {
		t.Fatalf("no hits array in %v", res)
	}
	out := make([]map[string]any, len(raw))
	for i, h := range raw {
		out[i] = h.(map[string]any)
	}
	return out
}
