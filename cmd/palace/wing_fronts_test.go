//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// TestWingAcrossFronts (issue 43, parts 1 and 6): an MCP session rooted at
// a subfolder of a git project (no palace.yaml) saves a note, a diary
// entry and a fact without naming a wing; `palace wake-up --wing <project>`
// and the SessionStart hook of a session in that subfolder both show all
// three, and each saved item carries the MCP session. Before, the diary
// went to diary-<agent>, the fact to no wing, and the note and the hook to
// a wing named after the subfolder.
func TestWingAcrossFronts(t *testing.T) {
	home := filepath.Join(t.TempDir(), "palace")
	proj := filepath.Join(t.TempDir(), "Billing Service")
	sub := filepath.Join(proj, "internal", "invoices")
	for _, d := range []string{filepath.Join(proj, ".git"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const wing = "billing-service"

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := transport.NewStdioWithOptions(palaceBin, nil, nil, transport.WithCommandFunc(
		func(ctx context.Context, _ string, _ []string, _ []string) (*exec.Cmd, error) {
			return palaceCmd(ctx, home, "serve", "--mcp"), nil
		}))
	if err := tr.Start(ctx); err != nil {
		t.Fatal(err)
	}
	// Roots are asked for by a server-initiated request, which the
	// protocol versions before 2026-07-28 carry.
	c := client.NewClient(tr, client.WithRootsHandler(badRoots{sub}), client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	cctx, ccancel := context.WithTimeout(ctx, 60*time.Second)
	defer ccancel()
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "claude-code", Version: "1"}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(cctx, init); err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any, out any) {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		res, err := c.CallTool(cctx, req)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		text := res.Content[0].(mcp.TextContent).Text
		if res.IsError {
			t.Fatalf("%s: %s", tool, text)
		}
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s: %v: %s", tool, err, text)
		}
	}
	var note, diary struct{ ID, Wing string }
	call("palace_remember", map[string]any{"content": "Invoices are numbered per tenant, never globally."}, &note)
	call("palace_diary", map[string]any{"action": "write", "text": "Left the VAT rounding migration half applied."}, &diary)
	var fact struct {
		Triple struct {
			Wing       string
			Provenance struct{ Session string }
		}
	}
	call("palace_kg", map[string]any{"action": "add", "subject": "invoice service", "predicate": "uses", "object": "PostgreSQL"}, &fact)
	if note.Wing != wing || diary.Wing != wing || fact.Triple.Wing != wing {
		t.Fatalf("note in %q, diary in %q, fact in %q: want all in %s", note.Wing, diary.Wing, fact.Triple.Wing, wing)
	}
	session := fact.Triple.Provenance.Session
	if !strings.HasPrefix(session, "mcp-") {
		t.Fatalf("fact session %q", session)
	}
	c.Close()

	want := []string{"numbered per tenant", "VAT rounding migration", "invoice service uses PostgreSQL"}
	out, stderr, code := runPalace(t, home, "wake-up", "--wing", wing)
	if code != 0 {
		t.Fatalf("wake-up: exit %d: %s", code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("palace wake-up --wing %s lacks %q:\n%s", wing, w, out)
		}
	}

	hctx, hcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer hcancel()
	hook := palaceCmd(hctx, home, "hook", "run", "--agent", "claude-code", "--event", "sessionstart")
	in, _ := json.Marshal(map[string]any{"session_id": "6c1f0e2a-0000-4000-8000-000000000043", "cwd": sub,
		"hook_event_name": "SessionStart", "source": "startup"})
	hook.Stdin, hook.Dir = strings.NewReader(string(in)), sub
	out, stderr, code = clitest.Run(t, hook)
	if code != 0 {
		t.Fatalf("SessionStart: exit %d: %s", code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("SessionStart in %s lacks %q:\n%s", sub, w, out)
		}
	}

	// Where each was saved is shown with it.
	for _, id := range []string{note.ID, diary.ID} {
		out, _, code := runPalace(t, home, "drawer", "show", id)
		if code != 0 || !strings.Contains(out, "session: "+session+"\n") {
			t.Errorf("drawer show %s: exit %d, no session line:\n%s", id, code, out)
		}
	}
	out, _, _ = runPalace(t, home, "kg", "query", "invoice service", "--json")
	if !strings.Contains(out, `"session": "`+session+`"`) || !strings.Contains(out, `"wing": "`+wing+`"`) {
		t.Errorf("kg query --json does not show the fact's wing and session:\n%s", out)
	}
}
