//go:build unix

// The cross-front contract test: each operation's edge cases go through
// every front that exposes the operation, with the clients a user has (the
// CLI binary, mcp-go's client on `palace serve --mcp`, a jsonrpc2 client on
// `palace serve --lsp`), and each answer is reduced to the outcome class
// ops.Classify names. The same input must have the same outcome everywhere.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	_ "github.com/mattn/go-sqlite3" // the busy case holds the palace's write lock itself
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/ops"
)

// contractCase is one row: an operation, its arguments under neutral names
// (each front's adapter translates them), and the outcome every front that
// exposes the operation must give.
type contractCase struct {
	name  string
	op    string
	args  map[string]any
	want  string // an ops outcome class: ops.OK, ops.Invalid, ...
	field string // for ops.Invalid: the field the error must name
	calls int    // times to send it (0: once); every answer must be want
}

// Argument values the harness fills in per front, so fronts do not share
// state: a fresh note's id, a text no drawer holds, the folder to mine.
const (
	freshNote  = "$note"
	uniqueText = "$unique"
	mineDir    = "$dir"
)

// contractCases are the edge cases of issue 15. Add a row to add a case.
var contractCases = []contractCase{
	{name: "search/ok", op: "search", args: map[string]any{"query": "lighthouse"}, want: ops.OK},
	{name: "search/known wing", op: "search", args: map[string]any{"query": "lighthouse", "wing": "contract"}, want: ops.OK},
	{name: "search/blank query", op: "search", args: map[string]any{"query": "  "}, want: ops.Invalid, field: "query"},
	{name: "search/unknown mode", op: "search", args: map[string]any{"query": "lighthouse", "mode": "bogus"}, want: ops.Invalid, field: "mode"},
	{name: "search/unknown kind", op: "search", args: map[string]any{"query": "lighthouse", "kind": "bogus"}, want: ops.Invalid, field: "kind"},
	{name: "search/limit above max", op: "search", args: map[string]any{"query": "lighthouse", "limit": ops.MaxSearchLimit + 1}, want: ops.Invalid, field: "limit"},
	{name: "search/negative limit", op: "search", args: map[string]any{"query": "lighthouse", "limit": -1}, want: ops.Invalid, field: "limit"},
	{name: "search/since not a date", op: "search", args: map[string]any{"query": "lighthouse", "since": "notadate"}, want: ops.Invalid, field: "since"},
	{name: "search/until not a date", op: "search", args: map[string]any{"query": "lighthouse", "until": "notadate"}, want: ops.Invalid, field: "until"},
	{name: "search/unknown wing", op: "search", args: map[string]any{"query": "lighthouse", "wing": "nosuchwing"}, want: ops.Invalid, field: "wing"},
	{name: "search/route off", op: "search", args: map[string]any{"query": "lighthouse", "route": ops.RouteOff}, want: ops.OK},
	{name: "search/route auto", op: "search", args: map[string]any{"query": "lighthouse", "wing": "contract", "route": ops.RouteAuto}, want: ops.OK},
	{name: "search/unknown route", op: "search", args: map[string]any{"query": "lighthouse", "route": "bogus"}, want: ops.Invalid, field: "route"},
	{name: "search/across a room", op: "search", args: map[string]any{"query": "lighthouse", "wing": "contract", "room": "general", "across": true}, want: ops.OK},
	{name: "search/across without a room, routing off", op: "search", args: map[string]any{"query": "lighthouse", "route": ops.RouteOff, "across": true}, want: ops.Invalid, field: "across"},
	{name: "search/across a query routing to no room", op: "search", args: map[string]any{"query": "lighthouse", "across": true}, want: ops.Invalid, field: "across"},
	{name: "search/across not a boolean", op: "search", args: map[string]any{"query": "lighthouse", "room": "general", "across": "yes"}, want: ops.Invalid, field: "across"},
	{name: "search/by file", op: "search", args: map[string]any{"query": "lighthouse", "by": ops.ByFile}, want: ops.OK},
	{name: "search/by drawer", op: "search", args: map[string]any{"query": "lighthouse", "by": ops.ByDrawer, "limit": 1}, want: ops.OK},
	{name: "search/unknown by", op: "search", args: map[string]any{"query": "lighthouse", "by": "bogus"}, want: ops.Invalid, field: "by"},
	{name: "search/detail compact", op: "search", args: map[string]any{"query": "lighthouse", "detail": ops.DetailCompact}, want: ops.OK},
	{name: "search/detail full by file", op: "search", args: map[string]any{"query": "lighthouse", "detail": ops.DetailFull, "by": ops.ByFile}, want: ops.OK},
	{name: "search/unknown detail", op: "search", args: map[string]any{"query": "lighthouse", "detail": "brief"}, want: ops.Invalid, field: "detail"},
	{name: "search/no budget", op: "search", args: map[string]any{"query": "lighthouse", "budget": 0}, want: ops.OK},
	{name: "search/budget below the first hit", op: "search", args: map[string]any{"query": "lighthouse", "budget": 1}, want: ops.OK},
	{name: "search/negative budget", op: "search", args: map[string]any{"query": "lighthouse", "budget": -1}, want: ops.Invalid, field: "budget"},
	{name: "search/budget above max", op: "search", args: map[string]any{"query": "lighthouse", "budget": ops.MaxSearchBudget + 1}, want: ops.Invalid, field: "budget"},

	{name: "get/ok", op: "get", args: map[string]any{"id": freshNote}, want: ops.OK},
	{name: "get/unknown id", op: "get", args: map[string]any{"id": "nosuchdrawer"}, want: ops.NotFound},
	{name: "get/blank id", op: "get", args: map[string]any{"id": " "}, want: ops.Invalid, field: "id"},

	{name: "forget/twice", op: "forget", args: map[string]any{"id": freshNote}, want: ops.OK, calls: 2},
	{name: "forget/unknown id", op: "forget", args: map[string]any{"id": "nosuchdrawer"}, want: ops.NotFound},
	{name: "forget/blank id", op: "forget", args: map[string]any{"id": " "}, want: ops.Invalid, field: "id"},
	{name: "purge/twice", op: "purge", args: map[string]any{"id": freshNote}, want: ops.OK, calls: 2},
	{name: "purge/unknown id", op: "purge", args: map[string]any{"id": "nosuchdrawer"}, want: ops.NotFound},
	{name: "purge/blank id", op: "purge", args: map[string]any{"id": " "}, want: ops.Invalid, field: "id"},

	{name: "remember/ok", op: "remember", args: map[string]any{"text": uniqueText, "wing": "contract"}, want: ops.OK},
	{name: "remember/blank text", op: "remember", args: map[string]any{"text": "  ", "wing": "contract"}, want: ops.Invalid, field: "text"},

	{name: "mine/unknown mode", op: "mine", args: map[string]any{"path": mineDir, "mode": "bogus"}, want: ops.Invalid, field: "mode"},

	{name: "wake-up/ok", op: "wake-up", args: map[string]any{"wing": "contract"}, want: ops.OK},
	{name: "wake-up/unknown wing", op: "wake-up", args: map[string]any{"wing": "nosuchwing"}, want: ops.Invalid, field: "wing"},

	{name: "kg/blank entity", op: "kg.query", args: map[string]any{"entity": "  "}, want: ops.Invalid, field: "entity"},
	{name: "kg/unknown entity", op: "kg.query", args: map[string]any{"entity": "Nobody"}, want: ops.NotFound},
	// Setup stores Alice works_at Acme; works_at is functional.
	{name: "kg/conflict", op: "kg.add", args: map[string]any{"subject": "Alice", "predicate": "works_at", "object": "Globex"}, want: ops.Conflict},
	{name: "kg/traverse", op: "kg.traverse", args: map[string]any{"entity": "alice", "depth": 2}, want: ops.OK},
	{name: "kg/traverse depth above max", op: "kg.traverse", args: map[string]any{"entity": "Alice", "depth": ops.MaxTraverseDepth + 1}, want: ops.Invalid, field: "depth"},
	{name: "kg/traverse unknown entity", op: "kg.traverse", args: map[string]any{"entity": "Nobody"}, want: ops.NotFound},
	{name: "kg/entity", op: "kg.entity", args: map[string]any{"entity": "Acme"}, want: ops.OK},
	{name: "kg/entity not a type", op: "kg.entity", args: map[string]any{"entity": "Alice", "type": "two words"}, want: ops.Invalid, field: "type"},
	{name: "kg/entity unknown", op: "kg.entity", args: map[string]any{"entity": "Nobody"}, want: ops.NotFound},
	{name: "kg/rm not a fact id", op: "kg.rm", args: map[string]any{"fact_id": "Alice works_at Acme"}, want: ops.Invalid, field: "fact_id"},
	{name: "kg/rm unknown fact", op: "kg.rm", args: map[string]any{"fact_id": "t_000000000000000000000000"}, want: ops.NotFound},
	{name: "kg/extract", op: "kg.extract", args: map[string]any{}, want: ops.OK},
	{name: "kg/extract unknown wing", op: "kg.extract", args: map[string]any{"wing": "nosuchwing"}, want: ops.Invalid, field: "wing"},
	{name: "kg/review", op: "kg.review", args: map[string]any{}, want: ops.OK},
	{name: "kg/accept nothing", op: "kg.accept", args: map[string]any{}, want: ops.Invalid, field: "ids"},
	{name: "kg/accept above 1", op: "kg.accept", args: map[string]any{"min-confidence": 1.5}, want: ops.Invalid, field: "min_confidence"},

	{name: "taxonomy/rm unknown room", op: "taxonomy.rm", args: map[string]any{"wing": "contract", "room": "nosuchroom"}, want: ops.NotFound},
	{name: "tunnels/ok", op: "tunnels", args: map[string]any{"wing": "contract"}, want: ops.OK},
	{name: "tunnels/unknown wing", op: "tunnels", args: map[string]any{"wing": "nosuchwing"}, want: ops.Invalid, field: "wing"},
	{name: "map/ok", op: "map", args: map[string]any{"wing": "contract"}, want: ops.OK},
	{name: "map/unknown wing", op: "map", args: map[string]any{"wing": "nosuchwing"}, want: ops.Invalid, field: "wing"},
}

