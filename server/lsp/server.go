// Package lsp is Palace's front for editors: a Language Server Protocol
// server over stdio that keeps the palace current as files are saved and
// answers custom palace/* requests (relevant drawers for a cursor, search,
// remember, ...). Each LSP method lives in its own file as a thin adapter
// over a core/ops operation, listed in methods.go; this file holds the
// connection, the dispatch by method and the request life cycle.
//
// The wire is go.lsp.dev/jsonrpc2 v0.10.0 with go.lsp.dev/protocol v0.12.0
// for the types; the framing is read by stream.go, so an invalid message is
// answered instead of ending the session. Dispatch is by method name here: protocol.ServerHandler
// needs the whole ~70-method Server interface and ignores its fallback, so
// custom methods would lose their types. jsonrpc2 v0.10 calls the handler
// inline on its read loop, so notifications are handled inline (they only
// record or enqueue) and requests run on their own goroutines; nothing on
// the loop ever waits for the client.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime/debug"
	"sync"
	"time"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"

	"github.com/palace-dev/palace/core/palace"
)

// Options configure Serve.
type Options struct {
	// Home is the palace directory given on the command line (--home). It
	// wins over initializationOptions.home; when both are empty the server
	// uses PALACE_HOME, else ~/.palace.
	Home string
	// ModelDir overrides the embedding model folder (--model-dir).
	ModelDir string
	// Version is reported as serverInfo.version.
	Version string
	// Log receives what the client cannot be told: errors and warnings
	// before the connection runs or after it ended, invalid framing, and
	// recovered panics (the rest goes to the client as window/logMessage);
	// nil means os.Stderr. Standard output is the protocol and is never
	// logged to.
	Log io.Writer
	// ShutdownWait bounds how long shutdown waits for background mining and
	// embedding to stop; 0 means 5 s. Every write is a transaction, so what
	// is cut short is simply redone by the next mine.
	ShutdownWait time.Duration
}

// ErrNoShutdown is returned by Serve when the client sent exit, or closed
// the connection, without a shutdown request first. LSP asks for exit code 1
// then.
var ErrNoShutdown = errors.New("lsp: the client exited without a shutdown request")

// Serve runs one LSP session over in and out until the client sends exit or
// closes the connection, or ctx ends. It returns nil after a clean
// shutdown/exit, ErrNoShutdown after an exit without shutdown, and another
// error if the stream failed.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.ShutdownWait <= 0 {
		opts.ShutdownWait = 5 * time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{
		opts:    opts,
		log:     log.New(opts.Log, "palace lsp: ", log.LstdFlags|log.Lmsgprefix),
		ctx:     ctx,
		cancel:  cancel,
		exit:    make(chan struct{}),
		running: map[jsonrpc2.ID]context.CancelFunc{},
		docs:    newDocuments(),
	}
	s.bg, s.cancelBackground = context.WithCancel(ctx)
	s.conn = jsonrpc2.NewConn(newStream(&stdio{in: in, out: out}, MaxMessageBytes, s.log))
	s.conn.Go(ctx, s.handle)
	var err error
	select {
	case <-s.exit:
	case <-s.conn.Done():
		if e := s.conn.Err(); e != nil && !errors.Is(e, io.EOF) && !errors.Is(e, io.ErrClosedPipe) {
			err = fmt.Errorf("lsp: connection: %w", e)
		}
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.stop()
	s.conn.Close()
	if err != nil {
		return err
	}
	s.mu.Lock()
	shut := s.shutdown
	s.mu.Unlock()
	if !shut {
		return ErrNoShutdown
	}
	return nil
}

