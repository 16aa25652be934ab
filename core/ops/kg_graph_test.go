package ops

import (
	"context"
	"strings"
	"testing"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

func TestKGGraphValidateNamesTheField(t *testing.T) {
	many := make([]string, MaxKGListItems+1)
	for i := range many {
		many[i] = "x"
	}
	for _, c := range []struct {
		name  string
		err   error
		field string
	}{
		{"entity blank", KGEntityRequest{Entity: " "}.Validate(), "entity"},
		{"entity bad type", KGEntityRequest{Entity: "Kai", Type: "Two Words"}.Validate(), "type"},
		{"entity blank alias", KGEntityRequest{Entity: "Kai", Alias: []string{"ok", "\t"}}.Validate(), "alias"},
		{"entity too many aliases", KGEntityRequest{Entity: "Kai", Alias: many}.Validate(), "alias"},
		{"entity blank unalias", KGEntityRequest{Entity: "Kai", Unalias: []string{""}}.Validate(), "unalias"},
		{"traverse blank entity", KGTraverseRequest{}.Validate(), "entity"},
		{"traverse depth", KGTraverseRequest{Entity: "Kai", Depth: MaxTraverseDepth + 1}.Validate(), "depth"},
		{"traverse limit", KGTraverseRequest{Entity: "Kai", Limit: MaxTraversePaths + 1}.Validate(), "limit"},
		{"traverse as_of", KGTraverseRequest{Entity: "Kai", AsOf: "March"}.Validate(), "as_of"},
		{"traverse direction alias", KGTraverseRequest{Entity: "Kai", Direction: "outgoing"}.Validate(), "direction"},
		{"traverse blank predicate", KGTraverseRequest{Entity: "Kai", Predicates: []string{" "}}.Validate(), "predicate"},
		{"traverse too many predicates", KGTraverseRequest{Entity: "Kai", Predicates: many}.Validate(), "predicate"},
		{"rm blank", KGRmRequest{}.Validate(), "fact_id"},
		{"rm not an id", KGRmRequest{FactID: "d_123"}.Validate(), "fact_id"},
		{"timeline format", CheckKGFormat("yaml"), "format"},
	} {
		wantField(t, c.name, c.err, c.field)
	}
	for _, f := range append([]string{""}, KGFormats...) {
		if err := CheckKGFormat(f); err != nil {
			t.Errorf("format %q: %v", f, err)
		}
	}
}

// The operations' outcome classes, and the timeline as AAAK.
func TestKGGraphOps(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	for _, f := range [][3]string{{"Kai", "works_on", "Orion"}, {"Orion", "uses", "Postgres 14"}} {
		if _, err := KGAdd(ctx, p, KGAddRequest{Subject: f[0], Predicate: f[1], Object: f[2], ValidFrom: "2025-01-01"}); err != nil {
			t.Fatal(err)
		}
	}
	e, err := KGEntity(ctx, p, KGEntityRequest{Entity: "Postgres 14", Type: "tool", Alias: []string{"PG14"}})
	if err != nil || e.Type != "tool" || e.Inferred || len(e.Aliases) != 1 {
		t.Errorf("entity: %+v, %v", e, err)
	}
	if _, err := KGEntity(ctx, p, KGEntityRequest{Entity: "Kai", Alias: []string{"Orion"}}); Classify(err) != Invalid {
		t.Errorf("alias naming an entity: %v, want invalid", err)
	}
	if _, err := KGEntity(ctx, p, KGEntityRequest{Entity: "Nobody"}); Classify(err) != NotFound {
		t.Errorf("show an unknown entity: %v, want not found", err)
	}
	tr, err := KGTraverse(ctx, p, KGTraverseRequest{Entity: "kai", Depth: 2})
	if err != nil || len(tr.Paths) != 1 || tr.Paths[0].Hops[1].To.Name != "Postgres 14" || tr.Paths[0].Hops[1].To.Type != "tool" {
		t.Errorf("traverse: %+v, %v", tr, err)
	}
	if _, err := KGTraverse(ctx, p, KGTraverseRequest{Entity: "Nobody"}); Classify(err) != NotFound {
		t.Errorf("traverse from an unknown entity: %v", err)
	}
	if _, err := KGRm(ctx, p, KGRmRequest{FactID: "t_000000000000000000000000"}); Classify(err) != NotFound {
		t.Errorf("rm an unknown fact: %v", err)
	}
	rm, err := KGRm(ctx, p, KGRmRequest{FactID: tr.Paths[0].Hops[1].ID})
	if err != nil || !rm.Removed || len(rm.DroppedEntities) != 0 {
		t.Errorf("rm: %+v, %v (Postgres 14 keeps its type and alias)", rm, err)
	}
	a, err := KGTimelineAAAK(ctx, p, KGTimelineRequest{Entity: "Orion"})
	if err != nil || a.Facts != 1 || a.Truncated {
		t.Fatalf("timeline aaak: %+v, %v", a, err)
	}
	doc, err := aaak.Parse(a.AAAK)
	if err != nil || len(doc.Zettels) != 1 || len(doc.Arcs) != 1 || !strings.Contains(a.AAAK, "\nARC:determ") ||
		doc.Zettels[0].Quote != "Kai works_on Orion (since 2025-01-01)" {
		t.Errorf("timeline aaak:\n%s\n%v", a.AAAK, err)
	}
	if _, err := KGTimelineAAAK(ctx, p, KGTimelineRequest{Entity: "Nobody"}); Classify(err) != NotFound {
		t.Errorf("aaak timeline of an unknown entity: %v", err)
	}
}
