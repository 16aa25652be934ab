package store

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"
)

// TestFactWingAndProvenance: a fact recorded in a project session without
// a drawer is tied to the project's wing (so the wing's current facts, its
// existence and its one-wing export hold it) and keeps where it was said.
func TestFactWingAndProvenance(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	tied := kgTriple("billing", "uses", "postgres", "", "")
	tied.Wing = "shop"
	tied.Provenance = &Provenance{Session: "mcp-0123456789abcdef", Turns: &TurnRange{From: 3, To: 7}}
	loose := kgTriple("alice", "knows", "bob", "", "")
	got := insertAll(ctx, t, s, tied, loose)
	if got[0].Wing != "shop" || !reflect.DeepEqual(got[0].Provenance, tied.Provenance) {
		t.Fatalf("read back %+v (provenance %+v)", got[0], got[0].Provenance)
	}
	if got[1].Wing != "" || got[1].Provenance != nil {
		t.Fatalf("a fact with no wing or provenance read back as %+v", got[1])
	}

	cur, err := s.KGCurrent(ctx, "shop", "shop", time.Now(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(cur) != 1 || cur[0].ID != got[0].ID {
		t.Errorf("current facts of shop: %+v, want only %s", cur, got[0].ID)
	}
	if ok, err := s.HasWing(ctx, "shop"); !ok || err != nil {
		t.Errorf("HasWing(shop) = %v, %v: a wing holding only a fact exists", ok, err)
	}
	if ok, err := s.HasWing(ctx, "nowhere"); ok || err != nil {
		t.Errorf("HasWing(nowhere) = %v, %v", ok, err)
	}

	var kinds []string
	var triple map[string]any
	if _, err := s.ExportRows(ctx, "shop", func(r Row) error {
		kinds = append(kinds, r.Kind+":"+RowKey(r))
		if r.Kind == "triple" {
			triple = r.Cols
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"triple:" + got[0].ID, "entity:billing", "entity:postgres"} {
		if !slices.Contains(kinds, want) {
			t.Errorf("export of shop holds %v, not %s", kinds, want)
		}
	}
	if slices.Contains(kinds, "triple:"+got[1].ID) || slices.Contains(kinds, "entity:alice") {
		t.Errorf("export of shop holds another wing's fact: %v", kinds)
	}
	if triple["wing"] != "shop" || triple["provenance"] != `{"session":"mcp-0123456789abcdef","turns":{"from":3,"to":7}}` {
		t.Errorf("exported triple %v", triple)
	}
}

func TestProvenanceCheck(t *testing.T) {
	for _, c := range []struct {
		p     Provenance
		field string
	}{
		{Provenance{}, ""},
		{Provenance{Session: "0f8a7c2e-uuid", Turns: &TurnRange{From: 1, To: 1}}, ""},
		{Provenance{Session: string(make([]byte, MaxSessionBytes+1))}, "session"},
		{Provenance{Session: "a\nb"}, "session"},
		{Provenance{Session: "a\x1b[31m"}, "session"},
		{Provenance{Turns: &TurnRange{From: 0, To: 2}}, "turns"},
		{Provenance{Turns: &TurnRange{From: 5, To: 4}}, "turns"},
	} {
		field, err := c.p.Check()
		if field != c.field || (err != nil) != (c.field != "") {
			t.Errorf("%+v: %q, %v; want field %q", c.p, field, err, c.field)
		}
	}
	if _, err := ParseProvenance(`{"session":"x","other":1}`); err == nil {
		t.Error("ParseProvenance took an unknown key")
	}
}
