package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// fuzzMethods are the methods FuzzParams sends arbitrary params to: every
// custom request, hover, and the document notifications. shutdown, exit
// and initialize are left out: they end or restart the session the worker
// shares between inputs.
var fuzzMethods = []struct {
	name         string
	notification bool
}{
	{"palace/relevant", false}, {"palace/search", false}, {"palace/drawer", false}, {"palace/remember", false},
	{"palace/forget", false}, {"palace/status", false}, {"palace/wakeUp", false}, {"textDocument/hover", false},
	{"textDocument/didSave", true}, {"textDocument/didOpen", true}, {"textDocument/didChange", true},
	{"", false}, // a method the server does not know: "x-fuzz/" + name
	{"palace/mine", false},
	{"palace/map", false}, {"palace/graph", false},
}

// fuzzReplyTimeout is how long a reply may take before the input counts as
// a hang. Requests over the fixture answer in milliseconds.
const fuzzReplyTimeout = 20 * time.Second

// FuzzParams sends arbitrary params to each method through the server's
// real dispatch, over pipes, to one server per fuzz worker (initialized on
// the fixture folder, hover on). Params that are not JSON at all go as a
// JSON string, since the wire carries only JSON. The server must never
// panic (its recover logs "panicked"), never hang, answer a request with a
// result or error -32602 (-32601 for a method it does not know, or for a
// notification sent as a request), and go on serving: palace/status
// answers after every input. With the high bit of kind set, a request
// method goes as a notification (ignored) and a notification as a request.
func FuzzParams(f *testing.F) {
	for i, p := range []string{
		`{"textDocument":{"uri":"%ROOT%/src/upload.go"},"position":{"line":6,"character":12}}`,
		`{"query":"checksum upload","wing":"proj","kind":"file","limit":5,"mode":"lexical"}`,
		`{"id":"missing"}`,
		`{"text":"CRC-32C was chosen for speed","uri":"%ROOT%/docs/decisions.md","range":{"start":{"line":2,"character":0},"end":{"line":4,"character":0}},"importance":4}`,
		`{"id":""}`,
		`null`,
		`{"format":"aaak","budget":200}`,
		`{"textDocument":{"uri":"%ROOT%/src/checksum.go"},"position":{"line":7,"character":6}}`,
		`{"textDocument":{"uri":"%ROOT%/src/upload.go"},"text":"package upload\n"}`,
		`{"textDocument":{"uri":"untitled:1","languageId":"go","version":1,"text":"func verifyUpload() {}"}}`,
		`{"textDocument":{"uri":"untitled:1","version":2},"contentChanges":[{"text":"x"},{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"text":"y"}]}`,
		`{"anything":[1,2,{"x":null}]}`,
	} {
		f.Add(uint8(i), "", []byte(p))
	}
	f.Add(uint8(0), "", []byte(`{"textDocument":{"uri":7},"position":{"line":-1,"character":1e99}}`))
	f.Add(uint8(3), "", []byte(`{"uri":"file:///nonexistent","range":{"start":{"line":4294967295,"character":0},"end":{"line":0,"character":0}}}`))
	f.Add(uint8(128+9), "", []byte(`{}`))
	f.Add(uint8(11), "palace/search", []byte(`[]`))
	f.Add(uint8(1), "", []byte("not json \xff"))

	fc := startFuzzServer(f)
	f.Fuzz(func(t *testing.T, kind uint8, name string, params []byte) {
		m := fuzzMethods[int(kind&127)%len(fuzzMethods)]
		method, notification, unknown := m.name, m.notification, m.name == ""
		if unknown {
			method = "x-fuzz/" + name
		}
		if kind&128 != 0 && !unknown {
			notification = !notification
			unknown = !notification && m.notification
		}
		raw := fuzzJSON(fc.expand(params))
		fc.clearNotes()
		if notification {
			if err := fc.conn.Notify(context.Background(), method, raw); err != nil {
				t.Fatalf("notify %s: %v", method, err)
			}
		} else {
			err := fc.call(method, raw)
			var we *jsonrpc2.Error
			switch {
			case err == nil:
			case !errors.As(err, &we):
				t.Fatalf("%s %s: no reply: %v", method, raw, err)
			case unknown && we.Code != jsonrpc2.MethodNotFound:
				t.Fatalf("%s (unknown) %s: error %d %s, want %d", method, raw, we.Code, we.Message, jsonrpc2.MethodNotFound)
			case !unknown && we.Code != jsonrpc2.InvalidParams:
				t.Fatalf("%s %s: error %d %s, want %d", method, raw, we.Code, we.Message, jsonrpc2.InvalidParams)
			case we.Message == "":
				t.Fatalf("%s %s: error %d without a message", method, raw, we.Code)
			}
		}
		if err := fc.call("palace/status", nil); err != nil {
			t.Fatalf("after %s %s, palace/status: %v", method, raw, err)
		}
		if p := fc.log.panics(); p != "" {
			t.Fatalf("after %s %s the server logged a panic:\n%s", method, raw, p)
		}
	})
}

// fuzzClient is a test client shared by every input of one fuzz worker.
type fuzzClient struct {
	*testClient
	root string
	log  *panicLog
}

// startFuzzServer starts and initializes the worker's server on a copy of
// the fixture, with the first mine finished so searches find drawers.
func startFuzzServer(f *testing.F) *fuzzClient {
	root := writeTree(f, f.TempDir(), fixture)
	lg := &panicLog{}
	c := startServer(f, Options{Log: lg})
	c.initialize(map[string]any{"wing": "proj", "hover": true}, root)
	c.waitNote(0, "$/progress", func(m map[string]any) bool {
		return m["value"].(map[string]any)["kind"] == "end"
	}, 30*time.Second)
	c.waitIdle()
	return &fuzzClient{testClient: c, root: fileURI(root), log: lg}
}

// expand puts the fixture folder's URI where a seed says %ROOT%.
func (c *fuzzClient) expand(params []byte) []byte {
	return []byte(strings.ReplaceAll(string(params), "%ROOT%", c.root))
}

// call sends a request and waits for its reply at most fuzzReplyTimeout.
func (c *fuzzClient) call(method string, params any) error {
	ctx, cancel := context.WithTimeout(context.Background(), fuzzReplyTimeout)
	defer cancel()
	var res json.RawMessage
	_, err := c.conn.Call(ctx, method, params, &res)
	return err
}

// clearNotes drops the notifications kept so far: the worker runs for
// minutes, and nothing reads them.
func (c *fuzzClient) clearNotes() {
	c.mu.Lock()
	c.notes = nil
	c.requests = nil
	c.mu.Unlock()
}

// fuzzJSON returns b compacted when it is one JSON value (the client's
// encoder refuses whitespace around a raw value), else b as a JSON string.
func fuzzJSON(b []byte) json.RawMessage {
	var c bytes.Buffer
	if json.Compact(&c, b) == nil {
		return c.Bytes()
	}
	s, _ := json.Marshal(string(b))
	return s
}

// panicLog keeps the server's log lines that report a recovered panic.
type panicLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *panicLog) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "panicked") {
		l.mu.Lock()
		l.b.Write(p)
		l.mu.Unlock()
	}
	return len(p), nil
}

// panics returns the panics logged so far and forgets them.
func (l *panicLog) panics() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.b.String()
	l.b.Reset()
	return s
}