// outcome is one answer reduced to its class, with the message that came
// with it (an error's text).
type outcome struct {
	class string
	msg   string
}

func (o outcome) String() string {
	if o.msg == "" {
		return o.class
	}
	m := o.msg
	if len(m) > 160 {
		m = m[:160] + "..."
	}
	return fmt.Sprintf("%s (%s)", o.class, m)
}

// front is one way in: it translates a neutral request into its own call
// and its answer into an outcome.
type front interface {
	name() string
	has(op string) bool
	call(ctx context.Context, op string, args map[string]any) (outcome, error)
	// field is what this front calls a neutral field in op.
	field(op, f string) string
}

// contractEnv is a palace home shared by the three fronts.
type contractEnv struct {
	home string
	dir  string // a small project, mined into wing "contract"
}

func newContractEnv(t *testing.T) *contractEnv {
	t.Helper()
	t.Setenv("PALACE_MODEL_DIR", "") // lexical: no model, whatever the machine has
	e := &contractEnv{home: t.TempDir(), dir: t.TempDir()}
	clitest.WriteTree(t, e.dir, map[string]string{"notes.md": "# Harbour\n\nThe lighthouse keeper logs every ship.\n"})
	mineOK(t, e.home, e.dir, "--wing", "contract")
	e.cli(t, "remember", "--wing", "contract", "--", "The lighthouse lamp is cleaned on Mondays.")
	e.cli(t, "kg", "add", "Alice", "works_at", "Acme")
	return e
}

