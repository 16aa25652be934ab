package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"go.lsp.dev/jsonrpc2"
)

// callTimeout bounds one request to a server: past it the server is hung.
const callTimeout = 60 * time.Second

// serverProc is a `palace serve` child on OS pipes, as an editor or an
// agent starts it.
type serverProc struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of its stdin
	stdout *os.File // our end of its stdout
	log    *tailBuffer
	done   chan struct{} // closed when it has exited
	err    error         // Wait's result, once done is closed
}

func startServer(ctx context.Context, exe, home string, args ...string) (*serverProc, error) {
	return startCmd(childCmd(ctx, exe, home, args...), strings.Join(args, " "))
}

// startCmd starts cmd as a server on OS pipes; what names it in errors.
// The caller sets its folder and environment (startServer, or the loop
// bench starting it as an agent would).
func startCmd(cmd *exec.Cmd, what string) (*serverProc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	p := &serverProc{cmd: cmd, stdin: inW, stdout: outR, log: &tailBuffer{max: 8192}, done: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.log
	err = cmd.Start()
	// The child holds its own copies; ours would keep the pipes open
	// after it exits.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("start palace %s: %w", what, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *serverProc) pid() int { return p.cmd.Process.Pid }

// failed wraps err with the server's last log lines.
func (p *serverProc) failed(what string, err error) error {
	return fmt.Errorf("%s: %w (server log: %s)", what, err, strings.TrimSpace(p.log.String()))
}

// wait waits up to d for the server to exit, then kills it; an exit
// status other than 0 is an error.
func (p *serverProc) wait(d time.Duration) error {
	select {
	case <-p.done:
	case <-time.After(d):
		_ = p.cmd.Process.Kill()
		<-p.done
		return p.failed("stop the server", fmt.Errorf("still running %s after it was asked to exit", d))
	}
	if p.err != nil {
		return p.failed("the server exited", p.err)
	}
	return nil
}

// kill ends the server whatever state it is in (after a failure).
func (p *serverProc) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
	p.stdin.Close()
	p.stdout.Close()
}

// pipeConn joins the server's stdout and stdin into the connection a
// JSON-RPC stream reads and writes.
type pipeConn struct{ r, w *os.File }

func (c pipeConn) Read(b []byte) (int, error)  { return c.r.Read(b) }
func (c pipeConn) Write(b []byte) (int, error) { return c.w.Write(b) }
func (c pipeConn) Close() error                { return errors.Join(c.w.Close(), c.r.Close()) }

// lspClient speaks LSP (Content-Length framing, go.lsp.dev/jsonrpc2, the
// library the server uses) to a `palace serve --lsp` child. It answers the
// server's requests with null and records its notifications.
type lspClient struct {
	*serverProc
	conn    jsonrpc2.Conn
	mu      sync.Mutex
	notes   []lspNote
	changed chan struct{}
}

type lspNote struct {
	method string
	params json.RawMessage
}

func startLSP(ctx context.Context, exe, home string) (*lspClient, error) {
	sp, err := startServer(ctx, exe, home, "serve", "--lsp")
	if err != nil {
		return nil, err
	}
	c := &lspClient{serverProc: sp, changed: make(chan struct{}, 1)}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipeConn{r: sp.stdout, w: sp.stdin}))
	c.conn.Go(ctx, c.handle)
	return c, nil
}

func (c *lspClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if _, ok := req.(*jsonrpc2.Call); ok {
		return reply(ctx, nil, nil)
	}
	c.mu.Lock()
	c.notes = append(c.notes, lspNote{req.Method(), append(json.RawMessage(nil), req.Params()...)})
	c.mu.Unlock()
	select {
	case c.changed <- struct{}{}:
	default:
	}
	return nil
}

func (c *lspClient) call(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if _, err := c.conn.Call(ctx, method, params, result); err != nil {
		return c.failed(method, err)
	}
	return nil
}

func (c *lspClient) notify(ctx context.Context, method string, params any) error {
	if err := c.conn.Notify(ctx, method, params); err != nil {
		return c.failed(method, err)
	}
	return nil
}

// mark is the index the next notification will get.
func (c *lspClient) mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.notes)
}

// waitNote waits for the first notification of method at or after index
// from whose params match accepts.
func (c *lspClient) waitNote(ctx context.Context, from int, method string, match func(json.RawMessage) bool, timeout time.Duration) (json.RawMessage, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		for i := from; i < len(c.notes); i++ {
			if n := c.notes[i]; n.method == method && match(n.params) {
				c.mu.Unlock()
				return n.params, nil
			}
		}
		from = len(c.notes)
		c.mu.Unlock()
		select {
		case <-c.changed:
		case <-c.done:
			return nil, c.failed("wait for "+method, errors.New("the server exited"))
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
			return nil, c.failed("wait for "+method, fmt.Errorf("none within %s", timeout))
		}
	}
}

// stop sends shutdown and exit and waits for the server to exit with 0.
func (c *lspClient) stop(ctx context.Context) error {
	defer c.conn.Close()
	var res any
	if err := c.call(ctx, "shutdown", nil, &res); err != nil {
		c.kill()
		return err
	}
	if err := c.notify(ctx, "exit", nil); err != nil {
		c.kill()
		return err
	}
	return c.wait(10 * time.Second)
}

// mcpClient is mcp-go's client on the stdio of a `palace serve --mcp`
// child the suite started itself, so it knows the pid whose memory it reads.
type mcpClient struct {
	*serverProc
	cl *client.Client
}

func startMCP(ctx context.Context, exe, home string, args ...string) (*mcpClient, error) {
	sp, err := startServer(ctx, exe, home, append([]string{"serve", "--mcp"}, args...)...)
	if err != nil {
		return nil, err
	}
	cl := client.NewClient(transport.NewIO(sp.stdout, sp.stdin, nil))
	if err := cl.Start(ctx); err != nil {
		sp.kill()
		return nil, sp.failed("start", err)
	}
	return &mcpClient{serverProc: sp, cl: cl}, nil
}

// initialize is MCP's handshake (initialize, then the initialized
// notification), with no client capabilities.
func (c *mcpClient) initialize(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "palace-bench", Version: "1"}
	if _, err := c.cl.Initialize(ctx, req); err != nil {
		return c.failed("initialize", err)
	}
	return nil
}

// callTool calls a tool and returns its structured content as JSON; a tool
// error is an error.
func (c *mcpClient) callTool(ctx context.Context, name string, args map[string]any) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.cl.CallTool(ctx, req)
	if err != nil {
		return nil, c.failed(name, err)
	}
	if res.IsError {
		return nil, c.failed(name, fmt.Errorf("tool error: %+v", res.Content))
	}
	return json.Marshal(res.StructuredContent)
}

// stop ends the stdio session (the client closes the server's stdin) and
// waits for the server to exit with 0.
func (c *mcpClient) stop() error {
	c.cl.Close()
	err := c.wait(10 * time.Second)
	c.stdout.Close()
	return err
}
