package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace"
)

// tinyModel is the test embedding model core/embed ships.
func tinyModel(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "core", "embed", "testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "model.onnx")); err != nil {
		t.Skipf("tiny model missing: %v", err)
	}
	return dir
}

// client is a minimal MCP client speaking raw JSON-RPC over the server's
// stdio, so tests see exactly what goes over the wire: error codes, every
// line of stdout, and the server's own requests (roots/list).
type client struct {
	t       *testing.T
	in      *io.PipeWriter
	mu      sync.Mutex
	nextID  int
	pending map[string]chan rpcMsg
	roots   []string // folders answered to roots/list; nil: no roots capability
	lines   []string // every line the server wrote
	done    chan error
	asked   int             // roots/list requests seen
	notes   []rpcMsg        // notifications from the server
	init    json.RawMessage // the initialize result
}

// notifications returns the notifications of one method seen so far.
func (c *client) notifications(method string) []rpcMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []rpcMsg
	for _, m := range c.notes {
		if m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

type rpcMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// startStdio serves s over pipes and initializes a client that offers the
// given roots (nil: the client has no roots capability).
func startStdio(t *testing.T, s *Server, roots []string) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, in: inW, pending: map[string]chan rpcMsg{}, roots: roots, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		c.done <- s.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	readDone := make(chan struct{})
	go c.read(outR, readDone)
	t.Cleanup(func() {
		inW.Close()
		select {
		case err := <-c.done:
			if err != nil {
				t.Errorf("ServeStdio: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("ServeStdio did not return after its input closed")
		}
		cancel()
		<-readDone
		for _, l := range c.lines {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Errorf("stdout carried a line that is not JSON-RPC: %q", l)
			}
		}
	})
	caps := map[string]any{}
	if roots != nil {
		caps["roots"] = map[string]any{"listChanged": true}
	}
	init, err := c.call("initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": caps,
		"clientInfo": map[string]any{"name": "go-test", "version": "1"},
	})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.init = init
	c.notify("notifications/initialized", nil)
	return c
}

func (c *client) read(r io.Reader, done chan struct{}) {
	defer close(done)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line = strings.TrimSpace(line); line != "" {
			c.mu.Lock()
			c.lines = append(c.lines, line)
			c.mu.Unlock()
			var m rpcMsg
			if json.Unmarshal([]byte(line), &m) == nil {
				switch {
				case m.Method == "roots/list" && m.ID != nil:
					c.answerRoots(m.ID)
				case m.Method != "" && m.ID == nil:
					c.mu.Lock()
					c.notes = append(c.notes, m)
					c.mu.Unlock()
				case m.Method == "" && m.ID != nil:
					c.mu.Lock()
					ch := c.pending[string(m.ID)]
					delete(c.pending, string(m.ID))
					c.mu.Unlock()
					if ch != nil {
						ch <- m
					}
				}
			}
		}
		if err != nil {
			return
		}
	}
}

func (c *client) answerRoots(id json.RawMessage) {
	c.mu.Lock()
	c.asked++
	var rs []map[string]string
	for _, d := range c.roots {
		rs = append(rs, map[string]string{"uri": (&url.URL{Scheme: "file", Path: d}).String(), "name": filepath.Base(d)})
	}
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"roots": rs}})
}

func (c *client) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		c.t.Errorf("write to server: %v", err)
	}
}

// sendRaw writes one line as is (malformed input tests).
func (c *client) sendRaw(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Errorf("write to server: %v", err)
	}
}

func (c *client) notify(method string, params any) {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	c.send(m)
}

// call sends a request and waits for its answer; a JSON-RPC error comes
// back as *rpcError.
func (c *client) call(method string, params any) (json.RawMessage, error) {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	n := c.nextID
	ch := make(chan rpcMsg, 1)
	c.pending[fmt.Sprint(n)] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": n, "method": method, "params": params})
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-time.After(60 * time.Second):
		c.t.Fatalf("%s: no answer in 60s", method)
		return nil, nil
	}
}

// toolResult is a tools/call answer.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Structured json.RawMessage `json:"structuredContent"`
	IsError    bool            `json:"isError"`
}

func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// tool calls a tool and returns its result; a JSON-RPC error fails the test
// unless wantRPCErr.
func (c *client) tool(name string, args map[string]any) toolResult {
	c.t.Helper()
	raw, err := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	var r toolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	return r
}

// ok calls a tool that must succeed and decodes its structured content.
func (c *client) ok(name string, args map[string]any, out any) {
	c.t.Helper()
	r := c.tool(name, args)
	if r.IsError {
		c.t.Fatalf("%s(%v): tool error: %s", name, args, r.text())
	}
	if r.text() != string(r.Structured) {
		c.t.Errorf("%s: text content differs from structuredContent", name)
	}
	if out != nil {
		if err := json.Unmarshal(r.Structured, out); err != nil {
			c.t.Fatalf("%s: %v", name, err)
		}
	}
}

// fails calls a tool that must return a tool error containing want.
func (c *client) fails(name string, args map[string]any, want string) string {
	c.t.Helper()
	r := c.tool(name, args)
	if !r.IsError {
		c.t.Fatalf("%s(%v): want a tool error, got %s", name, args, r.text())
	}
	if !strings.Contains(r.text(), want) {
		c.t.Errorf("%s(%v): error %q does not contain %q", name, args, r.text(), want)
	}
	return r.text()
}

// invalid calls a tool whose arguments must be refused with -32602.
func (c *client) invalid(name string, args any, want string) {
	c.t.Helper()
	_, err := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	e, ok := err.(*rpcError)
	if !ok {
		c.t.Fatalf("%s(%v): want JSON-RPC error -32602, got %v", name, args, err)
	}
	if e.Code != -32602 || !strings.Contains(e.Message, want) {
		c.t.Errorf("%s(%v): got %d %q, want -32602 containing %q", name, args, e.Code, e.Message, want)
	}
}

// newTestServer builds a server whose diagnostics are kept and shown when
// the test fails (t.Log cannot be called once the test has ended, and
// mcp-go's goroutines may still log then).
func newTestServer(t *testing.T, p *palace.Palace, opts Options) *Server {
	t.Helper()
	if opts.Log == nil {
		lw := &logWriter{}
		opts.Log = lw
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("server log:\n%s", lw.String())
			}
		})
	}
	if opts.Profile == "" {
		// Most tests exercise every tool; the profile tests ask for core.
		opts.Profile = ProfileFull
	}
	return New(p, opts)
}

type logWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *logWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(b)
}

func (w *logWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// writeFile writes content to dir/rel, creating folders.
func writeFile(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
