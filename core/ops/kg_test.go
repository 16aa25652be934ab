package ops

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// wantField checks that err is invalid input naming field.
func wantField(t *testing.T, what string, err error, field string) {
	t.Helper()
	var ie *input.Error
	if Classify(err) != Invalid || !errors.As(err, &ie) || ie.Field != field {
		t.Errorf("%s: %v (class %s), want invalid input on field %q", what, err, Classify(err), field)
	}
}

func TestKGValidateNamesTheField(t *testing.T) {
	conf := 1.5
	fact := KGAddRequest{Subject: "Alice", Predicate: "works_at", Object: "Acme"}
	with := func(f func(*KGAddRequest)) KGAddRequest { r := fact; f(&r); return r }
	for _, c := range []struct {
		name  string
		err   error
		field string
	}{
		{"blank subject", with(func(r *KGAddRequest) { r.Subject = "  " }).Validate(), "subject"},
		{"blank predicate", with(func(r *KGAddRequest) { r.Predicate = "" }).Validate(), "predicate"},
		{"object too long", with(func(r *KGAddRequest) { r.Object = strings.Repeat("x", KGMaxNameBytes+1) }).Validate(), "object"},
		{"bad valid_from", with(func(r *KGAddRequest) { r.ValidFrom = "2026-02-30" }).Validate(), "valid_from"},
		{"inverted interval", with(func(r *KGAddRequest) { r.ValidFrom, r.ValidTo = "2024-01-01", "2023-01-01" }).Validate(), "valid_to"},
		{"confidence", with(func(r *KGAddRequest) { r.Confidence = &conf }).Validate(), "confidence"},
		{"source drawer", with(func(r *KGAddRequest) { r.SourceDrawer = "d\x00" }).Validate(), "source_drawer"},
		{"invalidate blank object", KGInvalidateRequest{Subject: "a", Predicate: "b"}.Validate(), "object"},
		{"invalidate bad end", KGInvalidateRequest{Subject: "a", Predicate: "b", Object: "c", Ended: "soon"}.Validate(), "ended"},
		{"query blank entity", KGQueryRequest{Entity: " "}.Validate(), "entity"},
		{"query bad as_of", KGQueryRequest{Entity: "a", AsOf: "2026/05/01"}.Validate(), "as_of"},
		{"query unknown direction", KGQueryRequest{Entity: "a", Direction: "up"}.Validate(), "direction"},
		{"query direction alias", KGQueryRequest{Entity: "a", Direction: "outgoing"}.Validate(), "direction"},
		{"timeline negative limit", KGTimelineRequest{Limit: -1}.Validate(), "limit"},
		{"timeline limit too high", KGTimelineRequest{Limit: MaxTimelineLimit + 1}.Validate(), "limit"},
		{"timeline blank entity", KGTimelineRequest{Entity: "  "}.Validate(), "entity"},
		{"functional unknown action", FunctionalRequest{Action: "drop", Predicate: "x"}.Validate(), "action"},
		{"functional blank predicate", FunctionalRequest{Action: FunctionalAdd, Predicate: " "}.Validate(), "predicate"},
	} {
		wantField(t, c.name, c.err, c.field)
	}
	for _, d := range append([]string{""}, KGDirections...) {
		if err := (KGQueryRequest{Entity: "a", Direction: d}).Validate(); err != nil {
			t.Errorf("direction %q: %v", d, err)
		}
	}
	if err := (KGTimelineRequest{Limit: MaxTimelineLimit}).Validate(); err != nil {
		t.Errorf("timeline at the maximum: %v", err)
	}
}

