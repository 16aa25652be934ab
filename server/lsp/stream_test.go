package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/palace-dev/palace/core/relevant"
)

// rawClient speaks LSP framing by hand, so it can send what jsonrpc2 would
// never encode and read answers whose id is null.
type rawClient struct {
	t    *testing.T
	w    io.WriteCloser
	r    *bufio.Reader
	done chan error
}

func startRaw(t *testing.T) *rawClient {
	t.Helper()
	t.Setenv("PALACE_MODEL_DIR", "")
	cr, cw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	sr, sw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, w: cw, r: bufio.NewReader(sr), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		c.done <- Serve(ctx, cr, sw, Options{Home: t.TempDir(), Log: &testLog{t: t}})
		sw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		cw.Close()
		sr.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Errorf("server did not stop")
		}
	})
	return c
}

func (c *rawClient) send(body string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// answer is a response as the client reads it.
type answer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Method string `json:"method"`
}

// next reads the next response, skipping the server's own requests and
// notifications; it fails the test if the server ends the session.
func (c *rawClient) next() answer {
	c.t.Helper()
	type read struct {
		a   answer
		err error
	}
	got := make(chan read, 1)
	go func() {
		for {
			var length int
			for {
				line, err := c.r.ReadString('\n')
				if err != nil {
					got <- read{err: err}
					return
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
					length, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, length)
			if _, err := io.ReadFull(c.r, body); err != nil {
				got <- read{err: err}
				return
			}
			var a answer
			if err := json.Unmarshal(body, &a); err != nil {
				got <- read{err: fmt.Errorf("%w: %s", err, body)}
				return
			}
			if a.Method == "" {
				got <- read{a: a}
				return
			}
		}
	}()
	select {
	case r := <-got:
		if r.err != nil {
			c.t.Fatalf("read an answer: %v (the server ended the session?)", r.err)
		}
		return r.a
	case <-time.After(30 * time.Second):
		c.t.Fatal("no answer within 30 s")
	}
	return answer{}
}

// wantError reads the next answer and checks it is the error code for id.
func (c *rawClient) wantError(what string, id string, code int, says string) {
	c.t.Helper()
	a := c.next()
	if a.Error == nil || a.Error.Code != code || string(a.ID) != id || !strings.Contains(a.Error.Message, says) {
		c.t.Errorf("%s: got id %s error %+v result %s; want id %s, code %d saying %q", what, a.ID, a.Error, a.Result, id, code, says)
	}
}

func (c *rawClient) wantResult(what, id string) json.RawMessage {
	c.t.Helper()
	a := c.next()
	if a.Error != nil || string(a.ID) != id {
		c.t.Fatalf("%s: got id %s error %+v; want the result of id %s", what, a.ID, a.Error, id)
	}
	return a.Result
}

// One well-framed but invalid message is answered and the session goes
// on: jsonrpc2's own stream ended the session on each of these (issue 16).
func TestInvalidMessagesAreAnsweredAndTheSessionGoesOn(t *testing.T) {
	c := startRaw(t)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize",`)
	c.wantError("bad JSON", "null", -32700, "not valid JSON")
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	c.wantResult("initialize after bad JSON", "1")
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)

	for _, tc := range []struct{ name, body, id, says string }{
		{"a batch", `[{"jsonrpc":"2.0","id":2,"method":"palace/status"}]`, "null", "batches are not supported"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,"method":"palace/status"}`, "3", `jsonrpc: want "2.0", got "\"1.0\""`},
		{"no jsonrpc", `{"id":"four","method":"palace/status"}`, `"four"`, `jsonrpc: want "2.0", got nothing`},
		{"an id beyond 32 bits", `{"jsonrpc":"2.0","id":9007199254740993,"method":"palace/status"}`, "9007199254740993", "not an integer of 32 bits"},
		{"a fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"palace/status"}`, "1.5", "not an integer of 32 bits"},
		{"an object id", `{"jsonrpc":"2.0","id":{},"method":"palace/status"}`, "null", "id: want a string or an integer"},
		{"a number message", `42`, "null", "must be a JSON object"},
		{"a method that is no string", `{"jsonrpc":"2.0","id":5,"method":7}`, "5", "method: want a string"},
		{"neither request nor response", `{"jsonrpc":"2.0"}`, "null", "neither a request"},
	} {
		c.send(tc.body)
		c.wantError(tc.name, tc.id, -32600, tc.says)
	}
	c.send(``)
	c.wantError("an empty body", "null", -32700, "not valid JSON")
	// An unknown method of a megabyte is named, not echoed back whole.
	c.send(`{"jsonrpc":"2.0","id":"long","method":"palace/` + strings.Repeat("é", 1<<19) + `"}`)
	if a := c.next(); a.Error == nil || a.Error.Code != -32601 || len(a.Error.Message) > 200 || !strings.HasPrefix(a.Error.Message, "method not found: palace/éé") {
		t.Errorf("a 1 MB method name: %+v", a.Error)
	}
	c.send(`{"jsonrpc":"2.0","id":6,"method":"palace/status","params":{}}`)
	if res := c.wantResult("status after the invalid messages", "6"); !bytes.Contains(res, []byte(`"drawers"`)) {
		t.Errorf("status = %s", res)
	}
}

