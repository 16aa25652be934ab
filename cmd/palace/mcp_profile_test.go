package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// Issue 43: the MCP surface cost about 8,000 tokens before the first call
// (instructions 5,866 characters, tools/list 25,871). These tests start the
// real binary and speak to it with mcp-go's client.

// wireLog keeps every line the server wrote to stdout, so the cost is
// counted on the answer as sent, not on mcp-go's re-encoding of it.
type wireLog struct {
	mu    sync.Mutex
	lines [][]byte
	part  []byte
}

func (w *wireLog) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.part = append(w.part, b...)
	for {
		i := bytes.IndexByte(w.part, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.lines = append(w.lines, slices.Clone(w.part[:i]))
		w.part = w.part[i+1:]
	}
}

// result returns the raw result of the answer that has the given key.
func (w *wireLog) result(key string) json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range w.lines {
		var m struct {
			Result map[string]json.RawMessage `json:"result"`
		}
		if json.Unmarshal(l, &m) == nil && m.Result[key] != nil {
			var raw struct {
				Result json.RawMessage `json:"result"`
			}
			_ = json.Unmarshal(l, &raw)
			return raw.Result
		}
	}
	return nil
}

// startProfiledMCP starts `palace serve --mcp args...` with env added (and
// the caller's own $PALACE_MCP_PROFILE removed), initializes mcp-go's
// client on it and returns the client, the initialize result and the wire.
func startProfiledMCP(t *testing.T, home string, env []string, args ...string) (*client.Client, *mcp.InitializeResult, *wireLog) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := palaceCmd(ctx, home, append([]string{"serve", "--mcp"}, args...)...)
	cmd.Env = append(slices.DeleteFunc(cmd.Env, func(kv string) bool {
		return strings.HasPrefix(kv, profileEnv+"=")
	}), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	wire := &wireLog{}
	cl := client.NewClient(transport.NewIO(io.TeeReader(stdout, wire), stdin, nil))
	t.Cleanup(func() {
		cl.Close() // closes the server's stdin: it exits
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("palace serve --mcp %v did not exit; killed", args)
			cancel()
			<-done
		}
		cancel()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
	defer ccancel()
	if err := cl.Start(cctx); err != nil {
		t.Fatalf("mcp start: %v", err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "palace-profile-test", Version: "1"}
	init, err := cl.Initialize(cctx, req)
	if err != nil {
		t.Fatalf("mcp initialize: %v", err)
	}
	return cl, init, wire
}

// listTools lists the tools and returns their names, sorted, and the
// characters of the tools/list answer as the server wrote it.
func listTools(t *testing.T, cl *client.Client, wire *wireLog) ([]string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if res.NextCursor != "" {
		t.Fatalf("tools/list is paginated: the cost would count one page only")
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	raw := wire.result("tools")
	if raw == nil {
		t.Fatalf("no tools/list answer on the wire")
	}
	return names, utf8.RuneCount(raw)
}

// profileEnv is the variable a client's configuration may set instead of
// --profile; spelled out here, since it is part of the interface.
const profileEnv = "PALACE_MCP_PROFILE"

var (
	coreTools = []string{"palace_diary", "palace_forget", "palace_get", "palace_kg", "palace_remember", "palace_search", "palace_status", "palace_wake_up"}
	fullTools = []string{"palace_diary", "palace_forget", "palace_get", "palace_kg", "palace_kg_graph", "palace_kg_review", "palace_mine",
		"palace_remember", "palace_search", "palace_status", "palace_taxonomy", "palace_wake_up"}
)

// TestMCPDefaultProfileCost: `palace serve --mcp` as a client configures it
// costs at most 8,000 characters (about 2,000 tokens) before the first
// call, instructions plus tools/list, and palace_status does not carry the
// protocol again.
func TestMCPDefaultProfileCost(t *testing.T) {
	cl, init, wire := startProfiledMCP(t, t.TempDir(), nil)
	names, list := listTools(t, cl, wire)
	instr := utf8.RuneCountInString(init.Instructions)
	t.Logf("MCP start cost, default profile: instructions %d + tools/list %d = %d characters (%d tools)", instr, list, instr+list, len(names))
	if instr+list > 8000 {
		t.Errorf("the default profile costs %d characters before the first call (instructions %d, tools/list %d); want at most 8000", instr+list, instr, list)
	}
	if !slices.Equal(names, coreTools) {
		t.Errorf("default profile tools %v, want %v", names, coreTools)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "palace_status"
	res, err := cl.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("palace_status: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var st struct {
		MemoryProtocol *string `json:"memory_protocol"`
		Session        struct{ Profile string }
		AAAKLegend     string `json:"aaak_legend"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if st.MemoryProtocol != nil || strings.Contains(string(b), "palace_wake_up") {
		t.Errorf("palace_status repeats the memory protocol (%d characters)", len(b))
	}
	if st.Session.Profile != "core" || st.AAAKLegend == "" {
		t.Errorf("palace_status: profile %q, legend of %d characters; want core and the legend", st.Session.Profile, len(st.AAAKLegend))
	}
	t.Logf("palace_status answer: %d characters", len(b))

	// What the default profile leaves out is refused saying how to get it.
	req.Params.Name, req.Params.Arguments = "palace_taxonomy", map[string]any{"action": "list"}
	if _, err := cl.CallTool(ctx, req); err == nil || !strings.Contains(err.Error(), "--profile full") {
		t.Errorf("palace_taxonomy in the core profile: %v", err)
	}
}

// TestMCPFullProfile: --profile full, or $PALACE_MCP_PROFILE=full, lists
// every tool; a flag beats the environment; an unknown profile is a usage
// error (exit 2) naming where it came from.
func TestMCPFullProfile(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want []string
	}{
		{"flag", nil, []string{"--profile", "full"}, fullTools},
		{"environment", []string{profileEnv + "=full"}, nil, fullTools},
		{"flag over environment", []string{profileEnv + "=full"}, []string{"--profile", "core"}, coreTools},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl, _, wire := startProfiledMCP(t, home, c.env, c.args...)
			names, list := listTools(t, cl, wire)
			t.Logf("%s: tools/list %d characters, %d tools", c.name, list, len(names))
			if !slices.Equal(names, c.want) {
				t.Errorf("tools %v, want %v", names, c.want)
			}
		})
	}
	for _, c := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"--profile", "everything"}, `--profile: unknown MCP profile "everything": want core or full`},
		{nil, []string{"--profile="}, `--profile: want core or full`},
		{[]string{profileEnv + "=Full"}, nil, "$" + profileEnv + `: unknown MCP profile "Full"`},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := palaceCmd(ctx, home, append([]string{"serve", "--mcp"}, c.args...)...)
		cmd.Env = append(cmd.Env, c.env...)
		cmd.Stdin = strings.NewReader("")
		out, errOut, code := clitest.Run(t, cmd)
		cancel()
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("serve --mcp %v with %v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, c.env, code, out, errOut, c.want)
		}
	}
}
