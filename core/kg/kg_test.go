package kg

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func fact(s, p, o, from, to string) Fact {
	return Fact{Subject: s, Predicate: p, Object: o, ValidFrom: from, ValidTo: to}
}

// short is a fact as the tables below spell it: "Object (interval)".
func short(t Triple) string { return t.Object + " (" + FormatInterval(t.ValidFrom, t.ValidTo) + ")" }

func shorts(ts []Triple) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, short(t))
	}
	return out
}

// snapshot is everything the graph holds, to prove "nothing written".
func snapshot(t *testing.T, st *store.Store) string {
	t.Helper()
	ctx := context.Background()
	tl, err := st.KGTimeline(ctx, "", 100000)
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.KGStats(ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	fn, set, err := st.KGFunctional(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%+v\n%d entities\n%v %v", tl, s.Entities, fn, set)
}

// now is the clock for every scenario: later than all their dates.
var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

type step struct {
	add       *Fact
	check     *Fact
	inval     *InvalidateRequest
	supersede bool

	want       string   // added, duplicate, merged, conflict, invalid, closed
	triple     string   // short(result triple), when set
	conflicts  []string // short() of the conflicting facts
	superseded []string // short() of the superseded facts, as closed
	closed     []string // invalidate: short() of the facts closed
}

type query struct {
	entity, asOf, dir string
	want              []string // "Subject predicate Object" in order
}

type scenario struct {
	name    string
	steps   []step
	queries []query
}

func addS(f Fact, want string) step { return step{add: &f, want: want} }

var aliceAcme = fact("Alice", "works_at", "Acme", "2020-01-01", "")
var aliceGlobex = fact("Alice", "works_at", "Globex", "2023-06-01", "")

var scenarios = []scenario{
	{
		name: "job change: conflict, then supersede closes the old job at the new start",
		steps: []step{
			{add: &aliceAcme, want: "added", triple: "Acme (since 2020-01-01)"},
			{add: &aliceGlobex, want: "conflict", conflicts: []string{"Acme (since 2020-01-01)"}},
			{check: &aliceGlobex, want: "conflict", conflicts: []string{"Acme (since 2020-01-01)"}},
			{check: &aliceGlobex, supersede: true, want: "added", superseded: []string{"Acme (2020-01-01 until 2023-05-31)"}},
			{add: &aliceGlobex, supersede: true, want: "added", triple: "Globex (since 2023-06-01)",
				conflicts: []string{"Acme (since 2020-01-01)"}, superseded: []string{"Acme (2020-01-01 until 2023-05-31)"}},
			// Re-asserting the current job, undated, is not a conflict with
			// the old one: it restates what is stored.
			{add: ptrFact(fact("alice", "works at", "globex", "", "")), want: "duplicate", triple: "Globex (since 2023-06-01)"},
			// A new undated employer does conflict, with both.
			{add: ptrFact(fact("Alice", "works_at", "Initech", "", "")), want: "conflict",
				conflicts: []string{"Acme (2020-01-01 until 2023-05-31)", "Globex (since 2023-06-01)"}},
		},
		queries: []query{
			{"alice", "2019-12-31", "out", nil},
			{"Alice", "2020-01-01", "out", []string{"Alice works_at Acme"}},                 // valid_from included
			{"Alice", "2023-05-31T23:59:59Z", "out", []string{"Alice works_at Acme"}},       // last second
			{"Alice", "2023-06-01", "out", []string{"Alice works_at Globex"}},               // valid_to excluded
			{"ALICE", "", "both", []string{"Alice works_at Acme", "Alice works_at Globex"}}, // whole history
			{"Globex", "2024-01-01", "in", []string{"Alice works_at Globex"}},
			{"Globex", "2024-01-01", "out", nil},
		},
	},
	{
		name: "move: lives_in is functional; a closed future stint still conflicts with an open one",
		steps: []step{
			addS(fact("Bob", "lives in", "Paris", "2015-03-01", ""), "added"),
			{add: ptrFact(fact("Bob", "lives_in", "London", "2019-09-01", "")), supersede: true, want: "added",
				superseded: []string{"Paris (2015-03-01 until 2019-08-31)"}, conflicts: []string{"Paris (since 2015-03-01)"}},
			{add: ptrFact(fact("Bob", "lives_in", "Berlin", "2021-01-01", "2021-12-31")), want: "conflict",
				conflicts: []string{"London (since 2019-09-01)"}},
		},
		queries: []query{
			{"bob", "2019-08-31", "out", []string{"Bob lives_in Paris"}},
			{"bob", "2019-09-01T00:00:00+02:00", "out", []string{"Bob lives_in Paris"}}, // 2019-08-31T22:00Z
			{"bob", "2019-09-01", "out", []string{"Bob lives_in London"}},
		},
	},
	{
		name: "re-asserted fact is a duplicate, however it is spelled",
		steps: []step{
			{add: &aliceAcme, want: "added"},
			{add: &aliceAcme, want: "duplicate", triple: "Acme (since 2020-01-01)"},
			{add: ptrFact(fact("  alice ", "Works At", "ACME", "2021-07-01", "")), want: "duplicate", triple: "Acme (since 2020-01-01)"},
			{add: ptrFact(fact("Alice", "works_at", "Acme", "", "")), want: "duplicate", triple: "Acme (since 2020-01-01)"},
			{add: ptrFact(fact("Alice", "works_at", "Acme", "2021-01-01", "2022-01-01")), want: "duplicate"},
			{check: &aliceAcme, want: "duplicate"},
		},
		queries: []query{{"alice", "", "both", []string{"Alice works_at Acme"}}},
	},
	{
		name: "restatement that reaches further merges into the stored fact",
		steps: []step{
			addS(fact("Alice", "works_at", "Acme", "2020-01-01", "2021-12-31"), "added"),
			{add: ptrFact(fact("Alice", "works_at", "Acme", "2019-06-01", "2020-06-01")), want: "merged",
				triple: "Acme (2019-06-01 until 2021-12-31)"},
			{add: ptrFact(fact("Alice", "works_at", "Acme", "2021-06-01", "")), want: "merged",
				triple: "Acme (since 2019-06-01)"},
		},
		queries: []query{
			{"alice", "2019-06-01", "out", []string{"Alice works_at Acme"}},
			{"alice", "2030-01-01", "out", []string{"Alice works_at Acme"}},
			{"alice", "", "out", []string{"Alice works_at Acme"}},
		},
	},
	{
		name: "undated restatement of a closed stint reopens only the latest stint",
		steps: []step{
			addS(fact("Alice", "works_at", "Acme", "2010-01-01", "2011-12-31"), "added"),
			addS(fact("Alice", "works_at", "Acme", "2015-01-01", "2016-12-31"), "added"),
			{add: ptrFact(fact("Alice", "works_at", "Acme", "", "")), want: "merged", triple: "Acme (since 2015-01-01)"},
		},
		queries: []query{
			{"alice", "2013-01-01", "out", nil},
			{"alice", "2011-06-01", "out", []string{"Alice works_at Acme"}},
		},
	},
	{
		name: "back-dated corrections",
		steps: []step{
			{add: &aliceAcme, want: "added"},
			{add: &aliceGlobex, supersede: true, want: "added"},
			// Overlaps the closed Acme stint: a contradiction.
			{add: ptrFact(fact("Alice", "works_at", "Initech", "2022-01-01", "2022-12-31")), want: "conflict",
				conflicts: []string{"Acme (2020-01-01 until 2023-05-31)"}},
			// Starts before Acme: closing Acme at its start cannot fix it.
			{add: ptrFact(fact("Alice", "works_at", "Initech", "2019-01-01", "")), supersede: true, want: "conflict",
				conflicts: []string{"Acme (2020-01-01 until 2023-05-31)", "Globex (since 2023-06-01)"}},
			// Ends the day before Acme starts (date-only valid_to: through
			// 2019-12-31, i.e. until 2020-01-01): no overlap.
			{add: ptrFact(fact("Alice", "works_at", "Initech", "2018-01-01", "2019-12-31")), want: "added",
				triple: "Initech (2018-01-01 until 2019-12-31)"},
			// With supersede, a correction inside the Acme stint shortens it.
			{add: ptrFact(fact("Alice", "works_at", "Hooli", "2022-01-01", "2022-12-31")), supersede: true, want: "added",
				superseded: []string{"Acme (2020-01-01 until 2021-12-31)"}, conflicts: []string{"Acme (2020-01-01 until 2023-05-31)"}},
		},
		queries: []query{
			{"alice", "2019-12-31T23:59:59Z", "out", []string{"Alice works_at Initech"}},
			{"alice", "2020-01-01", "out", []string{"Alice works_at Acme"}},
			{"alice", "2022-12-31", "out", []string{"Alice works_at Hooli"}},
			{"alice", "2023-01-01", "out", nil}, // the gap the correction left
		},
	},
	{
		name: "non-functional predicates never conflict",
		steps: []step{
			addS(fact("Alice", "knows", "Bob", "2020-01-01", ""), "added"),
			addS(fact("Alice", "knows", "Carol", "2020-01-01", ""), "added"),
			addS(fact("Alice", "knows", "Bob", "2021-01-01", ""), "duplicate"),
		},
		queries: []query{
			{"alice", "2020-06-01", "out", []string{"Alice knows Bob", "Alice knows Carol"}},
			{"bob", "2020-06-01", "in", []string{"Alice knows Bob"}},
			{"bob", "2020-06-01", "out", nil},
		},
	},
	{
		name: "an undated new value conflicts with every stored value, even closed ones",
		steps: []step{
			addS(fact("Alice", "role", "engineer", "2020-01-01", "2020-12-31"), "added"),
			{add: ptrFact(fact("Alice", "role", "manager", "", "")), want: "conflict",
				conflicts: []string{"engineer (2020-01-01 until 2020-12-31)"}},
			// Superseding without a date means "from now on".
			{add: ptrFact(fact("Alice", "role", "manager", "", "")), supersede: true, want: "added",
				triple: "manager (since 2026-05-01T12:00:00Z)"},
		},
	},
	{
		name: "invalidate closes every open matching fact and nothing else",
		steps: []step{
			addS(fact("Alice", "knows", "Bob", "2020-01-01", ""), "added"),
			addS(fact("Alice", "knows", "Bob", "2010-01-01", "2012-01-01"), "added"),
			addS(fact("Alice", "knows", "Carol", "2020-01-01", ""), "added"),
			{inval: &InvalidateRequest{Subject: "alice", Predicate: "KNOWS", Object: "bob", Ended: "2024-02-29"},
				want: "closed", closed: []string{"Bob (2020-01-01 until 2024-02-29)"}},
			{inval: &InvalidateRequest{Subject: "alice", Predicate: "knows", Object: "bob", Ended: "2025-01-01"},
				want: "closed", closed: []string{}},
			{inval: &InvalidateRequest{Subject: "alice", Predicate: "knows", Object: "carol", Ended: "2019-01-01"},
				want: "invalid"},
			{inval: &InvalidateRequest{Subject: "alice", Predicate: "knows", Object: "carol"},
				want: "closed", closed: []string{"Carol (2020-01-01 until 2026-05-01T12:00:00Z (exclusive))"}},
		},
		queries: []query{
			{"alice", "2024-02-29T23:59:59Z", "out", []string{"Alice knows Bob", "Alice knows Carol"}},
			{"alice", "2024-03-01", "out", []string{"Alice knows Carol"}},
			{"alice", "2026-05-02", "out", nil},
		},
	},
	{
		name: "date-only valid_to covers the whole day; a one-day fact",
		steps: []step{
			addS(fact("Palace", "status", "frozen", "2026-04-01", "2026-04-01"), "added"),
			{add: ptrFact(fact("Palace", "status", "open", "2026-04-01T23:00:00Z", "")), want: "conflict",
				conflicts: []string{"frozen (2026-04-01 until 2026-04-01)"}},
			addS(fact("Palace", "status", "open", "2026-04-02", ""), "added"),
		},
		queries: []query{
			{"palace", "2026-04-01T23:59:59Z", "out", []string{"Palace status frozen"}},
			{"palace", "2026-04-02", "out", []string{"Palace status open"}},
			{"palace", "2026-03-31", "out", nil},
		},
	},
	{
		name: "query directions",
		steps: []step{
			addS(fact("Alice", "manages", "Bob", "", ""), "added"),
			addS(fact("Bob", "manages", "Carol", "", ""), "added"),
			addS(fact("Bob", "owner", "Repo", "", ""), "added"),
		},
		queries: []query{
			{"bob", "", "out", []string{"Bob manages Carol", "Bob owner Repo"}},
			{"bob", "", "in", []string{"Alice manages Bob"}},
			{"bob", "", "both", []string{"Alice manages Bob", "Bob manages Carol", "Bob owner Repo"}},
			{"bob", "1900-01-01", "incoming", []string{"Alice manages Bob"}},
		},
	},
	{
		name: "bad input: clear errors, nothing written",
		steps: []step{
			addS(fact("", "works_at", "Acme", "", ""), "invalid"),
			addS(fact("   ", "works_at", "Acme", "", ""), "invalid"),
			addS(fact("Alice", "", "Acme", "", ""), "invalid"),
			addS(fact("Alice", "works_at", "'", "", ""), "invalid"),
			addS(fact("Alice", "works_at", "Acme", "2026-02-30", ""), "invalid"),
			addS(fact("Alice", "works_at", "Acme", "yesterday", ""), "invalid"),
			addS(fact("Alice", "works_at", "Acme", "05/01/2026", ""), "invalid"),
			addS(fact("Alice", "works_at", "Acme", "2024-01-01", "2023-01-01"), "invalid"),
			addS(fact("Alice", "works_at", "Acme", "2024-01-01T10:00:00Z", "2024-01-01T10:00:00Z"), "invalid"),
			addS(fact("Alice", "works_at", "Acme", "", "2025-01-01"), "added"),
			// Superseding from now with an end in the past is inverted.
			{add: ptrFact(fact("Alice", "works_at", "Globex", "", "2026-01-01")), supersede: true, want: "invalid"},
			addS(fact("Ali\xffce", "works_at", "Acme", "", ""), "invalid"),
			addS(fact("Alice", "works_at", "Ac\nme", "", ""), "invalid"),
			addS(fact(strings.Repeat("a", 10<<20), "works_at", "Acme", "", ""), "invalid"),
			addS(fact("Alice", "works_at", strings.Repeat("é", 600), "", ""), "invalid"),
			addS(Fact{Subject: "Alice", Predicate: "knows", Object: "Bob", Confidence: ptr(1.5)}, "invalid"),
			addS(Fact{Subject: "Alice", Predicate: "knows", Object: "Bob", SourceDrawer: "d_missing"}, "invalid"),
			{check: ptrFact(fact("Alice", "works_at", "Acme", "2026-13-01", "")), want: "invalid"},
			{inval: &InvalidateRequest{Subject: "Alice", Predicate: "works_at", Object: "Acme", Ended: "soon"}, want: "invalid"},
			{inval: &InvalidateRequest{Subject: "", Predicate: "works_at", Object: "Acme"}, want: "invalid"},
		},
	},
}

func ptrFact(f Fact) *Fact { return &f }
func ptr[T any](v T) *T    { return &v }

func TestScenarios(t *testing.T) {
	ctx := context.Background()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			st := openStore(t)
			for i, s := range sc.steps {
				before := snapshot(t, st)
				got, trip, conflicts, superseded, closed, err := runStep(ctx, st, s)
				where := fmt.Sprintf("step %d (%s)", i, got)
				if got != s.want {
					t.Fatalf("step %d: got %s, want %s (err %v)", i, got, s.want, err)
				}
				switch s.want {
				case "conflict", "invalid":
					if after := snapshot(t, st); after != before {
						t.Errorf("%s wrote something:\nbefore %s\nafter  %s", where, before, after)
					}
					if err == nil && s.add != nil {
						t.Errorf("%s: Add returned no error", where)
					}
					if err != nil && strings.Contains(err.Error(), "\n") {
						t.Errorf("%s: error is not one line: %q", where, err)
					}
					if err != nil && len(err.Error()) > 2000 {
						t.Errorf("%s: error is %d bytes long", where, len(err.Error()))
					}
				}
				if s.want == "invalid" && !errors.Is(err, ErrInvalid) {
					t.Errorf("%s: error %v does not match ErrInvalid", where, err)
				}
				if s.want == "conflict" && s.add != nil && !errors.Is(err, ErrConflict) {
					t.Errorf("%s: error %v does not match ErrConflict", where, err)
				}
				if s.triple != "" && trip != s.triple {
					t.Errorf("%s: triple %q, want %q", where, trip, s.triple)
				}
				if s.conflicts != nil && !reflect.DeepEqual(conflicts, s.conflicts) {
					t.Errorf("%s: conflicts %q, want %q", where, conflicts, s.conflicts)
				}
				if s.superseded != nil && !reflect.DeepEqual(superseded, s.superseded) {
					t.Errorf("%s: superseded %q, want %q", where, superseded, s.superseded)
				}
				if s.closed != nil && !reflect.DeepEqual(closed, s.closed) {
					t.Errorf("%s: closed %q, want %q", where, closed, s.closed)
				}
			}
			for _, q := range sc.queries {
				res, err := Query(ctx, st, QueryRequest{Entity: q.entity, AsOf: q.asOf, Direction: q.dir, Now: now})
				if err != nil {
					t.Fatalf("query %+v: %v", q, err)
				}
				var got []string
				for _, f := range res.Facts {
					got = append(got, f.Subject+" "+f.Predicate+" "+f.Object)
				}
				if !reflect.DeepEqual(got, q.want) {
					t.Errorf("query %s as of %q %s: got %q, want %q", q.entity, q.asOf, q.dir, got, q.want)
				}
			}
		})
	}
}

