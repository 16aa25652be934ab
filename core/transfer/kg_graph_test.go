package transfer

import (
	"context"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// An entity's type and aliases are the palace's own data: they travel in
// an export, and the importing palace reads facts under an alias as the
// entity's.
func TestTypesAndAliasesTravel(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t)
	if _, err := kg.Add(ctx, a.Store, kg.Fact{Subject: "Kai", Predicate: "works_on", Object: "Orion", ValidFrom: "2025-01-01"}, kg.AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := kg.Entity(ctx, a.Store, kg.EntityRequest{Name: "Kai", Type: "person", Alias: []string{"Kai Chen"}}); err != nil {
		t.Fatal(err)
	}
	b := palacetest.OpenPalace(t)
	if _, err := importAll(ctx, b, "kg.jsonl", strings.NewReader(export(t, a, ""))); err != nil {
		t.Fatal(err)
	}
	q, err := kg.Query(ctx, b.Store, kg.QueryRequest{Entity: "kai chen"})
	if err != nil || q.Entity.Name != "Kai" || q.Entity.Type != "person" || q.Entity.Inferred || len(q.Facts) != 1 ||
		len(q.Entity.Aliases) != 1 || q.Entity.Aliases[0].Name != "Kai Chen" {
		t.Errorf("imported: %+v, %v", q, err)
	}
}
