package store

import "testing"

// TestCheckKGFindsOrphanFacts: a fact whose subject or object is no
// entity (what an older import stored) fails the kg check, which names
// it; every other check still passes.
func TestCheckKGFindsOrphanFacts(t *testing.T) {
	s := openTemp(t)
	if _, err := s.w.Exec(`INSERT INTO entities (id, name, type, properties, created_at)
		VALUES ('alice', 'Alice', 'unknown', '{}', '2025-01-02T03:04:05.000000000Z')`); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO triples (id, subject, predicate, object, confidence, created_at)
		VALUES ('t_000000000000000000000001', 'alice', 'works_on', 'orion', 1, '2025-01-02T03:04:05.000000000Z')`,
		`INSERT INTO triples (id, subject, predicate, object, confidence, created_at)
		VALUES ('t_000000000000000000000002', 'bob', 'owner', 'billing', 1, '2025-01-02T03:04:05.000000000Z')`,
	} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := checksOf(t, s)["kg"]; !ok {
		t.Fatal("doctor runs no kg check")
	}
	wantOnlyFailing(t, s, "kg", "2 facts name an entity the graph does not hold (t_000000000000000000000001 (alice -> orion), "+
		"t_000000000000000000000002 (bob -> billing))")
}
