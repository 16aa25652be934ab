package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
)

// fuzzArgSeeds are realistic arguments for each tool, in allTools order;
// %DIR% stands for the folder FuzzToolCall allows palace_mine to read.
var fuzzArgSeeds = [][]string{
	{`{}`},
	{`{"query":"why SQLite","wing":"fuzz","kind":"note","limit":5,"mode":"lexical"}`, `{"query":"\"exact phrase\" -no pre*","since":"2024-01-01","until":"2030-12-31T00:00:00Z","source":"/src/"}`},
	{`{"id":"d_0123456789abcdef01234567","neighbours":2}`},
	{`{"content":"We chose SQLite over Postgres: one file, no server.","room":"decisions","importance":4,"source":"chat"}`, `{"content":"x","force":true,"importance":5.0}`},
	{`{"id":"d_missing"}`},
	{`{"action":"add","subject":"palace","predicate":"uses","object":"SQLite","valid_from":"2024-01-01","confidence":0.9}`,
		`{"action":"query","entity":"palace","direction":"both","as_of":"2025-01-01"}`, `{"action":"timeline","limit":10}`, `{"action":"stats"}`,
		`{"action":"invalidate","subject":"palace","predicate":"uses","object":"SQLite","ended":"2025-06-01"}`},
	{`{"action":"list"}`, `{"action":"set","room":"auth","keywords":["login","token"],"display_name":"Auth"}`, `{"action":"rm","room":"auth"}`},
	{`{"action":"write","agent":"claude","text":"Fixed the flaky login test.","topic":"tests"}`, `{"action":"read","last":3,"since":"2024-01-01"}`},
	{`{"format":"aaak","budget":300}`, `{"wing":"fuzz","format":"text"}`},
	{`{"path":"%DIR%","mode":"projects"}`, `{"path":"%DIR%/notes.md","wing":"fuzz"}`, `{"path":"relative/dir"}`},
	{`{"action":"traverse","entity":"palace","depth":2,"predicates":["uses"]}`, `{"action":"entity","entity":"palace","type":"project","aliases":["the palace"]}`, `{"action":"rm","fact_id":"t_0123456789abcdef01234567"}`},
	{`{"action":"extract","wing":"fuzz","min_confidence":0.5}`, `{"action":"review","decision":"reject","ids":["p_1"]}`},
}

// FuzzValidate runs any bytes through each tool's validation. It never
// panics; a refusal is an *argError of that tool which, when it names a
// parameter, quotes it; the whole arguments are blamed (no parameter) only
// when they are not a JSON object. For a JSON value, what is accepted has
// only the tool's parameters, each of its type, range, length and enum,
// every required one, none outside its actions, and validating the
// accepted arguments again accepts the same values.
func FuzzValidate(f *testing.F) {
	for i, seeds := range fuzzArgSeeds {
		for _, s := range seeds {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Add(uint8(1), []byte(`{"query":"x","limit":1e2,"wing":null}`))
	f.Add(uint8(1), []byte(`{"query":"x","query":"y"}`))
	f.Add(uint8(6), []byte(`{"action":"set","room":"r","keywords":["a",1]}`))
	f.Add(uint8(5), []byte(`{"action":"stats","subject":"a"}`))
	tools := allTools()
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		tl := tools[int(which)%len(tools)]
		a, err := tl.validate(raw)
		if err != nil {
			checkArgError(t, tl, raw, err)
			return
		}
		if !json.Valid(raw) && len(bytes.TrimSpace(raw)) > 0 {
			return // not what a transport hands over; it must only not panic
		}
		checkAccepted(t, tl, a)
		b, err := json.Marshal(map[string]json.RawMessage(a))
		if err != nil {
			t.Fatalf("%s: accepted arguments do not encode: %v", tl.name, err)
		}
		again, err := tl.validate(b)
		if err != nil {
			t.Fatalf("%s: accepted %s, then refused its own result %s: %v", tl.name, raw, b, err)
		}
		if !sameArgs(a, again) {
			t.Fatalf("%s: validating %s again gave %s", tl.name, b, mustJSON(again))
		}
	})
}

// checkArgError asserts a refusal names the tool and quotes the parameter
// it blames; only arguments that are not an object go without one (or
// blame the parameter named "").
func checkArgError(t *testing.T, tl *tool, raw []byte, err error) {
	t.Helper()
	var ae *argError
	if !errors.As(err, &ae) || ae.Tool != tl.name || ae.Msg == "" || !strings.HasPrefix(err.Error(), tl.name+": ") {
		t.Fatalf("%s: refusal %v (%T) is not an argError of the tool", tl.name, err, err)
	}
	if ae.Param != "" && !strings.Contains(ae.Msg, strconv.Quote(ae.Param)) {
		t.Fatalf("%s: error %q blames %q without naming it", tl.name, ae.Msg, ae.Param)
	}
	// A parameter named "" is blamed as Param "" too, and quoted.
	var obj map[string]json.RawMessage
	if ae.Param == "" && json.Unmarshal(raw, &obj) == nil && obj != nil && !strings.Contains(ae.Msg, `""`) {
		t.Fatalf("%s: the object %s is refused without naming a parameter: %s", tl.name, raw, ae.Msg)
	}
}