// runStep performs one step and classifies what happened.
func runStep(ctx context.Context, st *store.Store, s step) (got, triple string, conflicts, superseded, closed []string, err error) {
	opts := AddOptions{Supersede: s.supersede, Now: now}
	var res AddResult
	switch {
	case s.inval != nil:
		r := *s.inval
		r.Now = now
		var ir InvalidateResult
		ir, err = Invalidate(ctx, st, r)
		if err != nil {
			return classify(err), "", nil, nil, nil, err
		}
		return "closed", "", nil, nil, shorts(ir.Closed), nil
	case s.check != nil:
		res, err = Check(ctx, st, *s.check, opts)
		if err == nil && !res.DryRun {
			return "check did not set dry_run", "", nil, nil, nil, nil
		}
	default:
		res, err = Add(ctx, st, *s.add, opts)
	}
	if err != nil && !errors.Is(err, ErrConflict) {
		return classify(err), "", nil, nil, nil, err
	}
	flags := 0
	for _, b := range []bool{res.Added, res.Duplicate, res.Merged, res.Conflict} {
		if b {
			flags++
		}
	}
	if flags != 1 {
		return fmt.Sprintf("%d outcome flags set", flags), "", nil, nil, nil, err
	}
	switch {
	case res.Added:
		got = "added"
	case res.Duplicate:
		got = "duplicate"
	case res.Merged:
		got = "merged"
	case res.Conflict:
		got = "conflict"
		if res.Reason == "" {
			got = "conflict without a reason"
		}
	}
	if res.Triple != nil {
		triple = short(*res.Triple)
		if s.add != nil && !res.Conflict && res.Triple.ID == "" {
			got += " without an id"
		}
	}
	return got, triple, shorts(res.Conflicts), shorts(res.Superseded), nil, err
}

