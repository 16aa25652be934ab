package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"

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
func (s *Server) filter(in io.Reader, pw *io.PipeWriter, out io.Writer) {
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
				if _, werr := pw.Write(line); werr != nil {
					return // the server stopped reading
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

// lockedWriter makes each Write atomic, and passes each message through fix
// (exact ids, bounded errors) on the way. mcp-go writes every message with
// one Write, but not all of its writers share a lock (responses and its
// roots/list requests do not), and precheck writes too: without this two
// messages could interleave on stdout.
type lockedWriter struct {
	mu  sync.Mutex
	w   io.Writer
	fix func([]byte) []byte
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.w.Write(l.fix(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}
