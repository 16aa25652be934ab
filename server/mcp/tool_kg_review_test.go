package mcp

import (
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

type reviewAnswer struct {
	Decision string
	Pending  []struct {
		ID, Subject, Predicate, Object, Sentence string
		SourceDrawer                             string `json:"source_drawer"`
		Confidence                               float64
		Supersedes                               []struct{ Object string }
		Blocked                                  string
	}
	Decided []struct {
		ID, Status, Error string
		Fact              *struct{ Added bool }
	}
	Total int
}

// TestKGExtractReview: what a note says is proposed in remember's answer,
// listed by review with the fact it would supersede, and written only when
// the agent accepts it.
func TestKGExtractReview(t *testing.T) {
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), nil)
	c.ok("palace_kg", map[string]any{"action": "add", "subject": "billing service", "predicate": "owner", "object": "Rafael", "valid_from": "2025-01-01"}, nil)
	var rem struct {
		ID       string
		Proposed []struct{ ID, Subject, Predicate, Object string }
	}
	c.ok("palace_remember", map[string]any{"content": "Dana owns the billing service. Kai prefers tabs.", "wing": "orion"}, &rem)
	if len(rem.Proposed) != 2 || rem.Proposed[0].Object != "Dana" || rem.Proposed[1].Subject != "Kai" {
		t.Fatalf("remember's proposals: %+v", rem)
	}
	var r reviewAnswer
	c.ok("palace_kg_review", map[string]any{"action": "review"}, &r)
	if r.Decision != "list" || r.Total != 2 || len(r.Pending) != 2 || r.Pending[0].SourceDrawer != rem.ID {
		t.Fatalf("review: %+v", r)
	}
	owner, kai := r.Pending[0], r.Pending[1]
	if owner.Subject != "billing service" || len(owner.Supersedes) != 1 || owner.Supersedes[0].Object != "Rafael" || owner.Sentence != "Dana owns the billing service." {
		t.Errorf("the owner proposal %+v: want a supersession of Rafael, with its sentence", owner)
	}
	c.ok("palace_kg_review", map[string]any{"action": "review", "decision": "accept", "ids": []string{owner.ID}}, &r)
	if len(r.Decided) != 1 || r.Decided[0].Status != "accepted" || r.Decided[0].Fact == nil || !r.Decided[0].Fact.Added || r.Total != 1 {
		t.Errorf("accept: %+v", r)
	}
	var q struct{ Facts []struct{ Object string } }
	c.ok("palace_kg", map[string]any{"action": "query", "entity": "billing service", "as_of": "2999-01-01"}, &q)
	if len(q.Facts) != 1 || q.Facts[0].Object != "Dana" {
		t.Errorf("billing service now: %+v", q)
	}
	c.ok("palace_kg_review", map[string]any{"action": "review", "decision": "reject", "ids": []string{kai.ID}}, &r)
	if len(r.Decided) != 1 || r.Decided[0].Status != "rejected" || r.Total != 0 {
		t.Errorf("reject: %+v", r)
	}
	var ex struct {
		Read     int `json:"drawers_read"`
		Proposed int
	}
	c.ok("palace_kg_review", map[string]any{"action": "extract", "wing": "orion", "min_confidence": 0.5}, &ex)
	if ex.Read != 0 || ex.Proposed != 0 {
		t.Errorf("extract after remember: %+v, want nothing left to read", ex)
	}
}

func TestKGReviewRefusals(t *testing.T) {
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), nil)
	c.invalid("palace_kg_review", map[string]any{"action": "extract", "ids": []string{"p_1"}}, `"ids" does not apply to action "extract"`)
	c.invalid("palace_kg_review", map[string]any{"action": "review", "decision": "maybe"}, `"decision" must be one of list, accept, reject`)
	c.invalid("palace_kg_review", map[string]any{"action": "review", "min_confidence": 2}, `"min_confidence"`)
	c.invalid("palace_kg_review", map[string]any{"action": "review", "wing": "orion"}, `"wing" does not apply to action "review"`)
	c.fails("palace_kg_review", map[string]any{"action": "review", "decision": "accept"}, "invalid input: ids")
	c.fails("palace_kg_review", map[string]any{"action": "review", "ids": []string{"p_1"}}, "invalid input: ids")
	c.fails("palace_kg_review", map[string]any{"action": "review", "decision": "accept", "ids": []string{"p_000000000000000000000000"}}, "not found:")
	c.fails("palace_kg_review", map[string]any{"action": "extract", "wing": "nosuchwing"}, "invalid input: wing")

	// A proposal that cannot supersede stays pending: a conflict, as add's.
	c.ok("palace_remember", map[string]any{"content": "Dana owns the billing service.", "wing": "orion"}, nil)
	c.ok("palace_kg", map[string]any{"action": "add", "subject": "billing service", "predicate": "owner", "object": "Rafael", "valid_from": "2999-01-01"}, nil)
	var r reviewAnswer
	c.ok("palace_kg_review", map[string]any{"action": "review"}, &r)
	if len(r.Pending) != 1 || !strings.Contains(r.Pending[0].Blocked, "cannot supersede") {
		t.Fatalf("review: %+v", r)
	}
	msg := c.fails("palace_kg_review", map[string]any{"action": "review", "decision": "accept", "min_confidence": 0}, "conflict: 1 of 1 proposals left pending")
	if !strings.HasPrefix(msg, "conflict: ") {
		t.Errorf("conflict message %q", msg)
	}
}