func classify(err error) string {
	if errors.Is(err, ErrInvalid) {
		return "invalid"
	}
	return "error: " + err.Error()
}

func TestParseTime(t *testing.T) {
	cases := []struct {
		in       string
		endOfDay bool
		want     string // RFC 3339, "" for nil, "error"
	}{
		{"", false, ""},
		{"2026-05-01", false, "2026-05-01T00:00:00Z"},
		{"2026-05-01", true, "2026-05-02T00:00:00Z"},
		{"2026-12-31", true, "2027-01-01T00:00:00Z"},
		{"2024-02-29", true, "2024-03-01T00:00:00Z"},
		{"2026-05-01T09:30:00Z", true, "2026-05-01T09:30:00Z"}, // a time is exact, not end of day
		{"2026-05-01T09:30:00+02:00", false, "2026-05-01T07:30:00Z"},
		{"2026-05-01T09:30:00.999Z", false, "2026-05-01T09:30:00Z"},
		{"2026-05-01T09:30:00", false, "2026-05-01T09:30:00Z"},
		{" 2026-05-01 ", false, "2026-05-01T00:00:00Z"},
		{"2026-02-29", false, "error"},
		{"2026-5-1", false, "error"},
		{"20260501", false, "error"},
		{"today", false, "error"},
		{"2026-05-01T25:00:00Z", false, "error"},
		{strings.Repeat("2", 1<<20), false, "error"},
		{"2026-05-01\xff", false, "error"},
	}
	for _, c := range cases {
		got, err := ParseTime("t", c.in, c.endOfDay)
		var s string
		switch {
		case err != nil:
			s = "error"
			if !errors.Is(err, ErrInvalid) || len(err.Error()) > 300 {
				t.Errorf("ParseTime(%.20q): error %q should match ErrInvalid and be short", c.in, err)
			}
		case got != nil:
			s = got.Format(time.RFC3339)
		}
		if s != c.want {
			t.Errorf("ParseTime(%.20q, %v) = %s, want %s", c.in, c.endOfDay, s, c.want)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{
		"Alice":            "alice",
		"  Alice   Smith ": "alice_smith",
		"alice_smith":      "alice_smith",
		"O'Brien":          "obrien",
		"O’Brien":          "obrien",
		"ÉCOLE":            "école",
		"e\u0301cole":      "école", // decomposed é composes
		"Works At":         "works_at",
		"tab\there":        "tab_here",
	} {
		if got := NormalizeName(in); got != want {
			t.Errorf("NormalizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNamesShownAsFirstWritten(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Add(ctx, st, fact("  Alice  Smith ", "knows", "O'Brien", "", ""), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Add(ctx, st, fact("ALICE SMITH", "knows", "Bob", "", ""), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := Query(ctx, st, QueryRequest{Entity: "alice_smith"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Entity.Name != "Alice  Smith" || res.Entity.ID != "alice_smith" || len(res.Facts) != 2 {
		t.Fatalf("entity %+v with %d facts", res.Entity, len(res.Facts))
	}
	for _, f := range res.Facts {
		if f.Subject != "Alice  Smith" || f.SubjectID != "alice_smith" {
			t.Errorf("subject shown as %q (%s)", f.Subject, f.SubjectID)
		}
	}
	if res.Facts[0].Object != "O'Brien" || res.Facts[0].ObjectID != "obrien" {
		t.Errorf("object %q (%s)", res.Facts[0].Object, res.Facts[0].ObjectID)
	}
	if _, err := Query(ctx, st, QueryRequest{Entity: "nobody"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown entity: %v, want ErrNotFound", err)
	}
	if _, err := Query(ctx, st, QueryRequest{Entity: "alice smith", Direction: "sideways"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad direction: %v, want ErrInvalid", err)
	}
}

func TestQueryCurrentFlag(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	for _, f := range []Fact{
		fact("Alice", "knows", "Past", "2000-01-01", "2001-01-01"),
		fact("Alice", "knows", "Present", "2000-01-01", ""),
		fact("Alice", "knows", "Future", "2030-01-01", ""),
	} {
		if _, err := Add(ctx, st, f, AddOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Query(ctx, st, QueryRequest{Entity: "alice", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, f := range res.Facts {
		got[f.Object] = f.Current
	}
	if want := map[string]bool{"Past": false, "Present": true, "Future": false}; !reflect.DeepEqual(got, want) {
		t.Errorf("current flags %v, want %v", got, want)
	}
}

func TestSourceDrawerAndConfidence(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	d := store.Drawer{ID: "d_src", Wing: "w", Room: "r", Kind: store.KindNote, Source: "note", Content: "Alice joined Acme",
		ContentHash: store.ContentHash("Alice joined Acme")}
	if _, err := st.InsertDrawers(ctx, []store.Drawer{d}); err != nil {
		t.Fatal(err)
	}
	res, err := Add(ctx, st, Fact{Subject: "Alice", Predicate: "works_at", Object: "Acme", SourceDrawer: "d_src", Confidence: ptr(0.7)}, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Triple.SourceDrawer != "d_src" || res.Triple.Confidence != 0.7 || !strings.HasPrefix(res.Triple.ID, "t_") {
		t.Errorf("stored %+v", *res.Triple)
	}
	if res.Triple.CreatedAt.IsZero() {
		t.Error("created_at not set")
	}
	c, err := Check(ctx, st, Fact{Subject: "Alice", Predicate: "knows", Object: "Bob", SourceDrawer: "d_nope"}, AddOptions{})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("check with a missing drawer: %+v, %v", c, err)
	}
}

// Check has Add's outcome: a fact Add would refuse is a *ConflictError
// from both, with the result's Reason as its message.
func TestCheckConflictIsAddsError(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Add(ctx, st, fact("Alice", "works_at", "Acme", "2020-01-01", ""), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	f := fact("Alice", "works_at", "Globex", "2023-06-01", "")
	c, cerr := Check(ctx, st, f, AddOptions{})
	a, aerr := Add(ctx, st, f, AddOptions{})
	var ce *ConflictError
	if !errors.Is(cerr, ErrConflict) || !errors.As(cerr, &ce) || !c.Conflict || !c.DryRun || cerr.Error() != c.Reason {
		t.Errorf("check: %+v, %v", c, cerr)
	}
	if aerr == nil || cerr == nil || aerr.Error() != cerr.Error() || a.Reason != c.Reason {
		t.Errorf("add and check disagree: %v / %v", aerr, cerr)
	}
	if !strings.HasPrefix(c.Reason, "conflict: ") || strings.Count(c.Reason, "conflict:") != 1 {
		t.Errorf("reason %q", c.Reason)
	}
}

func TestTimelineOrderAndLimit(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	for _, f := range []Fact{
		fact("Alice", "knows", "C", "2022-01-01", ""),
		fact("Alice", "knows", "A", "2020-01-01", ""),
		fact("Alice", "knows", "Always", "", ""),
		fact("Bob", "knows", "Alice", "2021-01-01", ""),
		fact("Carol", "knows", "Dan", "2019-01-01", ""),
		fact("Alice", "knows", "B", "2020-01-01T12:00:00Z", ""),
	} {
		if _, err := Add(ctx, st, f, AddOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	objects := func(ts []Triple) string {
		var s []string
		for _, t := range ts {
			s = append(s, t.Subject+">"+t.Object)
		}
		return strings.Join(s, " ")
	}
	cases := []struct {
		req       TimelineRequest
		want      string
		truncated bool
	}{
		{TimelineRequest{Entity: "alice"}, "Alice>Always Alice>A Alice>B Bob>Alice Alice>C", false},
		{TimelineRequest{}, "Alice>Always Carol>Dan Alice>A Alice>B Bob>Alice Alice>C", false},
		{TimelineRequest{Limit: 2}, "Alice>Always Carol>Dan", true},
		{TimelineRequest{Entity: "dan", Limit: 1}, "Carol>Dan", false},
	}
	for _, c := range cases {
		res, err := Timeline(ctx, st, c.req)
		if err != nil {
			t.Fatal(err)
		}
		if got := objects(res.Facts); got != c.want || res.Truncated != c.truncated {
			t.Errorf("timeline %+v: %s (truncated %v), want %s (%v)", c.req, got, res.Truncated, c.want, c.truncated)
		}
	}
	if _, err := Timeline(ctx, st, TimelineRequest{Entity: "zed"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown entity: %v", err)
	}
	if _, err := Timeline(ctx, st, TimelineRequest{Limit: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative limit: %v", err)
	}
}

func TestStats(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s, err := Stats(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if s.Entities != 0 || s.Triples != 0 || len(s.Predicates) != 0 || !reflect.DeepEqual(s.Functional, DefaultFunctional) {
		t.Fatalf("empty graph stats %+v", s)
	}
	for _, f := range []Fact{
		fact("Alice", "works_at", "Acme", "2000-01-01", "2000-12-31"), // expired
		fact("Alice", "works_at", "Globex", "2001-01-01", ""),         // current
		fact("Alice", "knows", "Bob", "", ""),                         // current
		fact("Bob", "knows", "Carol", "2999-01-01", ""),               // future
	} {
		if _, err := Add(ctx, st, f, AddOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	s, err = Stats(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	want := store.KGStats{Entities: 5, Triples: 4, Current: 2, Expired: 1, Future: 1, Predicates: []store.PredicateCount{
		{Predicate: "knows", Triples: 2, Current: 1}, {Predicate: "works_at", Triples: 2, Current: 1, Expired: 1},
	}}
	if !reflect.DeepEqual(s.KGStats, want) {
		t.Errorf("stats %+v, want %+v", s.KGStats, want)
	}
}

func TestFunctionalList(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	steps := []struct {
		pred string
		on   bool
		want []string
		err  bool
	}{
		{"Reports To", true, []string{"lives_in", "owner", "reports_to", "role", "status", "works_at"}, false},
		{"reports_to", true, []string{"lives_in", "owner", "reports_to", "role", "status", "works_at"}, false},
		{"works at", false, []string{"lives_in", "owner", "reports_to", "role", "status"}, false},
		{"works_at", false, []string{"lives_in", "owner", "reports_to", "role", "status"}, false},
		{"", true, nil, true},
		{"bad\xff", true, nil, true},
	}
	for _, s := range steps {
		got, err := SetFunctional(ctx, st, s.pred, s.on)
		if s.err {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("SetFunctional(%q): %v, want ErrInvalid", s.pred, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, s.want) {
			t.Errorf("SetFunctional(%q, %v) = %v, %v; want %v", s.pred, s.on, got, err, s.want)
		}
		if l, _ := Functional(ctx, st); !reflect.DeepEqual(l, s.want) {
			t.Errorf("Functional() = %v after %q", l, s.pred)
		}
	}
	// works_at is no longer functional: two employers at once are fine ...
	for _, o := range []string{"Acme", "Globex"} {
		if r, err := Add(ctx, st, fact("Alice", "works_at", o, "2020-01-01", ""), AddOptions{}); err != nil || !r.Added || r.Functional {
			t.Fatalf("add %s: %+v %v", o, r, err)
		}
	}
	// ... and reports_to now is.
	if _, err := Add(ctx, st, fact("Alice", "reports_to", "Bob", "2020-01-01", ""), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if r, err := Add(ctx, st, fact("Alice", "reports to", "Carol", "2021-01-01", ""), AddOptions{}); !errors.Is(err, ErrConflict) || !r.Functional {
		t.Fatalf("reports_to should conflict: %+v %v", r, err)
	}
}

// TestConcurrentConflictingAdds: several writers, on one handle and on
// separate handles (as separate processes would be), race to set a
// functional value; the check and the write share a transaction, so exactly
// one wins and the others see it as a conflict.
func TestConcurrentConflictingAdds(t *testing.T) {
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("shared handle %v", shared), func(t *testing.T) {
			ctx := context.Background()
			home := t.TempDir()
			first, err := store.Open(home)
			if err != nil {
				t.Fatal(err)
			}
			defer first.Close()
			const n = 8
			handles := make([]*store.Store, n)
			for i := range handles {
				handles[i] = first
				if !shared {
					if handles[i], err = store.Open(home); err != nil {
						t.Fatal(err)
					}
					defer handles[i].Close()
				}
			}
			var wg sync.WaitGroup
			results := make([]error, n)
			added := make([]bool, n)
			start := make(chan struct{})
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					r, err := Add(ctx, handles[i], fact("Alice", "works_at", fmt.Sprintf("Company %d", i), "2020-01-01", ""), AddOptions{})
					results[i], added[i] = err, r.Added
				}()
			}
			close(start)
			wg.Wait()
			wins := 0
			for i := range n {
				switch {
				case results[i] == nil && added[i]:
					wins++
				case errors.Is(results[i], ErrConflict):
				default:
					t.Errorf("writer %d: %v", i, results[i])
				}
			}
			if wins != 1 {
				t.Errorf("%d writers won, want exactly 1", wins)
			}
			res, err := Query(ctx, first, QueryRequest{Entity: "alice", AsOf: "2021-01-01"})
			if err != nil || len(res.Facts) != 1 {
				t.Errorf("alice works at %d places in 2021 (%v)", len(res.Facts), err)
			}
		})
	}
}

func TestConflictErrorMessage(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Add(ctx, st, aliceAcme, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := Add(ctx, st, aliceGlobex, AddOptions{})
	var ce *ConflictError
	if !errors.As(err, &ce) || len(ce.Conflicts) != 1 {
		t.Fatalf("want a *ConflictError, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"works_at", "Alice works_at Globex (since 2023-06-01)", "Alice works_at Acme (since 2020-01-01) [t_", "nothing written", "supersede"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	_, err = Add(ctx, st, fact("Alice", "works_at", "Initech", "", ""), AddOptions{})
	if err == nil || !strings.Contains(err.Error(), "no valid_from") {
		t.Errorf("undated conflict should explain itself: %v", err)
	}
	_, err = Add(ctx, st, fact("Alice", "works_at", "Initech", "2019-01-01", ""), AddOptions{Supersede: true})
	if !errors.As(err, &ce) || len(ce.Unresolvable) != 1 || !strings.Contains(err.Error(), "cannot supersede") {
		t.Errorf("unresolvable supersede: %v", err)
	}
}

func TestFormatInterval(t *testing.T) {
	d := func(s string) *time.Time { tm, _ := time.Parse(time.RFC3339, s); return &tm }
	for _, c := range []struct {
		from, to *time.Time
		want     string
	}{
		{nil, nil, "always"},
		{d("2020-01-01T00:00:00Z"), nil, "since 2020-01-01"},
		{nil, d("2020-01-02T00:00:00Z"), "until 2020-01-01"},
		{d("2020-01-01T00:00:00Z"), d("2020-01-01T10:30:00Z"), "2020-01-01 until 2020-01-01T10:30:00Z (exclusive)"},
		// A date-only end is stored as the next day's start: the last day
		// included is shown.
		{d("2024-01-01T00:00:00Z"), d("2024-04-01T00:00:00Z"), "2024-01-01 until 2024-03-31"},
	} {
		if got := FormatInterval(c.from, c.to); got != c.want {
			t.Errorf("FormatInterval = %q, want %q", got, c.want)
		}
	}
}
