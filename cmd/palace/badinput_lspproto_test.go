package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// badRawLSP is a `palace serve --lsp` of its own, spoken to frame by frame:
// the messages these cases send are ones jsonrpc2 would never encode, and
// the answers to some carry id null, which would end a jsonrpc2 client.
type badRawLSP struct {
	t    *testing.T
	in   io.WriteCloser
	out  *bufio.Reader
	pid  int
	logs *badLog
	wait func()
	kill func()
}

func badStartRawLSP(t *testing.T, e *badEnv) *badRawLSP {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &badLog{}
	cmd := palaceCmd(ctx, e.home, "serve", "--lsp")
	cmd.Stderr = logs
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	l := &badRawLSP{t: t, in: stdin, out: bufio.NewReader(stdout), pid: cmd.Process.Pid, logs: logs, kill: cancel}
	l.wait = func() {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("palace serve --lsp: %v\n%s", err, logs.String())
			}
		case <-time.After(15 * time.Second):
			t.Errorf("palace serve --lsp did not exit")
		}
		cancel()
	}
	l.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"capabilities":{},"initializationOptions":{"mineOnStartup":false}}}`)
	l.result(`"init"`)
	l.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	return l
}

func (l *badRawLSP) send(body string) {
	l.t.Helper()
	if _, err := fmt.Fprintf(l.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		l.t.Fatalf("send: %v\n%s", err, l.logs.String())
	}
}

// next returns the next response, skipping notifications; it fails the
// test when the server ends the session instead, or answers nothing for a
// minute (the server is killed then, which ends the read).
func (l *badRawLSP) next() (id string, res json.RawMessage, we *jsonrpc2.Error) {
	l.t.Helper()
	timer := time.AfterFunc(time.Minute, l.kill)
	defer timer.Stop()
	for {
		length := 0
		for {
			line, err := l.out.ReadString('\n')
			if err != nil {
				l.t.Fatalf("the server ended the session: %v\n%s", err, l.logs.String())
			}
			if line = strings.TrimSpace(line); line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(l.out, body); err != nil {
			l.t.Fatalf("read an answer: %v", err)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *jsonrpc2.Error `json:"error"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			l.t.Fatalf("answer %.200s: %v", body, err)
		}
		if m.Method == "" {
			return string(m.ID), m.Result, m.Error
		}
	}
}

// result reads the next answer and fails unless it is id's result.
func (l *badRawLSP) result(id string) json.RawMessage {
	l.t.Helper()
	got, res, we := l.next()
	if got != id || we != nil {
		l.t.Fatalf("want the result of %s, got id %s error %v\n%s", id, got, we, l.logs.String())
	}
	return res
}

// refused reads the answer to an invalid message, checks the session goes
// on (a request after it is answered) and ends the session cleanly.
func (l *badRawLSP) refused(wantID string) badResult {
	l.t.Helper()
	id, _, we := l.next()
	r := badResult{}
	if we != nil {
		r = badResult{code: int(we.Code), err: we.Message}
	}
	if id != wantID {
		l.t.Errorf("the error's id is %s, want %s", id, wantID)
	}
	l.send(`{"jsonrpc":"2.0","id":"after","method":"palace/status","params":{}}`)
	if res := l.result(`"after"`); !bytes.Contains(res, []byte(`"drawers"`)) {
		l.t.Errorf("status after the invalid message: %.300s", res)
	}
	l.stop()
	return r
}

func (l *badRawLSP) stop() {
	l.send(`{"jsonrpc":"2.0","id":"shutdown","method":"shutdown"}`)
	l.result(`"shutdown"`)
	l.send(`{"jsonrpc":"2.0","method":"exit"}`)
	l.in.Close()
	l.wait()
}

// peakRSS is the process's peak resident set in bytes (Linux), or -1.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return -1
}