// stdio joins the two halves of the connection. Closing closes the input
// when it can be closed (a pipe in tests; os.Stdin in the binary), which
// ends the read loop.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s *stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s *stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s *stdio) Close() error {
	var errs []error
	if c, ok := s.in.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	if c, ok := s.out.(io.Closer); ok && s.out != io.Writer(os.Stdout) {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// server is one session's state.
type server struct {
	opts   Options
	log    *log.Logger
	conn   jsonrpc2.Conn
	ctx    context.Context // ends when the session ends
	cancel context.CancelFunc
	// bg is the context of background work (mining, embedding), which
	// shutdown ends while the connection still runs.
	bg               context.Context
	cancelBackground context.CancelFunc

	mu          sync.Mutex
	initialized bool // initialize answered
	shutdown    bool // shutdown received
	exitOnce    sync.Once
	exit        chan struct{}
	running     map[jsonrpc2.ID]context.CancelFunc // requests in flight, for $/cancelRequest
	requests    sync.WaitGroup
	watching    sync.WaitGroup // the palace/changed watcher

	p       *palace.Palace
	cfg     config
	client  clientInfo
	folders *folders
	docs    *documents
	idx     *indexer
}

// Levels of window/logMessage (LSP's MessageType).
const (
	levelError   = 1
	levelWarning = 2
	levelInfo    = 3
	levelLog     = 4
)

func (s *server) errorf(format string, a ...any) { s.logAt(levelError, format, a...) }
func (s *server) warnf(format string, a ...any)  { s.logAt(levelWarning, format, a...) }
func (s *server) infof(format string, a ...any)  { s.logAt(levelInfo, format, a...) }
func (s *server) tracef(format string, a ...any) { s.logAt(levelLog, format, a...) }

// logAt sends a log line to the client as window/logMessage with its
// level, so an editor files it as what it is (VS Code's output channel
// showed every stderr line as an error, Neovim's lsp.log as ERROR).
// Standard error (Options.Log) gets only errors and warnings the client
// can no longer be told: before the connection runs or after it ended.
func (s *server) logAt(level int, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if s.conn != nil && s.ctx.Err() == nil {
		b, err := json.Marshal(map[string]any{"type": level, "message": msg})
		if err == nil && s.conn.Notify(s.ctx, "window/logMessage", json.RawMessage(b)) == nil {
			return
		}
	}
	if level <= levelWarning {
		s.log.Print(msg)
	}
}

// panicked reports a recovered panic: to the client, and to standard error
// too, since it is a bug whatever the client does with its log.
func (s *server) panicked(method string, p any) {
	msg := fmt.Sprintf("%s panicked: %v\n%s", method, p, debug.Stack())
	s.log.Print(msg)
	s.errorf("%s", msg)
}

// request is how a request method is answered. Inline requests run on the
// read loop (they must be quick and must not wait for the client); the
// others run on their own goroutine with a context $/cancelRequest cancels.
type request struct {
	fn     func(ctx context.Context, s *server, params json.RawMessage) (any, error)
	inline bool
	// early requests may come before initialize is answered.
	early bool
}

// handle is the jsonrpc2 handler. It runs on the read loop and never blocks
// on the client. It never returns an error: jsonrpc2 v0.10 records a
// handler's error in an atomic.Value and panics when the read that then
// fails records one of another type; a broken stream ends the read loop by
// itself.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if err := s.dispatch(ctx, reply, req); err != nil {
		s.errorf("%s: reply: %v", req.Method(), err)
	}
	return nil
}

// dispatch answers a request or handles a notification; an error means the
// reply could not be written.
func (s *server) dispatch(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	call, isCall := req.(*jsonrpc2.Call)
	method := req.Method()
	if !isCall {
		s.notify(ctx, method, req.Params())
		return nil
	}
	r, ok := requests[method]
	if !ok {
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not found: "+shortName(method)))
	}
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case shutdown:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, shortName(method)+": the server is shutting down"))
	case !initialized && !r.early:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, method+": the server is not initialized"))
	}
	if r.inline {
		res, err := s.call(ctx, r, method, req.Params())
		return s.reply(ctx, reply, method, res, err)
	}
	rctx, cancel := context.WithCancel(s.ctx)
	id := call.ID()
	s.mu.Lock()
	s.running[id] = cancel
	s.mu.Unlock()
	s.requests.Add(1)
	go func() {
		defer s.requests.Done()
		res, err := s.call(rctx, r, method, req.Params())
		s.mu.Lock()
		delete(s.running, id)
		s.mu.Unlock()
		cancelled := rctx.Err() != nil && s.ctx.Err() == nil
		cancel()
		if cancelled && err != nil {
			err = errCancelled
		}
		// The reply must not use rctx: a cancelled context makes jsonrpc2
		// drop the write, and the client would wait forever.
		if rerr := s.reply(s.ctx, reply, method, res, err); rerr != nil {
			s.errorf("reply to %s: %v", method, rerr)
		}
	}()
	return nil
}

