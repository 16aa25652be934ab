package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// rawConn is the server's stdio seen line by line, with no handshake done:
// the tests here decide what is sent first and read the exact bytes back.
type rawConn struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
}

func startRaw(t *testing.T, s *Server) *rawConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	c := &rawConn{t: t, in: inW, lines: make(chan string, 64)}
	go func() {
		defer close(c.lines)
		br := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := br.ReadString('\n')
			if strings.TrimSpace(line) != "" {
				c.lines <- strings.TrimSpace(line)
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
		for range c.lines {
		}
	})
	return c
}

func (c *rawConn) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// next returns the next line the server writes that is not a notification.
func (c *rawConn) next(within time.Duration) string {
	c.t.Helper()
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.t.Fatal("the server closed its output")
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal([]byte(l), &m) == nil && m.Method != "" && m.ID == nil {
				continue // a log or progress notification
			}
			return l
		case <-deadline:
			c.t.Fatalf("no answer within %v", within)
			return ""
		}
	}
}

func (c *rawConn) initialize() {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire-test","version":"1"}}}`)
	if l := c.next(30 * time.Second); !strings.Contains(l, `"result"`) {
		c.t.Fatalf("initialize: %s", l)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// wireAnswer is one decoded answer, with its id as raw bytes.
type wireAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func decodeAnswer(t *testing.T, line string) wireAnswer {
	t.Helper()
	var a wireAnswer
	if err := json.Unmarshal([]byte(line), &a); err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	return a
}

func drawerCount(t *testing.T, p *palace.Palace) int {
	t.Helper()
	st, err := ops.Status(context.Background(), p, ops.StatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return st.Drawers
}

func TestRequestsBeforeInitializeAreRefused(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startRaw(t, newTestServer(t, p, Options{Wing: "proj"}))
	c.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if a := decodeAnswer(t, c.next(10*time.Second)); a.Error != nil || string(a.ID) != "1" {
		t.Fatalf("ping before initialize: %+v, want a result (the spec allows ping at any time)", a)
	}
	for i, req := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"palace_remember","arguments":{"content":"tokbeforeinit must not be stored"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"palace://status"}}`,
	} {
		c.send(req)
		a := decodeAnswer(t, c.next(10*time.Second))
		if a.Error == nil || a.Error.Code != -32600 || !strings.Contains(a.Error.Message, "before initialize") {
			t.Errorf("request %d before initialize: got %+v, want error -32600 naming initialize", i+2, a)
		}
	}
	if n := drawerCount(t, p); n != 0 {
		t.Errorf("a tools/call before initialize stored %d drawers", n)
	}
	// A 2026-07-28 request carries its handshake in _meta: it is served.
	c.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"palace_status","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"modern","version":"1"}}}}`)
	if a := decodeAnswer(t, c.next(30*time.Second)); a.Error != nil {
		t.Errorf("a 2026-07-28 request without initialize: %+v, want it served", a.Error)
	}
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"palace_remember","arguments":{"content":"tokafterinit is stored"}}}`)
	if a := decodeAnswer(t, c.next(30*time.Second)); a.Error != nil {
		t.Fatalf("tools/call after initialize: %+v", a.Error)
	}
	if n := drawerCount(t, p); n != 1 {
		t.Errorf("after initialize the palace holds %d drawers, want 1", n)
	}
}

func TestRequestIDsComeBackExact(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startRaw(t, newTestServer(t, p, Options{Wing: "proj"}))
	c.initialize()
	for _, id := range []string{"9007199254740993", "-9007199254740993", "123456789012345678901234567890", "1.50", "1e400", "7", `"s-1"`} {
		for _, req := range []string{
			`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`,
			// precheck's own refusal
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"palace_search","arguments":{"query":5}}}`,
			// a tool result from mcp-go
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"palace_status","arguments":{}}}`,
			// mcp-go's own error
			`{"jsonrpc":"2.0","id":` + id + `,"method":"no/such/method"}`,
		} {
			c.send(req)
			l := c.next(30 * time.Second)
			if a := decodeAnswer(t, l); string(a.ID) != id {
				t.Errorf("request %s answered with id %s, want it byte for byte", req, a.ID)
			}
		}
	}
}

func TestErrorsBoundWhatTheyEcho(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startRaw(t, newTestServer(t, p, Options{Wing: "proj"}))
	c.initialize()
	huge := strings.Repeat("m", 1<<20)
	for _, req := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"` + huge + `"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + huge + `","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"` + huge + `"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"palace://` + huge + `"}}`,
	} {
		c.send(req)
		l := c.next(30 * time.Second)
		a := decodeAnswer(t, l)
		if a.Error == nil {
			t.Errorf("%.60s…: want an error, got %.200s", req, l)
			continue
		}
		if len(l) > 2*maxErrorText {
			t.Errorf("%.60s…: the answer is %d bytes: %.300s", req, len(l), l)
		}
	}
	c.send(`{"jsonrpc":"2.0","id":5,"method":"` + huge + `"}`)
	if a := decodeAnswer(t, c.next(30*time.Second)); a.Error == nil || a.Error.Code != -32601 || !strings.HasSuffix(a.Error.Message, `"…`) {
		t.Errorf("1 MB method: %+v, want -32601 quoting %d bytes and …", a.Error, maxQuote)
	}
}

