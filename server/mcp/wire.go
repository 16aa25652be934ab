package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Bounds on what the server repeats back from a client's message.
const (
	// maxQuote bounds a client's value (a method name) quoted in an error.
	maxQuote = 200
	// maxErrorText bounds any JSON-RPC error message or data on the way
	// out: the last line of defence for errors mcp-go words itself, which
	// quote a tool, prompt or resource name whole. Palace's own messages
	// are far shorter.
	maxErrorText = 1024
)

// quote is v quoted for an error message, cut to maxQuote bytes (at a rune
// boundary) with "…" when longer, so a 1 MB name costs a 200-byte answer.
func quote(v string) string {
	if len(v) <= maxQuote {
		return fmt.Sprintf("%q", v)
	}
	return fmt.Sprintf("%q…", cut(v, maxQuote))
}

// cut returns the longest prefix of s of at most n bytes that ends on a rune
// boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// requireInitialize is mcp-go's request-initialization hook: until the
// session has completed initialize, only initialize itself, ping (which the
// spec allows at any time) and server/discover are served. Anything else
// gets -32600 and runs nothing. A request of the 2026-07-28 protocol
// carries its version and capabilities in _meta and needs no handshake, so
// it passes.
func (s *Server) requireInitialize(ctx context.Context, _ any, message any) error {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return nil
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			Meta *mcp.Meta `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil // mcp-go reports the malformed message itself
	}
	switch mcp.MCPMethod(m.Method) {
	case mcp.MethodInitialize, mcp.MethodPing, mcp.MethodServerDiscover:
		return nil // discover is the 2026-07-28 handshake
	}
	if m.Params.Meta != nil && mcp.IsModernProtocol(m.Params.Meta.ProtocolVersion()) {
		return nil
	}
	if s.initialized(ctx) {
		return nil
	}
	return fmt.Errorf("%s before initialize: send initialize first (only ping may come before it)", quote(m.Method))
}

// initialized reports whether ctx's session has completed initialize. It is
// tracked here because mcp-go's streamable HTTP sessions always say they
// are initialized.
func (s *Server) initialized(ctx context.Context) bool {
	cs := server.ClientSessionFromContext(ctx)
	if cs == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[cs.SessionID()]
	return ss != nil && ss.initialized
}

// ids keeps request ids exact. mcp-go decodes a numeric id into a float64,
// so 9007199254740993 is answered as 9007199254740992 and 1.50 as 1.5: the
// client could not match the answer. At the transport boundary each such
// id is swapped for a string token nobody else can produce, and the token is
// swapped back for the client's exact bytes in the answer.
type ids struct {
	prefix string // "palace-id-<random>-"

	mu     sync.Mutex
	n      uint64
	byTok  map[string]json.RawMessage // token -> the client's id
	byOrig map[string]string          // scope + "\x00" + id -> token, for notifications/cancelled
}

func newIDs() *ids {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // never fails (crypto/rand panics rather)
	return &ids{prefix: "palace-id-" + hex.EncodeToString(b) + "-", byTok: map[string]json.RawMessage{}, byOrig: map[string]string{}}
}

// exact reports whether mcp-go echoes id byte for byte.
func exact(id json.RawMessage) bool {
	if len(id) == 0 || id[0] == '"' || id[0] == '{' || id[0] == '[' || id[0] == 't' || id[0] == 'f' || id[0] == 'n' {
		return true // not a number: strings pass through; others are mcp-go's to refuse
	}
	var rid mcp.RequestId
	if json.Unmarshal(id, &rid) != nil {
		return false // such as 1e400: beyond float64 altogether
	}
	b, err := json.Marshal(rid)
	return err == nil && bytes.Equal(b, id)
}

// in rewrites one incoming message for mcp-go. scope names the connection
// (the HTTP session id, "" on stdio), so notifications/cancelled finds the
// token of the same client's request. It returns the message and the token
// it introduced ("" when none).
func (m *ids) in(msg []byte, scope string) ([]byte, string) {
	t := bytes.TrimSpace(msg)
	if len(t) == 0 || t[0] != '{' || !bytes.Contains(t, []byte(`"method"`)) {
		return msg, "" // responses carry the server's own ids
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(t, &fields) != nil {
		return msg, ""
	}
	id, isReq := fields["id"]
	if isReq {
		id = bytes.TrimSpace(id)
		if exact(id) {
			return msg, ""
		}
		tok := m.add(scope, id)
		fields["id"], _ = json.Marshal(tok)
		return m.encode(msg, fields), tok
	}
	var method string
	if json.Unmarshal(fields["method"], &method) != nil || method != string(mcp.MethodNotificationCancelled) {
		return msg, ""
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(fields["params"], &params) != nil {
		return msg, ""
	}
	rid := bytes.TrimSpace(params["requestId"])
	if exact(rid) {
		return msg, ""
	}
	m.mu.Lock()
	tok, ok := m.byOrig[scope+"\x00"+string(rid)]
	m.mu.Unlock()
	if !ok {
		return msg, "" // not running (any more): nothing to cancel
	}
	params["requestId"], _ = json.Marshal(tok)
	fields["params"], _ = json.Marshal(params)
	return m.encode(msg, fields), ""
}

func (m *ids) encode(orig []byte, fields map[string]json.RawMessage) []byte {
	b, err := json.Marshal(fields)
	if err != nil {
		return orig
	}
	if bytes.HasSuffix(orig, []byte("\n")) {
		b = append(b, '\n')
	}
	return b
}

func (m *ids) add(scope string, id json.RawMessage) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	tok := fmt.Sprintf("%s%d", m.prefix, m.n)
	m.byTok[tok] = append(json.RawMessage(nil), id...)
	m.byOrig[scope+"\x00"+string(id)] = tok
	return tok
}

// forget drops a token once its request is answered.
func (m *ids) forget(scope, tok string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.forgetLocked(scope, tok)
}

func (m *ids) forgetLocked(scope, tok string) {
	id, ok := m.byTok[tok]
	if !ok {
		return
	}
	delete(m.byTok, tok)
	if key := scope + "\x00" + string(id); m.byOrig[key] == tok {
		delete(m.byOrig, key)
	}
}

// out restores the client's ids in one outgoing write (a message, or an SSE
// event holding one). The tokens are random per server, so they occur only
// where mcp-go echoed an id.
func (m *ids) out(b []byte, scope string, done bool) []byte {
	if !bytes.Contains(b, []byte(m.prefix)) {
		return b
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for tok, id := range m.byTok {
		quoted := []byte(`"` + tok + `"`)
		if !bytes.Contains(b, quoted) {
			continue
		}
		b = bytes.ReplaceAll(b, quoted, id)
		if done {
			m.forgetLocked(scope, tok)
		}
	}
	return b
}

// boundErrors cuts the message and data of a JSON-RPC error in one
// outgoing write (plain, or an SSE event's data line) to maxErrorText.
func boundErrors(b []byte) []byte {
	if len(b) <= maxErrorText || !bytes.Contains(b, []byte(`"error"`)) {
		return b
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		if fixed, ok := boundError(t); ok {
			if bytes.HasSuffix(b, []byte("\n")) {
				fixed = append(fixed, '\n')
			}
			return fixed
		}
		return b
	}
	// An SSE event: "event: message\ndata: {...}\n\n".
	i := bytes.Index(b, []byte("data: "))
	if i < 0 {
		return b
	}
	end := bytes.IndexByte(b[i:], '\n')
	if end < 0 {
		end = len(b) - i
	}
	fixed, ok := boundError(b[i+len("data: ") : i+end])
	if !ok {
		return b
	}
	out := append([]byte(nil), b[:i+len("data: ")]...)
	out = append(out, fixed...)
	return append(out, b[i+end:]...)
}

func boundError(msg []byte) ([]byte, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(msg, &fields) != nil || fields["error"] == nil {
		return nil, false
	}
	var e map[string]json.RawMessage
	if json.Unmarshal(fields["error"], &e) != nil {
		return nil, false
	}
	changed := false
	var text string
	if json.Unmarshal(e["message"], &text) == nil && len(text) > maxErrorText {
		e["message"], _ = json.Marshal(cut(text, maxErrorText) + "…")
		changed = true
	}
	if len(e["data"]) > maxErrorText {
		delete(e, "data")
		changed = true
	}
	if !changed {
		return nil, false
	}
	fields["error"], _ = json.Marshal(e)
	b, err := json.Marshal(fields)
	return b, err == nil
}

// refuseLongMethod answers a request whose method name is longer than any
// MCP method (-32601, the name cut to maxQuote bytes), before mcp-go would
// quote it whole. It returns nil for every other message.
func refuseLongMethod(method string, id json.RawMessage) []byte {
	if len(method) <= maxQuote || len(id) == 0 || bytes.Equal(id, []byte("null")) {
		return nil
	}
	return errorLine(id, mcp.METHOD_NOT_FOUND, "Method not found: "+quote(method), nil)
}

// errorLine encodes one JSON-RPC error answer, newline-terminated.
func errorLine(id json.RawMessage, code int, message string, data any) []byte {
	type detail struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   detail          `json:"error"`
	}{mcp.JSONRPC_VERSION, id, detail{code, message, data}})
	if err != nil {
		return nil
	}
	return append(b, '\n')
}

// idWriter restores ids and bounds errors in what mcp-go writes to one
// HTTP response, keeping its streaming (SSE) working.
type idWriter struct {
	http.ResponseWriter
	ids   *ids
	scope string
}

func (w *idWriter) Write(b []byte) (int, error) {
	if _, err := w.ResponseWriter.Write(boundErrors(w.ids.out(b, w.scope, false))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Flush keeps SSE responses streaming: mcp-go looks for http.Flusher.
func (w *idWriter) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

// Unwrap lets http.ResponseController reach the real writer (deadlines).
func (w *idWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
