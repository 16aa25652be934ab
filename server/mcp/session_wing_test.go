package mcp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// TestSessionSavesIntoTheProjectWing: a session rooted at a folder inside
// a project (here src/api below its palace.yaml) saves a note, a diary
// entry and a fact without naming a wing, and all three land in, or are
// tied to, the project's wing, carrying the session; the session's
// wake-up shows them. Before, the diary went to diary-go-test and the fact
// to no wing.
func TestSessionSavesIntoTheProjectWing(t *testing.T) {
	proj := t.TempDir()
	writeFile(t, proj, "palace.yaml", "wing: shop\n")
	writeFile(t, proj, "src/api/handler.go", "package api\n")
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startStdio(t, newTestServer(t, p, Options{}), []string{filepath.Join(proj, "src", "api")})

	var note struct {
		ID, Wing string
	}
	c.ok("palace_remember", map[string]any{"content": "Refunds go through the payments queue, never inline."}, &note)
	var diary struct {
		ID, Wing, Agent string
	}
	c.ok("palace_diary", map[string]any{"action": "write", "text": "Left the refund retry test failing on purpose."}, &diary)
	var fact struct {
		Added  bool
		Triple struct {
			Wing       string
			Provenance struct{ Session string }
		}
	}
	c.ok("palace_kg", map[string]any{"action": "add", "subject": "refund service", "predicate": "uses", "object": "Stripe"}, &fact)
	if note.Wing != "shop" || diary.Wing != "shop" || diary.Agent != "go-test" || !fact.Added || fact.Triple.Wing != "shop" {
		t.Fatalf("note %+v, diary %+v, fact %+v: want all in shop", note, diary, fact)
	}

	session := fact.Triple.Provenance.Session
	if !strings.HasPrefix(session, "mcp-") || len(session) != len("mcp-")+16 {
		t.Fatalf("fact's session %q", session)
	}
	for _, id := range []string{note.ID, diary.ID} {
		var d struct{ Metadata json.RawMessage }
		c.ok("palace_get", map[string]any{"id": id}, &d)
		var m struct{ Session string }
		if err := json.Unmarshal(d.Metadata, &m); err != nil || m.Session != session {
			t.Errorf("%s: metadata %s, want session %s", id, d.Metadata, session)
		}
	}

	var w struct{ Wing, Text string }
	c.ok("palace_wake_up", nil, &w)
	for _, want := range []string{"payments queue", "refund retry test", "refund service uses Stripe"} {
		if w.Wing != "shop" || !strings.Contains(w.Text, want) {
			t.Errorf("wake-up of %q lacks %q:\n%s", w.Wing, want, w.Text)
		}
	}

	// Another connection is another session.
	c2 := startStdio(t, newTestServer(t, p, Options{}), []string{proj})
	c2.ok("palace_kg", map[string]any{"action": "add", "subject": "refund service", "predicate": "owned_by", "object": "Maya"}, &fact)
	if fact.Triple.Provenance.Session == session || fact.Triple.Wing != "shop" {
		t.Errorf("second session: %+v (first %s)", fact.Triple, session)
	}
}

// TestRootWithoutWingIsKept: a root that maps to no wing (a home folder,
// a palace.yaml that cannot be read) is no longer dropped in silence: the
// session's wing comes from the other roots, palace_status lists the root
// with why, and when no root maps to a wing the error says which and why.
func TestRootWithoutWingIsKept(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home", "bob")
	t.Setenv("HOME", home)
	proj := filepath.Join(home, "proj")
	writeFile(t, proj, "README.md", "proj\n")
	broken := filepath.Join(home, "broken")
	writeFile(t, broken, "palace.yaml", "wing: [\n")

	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), []string{home, broken, proj})
	var st statusResult
	c.ok("palace_status", nil, &st)
	rs := st.Session.Roots
	if st.Session.Wing != "proj" || len(rs) != 3 {
		t.Fatalf("session %+v: want wing proj and the three roots", st.Session)
	}
	if rs[0].Wing != "" || !strings.Contains(rs[0].Error, "belongs to no project") ||
		rs[1].Wing != "" || !strings.Contains(rs[1].Error, filepath.Join(broken, "palace.yaml")) ||
		rs[2].Wing != "proj" || rs[2].Error != "" {
		t.Errorf("roots %+v", rs)
	}

	c = startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), []string{home, broken})
	msg := c.fails("palace_remember", map[string]any{"content": "a note"}, "no root of the client maps to one")
	if !strings.Contains(msg, "belongs to no project") || !strings.Contains(msg, "palace.yaml") {
		t.Errorf("error %q does not say why each root has no wing", msg)
	}
	// A fact or a diary entry needs no wing: with none known they keep
	// the old defaults.
	var diary struct{ Wing string }
	c.ok("palace_diary", map[string]any{"action": "write", "text": "nothing to file"}, &diary)
	if diary.Wing != "diary-go-test" {
		t.Errorf("diary without a session wing went to %q", diary.Wing)
	}
}