func TestCancelledRequestInterruptsSQLite(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	if _, err := ops.Remember(context.Background(), p, ops.RememberRequest{Text: "tokslow needle note", Wing: "proj", Importance: ops.DefaultImportance}); err != nil {
		t.Fatal(err)
	}
	restore := palacetest.SlowSearch(t, p.Store.Home())
	defer restore()
	c := startRaw(t, newTestServer(t, p, Options{Wing: "proj"}))
	c.initialize()
	// A huge id also checks that the cancellation finds a request whose id
	// was swapped for a token.
	const id = "9007199254740993"
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"palace_search","arguments":{"query":"tokslow"}}}`)
	select {
	case l := <-c.lines:
		t.Fatalf("the slow search answered before it was cancelled: %.300s", l)
	case <-time.After(500 * time.Millisecond):
	}
	cancelled := time.Now()
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"test"}}`)
	l := c.next(20 * time.Second)
	took := time.Since(cancelled)
	a := decodeAnswer(t, l)
	if string(a.ID) != id {
		t.Fatalf("answer %.300s, want id %s", l, id)
	}
	if !strings.Contains(l, "cancelled") && !strings.Contains(l, "interrupted") {
		t.Errorf("answer after cancel: %.300s, want it to say the search was cancelled", l)
	}
	// No bound on took: the search cannot finish by itself (its view counts
	// to four billion for every row), so any answer at all means the
	// cancellation interrupted SQLite.
	t.Logf("search stopped %v after notifications/cancelled: %.200s", took, l)
}

func TestHTTPInitializeIDsAndEcho(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	url, tok := startHTTP(t, newTestServer(t, p, Options{Wing: "proj"}))
	auth := map[string]string{"Authorization": "Bearer " + tok, "Mcp-Protocol-Version": "2025-11-25"}
	remember := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"palace_remember","arguments":{"content":"tokhttpbeforeinit must not be stored"}}}`
	// A well-formed session id the server never issued: mcp-go checks only
	// the id's format. (No id at all gets mcp-go's 404 "Invalid session ID".)
	hdr := map[string]string{"Authorization": auth["Authorization"], "Mcp-Protocol-Version": "2025-11-25",
		"Mcp-Session-Id": "mcp-session-0f8fad5b-d9cb-469f-a165-70867728950e"}
	_, body := post(t, url, hdr, remember)
	var m rpcMsg
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("tools/call in a session that never initialized: %s, want -32600", body)
	}
	if n := drawerCount(t, p); n != 0 {
		t.Fatalf("a tools/call before initialize stored %d drawers", n)
	}
	resp, body := post(t, url, auth, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"http-test","version":"1"}}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	hdr = map[string]string{"Authorization": auth["Authorization"], "Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-11-25"}
	post(t, url, hdr, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, body = post(t, url, hdr, `{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"palace_remember","arguments":{"content":"tokhttpafterinit is stored"}}}`)
	m = rpcMsg{}
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.Error != nil || string(m.ID) != "9007199254740993" {
		t.Errorf("tools/call after initialize: %s, want a result with id 9007199254740993", body)
	}
	_, body = post(t, url, hdr, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"`+strings.Repeat("n", 1<<20)+`","arguments":{}}}`)
	if len(body) > 2*maxErrorText || !strings.Contains(body, `"error"`) {
		t.Errorf("1 MB tool name: %d bytes answered: %.300s", len(body), body)
	}
	if n := drawerCount(t, p); n != 1 {
		t.Errorf("the palace holds %d drawers, want 1", n)
	}
}

// A client that sends requests right behind initialize, without waiting
// for its answer, is served in order rather than refused: requests are
// otherwise served concurrently and could overtake initialize.
func TestRequestsPipelinedBehindInitialize(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startRaw(t, newTestServer(t, p, Options{Wing: "proj"}))
	var batch strings.Builder
	batch.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire-test","version":"1"}}}` + "\n")
	batch.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i := 2; i < 42; i++ {
		batch.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"palace_status","arguments":{}}}` + "\n")
	}
	if _, err := io.WriteString(c.in, batch.String()); err != nil {
		t.Fatal(err)
	}
	for range 41 {
		if a := decodeAnswer(t, c.next(30*time.Second)); a.Error != nil {
			t.Errorf("request %s: %+v", a.ID, a.Error)
		}
	}
}

func TestUnknownParameterQuotedInPart(t *testing.T) {
	c := startRaw(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{Wing: "proj"}))
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"palace_status","arguments":{"` + strings.Repeat("p", 1<<20) + `":1}}}`)
	l := c.next(30 * time.Second)
	a := decodeAnswer(t, l)
	if a.Error == nil || a.Error.Code != -32602 || !strings.Contains(a.Error.Message, `pp"…; palace_status takes`) {
		t.Errorf("1 MB parameter name: %.400s", l)
	}
	if len(l) > maxErrorText {
		t.Errorf("the answer is %d bytes", len(l))
	}
}
