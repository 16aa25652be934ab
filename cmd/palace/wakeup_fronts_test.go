//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// Issue 43, "a wake-up that is a handoff": with notes present, two of six
// wake-up lines were transcript turns made of `[tool_use Read]
// {"file_path": ...}` and one a raw code chunk; two of three notes were
// the same decision said twice; a note and its correction came out in
// either order. On one palace holding all of that (a real Claude Code
// session mined, source mined, the notes written through the CLI) and a
// second project beside it, the CLI, the MCP tool, the LSP method and the
// SessionStart hook give the same text: the correction and not what it
// corrects, the decision once, no tool-call JSON, tool output or source,
// nothing of the other project.
func TestWakeUpSameOnEveryFront(t *testing.T) {
	t.Setenv("PALACE_MODEL_DIR", "") // lexical: no model, whatever the machine has
	home, userHome := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, home, map[string]string{"identity.md": "I am the coding agent of Dana's shop.\n"})
	transcript, cwd := claudeSession(t, userHome) // cwd's palace.yaml: wing shop
	clitest.WriteTree(t, cwd, map[string]string{
		"auth/token.go": "package auth\n\n// expired reports whether the token is past its expiry.\nfunc expired(exp, now int64) bool {\n\treturn exp < now\n}\n",
	})
	mineOK(t, home, cwd)
	sessions := filepath.Dir(transcript)
	mineOK(t, home, sessions, "--wing", "shop")
	for _, args := range [][]string{
		{"--importance", "4", "--", "The retry policy of the payment client is 3 attempts."},
		{"--", "Correction: the retry policy of the payment client is 5 attempts, not 3."},
		{"--", "Token expiry compares exp < now, and tests use a fake clock."},
		{"--force", "--", "Token expiry compares exp < now; tests use a fake clock."},
		{"--", "Checkout sends receipts through the mail queue."},
	} {
		palaceOK(t, home, nil, append([]string{"remember", "--wing", "shop"}, args...)...)
	}
	palaceOK(t, home, nil, "diary", "write", "claude", "--wing", "shop", "--", "Fixed TestLogin.\nOpen: move the fake clock into a test helper")
	palaceOK(t, home, nil, "kg", "add", "shop", "uses", "Stripe", "--from", "2026-01-01")
	palaceOK(t, home, nil, "remember", "--wing", "blog", "--", "Blog posts are written in Markdown.")
	palaceOK(t, home, nil, "kg", "add", "blog", "status", "draft", "--from", "2026-01-01")

	var cli wakeOut
	palaceOK(t, home, &cli, "wake-up", "--wing", "shop", "--json")
	text := cli.Text
	t.Logf("\n%s", text)
	if plain := palaceOK(t, home, nil, "wake-up", "--wing", "shop"); plain != text+"\n" {
		t.Errorf("cli text differs from its JSON's:\n%s", plain)
	}
	for _, want := range []string{
		"## Decided\n- Correction: the retry policy of the payment client is 5 attempts, not 3. (replaces an earlier note)\n",
		"- Token expiry compares exp < now; tests use a fake clock.\n",
		"## Facts now\n- shop uses Stripe (since 2026-01-01)\n",
		"## Open threads\n- move the fake clock into a test helper",
		"## Drawers\n", // what was said in the session
	} {
		if !strings.Contains(text, want) {
			t.Errorf("wake-up lacks %q", want)
		}
	}
	for _, bad := range []string{"is 3 attempts", "exp < now, and tests", "[tool_use", "[tool_result", `{"`, "func expired", "<system-reminder>", "Blog", "draft"} {
		if strings.Contains(text, bad) {
			t.Errorf("wake-up shows %q", bad)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := startMCPFront(t, home, t.TempDir())
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "palace_wake_up", map[string]any{"wing": "shop"}
	res, err := m.cl.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("palace_wake_up: %v %+v", err, res)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var viaMCP wakeOut
	clitest.Decode(t, "palace_wake_up", string(b), &viaMCP)

	var raw json.RawMessage
	if _, err := startLSPFront(t, home).conn.Call(ctx, "palace/wakeUp", map[string]any{"wing": "shop"}, &raw); err != nil {
		t.Fatalf("palace/wakeUp: %v", err)
	}
	var viaLSP wakeOut
	clitest.Decode(t, "palace/wakeUp", string(raw), &viaLSP)

	in, _ := json.Marshal(map[string]any{"session_id": sessionID, "transcript_path": transcript, "cwd": cwd,
		"hook_event_name": "SessionStart", "source": "startup"})
	out, errOut, err := hookCmd(t, home, userHome, strings.NewReader(string(in)), "run", "--agent", "claude-code", "--event", "sessionstart")
	if err != nil {
		t.Fatalf("SessionStart: %v %s", err, errOut)
	}
	var hook struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	clitest.Decode(t, "SessionStart", out, &hook)

	for front, got := range map[string]string{"mcp": viaMCP.Text, "lsp": viaLSP.Text} {
		if got != text {
			t.Errorf("%s's wake-up differs from the CLI's:\n%s", front, got)
		}
	}
	// The hook introduces the wake-up with a line of its own.
	if !strings.HasSuffix(hook.Specific.Context, "\n\n"+text) {
		t.Errorf("SessionStart's context does not end with the CLI's wake-up:\n%s", hook.Specific.Context)
	}
	if _, err := os.Stat(filepath.Join(home, "palace.db")); err != nil {
		t.Fatal(err)
	}
}
