package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// status is a palace/status request with id.
func status(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"palace/status","params":{}}`
}

// sendRaw writes bytes as they are, framing and all.
func (c *rawClient) sendRaw(b string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, b); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// A Content-Length that lies, garbage between messages and header lines
// that are not headers are answered -32700 and the stream finds the next
// message: each of these ended the session with "missing Content-Length
// header" before. Every broken message is followed by a valid request that
// must be answered, so a message lost to the resync fails the test.
func TestBrokenFramingIsAnsweredAndTheSessionGoesOn(t *testing.T) {
	c := startRaw(t)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	c.wantResult("initialize", "1")
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)

	short, long := status("2"), status("4")
	for _, tc := range []struct {
		name, raw, id, says string
	}{
		// The tail of the body then looks like the next header; the
		// truncated body's answer covers it.
		{"a Content-Length 20 bytes short", fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(short)-20, short), "null", "the message is not valid JSON"},
		// The reader would eat the next message, which the client waits
		// for: the body ends at its header, answered with its own id.
		{"a Content-Length 10000 bytes long", fmt.Sprintf("Content-Length: 10000\r\n\r\n%s", long), "4",
			fmt.Sprintf("framing: the Content-Length said 10000 bytes, but the next message's Content-Length header came after %d; the message is not run", len(long))},
		// Long by less than the next header line: its start is given back.
		{"a Content-Length 7 bytes long", fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(long)+7, long), "null", "the message is not valid JSON"},
		{"a Content-Length beyond the limit, long", fmt.Sprintf("Content-Length: %d\r\n\r\n%s", 4*MaxMessageBytes, long), "null", "framing: the Content-Length said 134217728 bytes"},
		{"garbage header lines", "hello world\r\nno colon here\r\n\r\n", "null", `framing: invalid header line "hello world"; skipping to the next Content-Length header`},
		{"a JSON tail as a header line", "\"x\": 1}\r\n\r\n", "null", `framing: invalid header line "\"x\": 1}"`},
		{"garbage before a header", "xyz", "null", "framing: 3 bytes that are not a header came before a Content-Length header; they were skipped"},
		{"a Content-Length beyond int64", "Content-Length: 99999999999999999999\r\n\r\n" + long, "null", `framing: invalid Content-Length "99999999999999999999"`},
		{"a bad Content-Length", "Content-Length: abc\r\n\r\n" + long, "null", `framing: invalid Content-Length "abc"`},
		{"a negative Content-Length", "Content-Length: -5\r\n\r\n" + long, "null", `framing: invalid Content-Length "-5"`},
		{"no Content-Length", "Content-Type: application/vscode-jsonrpc\r\n\r\n" + long, "null", "framing: missing Content-Length header"},
		{"a blank line", "\r\n", "null", "framing: missing Content-Length header"},
		{"a header line of 10000 bytes", strings.Repeat("x", 10000) + "\r\n", "null", "framing: a header line is longer than 4096 bytes"},
	} {
		c.sendRaw(tc.raw)
		id := fmt.Sprint(100 + len(tc.name))
		c.send(status(id))
		c.wantError(tc.name, tc.id, -32700, tc.says)
		c.wantResult("status after "+tc.name, id)
	}
	// Garbage, a long and a short Content-Length back to back, then a
	// request: one answer each, then the request's own.
	c.sendRaw("hello\r\n\r\n" + fmt.Sprintf("Content-Length: 10000\r\n\r\n%s", long) + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(short)-20, short))
	c.send(status("9"))
	c.wantError("back to back: garbage", "null", -32700, `framing: invalid header line "hello"`)
	c.wantError("back to back: long", "4", -32700, "framing: the Content-Length said 10000 bytes")
	c.wantError("back to back: short", "null", -32700, "the message is not valid JSON")
	c.wantResult("status after all at once", "9")
}

// rw is a connection whose input is fixed and whose output is dropped.
type rw struct {
	io.Reader
	io.Writer
}

func (rw) Close() error { return nil }

// FuzzFraming checks the resync rule on arbitrary bytes before a valid
// message: whatever came before, the stream reads that message, and fails
// only when the input ends.
func FuzzFraming(f *testing.F) {
	last := status(`"last"`)
	for _, seed := range []string{
		"", "hello\r\n\r\n", "Content-Length: 10000\r\n\r\n{", "Content-Length: 5\r\n\r\n", "Content-Length: 25\r\n\r\n",
		"Content-Length: 1", "Content-Length:", "Content-Length: 99999999999999999999\r\n\r\n", "\r", "\r\n",
		"Content-Length: 2\r\n\r\n{}", "Content-Length: 5\r\nX-Foo", strings.Repeat("x", 5000),
		"Content-Length: 40000000\r\n\r\n", "Content-Length: 7\r\n\r\nabc\r", "Content-Length: 4\r\n\r\n\"a\nContent-Length: 3\r",
		"Content-Length: 3\r\n\r\n{}" + "\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, garbage []byte) {
		in := append(garbage, fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(last), last)...)
		s := newStream(rw{bytes.NewReader(in), io.Discard}, 1<<20, log.New(io.Discard, "", 0))
		for {
			msg, _, err := s.Read(context.Background())
			if err != nil {
				t.Fatalf("the stream failed before the last message: %v", err)
			}
			if r, ok := msg.(*jsonrpc2.Call); ok && r.ID() == jsonrpc2.NewStringID("last") {
				return
			}
		}
	})
}
