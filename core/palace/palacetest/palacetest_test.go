package palacetest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
)

// A test's palace has no model, whatever PALACE_MODEL_DIR says, unless the
// test asks for one.
func TestOpenPalaceHasNoModelUnlessAsked(t *testing.T) {
	t.Setenv(embed.EnvModelDir, t.TempDir())
	for _, o := range []palace.Options{{}, {Actor: "mcp"}} {
		if dir := OpenPalace(t, o).EmbedConfig().ModelDir; dir != "" {
			t.Errorf("%+v: model folder %q, want none", o, dir)
		}
	}
	want := t.TempDir()
	if dir := OpenPalace(t, palace.Options{ModelDir: want}).EmbedConfig().ModelDir; dir != want {
		t.Errorf("ModelDir %q asked: model folder %q", want, dir)
	}
}

// ClaudeSession continues itself: lines first..first+n-1 of one session,
// each a JSON object of that session.
func TestClaudeSessionContinues(t *testing.T) {
	whole := ClaudeSession(t, "s", 0, 12)
	if got := append(ClaudeSession(t, "s", 0, 5), ClaudeSession(t, "s", 5, 7)...); !bytes.Equal(got, whole) {
		t.Fatal("lines 0-4 then 5-11 differ from lines 0-11")
	}
	for i, l := range bytes.Split(bytes.TrimSuffix(whole, []byte("\n")), []byte("\n")) {
		var v struct{ SessionID string }
		if err := json.Unmarshal(l, &v); err != nil || v.SessionID != "s" {
			t.Errorf("line %d: %v, session %q: %s", i, err, v.SessionID, l)
		}
	}
}