// A contradiction is the conflict class for add and check alike, with one
// message: the result's reason, "conflict: " said once.
func TestKGConflict(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	if _, err := KGAdd(ctx, p, KGAddRequest{Subject: "Alice", Predicate: "works at", Object: "Acme", ValidFrom: "2020-01-01"}); err != nil {
		t.Fatal(err)
	}
	next := KGAddRequest{Subject: "alice", Predicate: "works_at", Object: "Globex", ValidFrom: "2023-06-01"}
	for name, op := range map[string]func(context.Context, *palace.Palace, KGAddRequest) (KGAddResult, error){"add": KGAdd, "check": KGCheck} {
		res, err := op(ctx, p, next)
		if Classify(err) != Conflict || !errors.Is(err, ErrConflict) || !res.Conflict || len(res.Conflicts) != 1 {
			t.Fatalf("%s: %+v, %v; want a conflict", name, res, err)
		}
		if err.Error() != res.Reason || !strings.HasPrefix(res.Reason, "conflict: works_at holds one value") || strings.Count(res.Reason, "conflict") != 1 {
			t.Errorf("%s: error %q, reason %q", name, err, res.Reason)
		}
	}
	tl, err := KGTimeline(ctx, p, KGTimelineRequest{})
	if err != nil || len(tl.Facts) != 1 {
		t.Fatalf("the refused add and check wrote something: %+v, %v", tl, err)
	}
	next.Supersede = true
	if res, err := KGCheck(ctx, p, next); err != nil || !res.Added || !res.DryRun || len(res.Superseded) != 1 {
		t.Errorf("check with supersede: %+v, %v", res, err)
	}
	if res, err := KGAdd(ctx, p, next); err != nil || !res.Added {
		t.Errorf("add with supersede: %+v, %v", res, err)
	}
}

func TestKGReads(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	for _, o := range []string{"Bob", "Carol", "Dan"} {
		if _, err := KGAdd(ctx, p, KGAddRequest{Subject: "Alice", Predicate: "knows", Object: o, ValidFrom: "2020-01-01"}); err != nil {
			t.Fatal(err)
		}
	}
	q, err := KGQuery(ctx, p, KGQueryRequest{Entity: "bob", Direction: KGDirIn})
	if err != nil || len(q.Facts) != 1 || q.Facts[0].Direction != KGDirIn {
		t.Errorf("query bob in: %+v, %v", q, err)
	}
	if _, err := KGQuery(ctx, p, KGQueryRequest{Entity: "Nobody"}); Classify(err) != NotFound {
		t.Errorf("unknown entity: %v, want not found", err)
	}
	if _, err := KGTimeline(ctx, p, KGTimelineRequest{Entity: "Nobody"}); Classify(err) != NotFound {
		t.Errorf("timeline of an unknown entity: %v, want not found", err)
	}
	tl, err := KGTimeline(ctx, p, KGTimelineRequest{Entity: "alice", Limit: 2})
	if err != nil || len(tl.Facts) != 2 || !tl.Truncated {
		t.Errorf("timeline limit 2: %+v, %v", tl, err)
	}
	inv, err := KGInvalidate(ctx, p, KGInvalidateRequest{Subject: "Alice", Predicate: "knows", Object: "Bob", Ended: "2024-01-01"})
	if err != nil || len(inv.Closed) != 1 {
		t.Errorf("invalidate: %+v, %v", inv, err)
	}
	if _, err := KGInvalidate(ctx, p, KGInvalidateRequest{Subject: "Alice", Predicate: "knows", Object: "Carol", Ended: "2000-01-01"}); Classify(err) != Invalid {
		t.Errorf("ending before the start: %v, want invalid", err)
	}
	st, err := KGStats(ctx, p)
	if err != nil || st.Triples != 3 || st.Entities != 4 {
		t.Errorf("stats: %+v, %v", st, err)
	}
}

func TestFunctional(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	l, err := Functional(ctx, p, FunctionalRequest{})
	if err != nil || strings.Join(l.Functional, ",") != "lives_in,owner,role,status,works_at" {
		t.Fatalf("default list: %+v, %v", l, err)
	}
	if l, err = Functional(ctx, p, FunctionalRequest{Action: FunctionalRm, Predicate: "Works At"}); err != nil || strings.Join(l.Functional, ",") != "lives_in,owner,role,status" {
		t.Errorf("rm: %+v, %v", l, err)
	}
	if l, err = Functional(ctx, p, FunctionalRequest{Action: FunctionalAdd, Predicate: "reports to"}); err != nil || !strings.Contains(strings.Join(l.Functional, ","), "reports_to") {
		t.Errorf("add: %+v, %v", l, err)
	}
	if l, err = Functional(ctx, p, FunctionalRequest{Action: FunctionalList}); err != nil || len(l.Functional) != 5 {
		t.Errorf("list after edits: %+v, %v", l, err)
	}
}
