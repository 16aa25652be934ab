// Package mcp is Palace's MCP front: one stdio or streamable-HTTP
// server whose tools are thin adapters over the core/ops operations the
// CLI and the LSP server call (ops.Search, ops.Remember, ops.KGAdd,
// ops.Mine, ...). It holds no memory logic of its own: it checks arguments
// against each tool's schema, resolves the session's wing and roots, calls
// the operation and shapes the answer.
//
// Protocol goes to stdout only; diagnostics go to Options.Log (stderr by
// default). Tool handlers run concurrently (mcp-go serves requests on
// several goroutines), so everything here is goroutine-safe and the palace
// handle is shared.
package mcp

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/palace-dev/palace/core/palace"
)

//go:embed instructions.md
var instructions string

//go:embed aaak-legend.md
var aaakLegend string

// Instructions is the memory protocol the server sends in its initialize
// result, as `palace serve --mcp --instructions` prints it. It is the
// protocol's only copy: every session pays for it once, so it says when to
// call which tool and leaves how to the tools' own descriptions.
func Instructions() string { return instructions }

// AAAKLegend is the short AAAK legend palace_status returns.
func AAAKLegend() string { return aaakLegend }

// Name is the server's name in serverInfo.
const Name = "palace"

// Options configure a server. The zero value serves stdio with the wing
// taken from the client's roots.
type Options struct {
	// Wing is the project wing (`palace serve --wing`). When empty, tools
	// that need a wing take it from the client's MCP roots: the root's
	// palace.yaml, else its folder name. The working directory is never
	// used: clients start servers from anywhere ($HOME, /).
	Wing string
	// AllowPaths are folders palace_mine may read besides the client's
	// roots (`--allow-path`).
	AllowPaths []string
	// Version is reported in serverInfo.
	Version string
	// Log receives diagnostics, one line each; nil means os.Stderr. Never
	// os.Stdout: in stdio mode that is the protocol stream.
	Log io.Writer

	// HTTP, when set, serves streamable HTTP on this address instead of
	// stdio: loopback only unless AllowRemote, with a bearer token.
	HTTP string
	// AllowRemote permits a non-loopback HTTP address. The token is still
	// required.
	AllowRemote bool
	// TokenFile holds the bearer token; "" means $PALACE_HOME/mcp-token,
	// created (0600) with a random token when missing.
	TokenFile string
	// Ready, when set, is called with the endpoint URL once the HTTP
	// server accepts connections.
	Ready func(url string)

	// EmbedBudget bounds the embedding phase palace_mine runs after mining;
	// what is left is embedded by the next mine or `palace reindex`. Zero
	// means DefaultEmbedBudget.
	EmbedBudget time.Duration
	// RootsTimeout bounds a roots/list request to the client; zero means
	// DefaultRootsTimeout.
	RootsTimeout time.Duration

	// Profile is ProfileCore (the default, also for "") or ProfileFull:
	// which tools and parameters the server lists and accepts.
	Profile string
}

// Defaults for Options.
const (
	DefaultEmbedBudget  = 60 * time.Second
	DefaultRootsTimeout = 5 * time.Second
)

// Server is Palace's MCP server over one open palace.
type Server struct {
	p     *palace.Palace
	opts  Options
	log   *slog.Logger
	mcp   *server.MCPServer
	tools map[string]*tool
	order []*tool
	// elsewhere are the tools of the full profile this server leaves out,
	// so a call to one is told how to get it rather than only "not found".
	elsewhere map[string]bool
	ids       *ids

	mu       sync.Mutex
	sessions map[string]*session
	subs     map[string]map[string]bool // session id -> subscribed resource URIs
}

// tool is one MCP tool: its schema, annotations and adapter.
type tool struct {
	name, title, desc string
	params            []param
	readOnly          bool
	destructive       bool
	idempotent        bool
	// full: only the full profile serves the tool.
	full bool
	// fullParams are the parameters the core profile leaves out (set by
	// inProfile), named in the error a call giving one gets.
	fullParams []string
	// moved maps an action another tool took over to that tool, so a call
	// with it is sent there.
	moved map[string]string
	// elsewhere are the tools the server leaves out (set by inProfile).
	elsewhere map[string]bool
	run       func(ctx context.Context, s *Server, a args) (any, error)
}

// allTools is every tool; the core profile serves those not marked full.
// (tools/list sorts them by name.)
func allTools() []*tool {
	return []*tool{
		toolStatus(), toolSearch(), toolGet(), toolRemember(), toolForget(),
		toolKG(), toolTaxonomy(), toolDiary(), toolWakeUp(), toolMine(),
		toolKGGraph(), toolKGReview(),
	}
}