// checkAccepted asserts accepted arguments obey the tool's table, decoded
// by encoding/json rather than by the validator's own token checks.
func checkAccepted(t *testing.T, tl *tool, a args) {
	t.Helper()
	var action string
	if v, ok := a["action"]; ok {
		if err := json.Unmarshal(v, &action); err != nil {
			t.Fatalf("%s: action %s: %v", tl.name, v, err)
		}
	}
	for k, v := range a {
		p := tl.param(k)
		if p == nil {
			t.Fatalf("%s: accepted unknown parameter %q", tl.name, k)
		}
		if err := p.obeys(v); err != nil {
			t.Fatalf("%s: accepted %s=%s: %v", tl.name, k, v, err)
		}
		if action != "" && p.actions != nil && !slices.Contains(p.actions, action) {
			t.Fatalf("%s: accepted %q for action %q", tl.name, k, action)
		}
	}
	for _, p := range tl.params {
		if _, ok := a[p.name]; !ok && (p.required || action != "" && slices.Contains(p.requiredFor, action)) {
			t.Fatalf("%s: accepted without %q (action %q)", tl.name, p.name, action)
		}
	}
}

// obeys checks one accepted value against the parameter's table entry.
func (p *param) obeys(v json.RawMessage) error {
	switch p.kind {
	case kString:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return err
		}
		switch {
		case !utf8.ValidString(s):
			return errors.New("not valid UTF-8")
		case p.maxLen > 0 && len(s) > p.maxLen:
			return fmt.Errorf("%d bytes, over %d", len(s), p.maxLen)
		case p.enum != nil && !slices.Contains(p.enum, s):
			return fmt.Errorf("%q is not one of %v", s, p.enum)
		}
	case kInteger, kNumber:
		var x float64
		if err := json.Unmarshal(v, &x); err != nil {
			return err
		}
		switch {
		case math.IsInf(x, 0) || math.IsNaN(x):
			return errors.New("not finite")
		case p.min != nil && x < *p.min || p.max != nil && x > *p.max:
			return fmt.Errorf("%g is out of range", x)
		}
		if p.kind == kInteger {
			if _, err := strconv.ParseInt(string(v), 10, 64); err != nil {
				return fmt.Errorf("not written as an integer: %w", err)
			}
		}
	case kBoolean:
		var b bool
		return json.Unmarshal(v, &b)
	case kStrings:
		var ss []string
		return json.Unmarshal(v, &ss)
	}
	return nil
}

// sameArgs compares two argument sets by their JSON values.
func sameArgs(a, b args) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		var x, y any
		if json.Unmarshal(v, &x) != nil || json.Unmarshal(b[k], &y) != nil || mustJSON(x) != mustJSON(y) {
			return false
		}
	}
	return true
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// fuzzCallTimeout is how long a call may take before it counts as a hang.
const fuzzCallTimeout = 30 * time.Second

// FuzzToolCall sends tools/call with any arguments to the real server over
// stdio (precheck, mcp-go, the tool), one server per fuzz worker, with the
// wing set and a small folder palace_mine may read. Arguments that are not
// JSON go as a JSON string. The answer must come, and be either -32602
// whose data names the tool (and whose message quotes the parameter it
// blames), or a result: a tool error saying the input was invalid or not
// found, or structured
// content that the text repeats. Never -32603 (a panic or an unexpected
// failure), never a tool error that precheck should have caught, and the
// server still answers ping afterwards.
func FuzzToolCall(f *testing.F) {
	for i, seeds := range fuzzArgSeeds {
		for _, s := range seeds {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Add(uint8(1), []byte(`{"query":"x","limit":"10"}`))
	f.Add(uint8(2), []byte(`["id"]`))
	f.Add(uint8(3), []byte(`{"content":"  "}`))
	f.Add(uint8(7), []byte(`{"action":"write","text":"x","agent":"a b/c"}`))
	f.Add(uint8(9), []byte(`{"path":"/"}`))
	c := startFuzzStdio(f)
	tools := allTools()
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		tl := tools[int(which)%len(tools)]
		args := fuzzArgs(c.expand(raw))
		m, err := c.call("tools/call", map[string]any{"name": tl.name, "arguments": args})
		if err != nil {
			t.Fatalf("%s %s: %v", tl.name, args, err)
		}
		switch {
		case m.Error != nil && m.Error.Code == -32602:
			var data argError
			if json.Unmarshal(m.Error.Data, &data) != nil || data.Tool != tl.name {
				t.Fatalf("%s %s: -32602 %q without the tool in its data %s", tl.name, args, m.Error.Message, m.Error.Data)
			}
			if data.Param != "" && !strings.Contains(m.Error.Message, strconv.Quote(data.Param)) {
				t.Fatalf("%s %s: -32602 %q does not name %q", tl.name, args, m.Error.Message, data.Param)
			}
		case m.Error != nil:
			t.Fatalf("%s %s: error %d %s", tl.name, args, m.Error.Code, m.Error.Message)
		default:
			checkToolResult(t, tl.name, args, m.Result)
		}
		if _, err := c.call("ping", nil); err != nil {
			t.Fatalf("after %s %s, ping: %v", tl.name, args, err)
		}
		if p := c.log.take(); p != "" {
			t.Fatalf("after %s %s the server logged a panic:\n%s", tl.name, args, p)
		}
	})
}

