package memory

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/aaak"
)

// The wake-up lists the agents, so a reviewer and an architect sharing the
// palace know of each other and where each one's diary is: all of them for
// the whole palace; for a wing, those working in it or palace-wide, or
// filing their diary there.
func TestWakeUpAgents(t *testing.T) {
	ctx := context.Background()
	p := seedWake(t)
	for _, a := range []Agent{
		{Name: "reviewer", Focus: "reviews Go changes for races", Wing: "proj"},
		{Name: "architect", Focus: "keeps the layering"},
		{Name: "designer", Focus: "draws the web pages", Wing: "web"},
		{Name: "scribe", Focus: "keeps the minutes", Wing: "web", Diary: "proj"},
	} {
		if _, err := AddAgent(ctx, p, a); err != nil {
			t.Fatal(err)
		}
	}
	lineOf := func(w WakeResult) []string {
		var got []string
		for _, a := range w.Agents {
			got = append(got, a.Line)
		}
		return got
	}
	w := wake(t, p, WakeRequest{Wing: "proj", Budget: 5000})
	want := []string{
		"- architect: keeps the layering (diary diary-architect)",
		"- reviewer: reviews Go changes for races (wing proj, diary diary-reviewer)",
		"- scribe: keeps the minutes (wing web, diary proj)",
	}
	if got := lineOf(w); !reflect.DeepEqual(got, want) {
		t.Errorf("agents of proj:\n%s", strings.Join(got, "\n"))
	}
	if w.Agents[1].Name != "reviewer" || w.Agents[1].Diary != "diary-reviewer" || w.Agents[1].Focus != "reviews Go changes for races" {
		t.Errorf("agent as data: %+v", w.Agents[1])
	}
	if !strings.Contains(w.Text, "\n## Agents\n"+strings.Join(want, "\n")) {
		t.Errorf("agents section missing from\n%s", w.Text)
	}
	all := wake(t, p, WakeRequest{Budget: 5000})
	if got := lineOf(all); len(got) != 4 || got[1] != "- designer: draws the web pages (wing web, diary diary-designer)" {
		t.Errorf("agents of the whole palace: %q", got)
	}
	// Within the budget: a small one leaves agents out and counts them.
	small := wake(t, p, WakeRequest{Wing: "proj", Budget: 60})
	if small.Tokens > 60 || len(small.Agents) == 3 || small.Omitted == 0 {
		t.Errorf("budget 60: %d tokens, %d agents, %d omitted", small.Tokens, len(small.Agents), small.Omitted)
	}
	// AAAK lists them too.
	a := wake(t, p, WakeRequest{Wing: "proj", Format: FormatAAAK, Budget: 5000})
	doc, err := aaak.Parse(a.Text)
	if err != nil || len(a.Agents) != 3 {
		t.Fatalf("aaak: %d agents, %v\n%s", len(a.Agents), err, a.Text)
	}
	found := false
	for _, z := range doc.Zettels {
		found = found || strings.Contains(strings.ToLower(z.Quote), "layering")
	}
	if !found {
		t.Errorf("aaak does not quote the architect's focus:\n%s", a.Text)
	}
}
