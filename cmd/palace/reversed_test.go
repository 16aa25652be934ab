//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// reversedOut is what a remember answer says about the older note a
// reversed decision may update.
type reversedOut struct {
	Added      bool       `json:"added"`
	ID         string     `json:"id"`
	Reason     string     `json:"reason"`
	Duplicates []matchOut `json:"duplicates"`
	Updates    []struct {
		ID      string   `json:"id"`
		Differs []string `json:"differs"`
		Was     []string `json:"was"`
		Now     []string `json:"now"`
	} `json:"updates"`
}

// Issue "what hostile input and real use still break", class 2: a reversed
// decision ("decrease the connection pool size ..." after "increase ...",
// clang after gcc, late after early, develop after main) came back "not
// written: near duplicate 0.83-0.88", exit 0, from palace remember,
// palace_remember and palace/remember alike. Each front now writes it,
// names the older note it may update and the words that changed, and still
// drops a mere rewording, saying "not written".
func TestRememberReversedDecisionAllFronts(t *testing.T) {
	t.Setenv("PALACE_MODEL_DIR", "") // lexical: no model, whatever the machine has
	home := t.TempDir()
	m, l := startMCPFront(t, home, t.TempDir()), startLSPFront(t, home)
	remember := map[string]func(t *testing.T, wing, text string) reversedOut{
		"cli": func(t *testing.T, wing, text string) reversedOut {
			var r reversedOut
			palaceOK(t, home, &r, "remember", "--wing", wing, "--json", "--", text)
			return r
		},
		"mcp": func(t *testing.T, wing, text string) reversedOut {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "palace_remember", map[string]any{"content": text, "wing": wing}
			res, err := m.cl.CallTool(ctx, req)
			if err != nil || res.IsError {
				t.Fatalf("palace_remember: %v %+v", err, res)
			}
			b, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			var r reversedOut
			clitest.Decode(t, "palace_remember", string(b), &r)
			return r
		},
		"lsp": func(t *testing.T, wing, text string) reversedOut {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var raw json.RawMessage
			if _, err := l.conn.Call(ctx, "palace/remember", map[string]any{"text": text, "wing": wing}, &raw); err != nil {
				t.Fatalf("palace/remember: %v", err)
			}
			var r reversedOut
			clitest.Decode(t, "palace/remember", string(raw), &r)
			return r
		},
	}
	pairs := []struct {
		older, younger, was, now string // was, now: "" when the notes are too far apart to be compared
	}{
		{"increase the connection pool size for the orders database", "decrease the connection pool size for the orders database", "increase", "decrease"},
		{"use gcc to build the release binaries", "use clang to build the release binaries", "gcc", "clang"},
		{"the session token expires too early", "the session token expires too late", "", ""},
		{"deploy from main", "deploy from develop", "", ""},
	}
	for _, front := range []string{"cli", "mcp", "lsp"} {
		t.Run(front, func(t *testing.T) {
			for i, c := range pairs {
				wing := fmt.Sprintf("%s%d", front, i)
				old := remember[front](t, wing, c.older)
				res := remember[front](t, wing, c.younger)
				if !old.Added || !res.Added || res.ID == "" || len(res.Duplicates) != 0 {
					t.Errorf("%q after %q: want written, got %+v", c.younger, c.older, res)
					continue
				}
				if c.was == "" {
					continue
				}
				want := fmt.Sprintf("kept: differs from %s in %s → %s (word); it may update it", old.ID, c.was, c.now)
				if len(res.Updates) != 1 || res.Updates[0].ID != old.ID || res.Reason != want ||
					strings.Join(res.Updates[0].Was, " ") != c.was || strings.Join(res.Updates[0].Now, " ") != c.now {
					t.Errorf("%q after %q: want the older note under updates and reason %q, got %+v", c.younger, c.older, want, res)
				}
			}
			// A rewording (case, punctuation, an inflection) is still dropped,
			// and the answer says nothing was written.
			wing := front + "0"
			res := remember[front](t, wing, "Increase the connection pool size for the orders databases.")
			if res.Added || res.ID != "" || len(res.Duplicates) != 1 || !strings.HasPrefix(res.Reason, "not written: ") {
				t.Errorf("rewording: want not written, got %+v", res)
			}
		})
	}
	// What a person reads: the rewording says "not written" (exit 0: the
	// wing holds it); the reversal is written and says what it may update.
	out, errOut, code := runPalace(t, home, "remember", "--wing", "human", "--", pairs[0].older)
	if code != 0 || !strings.HasPrefix(out, "remembered d_") {
		t.Fatalf("first note: exit %d %q %q", code, out, errOut)
	}
	old := strings.Fields(out)[1]
	out, _, code = runPalace(t, home, "remember", "--wing", "human", "--", "Increase the connection pool size for the orders database!")
	if code != 0 || !strings.HasPrefix(out, "not written: wing human already holds something close to this note") {
		t.Errorf("rewording: exit %d\n%s", code, out)
	}
	out, _, code = runPalace(t, home, "remember", "--wing", "human", "--", pairs[0].younger)
	if lines := strings.Split(out, "\n"); code != 0 || len(lines) < 2 || !strings.HasPrefix(lines[0], "remembered d_") ||
		lines[1] != "written; it may update "+old+" (differs: word; increase → decrease)" {
		t.Errorf("reversal: exit %d\n%s", code, out)
	}
	// The first decision said again after the reversal is written again:
	// notes are stamped to the second, so the reversal must be a second
	// older than it.
	time.Sleep(1100 * time.Millisecond)
	out, _, code = runPalace(t, home, "remember", "--wing", "human", "--", pairs[0].older)
	if code != 0 || !strings.HasPrefix(out, "remembered d_") || !strings.Contains(out, "(differs: word; decrease → increase)") ||
		!strings.Contains(out, "\nwritten again: it repeats these, which the note above changed since:\n  exact  "+old) {
		t.Errorf("restated decision: exit %d\n%s", code, out)
	}
}
