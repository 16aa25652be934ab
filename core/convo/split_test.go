package convo

import (
	"bytes"
	"strings"
	"testing"
)

func TestSplitSessions(t *testing.T) {
	data := read(t, megaFile)
	parts := SplitSessions(data)
	if !bytes.Equal(bytes.Join(parts, nil), data) {
		t.Fatal("pieces do not join back to the input")
	}
	// Sessions: the welcome box (with the preamble before it), the v2
	// banner, the "---" + "## Session 4" section, "# Session 5". The second
	// welcome box is a context restore ("Ctrl+E to show 24 previous
	// messages") and stays inside the first session.
	wantStarts := []string{
		"Notes copied from the terminal",
		" ▐▛███▜▌   Claude Code v2.0.14",
		"---\n\n## Session 4: release notes",
		"# Session 5",
	}
	if len(parts) != len(wantStarts) {
		for i, p := range parts {
			t.Logf("piece %d: %q", i, firstLine(p))
		}
		t.Fatalf("%d sessions, want %d", len(parts), len(wantStarts))
	}
	for i, w := range wantStarts {
		if !bytes.HasPrefix(parts[i], []byte(w)) {
			t.Errorf("session %d starts %q, want %q", i, firstLine(parts[i]), w)
		}
	}
	if !bytes.Contains(parts[0], []byte("Ctrl+E to show 24 previous messages")) || !bytes.Contains(parts[0], []byte("readiness probe")) {
		t.Error("context restore split off the first session")
	}
	// Each piece parses as its own transcript.
	if c := ParseText("s4", parts[2]); len(c.Messages) != 3 || c.Messages[1].Text != "draft release notes for v2.3" {
		t.Errorf("session 4 parsed to %+v", c.Messages)
	}
}

func TestSplitSessionsRules(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"blank", " \n\n", 0},
		{"single session", "> hi\nhello\n", 1},
		{"horizontal rule without header", "para one\n\n---\n\npara two\n", 1},
		{"yaml front matter", "---\ntitle: x\n---\n# Session 1\n> a\n", 1},
		{"session headings", "# Session 1\n> a\nb\n## session 2\n> c\nd\n", 2},
		{"rule then heading", "intro\n> a\nb\n---\n# Tuesday\n> c\nd\n", 2},
		{"rule then Session line", "> a\nb\n\n----\n\nSession: 2025-01-02\n> c\n", 2},
		{"two banners", "Claude Code v1.0.1\n> a\nb\nClaude Code v1.0.2\n> c\nd\n", 2},
		{"restore banner", "Claude Code v1.0.1\n> a\nb\nClaude Code v1.0.1\n  ⎿  Ctrl+E to show 5 previous messages\n> c\n", 1},
		{"CRLF", "# Session 1\r\n> a\r\n# Session 2\r\n> b\r\n", 2},
	}
	for _, tt := range tests {
		parts := SplitSessions([]byte(tt.in))
		if len(parts) != tt.want {
			t.Errorf("%s: %d sessions, want %d", tt.name, len(parts), tt.want)
		}
		if tt.want > 0 && string(bytes.Join(parts, nil)) != tt.in {
			t.Errorf("%s: pieces do not join back", tt.name)
		}
	}
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}
