package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/palace-dev/palace/core/input"
)

// Limits of the wire.
const (
	// MaxMessageBytes bounds one message's body (its Content-Length). It
	// leaves room for a document of relevant.MaxTextBytes with its JSON
	// escapes; a bigger body is skipped while it is read, never held.
	MaxMessageBytes = 32 << 20
	// maxHeaderLine bounds a header line: a longer one is not LSP framing.
	maxHeaderLine = 4096
)

// stream is the jsonrpc2.Stream of a session: LSP's Content-Length framing,
// read here rather than by jsonrpc2.NewStream, whose Read reads any body
// whole and fails the connection on the first message it cannot decode.
// Here one invalid message costs only its own answer: bad JSON is
// answered -32700, a batch, a jsonrpc other than "2.0", an id jsonrpc2
// cannot carry or a body over MaxMessageBytes -32600, and the next message
// is read. Broken framing (a lying Content-Length, garbage between
// messages, a header line that is not one) is answered -32700 and the
// stream resynchronises; only the input ending ends the session. Writes go
// through jsonrpc2's own stream.
//
// The resync rule: the next message starts at the next Content-Length
// header line, that is the text "Content-Length:" (any case), blanks,
// decimal digits, blanks and a line break, found anywhere in the bytes not
// yet read as a message, not only at a line start, since a body has no
// line break after it. Valid JSON never holds such a line (a raw line
// break is not allowed inside a JSON string, and outside one a bare word is
// not JSON), so the rule never cuts a valid message. It applies three
// ways:
//   - a header block that is broken (a line that is not "name: value", a
//     bad or missing Content-Length, a line over maxHeaderLine) is
//     answered and the input skipped to the next Content-Length line;
//   - a header line that holds a Content-Length line after its start is
//     the tail of a body whose Content-Length was short, glued to the next
//     header: the tail is skipped and the header read;
//   - a body is read as it arrives, and a Content-Length line inside it
//     means its Content-Length was long and the next message began: the
//     body ends there and is answered -32700, with its id when it has one
//     (the framing lied, so it is not run), and the next message is read.
//     The body is never waited for past that line, so a client that sent
//     one more message and waits for its answer gets it. A body that is
//     not JSON may end inside the next message's Content-Length line (its
//     Content-Length was long by less than that line): its last line is
//     carried into the header reader, which reads the line's rest after it.
//
// A Content-Length longer than everything the client sends before it
// waits for an answer cannot be told from a slow client: the session waits
// for the rest, as any LSP server must.
type stream struct {
	rwc io.ReadWriteCloser
	in  *bufio.Reader
	out jsonrpc2.Stream
	max int64
	log *log.Logger

	// mu serialises writes: jsonrpc2 serialises its own, but Read answers
	// invalid messages itself.
	mu sync.Mutex
}

func newStream(rwc io.ReadWriteCloser, max int64, logger *log.Logger) *stream {
	return &stream{rwc: rwc, in: bufio.NewReaderSize(rwc, maxHeaderLine), out: jsonrpc2.NewStream(rwc), max: max, log: logger}
}

// Read returns the next valid message, answering the invalid ones before
// it.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	// length is the next message's, when a body ended at its header line.
	length := int64(-1)
	// carry is the last line of a body that was not JSON, or nil: the next
	// header line may go on from it (see stream), and broken framing right
	// after it is that body's tail, which its answer already covered.
	var carry []byte
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		var n int64
		var err error
		length, n, err = s.header(length, carry)
		total += n
		if err != nil {
			return nil, total, err
		}
		b, err := s.body(length, length <= s.max)
		total += b.read
		if err != nil {
			return nil, total, fmt.Errorf("read a message of %d bytes: %w", length, err)
		}
		declared := length
		length, carry = b.next, nil
		switch {
		case b.next >= 0:
			// Its id is readable only in a body that was held.
			s.refuse(idOf(b.body), jsonrpc2.ParseError, fmt.Sprintf("framing: the Content-Length said %d bytes, but the next message's Content-Length header came after %d; the message is not run", declared, b.read-b.header))
		case declared > s.max:
			// Skipped in the reader's own buffer, never held whole. Its id
			// is somewhere in the skipped bytes, so the answer has none.
			s.refuse(nil, jsonrpc2.InvalidRequest, fmt.Sprintf("the message is %d bytes; the limit is %d (a document this big is not read)", declared, s.max))
			carry = b.tail
		default:
			msg, code := s.decode(b.body)
			if msg != nil {
				return msg, total, nil
			}
			// A body that is JSON ends whole: no header line starts in it.
			if code == jsonrpc2.ParseError {
				carry = b.tail
			}
		}
	}
}