// shortName shows a client's method name in an error, cut to 100 bytes:
// an unknown method of a megabyte is not echoed back whole.
func shortName(method string) string {
	const max = 100
	if len(method) <= max {
		return method
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(method[cut]) {
		cut--
	}
	return method[:cut] + "..."
}

// call runs a request method, turning a panic into an internal error so one
// bad request never takes the editor's session down.
func (s *server) call(ctx context.Context, r request, method string, params json.RawMessage) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.panicked(method, p)
			res, err = nil, fmt.Errorf("%s: internal error: %v", method, p)
		}
	}()
	return r.fn(ctx, s, params)
}

// reply sends a result or an error. Results are marshalled here with
// encoding/json (jsonrpc2 v0.10 uses another encoder) so every front prints
// the same JSON for the same core value.
func (s *server) reply(ctx context.Context, reply jsonrpc2.Replier, method string, res any, err error) error {
	if err != nil {
		we := wireError(err)
		if we.Code == jsonrpc2.InternalError {
			s.errorf("%s: %v", method, err)
		}
		return reply(ctx, nil, we)
	}
	b, merr := json.Marshal(res)
	if merr != nil {
		s.errorf("%s: marshal result: %v", method, merr)
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, method+": cannot encode the result"))
	}
	return reply(ctx, json.RawMessage(b), nil)
}

// notify handles a notification on the read loop. Unknown ones are ignored,
// as LSP asks; errors are logged since there is nobody to answer.
func (s *server) notify(ctx context.Context, method string, params json.RawMessage) {
	fn, ok := notifications[method]
	if !ok {
		return
	}
	s.mu.Lock()
	initialized := s.initialized
	s.mu.Unlock()
	if !initialized && method != "exit" {
		return // LSP: notifications before initialize are dropped
	}
	defer func() {
		if p := recover(); p != nil {
			s.panicked(method, p)
		}
	}()
	if err := fn(ctx, s, params); err != nil {
		s.warnf("%s: %v", method, err)
	}
}

// sendNotification sends a notification to the client. Writes are
// serialised by jsonrpc2, so any goroutine may call it.
func (s *server) sendNotification(method string, params any) {
	b, err := json.Marshal(params)
	if err != nil {
		s.errorf("notify %s: %v", method, err)
		return
	}
	if err := s.conn.Notify(s.ctx, method, json.RawMessage(b)); err != nil && s.ctx.Err() == nil {
		s.errorf("notify %s: %v", method, err)
	}
}

// callClient sends a request to the client and waits for its answer. Only
// background goroutines may call it: the answer arrives on the read loop.
func (s *server) callClient(ctx context.Context, method string, params, result any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if _, err := s.conn.Call(ctx, method, json.RawMessage(b), result); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// stop ends background work, waits for it within ShutdownWait, and closes
// the palace. Every write is a transaction, so stopping between two leaves
// the palace consistent; a write cut short is redone by the next mine.
func (s *server) stop() {
	s.exitOnce.Do(func() { close(s.exit) })
	s.cancel()
	done := make(chan struct{})
	go func() {
		if s.idx != nil {
			s.idx.wait()
		}
		s.requests.Wait()
		s.watching.Wait()
		close(done)
	}()
	clean := true
	select {
	case <-done:
	case <-time.After(s.opts.ShutdownWait):
		clean = false
		s.warnf("background work did not stop within %s; closing the database anyway", s.opts.ShutdownWait)
	}
	if s.p == nil {
		return
	}
	var err error
	if clean {
		err = s.p.Close()
	} else {
		// An embedding batch may still be running inside the model: leave
		// the model to the process's end and close only the database.
		err = s.p.CloseDatabase()
	}
	if err != nil {
		s.errorf("close palace: %v", err)
	}
}
