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
// Here one well-framed but invalid message costs only its own answer:
// bad JSON is answered -32700, a batch, a jsonrpc other than "2.0", an id
// jsonrpc2 cannot carry or a body over MaxMessageBytes -32600, and the
// next message is read. Only broken framing (a bad or missing
// Content-Length, the input ending) ends the session, since the next
// message's start cannot be found. Writes go through jsonrpc2's own
// stream.
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
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		length, n, err := s.header()
		total += n
		if err != nil {
			return nil, total, err
		}
		if length > s.max {
			// Skipped in the reader's own buffer, never held whole. Its id
			// is somewhere in the skipped bytes, so the answer has none.
			d, err := s.in.Discard(int(length))
			total += int64(d)
			if err != nil {
				return nil, total, fmt.Errorf("skip a message of %d bytes: %w", length, err)
			}
			s.refuse(nil, jsonrpc2.InvalidRequest, fmt.Sprintf("the message is %d bytes; the limit is %d (a document this big is not read)", length, s.max))
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.in, body); err != nil {
			return nil, total, fmt.Errorf("read a message of %d bytes: %w", length, err)
		}
		total += length
		if msg := s.decode(body); msg != nil {
			return msg, total, nil
		}
	}
}

// header reads the header block and returns the body's length. Unknown
// headers (Content-Type) are ignored, as LSP allows.
func (s *stream) header() (length, total int64, err error) {
	length = -1
	for {
		line, err := s.in.ReadSlice('\n')
		total += int64(len(line))
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return 0, total, fmt.Errorf("a header line is longer than %d bytes", maxHeaderLine)
		case err != nil:
			return 0, total, fmt.Errorf("read a header: %w", err)
		}
		text := strings.TrimSpace(string(line))
		if text == "" {
			break
		}
		name, value, ok := strings.Cut(text, ":")
		if !ok {
			return 0, total, fmt.Errorf("invalid header line %s", input.Quote(text))
		}
		if strings.EqualFold(strings.TrimSpace(name), jsonrpc2.HdrContentLength) {
			v := strings.TrimSpace(value)
			if length, err = strconv.ParseInt(v, 10, 64); err != nil || length < 0 {
				return 0, total, fmt.Errorf("invalid %s %s", jsonrpc2.HdrContentLength, input.Quote(v))
			}
		}
	}
	if length < 0 {
		return 0, total, fmt.Errorf("missing %s header", jsonrpc2.HdrContentLength)
	}
	return length, total, nil
}

// envelope is what is checked of a message before jsonrpc2 decodes it.
type envelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
}

// decode returns body's message, or answers why it is invalid and returns
// nil.
func (s *stream) decode(body []byte) jsonrpc2.Message {
	// One pass of encoding/json checks the syntax and reads the envelope;
	// the body's first byte tells a batch or a non-object from a request.
	var env envelope
	err := json.Unmarshal(body, &env)
	var se *json.SyntaxError
	trimmed := bytes.TrimSpace(body)
	switch {
	case errors.As(err, &se) || len(trimmed) == 0:
		s.refuse(nil, jsonrpc2.ParseError, "the message is not valid JSON")
		return nil
	case trimmed[0] == '[':
		s.refuse(nil, jsonrpc2.InvalidRequest, "batches are not supported: send one message per Content-Length frame")
		return nil
	case trimmed[0] != '{':
		s.refuse(nil, jsonrpc2.InvalidRequest, "a message must be a JSON object")
		return nil
	case err != nil:
		s.refuse(nil, jsonrpc2.InvalidRequest, "the message cannot be read: "+err.Error())
		return nil
	}
	id, why := checkID(env.ID)
	if why != "" {
		s.refuse(id, jsonrpc2.InvalidRequest, why)
		return nil
	}
	var version string
	if json.Unmarshal(env.JSONRPC, &version) != nil || version != jsonrpc2.Version {
		got := "nothing"
		if len(env.JSONRPC) > 0 {
			got = input.Quote(string(env.JSONRPC))
		}
		s.refuse(id, jsonrpc2.InvalidRequest, fmt.Sprintf(`jsonrpc: want "2.0", got %s`, got))
		return nil
	}
	var method string
	if len(env.Method) > 0 && json.Unmarshal(env.Method, &method) != nil {
		s.refuse(id, jsonrpc2.InvalidRequest, "method: want a string, got "+input.Quote(string(env.Method)))
		return nil
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		s.refuse(id, jsonrpc2.InvalidRequest, "the message is neither a request, a notification nor a response: "+err.Error())
		return nil
	}
	return msg
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