// A body over MaxMessageBytes is skipped as it is read, never held: the
// client gets -32600 and the next request is answered.
func TestOversizedMessageIsSkippedUnread(t *testing.T) {
	c := startRaw(t)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	c.wantResult("initialize", "1")
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)

	const size = 4 * MaxMessageBytes // 128 MiB of a didOpen
	head := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///big.txt","languageId":"text","version":1,"text":"`
	tail := `"}}}`
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	werr := make(chan error, 1)
	go func() {
		if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", size, head); err != nil {
			werr <- err
			return
		}
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		left := size - len(head) - len(tail)
		for left > 0 {
			n := min(left, len(chunk))
			if _, err := c.w.Write(chunk[:n]); err != nil {
				werr <- err
				return
			}
			left -= n
		}
		_, err := io.WriteString(c.w, tail)
		werr <- err
	}()
	c.wantError("a 128 MiB didOpen", "null", -32600, fmt.Sprintf("the message is %d bytes; the limit is %d", size, MaxMessageBytes))
	if err := <-werr; err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	// The writer's chunk is 1 MiB; the rest is the session's own work.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("skipping a %d-byte message allocated %d bytes; want it never held", size, grew)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"palace/status","params":{}}`)
	c.wantResult("status after the oversized message", "2")
}

// A document over relevant.MaxTextBytes that fits in a message is not
// kept: reading it says so, naming the size, and a later small text of the
// same document is read again.
func TestOversizedDocumentIsNotKept(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(map[string]any{}, t.TempDir())
	u := "file:///tmp/huge.txt"
	big := strings.Repeat("tokhuge ", (relevant.MaxTextBytes/8)+1)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "text", "version": 1, "text": big}})
	pos := map[string]int{"line": 0, "character": 2}
	we := c.callErr("palace/relevant", map[string]any{"textDocument": map[string]string{"uri": u}, "position": pos})
	want := fmt.Sprintf("textDocument.uri: %s is %d bytes; documents over %d bytes are not kept or read", u, len(big), relevant.MaxTextBytes)
	if we == nil || we.Code != jsonrpc2.InvalidParams || we.Message != want {
		t.Errorf("relevant on an oversized document: %v; want %q", we, want)
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []map[string]string{{"text": "tokhuge small"}}})
	res := c.mustCall("palace/relevant", map[string]any{"textDocument": map[string]string{"uri": u}, "position": pos})
	if clues := res["clues"].(map[string]any); clues["identifier"] != "tokhuge" {
		t.Errorf("after a small change: clues %v", clues)
	}
}