// badlspprotoCases: one well-framed but invalid message is answered and
// the session goes on; an oversized body is skipped, never held; a 10 MB
// line costs what a normal one does; a path outside the workspace gets one
// answer whether it exists or not (issue 16 item 11).
func badlspprotoCases() []badCase {
	raw := func(body, id string) func(*testing.T, *badEnv) badResult {
		return func(t *testing.T, e *badEnv) badResult {
			l := badStartRawLSP(t, e)
			l.send(body)
			return l.refused(id)
		}
	}
	fileURI := func(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }
	return []badCase{
		{
			name: "a message that is not JSON", front: "lsp", code: int(jsonrpc2.ParseError),
			want: `not valid JSON`,
			act:  raw(`{"jsonrpc":"2.0","id":1,"method":"palace/status",`, "null"),
		},
		{
			name: "a batch of requests", front: "lsp", code: int(jsonrpc2.InvalidRequest),
			want: `batches are not supported`,
			act:  raw(`[{"jsonrpc":"2.0","id":1,"method":"palace/status"}]`, "null"),
		},
		{
			name: `jsonrpc "1.0"`, front: "lsp", code: int(jsonrpc2.InvalidRequest),
			want: `jsonrpc: want "2.0"`,
			act:  raw(`{"jsonrpc":"1.0","id":7,"method":"palace/status"}`, "7"),
		},
		{
			name: "an id beyond 32 bits", front: "lsp", code: int(jsonrpc2.InvalidRequest),
			want: `id: "9007199254740993" is not an integer of 32 bits`,
			act:  raw(`{"jsonrpc":"2.0","id":9007199254740993,"method":"palace/status"}`, "9007199254740993"),
		},
		{
			name: "a 200 MB didOpen", front: "lsp", code: int(jsonrpc2.InvalidRequest),
			want: `the message is 209715200 bytes; the limit is 33554432`,
			act: func(t *testing.T, e *badEnv) badResult {
				l := badStartRawLSP(t, e)
				const size = 200 << 20
				head := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///big.txt","languageId":"text","version":1,"text":"`
				tail := `"}}}`
				if _, err := fmt.Fprintf(l.in, "Content-Length: %d\r\n\r\n%s", size, head); err != nil {
					t.Fatal(err)
				}
				chunk := bytes.Repeat([]byte("a"), 1<<20)
				for left := size - len(head) - len(tail); left > 0; left -= len(chunk) {
					if _, err := l.in.Write(chunk[:min(left, len(chunk))]); err != nil {
						t.Fatal(err)
					}
				}
				io.WriteString(l.in, tail)
				// Skipped as it is read: the server's peak memory is far
				// below the message (it was 1 GB when the body was held).
				if rss := peakRSS(l.pid); rss > 150<<20 {
					t.Errorf("peak RSS %d MB after a 200 MB message; want it skipped, not held", rss>>20)
				}
				return l.refused("null")
			},
		},
		{
			name: "palace/relevant on a 10 MB minified line", front: "lsp",
			act: func(t *testing.T, e *badEnv) badResult {
				l := badStartRawLSP(t, e)
				var b strings.Builder
				for b.Len() < 5<<20 {
					b.WriteString("var a=b.c(d,e);function f(g){return g+1};")
				}
				col := b.Len() + 2
				b.WriteString("x=toklspminified(y);")
				for b.Len() < 10<<20 {
					b.WriteString("var a=b.c(d,e);function f(g){return g+1};")
				}
				u := fileURI(filepath.Join(e.proj, "app.min.js"))
				open, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
					"textDocument": map[string]any{"uri": u, "languageId": "javascript", "version": 1, "text": b.String()}}})
				l.send(string(open))
				l.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"palace/relevant","params":{"textDocument":{"uri":%q},"position":{"line":0,"character":%d}}}`, u, col))
				res := l.result("1")
				l.stop()
				return badResult{out: string(res)}
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				badNone(t, added)
				if !strings.Contains(r.out, `"identifier":"toklspminified"`) {
					t.Errorf("relevant on a 10 MB line: %.300s", r.out)
				}
			},
		},
		{
			// The words are the same for a file outside that exists and
			// one that does not: the path is refused before it is looked
			// at.
			name: "palace/relevant of a missing file outside the workspace", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `is not open and is outside every workspace folder`,
			act: func(t *testing.T, e *badEnv) badResult {
				pos := map[string]int{"line": 0, "character": 0}
				clitest.WriteTree(t, filepath.Join(e.root, "outside2"), map[string]string{"exists.md": "toklspexists\n"})
				ex := fileURI(filepath.Join(e.root, "outside2", "exists.md"))
				mi := fileURI(filepath.Join(e.root, "outside2", "missing.md"))
				a := e.lsp.call(t, "palace/relevant", map[string]any{"textDocument": map[string]string{"uri": ex}, "position": pos})
				b := e.lsp.call(t, "palace/relevant", map[string]any{"textDocument": map[string]string{"uri": mi}, "position": pos})
				if strings.ReplaceAll(a.err, ex, "URI") != strings.ReplaceAll(b.err, mi, "URI") {
					t.Errorf("existing file outside: %q; missing file outside: %q; want the same answer", a.err, b.err)
				}
				return b
			},
		},
	}
}
