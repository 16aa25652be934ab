package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/palace-dev/palace/core/palace"
)

// ServeStdio serves MCP over in and out (newline-delimited JSON-RPC) until
// in ends or ctx is cancelled. Only protocol messages are written to out.
func ServeStdio(ctx context.Context, p *palace.Palace, opts Options, in io.Reader, out io.Writer) error {
	return New(p, opts).ServeStdio(ctx, in, out)
}

// ServeStdio serves this server over in and out. mcp-go keeps its stdio
// session in a package variable, so one process serves one stdio
// connection at a time.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out, fix: func(b []byte) []byte { return boundErrors(s.ids.out(b, "", true)) }}
	pr, pw := io.Pipe()
	go s.filter(in, pw, w)
	ss := server.NewStdioServer(s.mcp)
	ss.SetErrorLogger(log.New(s.opts.Log, "palace-mcp: ", log.LstdFlags))
	s.logf("serving MCP over stdio (protocol on stdout, diagnostics on stderr)")
	err := ss.Listen(ctx, pr, w)
	pr.Close() // unblocks the filter if the server stopped first
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("mcp stdio: %w", err)
	}
	return nil
}

// filter copies the client's lines to mcp-go, answering the requests
// precheck refuses itself and swapping ids mcp-go cannot keep exact for
// tokens (see ids). It closes the pipe when the client's input ends,
// which ends the server.
//
// mcp-go serves stdio requests concurrently, so a client that sends its
// first requests right behind initialize (without waiting for the answer,
// as the spec asks) could have them refused as "before initialize": the
// filter passes nothing more until initialize has been answered.
func (s *Server) filter(in io.Reader, pw *io.PipeWriter, out *lockedWriter) {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if resp := s.precheck(line); resp != nil {
				if _, werr := out.Write(resp); werr != nil {
					pw.CloseWithError(werr)
					return
				}
			} else {
				line, _ = s.ids.in(line, "")
				var answered <-chan struct{}
				if id := initializeID(line); id != nil {
					answered = out.expect(id)
				}
				if _, werr := pw.Write(line); werr != nil {
					return // the server stopped reading
				}
				if answered != nil {
					select {
					case <-answered:
					case <-time.After(initializeWait):
						s.log.Warn("initialize not answered in time; passing on the next messages", "wait", initializeWait)
					}
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			pw.CloseWithError(err)
			return
		}
	}
}

// initializeWait bounds how long the filter holds messages back while
// initialize is served (it takes milliseconds).
const initializeWait = 10 * time.Second

// initializeID is the id of an initialize request, nil for anything else.
func initializeID(line []byte) json.RawMessage {
	if !bytes.Contains(line, []byte(`"initialize"`)) {
		return nil
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != string(mcp.MethodInitialize) || len(m.ID) == 0 || bytes.Equal(m.ID, []byte("null")) {
		return nil
	}
	return m.ID
}

// lockedWriter makes each Write atomic, and passes each message through fix
// (exact ids, bounded errors) on the way. mcp-go writes every message with
// one Write, but not all of its writers share a lock (responses and its
// roots/list requests do not), and precheck writes too: without this two
// messages could interleave on stdout. It also tells the filter when the
// answer to initialize has gone out (expect).
type lockedWriter struct {
	mu   sync.Mutex
	w    io.Writer
	fix  func([]byte) []byte
	want json.RawMessage // the id of the initialize being served
	done chan struct{}   // closed once its answer is written
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b2 := l.fix(b)
	_, err := l.w.Write(b2)
	if l.done != nil && answers(b2, l.want) {
		close(l.done)
		l.want, l.done = nil, nil
	}
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

// expect returns a channel closed once the answer to request id is written.
func (l *lockedWriter) expect(id json.RawMessage) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done != nil {
		close(l.done) // a second initialize: stop waiting for the first
	}
	l.want, l.done = bytes.TrimSpace(id), make(chan struct{})
	return l.done
}

// answers reports whether msg is the answer (result or error) to id.
func answers(msg, id json.RawMessage) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method != "" {
		return false
	}
	if bytes.Equal(m.ID, id) {
		return true
	}
	// The same id written another way ("1.0" for 1): compare values, for
	// the kinds an id may have (a map would panic in ==).
	var a, b any
	if json.Unmarshal(m.ID, &a) != nil || json.Unmarshal(id, &b) != nil {
		return false
	}
	switch a.(type) {
	case string, float64:
		return a == b
	}
	return false
}