// New builds the server: tools, the wake-up prompt, the status and drawer
// resources, and the hooks that track each session's client and roots.
func New(p *palace.Palace, opts Options) *Server {
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.EmbedBudget <= 0 {
		opts.EmbedBudget = DefaultEmbedBudget
	}
	if opts.RootsTimeout <= 0 {
		opts.RootsTimeout = DefaultRootsTimeout
	}
	if opts.Profile != ProfileFull {
		opts.Profile = ProfileCore // callers check the name with CheckProfile first
	}
	s := &Server{
		p:         p,
		opts:      opts,
		log:       slog.New(slog.NewTextHandler(opts.Log, &slog.HandlerOptions{Level: slog.LevelInfo})).With("component", "palace-mcp"),
		tools:     map[string]*tool{},
		elsewhere: map[string]bool{},
		sessions:  map[string]*session{},
		ids:       newIDs(),
	}
	// Writes through this front are audited as "mcp"; the client's name is
	// added once it introduces itself.
	p.SetActor("mcp", "")

	hooks := &server.Hooks{}
	hooks.AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, _ *mcp.InitializeResult) {
		name := req.Params.ClientInfo.Name
		// One store serves every session, so the audit log names the client
		// that most recently connected: the actor is per store, not per call.
		p.SetActor("mcp", name)
		ss := s.sessionFor(ctx)
		s.mu.Lock()
		ss.initialized = true
		s.mu.Unlock()
		s.log.Info("client connected", "client", name, "version", req.Params.ClientInfo.Version,
			"protocol", req.Params.ProtocolVersion, "roots", req.Params.Capabilities.Roots != nil)
	})
	hooks.AddOnRequestInitialization(s.requireInitialize)
	hooks.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
		s.mu.Lock()
		delete(s.sessions, cs.SessionID())
		delete(s.subs, cs.SessionID())
		s.mu.Unlock()
	})
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		s.subscribe(ctx, req.Params.URI, true)
	})
	hooks.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		s.subscribe(ctx, req.Params.URI, false)
	})
	s.mcp = server.NewMCPServer(Name, opts.Version,
		server.WithInstructions(instructions),
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(true, false),
		server.WithPromptCapabilities(false),
		server.WithLogging(),
		server.WithCompletions(),
		server.WithPromptCompletionProvider(s),
		server.WithResourceCompletionProvider(s),
		server.WithRecovery(),
		server.WithResourceRecovery(),
		server.WithHooks(hooks),
	)
	s.mcp.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, func(ctx context.Context, _ mcp.JSONRPCNotification) {
		s.sessionFor(ctx).forgetRoots()
	})
	all := allTools()
	for _, t := range all {
		if t.full && opts.Profile != ProfileFull {
			s.elsewhere[t.name] = true
		}
	}
	for _, t := range all {
		if s.elsewhere[t.name] {
			continue
		}
		t = t.inProfile(opts.Profile, s.elsewhere)
		s.tools[t.name] = t
		s.order = append(s.order, t)
		s.mcp.AddTool(mcp.NewTool(t.name, t.schemaOptions()...), s.handler(t))
	}
	s.addPrompts()
	s.addResources()
	return s
}

// MCP is the underlying mcp-go server (tests, other transports).
func (s *Server) MCP() *server.MCPServer { return s.mcp }

// Serve runs Palace's MCP server on p until ctx ends or the client goes
// away: over stdio (os.Stdin, os.Stdout), or over streamable HTTP when
// opts.HTTP is set. It is what `palace serve --mcp` calls.
func Serve(ctx context.Context, p *palace.Palace, opts Options) error {
	if opts.HTTP != "" {
		return ServeHTTP(ctx, p, opts)
	}
	return ServeStdio(ctx, p, opts, os.Stdin, os.Stdout)
}

// handler adapts a tool to mcp-go: validate, run, shape the answer.
func (s *Server) handler(t *tool) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw := req.Params.RawArguments
		if len(raw) == 0 && req.Params.Arguments != nil {
			b, err := json.Marshal(req.Params.Arguments)
			if err != nil {
				return nil, fmt.Errorf("%s: arguments: %w", t.name, err)
			}
			raw = b
		}
		// The transports answer schema violations with -32602 before the
		// call gets here; this check covers any path around them.
		a, err := t.validate(raw)
		if err != nil {
			return errorResult("invalid arguments: " + err.Error()), nil
		}
		if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
			ctx = context.WithValue(ctx, progressKey{}, req.Params.Meta.ProgressToken)
		}
		start := time.Now()
		v, err := t.run(ctx, s, a)
		if err != nil {
			s.log.Warn("tool failed", "tool", t.name, "error", err, "ms", time.Since(start).Milliseconds())
			s.warnClient(ctx, t.name+": "+err.Error())
			return toolError(err), nil
		}
		return structured(v)
	}
}

// structured answers with v as structuredContent and, for clients that only
// read text, the same JSON as text (as the spec recommends).
func structured(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return mcp.NewToolResultStructured(json.RawMessage(b), string(b)), nil
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{mcp.NewTextContent(msg)},
		IsError: true,
	}
}

// logf writes a diagnostic line; used where a structured logger would be
// noise.
func (s *Server) logf(format string, a ...any) {
	s.log.Info(strings.TrimSpace(fmt.Sprintf(format, a...)))
}