// read is what body read.
type read struct {
	body []byte // the body, when held
	read int64  // bytes consumed, the next header's line included
	// next is the length in the Content-Length line that ended the body
	// early, or -1; header is that line's size.
	next, header int64
	// tail is the end of the last line read, up to maxHeaderLine bytes;
	// never nil.
	tail []byte
}

// body reads a body of length bytes as they arrive, holding it when hold,
// and ends it early at a Content-Length line inside it (see stream).
func (s *stream) body(length int64, hold bool) (read, error) {
	r := read{next: -1, tail: make([]byte, 0, 2*maxHeaderLine)}
	if hold {
		// A lying length is not allocated up front.
		r.body = make([]byte, 0, min(length, 1<<20))
	}
	for r.read < length {
		if _, err := s.in.Peek(1); err != nil {
			return r, err
		}
		chunk, _ := s.in.Peek(int(min(int64(s.in.Buffered()), length-r.read)))
		use := len(chunk)
		for off := 0; off < len(chunk); {
			i := bytes.IndexByte(chunk[off:], '\n')
			if i < 0 {
				r.tail = keepTail(r.tail, chunk[off:])
				break
			}
			r.tail = keepTail(r.tail, chunk[off:off+i])
			if next, start, ok := lengthLine(r.tail); ok {
				use = off + i + 1
				r.next = next
				r.header = int64(len(r.tail) - start + 1)
				r.tail = r.tail[:0]
				break
			}
			r.tail = r.tail[:0]
			off += i + 1
		}
		if hold {
			r.body = append(r.body, chunk[:use]...)
		}
		if _, err := s.in.Discard(use); err != nil {
			return r, err
		}
		r.read += int64(use)
		if r.next >= 0 {
			if hold {
				r.body = r.body[:int64(len(r.body))-r.header]
			}
			break
		}
	}
	return r, nil
}

// keepTail appends b to the line end in tail, keeping its last
// maxHeaderLine bytes: a Content-Length line is no longer.
func keepTail(tail, b []byte) []byte {
	if len(b) >= maxHeaderLine {
		return append(tail[:0], b[len(b)-maxHeaderLine:]...)
	}
	tail = append(tail, b...)
	if over := len(tail) - maxHeaderLine; over > 0 {
		tail = tail[:copy(tail, tail[over:])]
	}
	return tail
}

const contentLength = "content-length:"

