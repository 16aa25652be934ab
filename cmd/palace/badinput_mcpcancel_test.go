//go:build unix

// Bad-input cases of issue #16 items 5 and 11 on the protocol fronts: MCP
// requests before initialize, ids beyond float precision, a 1 MB method
// name, palace_mine probing outside the roots, and cancellation that must
// reach SQLite on MCP and LSP.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// badRawMCP is a `palace serve --mcp` of its own, spoken to line by line,
// for messages mcp-go's client never sends.
type badRawMCP struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
}

func badStartRawMCP(t *testing.T, e *badEnv) *badRawMCP {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := palaceCmd(ctx, e.home, "serve", "--mcp")
	cmd.Stderr = &badLog{}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m := &badRawMCP{t: t, in: in, lines: make(chan string, 16)}
	go func() {
		defer close(m.lines)
		br := bufio.NewReaderSize(out, 1<<20)
		for {
			l, err := br.ReadString('\n')
			if strings.TrimSpace(l) != "" {
				m.lines <- strings.TrimSpace(l)
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Errorf("palace serve --mcp did not exit when its input closed")
		}
		cancel()
	})
	return m
}

func (m *badRawMCP) send(line string) {
	m.t.Helper()
	if _, err := io.WriteString(m.in, line+"\n"); err != nil {
		m.t.Fatal(err)
	}
}

// answer reads up to the answer to a request, skipping notifications.
func (m *badRawMCP) answer() (line string, id json.RawMessage, e *struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}) {
	m.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-m.lines:
			if !ok {
				m.t.Fatal("palace serve --mcp closed its output")
			}
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Error  *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(l), &msg); err != nil {
				m.t.Fatalf("stdout line is not JSON: %.300q", l)
			}
			if msg.Method != "" {
				continue
			}
			return l, msg.ID, msg.Error
		case <-timeout:
			m.t.Fatal("no answer in 60s")
		}
	}
}