func checkToolResult(t *testing.T, name string, args, raw json.RawMessage) {
	t.Helper()
	var r toolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s %s: result %s: %v", name, args, raw, err)
	}
	if r.IsError {
		txt := r.text()
		// A knowledge-graph contradiction is an answer too: nothing written.
		if !strings.HasPrefix(txt, "invalid input: ") && !strings.HasPrefix(txt, "not found: ") && !strings.HasPrefix(txt, "conflict: ") {
			t.Fatalf("%s %s: tool error %q is neither invalid input, not found nor a conflict", name, args, txt)
		}
		return
	}
	if len(r.Structured) == 0 || r.text() != string(r.Structured) {
		t.Fatalf("%s %s: text %q does not repeat structuredContent %s", name, args, r.text(), r.Structured)
	}
}

// fuzzArgs returns b when it is one JSON value, else b as a JSON string.
func fuzzArgs(b []byte) json.RawMessage {
	if json.Valid(b) {
		return b
	}
	s, _ := json.Marshal(string(b))
	return s
}

// stdioClient speaks newline-delimited JSON-RPC to a server on pipes, one
// call at a time; server notifications are read and dropped.
type stdioClient struct {
	in      *io.PipeWriter
	replies chan rpcMsg
	dir     string
	log     *panicLog
	next    int
}

// startFuzzStdio opens a palace with no embedding model and serves it over
// pipes until the fuzz worker ends, in the full profile (every tool). The
// client has no roots; the wing is "fuzz" and palace_mine may read one
// small folder.
func startFuzzStdio(f *testing.F) *stdioClient {
	home := f.TempDir()
	p, err := palace.Open(home, palace.Options{Embed: &embed.Config{Home: home}, Actor: "mcp"})
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	for name, body := range map[string]string{"notes.md": "# Notes\n\nWe chose SQLite.\n", "main.go": "package main\n\nfunc main() {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	lg := &panicLog{}
	s := New(p, Options{Wing: "fuzz", AllowPaths: []string{dir}, Log: lg, RootsTimeout: time.Second, Profile: ProfileFull})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	c := &stdioClient{in: inW, replies: make(chan rpcMsg, 1), dir: dir, log: lg}
	go c.read(outR)
	f.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
		p.Close()
	})
	if _, err := c.call("initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "go-fuzz", "version": "1"},
	}); err != nil {
		f.Fatal(err)
	}
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		f.Fatal(err)
	}
	return c
}

func (c *stdioClient) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		var m rpcMsg
		if json.Unmarshal(line, &m) == nil && m.Method == "" && m.ID != nil {
			c.replies <- m
		}
		if err != nil {
			close(c.replies)
			return
		}
	}
}

func (c *stdioClient) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// call sends a request and waits for the reply with its id.
func (c *stdioClient) call(method string, params any) (rpcMsg, error) {
	c.next++
	id := c.next
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.send(msg); err != nil {
		return rpcMsg{}, fmt.Errorf("%s: %w", method, err)
	}
	timeout := time.After(fuzzCallTimeout)
	for {
		select {
		case m, ok := <-c.replies:
			if !ok {
				return rpcMsg{}, fmt.Errorf("%s: the server closed its output", method)
			}
			if string(m.ID) == strconv.Itoa(id) {
				return m, nil
			}
		case <-timeout:
			return rpcMsg{}, fmt.Errorf("%s: no reply in %s", method, fuzzCallTimeout)
		}
	}
}

// expand puts the allowed folder where a seed says %DIR%.
func (c *stdioClient) expand(b []byte) []byte {
	dir, _ := json.Marshal(c.dir)
	return bytes.ReplaceAll(b, []byte("%DIR%"), bytes.Trim(dir, `"`))
}

// panicLog keeps the server's log lines that report a recovered panic
// (mcp-go's "panic recovered ...").
type panicLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *panicLog) Write(p []byte) (int, error) {
	if bytes.Contains(bytes.ToLower(p), []byte("panic")) {
		l.mu.Lock()
		l.b.Write(p)
		l.mu.Unlock()
	}
	return len(p), nil
}

// take returns what was kept so far and forgets it.
func (l *panicLog) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.b.String()
	l.b.Reset()
	return s
}