// lengthLine reports whether line, the bytes before a line break (a '\r'
// included), ends with a Content-Length line: "Content-Length:" in any
// case, blanks, decimal digits and blanks. It returns the length and where
// in line that text starts.
func lengthLine(line []byte) (length int64, start int, ok bool) {
	i := len(line)
	if i > 0 && line[i-1] == '\r' {
		i--
	}
	for i > 0 && isBlank(line[i-1]) {
		i--
	}
	end := i
	for i > 0 && line[i-1] >= '0' && line[i-1] <= '9' {
		i--
	}
	digits := line[i:end]
	for i > 0 && isBlank(line[i-1]) {
		i--
	}
	if len(digits) == 0 || i < len(contentLength) || !bytes.EqualFold(line[i-len(contentLength):i], []byte(contentLength)) {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return n, i - len(contentLength), true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// header reads the header block and returns the body's length and the
// bytes read; length is the block's Content-Length already read, or -1,
// and carry the start of its first line, or nil. Unknown headers
// (Content-Type) are ignored, as LSP allows. A broken block is answered,
// unless it follows a carried line, and the input skipped to the next
// Content-Length line (see stream).
func (s *stream) header(length int64, carry []byte) (int64, int64, error) {
	var total int64
	quiet := carry != nil
	broken := func(why string, line []byte) error {
		if !quiet {
			s.refuse(nil, jsonrpc2.ParseError, "framing: "+why+"; skipping to the next Content-Length header")
		}
		quiet = true
		n, skipped, err := s.resync(line)
		total += skipped
		length = n
		return err
	}
	for {
		line, err := s.in.ReadSlice('\n')
		total += int64(len(line))
		if carry != nil {
			line, carry = append(carry, line...), nil
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if err := broken(fmt.Sprintf("a header line is longer than %d bytes", maxHeaderLine), line); err != nil {
				return 0, total, err
			}
			continue
		case err != nil:
			return 0, total, fmt.Errorf("read a header: %w", err)
		}
		if n, start, ok := lengthLine(line[:len(line)-1]); ok && start > 0 {
			// The tail of a short body, glued to the next header.
			if !quiet {
				s.refuse(nil, jsonrpc2.ParseError, fmt.Sprintf("framing: %d bytes that are not a header came before a Content-Length header; they were skipped", start))
			}
			quiet, length = true, n
			continue
		}
		text := strings.TrimSpace(string(line))
		if text == "" {
			if length >= 0 {
				return length, total, nil
			}
			if err := broken(fmt.Sprintf("missing %s header", jsonrpc2.HdrContentLength), nil); err != nil {
				return 0, total, err
			}
			continue
		}
		name, value, ok := strings.Cut(text, ":")
		if !ok || !isToken(strings.TrimSpace(name)) {
			if err := broken("invalid header line "+input.Quote(text), nil); err != nil {
				return 0, total, err
			}
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), jsonrpc2.HdrContentLength) {
			v := strings.TrimSpace(value)
			if length, err = strconv.ParseInt(v, 10, 64); err != nil || length < 0 {
				if err := broken(fmt.Sprintf("invalid %s %s", jsonrpc2.HdrContentLength, input.Quote(v)), nil); err != nil {
					return 0, total, err
				}
			}
		}
	}
}

// isToken reports whether name is a header name (an HTTP token): a line
// whose "name" has a quote, a brace or a blank in it is a body's tail.
func isToken(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range []byte(name) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// resync skips the input to the end of the next Content-Length line and
// returns its length and the bytes skipped. partial is the start of the
// line being read when it was too long, which the line may still end.
func (s *stream) resync(partial []byte) (length, total int64, err error) {
	tail := keepTail(make([]byte, 0, 2*maxHeaderLine), partial)
	for {
		line, err := s.in.ReadSlice('\n')
		total += int64(len(line))
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			tail = keepTail(tail, line)
			continue
		case err != nil:
			return 0, total, fmt.Errorf("skip to the next %s header: %w", jsonrpc2.HdrContentLength, err)
		}
		tail = keepTail(tail, line[:len(line)-1])
		if n, _, ok := lengthLine(tail); ok {
			s.log.Printf("framing: skipped %d bytes to the next %s header", total, jsonrpc2.HdrContentLength)
			return n, total, nil
		}
		tail = tail[:0]
	}
}

// envelope is what is checked of a message before jsonrpc2 decodes it.
type envelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
}

