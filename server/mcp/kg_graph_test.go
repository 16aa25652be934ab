package mcp

import (
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// palace_kg_graph: the three-hop question through traverse, an entity's
// type and aliases, rm; and palace_kg's timeline as AAAK.
func TestKnowledgeGraphTyped(t *testing.T) {
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), nil)
	ids := map[string]string{}
	for _, f := range [][5]string{
		{"kai", "Kai", "works_on", "Orion", "2025-01-01"},
		{"pg", "Orion", "uses", "Postgres 14", "2024-06-01"},
		{"crdb", "Orion", "uses", "CockroachDB", "2026-04-01"},
		{"pgdb", "Postgres 14", "is_a", "database", ""},
		{"crdbdb", "CockroachDB", "is_a", "database", ""},
	} {
		args := map[string]any{"action": "add", "subject": f[1], "predicate": f[2], "object": f[3], "valid_from": f[4]}
		if f[0] == "pg" {
			args["valid_to"] = "2026-03-31"
		}
		var add struct{ Triple struct{ ID string } }
		c.ok("palace_kg", args, &add)
		ids[f[0]] = add.Triple.ID
	}

	type hop struct {
		ID        string
		Predicate string
		ValidFrom *string `json:"valid_from"`
		ValidTo   *string `json:"valid_to"`
		To        struct{ Name, Type string }
	}
	var tr struct {
		Paths     []struct{ Hops []hop }
		Truncated bool
	}
	c.ok("palace_kg_graph", map[string]any{"action": "traverse", "entity": "Kai", "depth": 3, "as_of": "2026-03-15"}, &tr)
	if len(tr.Paths) != 1 || len(tr.Paths[0].Hops) != 3 || tr.Truncated {
		t.Fatalf("traverse as of March: %+v", tr)
	}
	h := tr.Paths[0].Hops
	if h[0].ID != ids["kai"] || h[1].ID != ids["pg"] || h[2].ID != ids["pgdb"] || h[1].To.Name != "Postgres 14" || h[1].To.Type != "tool" ||
		*h[1].ValidFrom != "2024-06-01T00:00:00Z" || *h[1].ValidTo != "2026-04-01T00:00:00Z" || h[2].To.Name != "database" {
		t.Errorf("the March path: %+v", h)
	}
	c.ok("palace_kg_graph", map[string]any{"action": "traverse", "entity": "Kai", "depth": 3, "as_of": "2026-05-01", "predicates": []string{"works_on", "uses", "is_a"}}, &tr)
	if len(tr.Paths) != 1 || tr.Paths[0].Hops[1].ID != ids["crdb"] {
		t.Errorf("traverse as of May: %+v", tr)
	}
	c.ok("palace_kg_graph", map[string]any{"action": "traverse", "entity": "Kai", "limit": 1}, &tr)
	if len(tr.Paths) != 1 || !tr.Truncated {
		t.Errorf("traverse limit 1: %+v", tr)
	}

	var e struct {
		Type     string
		Inferred bool
		Evidence []struct {
			FactID string `json:"fact_id"`
		}
		Aliases []struct{ Name string }
		Facts   struct{ Out, In int }
	}
	c.ok("palace_kg_graph", map[string]any{"action": "entity", "entity": "Orion"}, &e)
	if e.Type != "project" || !e.Inferred || len(e.Evidence) != 1 || e.Evidence[0].FactID != ids["kai"] || e.Facts.Out != 2 || e.Facts.In != 1 {
		t.Errorf("Orion: %+v", e)
	}
	c.ok("palace_kg_graph", map[string]any{"action": "entity", "entity": "Kai", "type": "person", "aliases": []string{"Kai Chen"}}, &e)
	if e.Type != "person" || e.Inferred || len(e.Aliases) != 1 || e.Aliases[0].Name != "Kai Chen" {
		t.Errorf("Kai set: %+v", e)
	}
	var q struct {
		Entity struct{ Name, Type string }
		Facts  []any
	}
	c.ok("palace_kg", map[string]any{"action": "query", "entity": "kai chen"}, &q)
	if q.Entity.Name != "Kai" || q.Entity.Type != "person" || len(q.Facts) != 1 {
		t.Errorf("query by alias: %+v", q)
	}
	c.fails("palace_kg_graph", map[string]any{"action": "entity", "entity": "Kai", "aliases": []string{"Orion"}}, `invalid input: alias "Orion" is an entity of its own`)
	c.fails("palace_kg_graph", map[string]any{"action": "entity", "entity": "Kai", "type": "Two Words"}, "invalid input: type")
	c.invalid("palace_kg_graph", map[string]any{"action": "traverse", "entity": "Kai", "limit": 5000}, `"limit" is 5000; want 1 to 1000`)

	var rm struct {
		Removed bool
		Fact    struct{ ID string }
	}
	c.ok("palace_kg_graph", map[string]any{"action": "rm", "fact_id": ids["crdb"]}, &rm)
	if !rm.Removed || rm.Fact.ID != ids["crdb"] {
		t.Errorf("rm: %+v", rm)
	}
	c.fails("palace_kg_graph", map[string]any{"action": "rm", "fact_id": ids["crdb"]}, "not found: fact "+ids["crdb"])
	c.fails("palace_kg_graph", map[string]any{"action": "rm", "fact_id": "Orion uses CockroachDB"}, "invalid input: fact_id")
	c.ok("palace_kg_graph", map[string]any{"action": "traverse", "entity": "Kai", "depth": 3, "as_of": "2026-05-01"}, &tr)
	if len(tr.Paths) != 1 || len(tr.Paths[0].Hops) != 1 {
		t.Errorf("after rm, Orion uses nothing in May: %+v", tr)
	}

	var a struct {
		AAAK  string
		Facts int
		Arc   []string
	}
	c.ok("palace_kg", map[string]any{"action": "timeline", "entity": "Orion", "format": "aaak"}, &a)
	if a.Facts != 2 || !strings.HasPrefix(a.AAAK, "V1|kg|Orion|") || !strings.HasSuffix(a.AAAK, "\nARC:determ") || len(a.Arc) != 1 {
		t.Errorf("timeline as AAAK: %+v", a)
	}

	c.invalid("palace_kg_graph", map[string]any{"action": "rm"}, `"fact_id" is required for action "rm"`)
	c.invalid("palace_kg_graph", map[string]any{"action": "traverse"}, `"entity" is required for action "traverse"`)
	c.invalid("palace_kg_graph", map[string]any{"action": "traverse", "entity": "Kai", "depth": 5}, `"depth"`)
	c.invalid("palace_kg", map[string]any{"action": "query", "entity": "Kai", "depth": 2}, `unknown parameter "depth"`)
	c.invalid("palace_kg_graph", map[string]any{"action": "entity", "entity": "Kai", "depth": 2}, `"depth" does not apply to action "entity"`)
	c.invalid("palace_kg", map[string]any{"action": "timeline", "format": "yaml"}, `"format" must be one of facts, aaak`)
	c.invalid("palace_kg_graph", map[string]any{"action": "entity", "entity": "Kai", "aliases": "Kai Chen"}, `"aliases" must be an array of strings`)
}