func (m *badRawMCP) initialize() {
	m.t.Helper()
	m.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"palace-badinput-raw","version":"1"}}}`)
	if l, _, e := m.answer(); e != nil {
		m.t.Fatalf("initialize: %s", l)
	}
	m.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// rawResult turns an answer into a badResult: its error code and message,
// or the whole line as output.
func rawResult(line string, e *struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}) badResult {
	if e != nil {
		return badResult{code: e.Code, err: e.Message, out: line}
	}
	return badResult{out: line}
}

func badmcpcancelCases() []badCase {
	var outside string
	return []badCase{
		{
			name: "tools-call before initialize", front: "mcp", code: mcp.INVALID_REQUEST,
			want: `^"tools/call" before initialize: send initialize first`,
			act: func(t *testing.T, e *badEnv) badResult {
				m := badStartRawMCP(t, e)
				m.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
				if l, _, err := m.answer(); err != nil {
					t.Errorf("ping before initialize: %s, want a result", l)
				}
				m.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"palace_remember","arguments":{"content":"tokbeforeinit never stored","wing":"proj"}}}`)
				l, _, err := m.answer()
				return rawResult(l, err)
			},
		},
		{
			name: "request id beyond float precision", front: "mcp",
			act: func(t *testing.T, e *badEnv) badResult {
				m := badStartRawMCP(t, e)
				m.initialize()
				for _, id := range []string{"9007199254740993", "123456789012345678901234567890", "1.50"} {
					m.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"palace_status","arguments":{}}}`)
					l, got, err := m.answer()
					if err != nil || string(got) != id {
						return badResult{code: -1, err: fmt.Sprintf("id %s answered as %s: %.300s", id, got, l)}
					}
				}
				return badResult{}
			},
		},
		{
			name: "1 MB method name", front: "mcp", code: mcp.METHOD_NOT_FOUND,
			want: `^Method not found: "mmmm+"…$`,
			act: func(t *testing.T, e *badEnv) badResult {
				m := badStartRawMCP(t, e)
				m.initialize()
				m.send(`{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("m", 1<<20) + `"}`)
				l, _, err := m.answer()
				if len(l) > 1024 {
					t.Errorf("the answer is %d bytes", len(l))
				}
				return rawResult(l, err)
			},
		},
		{
			name: "palace_mine of a missing file outside the roots", front: "mcp", code: badToolError,
			// The same refusal as for a file that exists ("palace_mine
			// with ../.. traversal"): nothing outside the roots is stat'ed.
			want: `^invalid input: path .*nothing\.md" cannot be mined: it is outside`,
			setup: func(t *testing.T, e *badEnv) {
				outside = filepath.Join(e.root, "outside-missing")
				clitest.WriteTree(t, outside, map[string]string{"secret.md": "tokmcpoutside secret\n"})
			},
			act: func(t *testing.T, e *badEnv) badResult {
				return e.mcp.call(t, "palace_mine", map[string]any{"path": filepath.Join(outside, "nothing.md")})
			},
		},
		{
			name: "search cancelled while SQLite runs", front: "mcp",
			act: func(t *testing.T, e *badEnv) badResult {
				defer palacetest.SlowSearch(t, e.home)()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				req := mcp.CallToolRequest{}
				req.Params.Name = "palace_search"
				req.Params.Arguments = map[string]any{"query": "tokknown"}
				errc := make(chan error, 1)
				go func() { _, err := e.mcp.c.CallTool(ctx, req); errc <- err }()
				select {
				case err := <-errc:
					return badResult{code: -1, err: fmt.Sprintf("the slow search answered before it was cancelled: %v", err)}
				case <-time.After(500 * time.Millisecond):
				}
				seen := len(e.mcp.logs.String())
				cancel() // mcp-go's client sends notifications/cancelled
				<-errc
				cancelled := time.Now()
				for time.Since(cancelled) < 10*time.Second {
					if logs := e.mcp.logs.String()[seen:]; strings.Contains(logs, `msg="tool failed"`) && strings.Contains(logs, "tool=palace_search") && strings.Contains(logs, "context canceled") {
						t.Logf("the search stopped within %v of notifications/cancelled", time.Since(cancelled).Round(time.Millisecond))
						return badResult{}
					}
					time.Sleep(10 * time.Millisecond)
				}
				return badResult{code: -1, err: "the search still ran 10s after notifications/cancelled:\n" + e.mcp.logs.String()}
			},
		},
		{
			name: "Ctrl-C interrupts a search inside SQLite", front: "cli", code: 1,
			want: `^palace: search "tokknown".*context canceled\n$`,
			act: func(t *testing.T, e *badEnv) badResult {
				defer palacetest.SlowSearch(t, e.home)()
				cmd := palaceCmd(context.Background(), e.home, "search", "tokknown")
				var stderr strings.Builder
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case err := <-done:
					return badResult{code: -1, err: fmt.Sprintf("the slow search ended before Ctrl-C: %v %s", err, stderr.String())}
				case <-time.After(time.Second):
				}
				interrupted := time.Now()
				if err := cmd.Process.Signal(os.Interrupt); err != nil {
					t.Fatal(err)
				}
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					_ = cmd.Process.Kill()
					<-done
					return badResult{code: -1, err: "palace search still ran 10s after SIGINT"}
				}
				t.Logf("palace search exited %v after SIGINT", time.Since(interrupted).Round(time.Millisecond))
				return badResult{code: cmd.ProcessState.ExitCode(), err: stderr.String()}
			},
		},
		{
			name: "cancelRequest interrupts a search inside SQLite", front: "lsp", code: -32800,
			want: `cancelled`,
			act: func(t *testing.T, e *badEnv) badResult {
				l := badStartRawLSP(t, e)
				defer l.stop()
				defer palacetest.SlowSearch(t, e.home)()
				l.send(`{"jsonrpc":"2.0","id":77,"method":"palace/search","params":{"query":"tokknown"}}`)
				// Long enough for the search to be inside SQLite; an answer
				// before the cancel would be a result, not -32800.
				time.Sleep(500 * time.Millisecond)
				cancelled := time.Now()
				l.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":77}}`)
				id, res, we := l.next()
				if id != "77" {
					return badResult{code: -1, err: fmt.Sprintf("an answer to id %s, want 77", id)}
				}
				t.Logf("the search answered %v after $/cancelRequest", time.Since(cancelled).Round(time.Millisecond))
				if we == nil {
					return badResult{out: string(res)}
				}
				return badResult{code: int(we.Code), err: we.Message}
			},
		},
	}
}