// decode returns body's message, or answers why it is invalid and returns
// nil and the answer's code.
func (s *stream) decode(body []byte) (jsonrpc2.Message, jsonrpc2.Code) {
	// One pass of encoding/json checks the syntax and reads the envelope;
	// the body's first byte tells a batch or a non-object from a request.
	var env envelope
	err := json.Unmarshal(body, &env)
	var se *json.SyntaxError
	trimmed := bytes.TrimSpace(body)
	switch {
	case errors.As(err, &se) || len(trimmed) == 0:
		s.refuse(nil, jsonrpc2.ParseError, "the message is not valid JSON")
		return nil, jsonrpc2.ParseError
	case trimmed[0] == '[':
		s.refuse(nil, jsonrpc2.InvalidRequest, "batches are not supported: send one message per Content-Length frame")
		return nil, jsonrpc2.InvalidRequest
	case trimmed[0] != '{':
		s.refuse(nil, jsonrpc2.InvalidRequest, "a message must be a JSON object")
		return nil, jsonrpc2.InvalidRequest
	case err != nil:
		s.refuse(nil, jsonrpc2.InvalidRequest, "the message cannot be read: "+err.Error())
		return nil, jsonrpc2.InvalidRequest
	}
	id, why := checkID(env.ID)
	if why != "" {
		s.refuse(id, jsonrpc2.InvalidRequest, why)
		return nil, jsonrpc2.InvalidRequest
	}
	var version string
	if json.Unmarshal(env.JSONRPC, &version) != nil || version != jsonrpc2.Version {
		got := "nothing"
		if len(env.JSONRPC) > 0 {
			got = input.Quote(string(env.JSONRPC))
		}
		s.refuse(id, jsonrpc2.InvalidRequest, fmt.Sprintf(`jsonrpc: want "2.0", got %s`, got))
		return nil, jsonrpc2.InvalidRequest
	}
	var method string
	if len(env.Method) > 0 && json.Unmarshal(env.Method, &method) != nil {
		s.refuse(id, jsonrpc2.InvalidRequest, "method: want a string, got "+input.Quote(string(env.Method)))
		return nil, jsonrpc2.InvalidRequest
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		s.refuse(id, jsonrpc2.InvalidRequest, "the message is neither a request, a notification nor a response: "+err.Error())
		return nil, jsonrpc2.InvalidRequest
	}
	return msg, 0
}

// idOf returns the id of body, a message whose framing lied, when it has
// one a reply can carry, else nil.
func idOf(body []byte) json.RawMessage {
	var env envelope
	if json.Unmarshal(body, &env) != nil {
		return nil
	}
	if id, why := checkID(env.ID); why == "" {
		return id
	}
	return nil
}

// checkID returns the id to answer with (nil when there is none a reply
// could carry) and why it is not an id jsonrpc2 can answer, or "". Its
// IDs are strings and 32-bit integers; another number would come back
// changed, so it is refused, with the client's own id.
func checkID(raw json.RawMessage) (json.RawMessage, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, ""
	}
	switch raw[0] {
	case '"':
		return raw, ""
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			return raw, "id: " + input.Quote(string(raw)) + " is not an integer of 32 bits; use a string or a smaller integer"
		}
		return raw, ""
	}
	return nil, "id: want a string or an integer, got " + input.Quote(string(raw))
}

// refuse answers an invalid message with an error; id is the message's
// own id, or nil for none (null).
func (s *stream) refuse(id json.RawMessage, code jsonrpc2.Code, msg string) {
	s.log.Printf("invalid message (%d): %s", code, msg)
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{jsonrpc2.Version, id, jsonrpc2.NewError(code, msg)})
	if err != nil {
		s.log.Printf("encode the answer to an invalid message: %v", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := fmt.Fprintf(s.rwc, "%s: %d\r\n\r\n%s", jsonrpc2.HdrContentLength, len(b), b); err != nil {
		s.log.Printf("answer an invalid message: %v", err)
	}
}

func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(ctx, msg)
}

func (s *stream) Close() error { return s.rwc.Close() }
