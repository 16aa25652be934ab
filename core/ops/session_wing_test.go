package ops

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// TestSessionWingDefaults: what an agent saves in a project session
// without naming a wing comes back at the project's wake-up: a diary entry
// with the session's DefaultWing is filed in the project (its agent still
// in its metadata and source), a fact with the session's Wing is listed
// among the project's facts; both keep the session. Without a session
// wing, the diary keeps the agent's own wing and the fact none.
func TestSessionWingDefaults(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	prov := store.Provenance{Session: "mcp-0011223344556677"}
	if _, err := Remember(ctx, p, RememberRequest{Text: "The shop deploys from the release branch.", Wing: "shop",
		Importance: DefaultImportance, Provenance: prov}); err != nil {
		t.Fatal(err)
	}
	d, err := DiaryWrite(ctx, p, DiaryWriteRequest{Agent: "Claude Code", Text: "Left the refund flow half done.",
		DefaultWing: "shop", Provenance: prov})
	if err != nil || d.Wing != "shop" {
		t.Fatalf("diary with a session wing: %+v, %v", d, err)
	}
	own, err := DiaryWrite(ctx, p, DiaryWriteRequest{Agent: "Claude Code", Text: "Elsewhere.", Wing: "notes", DefaultWing: "shop"})
	if err != nil || own.Wing != "notes" {
		t.Fatalf("diary naming its wing: %+v, %v", own, err)
	}
	alone, err := DiaryWrite(ctx, p, DiaryWriteRequest{Agent: "Claude Code", Text: "No project."})
	if err != nil || alone.Wing != DiaryWingPrefix+"claude-code" {
		t.Fatalf("diary without a session wing: %+v, %v", alone, err)
	}
	// A registered specialist keeps the diary wing the user gave it.
	if _, err := AgentAdd(ctx, p, AgentAddRequest{Name: "reviewer", Focus: "reviews", Diary: "reviews"}); err != nil {
		t.Fatal(err)
	}
	if r, err := DiaryWrite(ctx, p, DiaryWriteRequest{Agent: "reviewer", Text: "Looked at the refunds.", DefaultWing: "shop"}); err != nil || r.Wing != "reviews" {
		t.Fatalf("registered agent's diary: %+v, %v", r, err)
	}
	f, err := KGAdd(ctx, p, KGAddRequest{Subject: "refund service", Predicate: "uses", Object: "Stripe", Wing: "shop", Provenance: prov})
	if err != nil || f.Triple == nil || f.Triple.Wing != "shop" || f.Triple.Provenance == nil || f.Triple.Provenance.Session != prov.Session {
		t.Fatalf("fact with a session wing: %+v, %v", f, err)
	}
	if _, err := KGAdd(ctx, p, KGAddRequest{Subject: "Alice", Predicate: "knows", Object: "Bob"}); err != nil {
		t.Fatal(err)
	}

	w, err := WakeUp(ctx, p, WakeUpRequest{Wing: "shop", Budget: MaxWakeBudget})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"release branch", "refund flow half done", "refund service uses Stripe"} {
		if !strings.Contains(w.Text, want) {
			t.Errorf("wake-up of shop lacks %q:\n%s", want, w.Text)
		}
	}
	for _, not := range []string{"Elsewhere", "No project", "Alice"} {
		if strings.Contains(w.Text, not) {
			t.Errorf("wake-up of shop holds %q:\n%s", not, w.Text)
		}
	}
	r, err := DiaryRead(ctx, p, DiaryReadRequest{Agent: "claude-code"})
	if err != nil || len(r.Entries) != 3 {
		t.Errorf("the agent's diary, wherever filed: %+v, %v", r, err)
	}

	// A wing no operation could address is refused, naming it.
	_, err = KGAdd(ctx, p, KGAddRequest{Subject: "a", Predicate: "b", Object: "c", Wing: "a/b"})
	var ie *input.Error
	if !errors.As(err, &ie) || ie.Field != "wing" {
		t.Errorf("fact with wing a/b: %v", err)
	}
	_, err = KGAdd(ctx, p, KGAddRequest{Subject: "a", Predicate: "b", Object: "c", Provenance: store.Provenance{Session: "x\ny"}})
	if !errors.As(err, &ie) || ie.Field != "session" {
		t.Errorf("fact with a two-line session: %v", err)
	}
}