// cli runs a setup command that must succeed and returns its stdout.
func (e *contractEnv) cli(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := runPalace(t, e.home, args...)
	if code != 0 {
		t.Fatalf("setup: palace %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// resolve fills in the per-front placeholders of args.
func (e *contractEnv) resolve(t *testing.T, f front, args map[string]any) map[string]any {
	t.Helper()
	out := make(map[string]any, len(args))
	for k, v := range args {
		switch v {
		case freshNote:
			var r rememberOut
			clitest.Decode(t, "remember", e.cli(t, "remember", "--wing", "contract", "--force", "--json", "--", "fixture for "+f.name()+" "+token(t)), &r)
			v = r.ID
		case uniqueText:
			v = "a note sent through " + f.name() + " " + token(t)
		case mineDir:
			v = e.dir
		}
		out[k] = v
	}
	return out
}

func token(t *testing.T) string {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

func TestContract(t *testing.T) {
	e := newContractEnv(t)
	fronts := []front{&cliFront{home: e.home}, startMCPFront(t, e.home, e.dir), startLSPFront(t, e.home)}
	for _, c := range contractCases {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]outcome{}
			for _, f := range fronts {
				if !f.has(c.op) {
					continue
				}
				t.Run(f.name(), func(t *testing.T) {
					args := e.resolve(t, f, c.args)
					for i := range max(c.calls, 1) {
						ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
						o, err := f.call(ctx, c.op, args)
						cancel()
						if err != nil {
							t.Fatalf("%s: %v", c.op, err)
						}
						got[f.name()] = o
						if o.class != c.want {
							t.Errorf("call %d: got %s, want %s", i+1, o, c.want)
							continue
						}
						if c.want == ops.Invalid && !namesField(o.msg, f.field(c.op, c.field)) {
							t.Errorf("call %d: the error does not name %q: %s", i+1, f.field(c.op, c.field), o.msg)
						}
					}
				})
			}
			if len(got) < 2 {
				t.Fatalf("%s is exposed by fewer than two fronts", c.op)
			}
			classes := map[string]bool{}
			for _, o := range got {
				classes[o.class] = true
			}
			if len(classes) > 1 {
				t.Errorf("the fronts disagree: %v", got)
			}
		})
	}
}

// TestContractBusy holds the palace's write lock from this process for
// longer than the store's busy timeout while every front files a note: each
// must wait its turn (ops retries a busy write) and answer ok, and each note
// must be stored exactly once.
func TestContractBusy(t *testing.T) {
	const hold = 12 * time.Second // the store's busy_timeout is 10 s
	e := newContractEnv(t)
	fronts := []front{&cliFront{home: e.home}, startMCPFront(t, e.home, e.dir), startLSPFront(t, e.home)}

	db, err := sql.Open("sqlite3", "file:"+filepath.Join(e.home, "palace.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	locked := time.Now()

	texts := map[string]string{}
	results := make([]outcome, len(fronts))
	errs := make([]error, len(fronts))
	var wg sync.WaitGroup
	for i, f := range fronts {
		texts[f.name()] = "held up behind a busy palace, sent through " + f.name() + " " + token(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			results[i], errs[i] = f.call(cctx, "remember", map[string]any{"text": texts[f.name()], "wing": "contract"})
		}()
	}
	time.Sleep(hold - time.Since(locked))
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	t.Logf("all fronts answered %.1fs after the lock was taken", time.Since(locked).Seconds())

	for i, f := range fronts {
		if errs[i] != nil {
			t.Errorf("%s: %v", f.name(), errs[i])
			continue
		}
		if results[i].class != ops.OK {
			t.Errorf("%s: got %s, want %s", f.name(), results[i], ops.OK)
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE content = ? AND deleted_at IS NULL`, texts[f.name()]).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("%s: the note is stored %d times, want once", f.name(), n)
		}
	}
}

// namesField reports whether msg names field as a word (--field counts).
func namesField(msg, field string) bool {
	return regexp.MustCompile(`(?i)(^|[^a-z0-9_])` + regexp.QuoteMeta(field) + `([^a-z0-9_]|$)`).MatchString(msg)
}

// ---- the CLI ----

// cliFront runs the binary: exit 0 ok, 2 invalid, 3 conflict, 1 with "not
// found" not found.
type cliFront struct{ home string }

// cliCommands: each operation's command words and its positional
// arguments, in order; every other argument is a --flag=value.
var cliCommands = map[string]struct{ words, pos []string }{
	"search":      {[]string{"search"}, []string{"query"}},
	"get":         {[]string{"drawer", "show"}, []string{"id"}},
	"forget":      {[]string{"drawer", "rm"}, []string{"id"}},
	"purge":       {[]string{"drawer", "purge"}, []string{"id"}},
	"remember":    {[]string{"remember"}, []string{"text"}},
	"mine":        {[]string{"mine"}, []string{"path"}},
	"wake-up":     {[]string{"wake-up"}, nil},
	"kg.query":    {[]string{"kg", "query"}, []string{"entity"}},
	"kg.add":      {[]string{"kg", "add"}, []string{"subject", "predicate", "object"}},
	"kg.traverse": {[]string{"kg", "traverse"}, []string{"entity"}},
	"kg.entity":   {[]string{"kg", "entity"}, []string{"entity"}},
	"kg.rm":       {[]string{"kg", "rm"}, []string{"fact_id"}},
	"kg.extract":  {[]string{"kg", "extract"}, nil},
	"kg.review":   {[]string{"kg", "review"}, nil},
	"kg.accept":   {[]string{"kg", "review", "accept"}, nil},
	"taxonomy.rm": {[]string{"taxonomy", "rm"}, []string{"wing", "room"}},
	"tunnels":     {[]string{"tunnels"}, nil},
	"map":         {[]string{"map"}, nil},
}

func (*cliFront) name() string { return "cli" }

func (*cliFront) has(op string) bool { _, ok := cliCommands[op]; return ok }

func (*cliFront) field(_, f string) string { return f }

func (c *cliFront) call(ctx context.Context, op string, args map[string]any) (outcome, error) {
	spec := cliCommands[op]
	argv := append([]string(nil), spec.words...)
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if !slices.Contains(spec.pos, k) {
			argv = append(argv, fmt.Sprintf("--%s=%v", k, args[k]))
		}
	}
	// After "--" a blank or dash-led value is still a positional argument.
	argv = append(argv, "--")
	for _, k := range spec.pos {
		argv = append(argv, fmt.Sprint(args[k]))
	}
	cmd := palaceCmd(ctx, c.home, argv...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return outcome{}, err
	}
	if ctx.Err() != nil {
		return outcome{}, fmt.Errorf("palace %s: %w", strings.Join(argv, " "), ctx.Err())
	}
	msg := strings.TrimSpace(stderr.String())
	switch code := cmd.ProcessState.ExitCode(); {
	case code == 0:
		return outcome{class: ops.OK}, nil
	case code == 2:
		return outcome{ops.Invalid, msg}, nil
	case code == 3:
		return outcome{ops.Conflict, msg}, nil
	case code == 1 && strings.Contains(msg, ops.ErrBusy.Error()):
		return outcome{ops.Busy, msg}, nil
	case code == 1 && strings.Contains(msg, "not found"):
		return outcome{ops.NotFound, msg}, nil
	default:
		return outcome{ops.Failed, fmt.Sprintf("exit %d: %s", code, msg)}, nil
	}
}

// ---- MCP ----

// mcpFront is mcp-go's client on `palace serve --mcp`'s stdio. A tool
// error's prefix gives the class; a JSON-RPC -32602 (arguments that break
// the tool's schema) is invalid input too.
type mcpFront struct {
	cl *client.Client
}

// mcpTools: each operation's tool, fixed arguments and renamed fields.
var mcpTools = map[string]struct {
	tool   string
	fixed  map[string]any
	rename map[string]string
}{
	"search":      {tool: "palace_search"},
	"get":         {tool: "palace_get"},
	"forget":      {tool: "palace_forget"},
	"purge":       {tool: "palace_forget", fixed: map[string]any{"purge": true}},
	"remember":    {tool: "palace_remember", rename: map[string]string{"text": "content"}},
	"mine":        {tool: "palace_mine"},
	"wake-up":     {tool: "palace_wake_up"},
	"kg.query":    {tool: "palace_kg", fixed: map[string]any{"action": "query"}},
	"kg.add":      {tool: "palace_kg", fixed: map[string]any{"action": "add"}},
	"kg.traverse": {tool: "palace_kg_graph", fixed: map[string]any{"action": "traverse"}},
	"kg.entity":   {tool: "palace_kg_graph", fixed: map[string]any{"action": "entity"}},
	"kg.rm":       {tool: "palace_kg_graph", fixed: map[string]any{"action": "rm"}},
	"kg.extract":  {tool: "palace_kg_review", fixed: map[string]any{"action": "extract"}},
	"kg.review":   {tool: "palace_kg_review", fixed: map[string]any{"action": "review"}},
	"kg.accept":   {tool: "palace_kg_review", fixed: map[string]any{"action": "review", "decision": "accept"}, rename: map[string]string{"min-confidence": "min_confidence"}},
	"taxonomy.rm": {tool: "palace_taxonomy", fixed: map[string]any{"action": "rm"}},
	"tunnels":     {tool: "palace_taxonomy", fixed: map[string]any{"action": "tunnels"}},
}

// startMCPFront serves the full profile: the contract covers every tool and
// parameter, the taxonomy and the typed graph included.
func startMCPFront(t *testing.T, home, allow string) *mcpFront {
	t.Helper()
	stdin, stdout := startServerProc(t, home, "mcp", "serve", "--mcp", "--profile", "full", "--allow-path", allow)
	cl := client.NewClient(transport.NewIO(stdout, stdin, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cl.Start(ctx); err != nil {
		t.Fatalf("mcp: start: %v", err)
	}
	t.Cleanup(func() { cl.Close() }) // closes the server's stdin: it exits
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "palace-contract-test", Version: "1"}
	if _, err := cl.Initialize(ctx, req); err != nil {
		t.Fatalf("mcp: initialize: %v", err)
	}
	return &mcpFront{cl: cl}
}

func (*mcpFront) name() string { return "mcp" }

func (*mcpFront) has(op string) bool { _, ok := mcpTools[op]; return ok }

func (*mcpFront) field(op, f string) string {
	if to, ok := mcpTools[op].rename[f]; ok {
		return to
	}
	return f
}

func (m *mcpFront) call(ctx context.Context, op string, args map[string]any) (outcome, error) {
	spec := mcpTools[op]
	in := map[string]any{}
	for k, v := range spec.fixed {
		in[k] = v
	}
	for k, v := range args {
		if to, ok := spec.rename[k]; ok {
			k = to
		}
		in[k] = v
	}
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = spec.tool, in
	res, err := m.cl.CallTool(ctx, req)
	switch {
	case err != nil && errors.Is(err, mcp.ErrInvalidParams) && !strings.Contains(err.Error(), "tool not found"):
		return outcome{ops.Invalid, err.Error()}, nil
	case err != nil:
		return outcome{}, err
	case res.IsError:
		var text []string
		for _, c := range res.Content {
			if tc, ok := c.(mcp.TextContent); ok {
				text = append(text, tc.Text)
			}
		}
		msg := strings.Join(text, " ")
		for prefix, class := range map[string]string{"invalid input:": ops.Invalid, "not found:": ops.NotFound, "conflict:": ops.Conflict, "busy:": ops.Busy} {
			if strings.HasPrefix(msg, prefix) {
				return outcome{class, msg}, nil
			}
		}
		if strings.Contains(msg, ops.ErrBusy.Error()) {
			return outcome{ops.Busy, msg}, nil
		}
		return outcome{ops.Failed, msg}, nil
	}
	// A KG contradiction may come back as an answer the agent reads
	// (conflict: true, nothing written) rather than as a tool error.
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return outcome{}, err
	}
	var answer struct {
		Conflict bool   `json:"conflict"`
		Reason   string `json:"reason"`
	}
	if json.Unmarshal(b, &answer) == nil && answer.Conflict {
		return outcome{ops.Conflict, answer.Reason}, nil
	}
	return outcome{class: ops.OK}, nil
}

// ---- LSP ----

// lspFront is a go.lsp.dev/jsonrpc2 client on `palace serve --lsp`'s
// stdio, with no workspace folders (so the server mines nothing by
// itself). -32602 is invalid input, or not found when its message says so.
type lspFront struct {
	conn jsonrpc2.Conn
}

// lspMethods: each operation's method and renamed fields ("" drops one:
// palace/mine mines the workspace folders, not a path).
var lspMethods = map[string]struct {
	method string
	fixed  map[string]any
	rename map[string]string
}{
	"search":   {method: "palace/search"},
	"get":      {method: "palace/drawer"},
	"forget":   {method: "palace/forget"},
	"purge":    {method: "palace/forget", fixed: map[string]any{"purge": true}},
	"remember": {method: "palace/remember"},
	"mine":     {method: "palace/mine", rename: map[string]string{"path": ""}},
	"wake-up":  {method: "palace/wakeUp"},
	"map":      {method: "palace/map"},
}

// searchServers sends one search to MCP's palace_search (a server allowed
// allow) and LSP's palace/search on home's palace and decodes each answer
// into its own value, for tests that compare the fronts' answers.
func searchServers(t *testing.T, home, allow string, args map[string]any, viaMCP, viaLSP any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := startMCPFront(t, home, allow)
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "palace_search", args
	res, err := m.cl.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("mcp palace_search: %v %+v", err, res)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	clitest.Decode(t, "mcp palace_search", string(b), viaMCP)
	var raw json.RawMessage
	if _, err := startLSPFront(t, home).conn.Call(ctx, "palace/search", args, &raw); err != nil {
		t.Fatalf("lsp palace/search: %v", err)
	}
	clitest.Decode(t, "lsp palace/search", string(raw), viaLSP)
}

func startLSPFront(t *testing.T, home string) *lspFront {
	t.Helper()
	stdin, stdout := startServerProc(t, home, "lsp", "serve", "--lsp")
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRW{stdout, stdin}))
	ctx, cancel := context.WithCancel(context.Background())
	// The server's own requests (progress tokens, registrations) get null.
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if _, ok := req.(*jsonrpc2.Call); ok {
			return reply(ctx, nil, nil)
		}
		return nil
	})
	f := &lspFront{conn: conn}
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer scancel()
		var res any
		if _, err := conn.Call(sctx, "shutdown", nil, &res); err == nil {
			_ = conn.Notify(sctx, "exit", nil)
		}
		cancel()
		conn.Close()
	})
	ictx, icancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer icancel()
	var initRes json.RawMessage
	if _, err := conn.Call(ictx, "initialize", protocol.InitializeParams{
		ProcessID:             int32(os.Getpid()),
		ClientInfo:            &protocol.ClientInfo{Name: "palace-contract-test"},
		InitializationOptions: map[string]any{"vectors": false},
	}, &initRes); err != nil {
		t.Fatalf("lsp: initialize: %v", err)
	}
	if err := conn.Notify(ictx, "initialized", protocol.InitializedParams{}); err != nil {
		t.Fatalf("lsp: initialized: %v", err)
	}
	return f
}

func (*lspFront) name() string { return "lsp" }

func (*lspFront) has(op string) bool { _, ok := lspMethods[op]; return ok }

func (*lspFront) field(op, f string) string {
	if to, ok := lspMethods[op].rename[f]; ok && to != "" {
		return to
	}
	return f
}

func (l *lspFront) call(ctx context.Context, op string, args map[string]any) (outcome, error) {
	spec := lspMethods[op]
	params := maps.Clone(spec.fixed)
	if params == nil {
		params = map[string]any{}
	}
	for k, v := range args {
		if to, ok := spec.rename[k]; ok {
			if to == "" {
				continue
			}
			k = to
		}
		params[k] = v
	}
	var res json.RawMessage
	_, err := l.conn.Call(ctx, spec.method, params, &res)
	var we *jsonrpc2.Error
	switch {
	case err == nil:
		return outcome{class: ops.OK}, nil
	case !errors.As(err, &we):
		return outcome{}, err
	case we.Code == jsonrpc2.InvalidParams && strings.Contains(we.Message, "not found"):
		return outcome{ops.NotFound, we.Message}, nil
	case we.Code == jsonrpc2.InvalidParams:
		return outcome{ops.Invalid, we.Message}, nil
	case strings.Contains(we.Message, ops.ErrBusy.Error()):
		return outcome{ops.Busy, we.Message}, nil
	}
	return outcome{ops.Failed, fmt.Sprintf("%d: %s", we.Code, we.Message)}, nil
}

// ---- server processes ----

// startServerProc starts `palace serve ...` on pipes, with its stderr in a
// file that is logged when the test fails, and stops it at cleanup.
func startServerProc(t *testing.T, home, what string, args ...string) (stdin io.WriteCloser, stdout io.ReadCloser) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := palaceCmd(ctx, home, args...)
	logPath := filepath.Join(t.TempDir(), what+".log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logf
	if stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if stdout, err = cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start palace %s: %v", strings.Join(args, " "), err)
	}
	t.Cleanup(func() {
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("palace %s did not exit; killed", strings.Join(args, " "))
			cancel()
			<-done
		}
		cancel()
		logf.Close()
		if t.Failed() {
			if b, _ := os.ReadFile(logPath); len(b) > 0 {
				t.Logf("%s server log:\n%s", what, b)
			}
		}
	})
	return stdin, stdout
}

// pipeRW joins a server's stdout and stdin into one stream.
type pipeRW struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p pipeRW) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeRW) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeRW) Close() error                { return errors.Join(p.w.Close(), p.r.Close()) }
