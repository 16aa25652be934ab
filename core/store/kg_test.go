package store

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func tm(s string) *time.Time {
	if s == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

func kgTriple(s, p, o, from, to string) Triple {
	return Triple{Subject: strings.ToUpper(s[:1]) + s[1:], SubjectID: s, Predicate: p,
		Object: strings.ToUpper(o[:1]) + o[1:], ObjectID: o, ValidFrom: tm(from), ValidTo: tm(to), Confidence: 1}
}

func insertAll(ctx context.Context, t *testing.T, s *Store, ts ...Triple) []Triple {
	t.Helper()
	var out []Triple
	for _, tr := range ts {
		got, err := s.KGAdd(ctx, tr, func(KGAddState) (KGPlan, error) { return KGPlan{Insert: true}, nil })
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, got)
	}
	return out
}

func objects(ts []Triple) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.ObjectID)
	}
	return out
}

func TestKGOverlappingEdges(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	insertAll(ctx, t, s,
		kgTriple("alice", "works_at", "acme", "2020-01-01T00:00:00Z", "2023-06-01T00:00:00Z"),
		kgTriple("alice", "works_at", "globex", "2023-06-01T00:00:00Z", ""),
		kgTriple("alice", "works_at", "always", "", "2010-01-01T00:00:00Z"),
		kgTriple("alice", "knows", "bob", "", ""),
		kgTriple("bob", "works_at", "acme", "", ""),
	)
	cases := []struct {
		name     string
		from, to string
		want     []string
	}{
		{"everything", "", "", []string{"always", "acme", "globex"}},
		{"ends where acme starts", "2015-01-01T00:00:00Z", "2020-01-01T00:00:00Z", []string{}},
		{"one second into acme", "2015-01-01T00:00:00Z", "2020-01-01T00:00:01Z", []string{"acme"}},
		{"starts where acme ends", "2023-06-01T00:00:00Z", "", []string{"globex"}},
		{"last second of acme", "2023-05-31T23:59:59Z", "", []string{"acme", "globex"}},
		{"before 2010", "", "2009-01-01T00:00:00Z", []string{"always"}},
		{"starts at 2010", "2010-01-01T00:00:00Z", "2011-01-01T00:00:00Z", []string{}},
	}
	for _, c := range cases {
		got, err := s.KGOverlapping(ctx, "alice", "works_at", tm(c.from), tm(c.to))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(objects(got), c.want) {
			t.Errorf("%s: %v, want %v", c.name, objects(got), c.want)
		}
	}
}

func TestKGAddPlan(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	first := insertAll(ctx, t, s, kgTriple("alice", "works_at", "acme", "2020-01-01T00:00:00Z", ""))[0]
	if !strings.HasPrefix(first.ID, "t_") || first.Subject != "Alice" || first.CreatedAt.IsZero() {
		t.Fatalf("inserted %+v", first)
	}

	// decide sees the overlapping triple and the (unset) functional list;
	// its error rolls everything back.
	boom := errors.New("refused")
	_, err := s.KGAdd(ctx, kgTriple("alice", "works_at", "globex", "2023-06-01T00:00:00Z", ""), func(st KGAddState) (KGPlan, error) {
		if len(st.Overlapping) != 1 || st.Overlapping[0].ID != first.ID || st.FunctionalSet {
			t.Errorf("state %+v", st)
		}
		return KGPlan{}, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("decide's error not returned: %v", err)
	}
	if e, err := s.KGEntity(ctx, "globex"); !errors.Is(err, ErrNotFound) {
		t.Errorf("refused add created entity %+v", e)
	}

	// Reshape and insert together.
	added, err := s.KGAdd(ctx, kgTriple("alice", "works_at", "globex", "2023-06-01T00:00:00Z", ""), func(st KGAddState) (KGPlan, error) {
		return KGPlan{Insert: true, Reshape: []KGReshape{{ID: first.ID, ValidFrom: first.ValidFrom, ValidTo: tm("2023-06-01T00:00:00Z")}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.KGTimeline(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID != first.ID || !all[0].ValidTo.Equal(*tm("2023-06-01T00:00:00Z")) || all[1].ID != added.ID {
		t.Errorf("after reshape: %+v", all)
	}

	// An inverted reshape or interval is refused and rolls back.
	_, err = s.KGAdd(ctx, kgTriple("alice", "knows", "bob", "", ""), func(KGAddState) (KGPlan, error) {
		return KGPlan{Insert: true, Reshape: []KGReshape{{ID: first.ID, ValidFrom: first.ValidFrom, ValidTo: first.ValidFrom}}}, nil
	})
	if !errors.Is(err, ErrInterval) {
		t.Errorf("empty reshape: %v", err)
	}
	_, err = s.KGAdd(ctx, kgTriple("alice", "knows", "bob", "2020-01-01T00:00:00Z", "2019-01-01T00:00:00Z"), func(KGAddState) (KGPlan, error) {
		t.Error("decide called for an inverted interval")
		return KGPlan{Insert: true}, nil
	})
	if !errors.Is(err, ErrInterval) {
		t.Errorf("inverted interval: %v", err)
	}
	_, err = s.KGAdd(ctx, kgTriple("alice", "knows", "bob", "", ""), func(KGAddState) (KGPlan, error) {
		return KGPlan{Insert: true, Reshape: []KGReshape{{ID: "t_missing"}}}, nil
	})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("reshape of a missing triple: %v", err)
	}
	if _, err := s.KGEntity(ctx, "bob"); !errors.Is(err, ErrNotFound) {
		t.Error("a rolled-back add left entity bob")
	}
}

func TestKGSourceDrawer(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	d := drawer("w", "/a.md", 0, "alice joined acme")
	if _, err := s.InsertDrawers(ctx, []Drawer{d}); err != nil {
		t.Fatal(err)
	}
	tr := kgTriple("alice", "works_at", "acme", "", "")
	tr.SourceDrawer = d.ID
	got := insertAll(ctx, t, s, tr)[0]
	if got.SourceDrawer != d.ID {
		t.Errorf("source drawer %q", got.SourceDrawer)
	}
	tr.SourceDrawer = "d_missing"
	_, err := s.KGAdd(ctx, tr, func(KGAddState) (KGPlan, error) { return KGPlan{Insert: true}, nil })
	if !errors.Is(err, ErrUnknownDrawer) || !errors.Is(err, ErrNotFound) {
		t.Errorf("missing source drawer: %v", err)
	}
}

func TestKGEntityFirstWritingWins(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a := kgTriple("alice", "knows", "bob", "", "")
	a.Subject = "Alice  Smith"
	b := kgTriple("alice", "knows", "carol", "", "")
	b.Subject = "ALICE SMITH"
	got := insertAll(ctx, t, s, a, b)
	if got[1].Subject != "Alice  Smith" {
		t.Errorf("second triple shows %q", got[1].Subject)
	}
	e, err := s.KGEntity(ctx, "alice")
	if err != nil || e.Name != "Alice  Smith" || e.Type != "unknown" {
		t.Errorf("entity %+v %v", e, err)
	}
}

func TestKGStoredTimesSortAsText(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	insertAll(ctx, t, s, kgTriple("a", "p", "b", "0999-01-01T00:00:00Z", "2026-05-01T09:30:00Z"))
	var from, to, created string
	if err := s.r.QueryRow(`SELECT valid_from, valid_to, created_at FROM triples`).Scan(&from, &to, &created); err != nil {
		t.Fatal(err)
	}
	if from != "0999-01-01T00:00:00Z" || to != "2026-05-01T09:30:00Z" || len(created) != len(kgCreatedLayout) {
		t.Errorf("stored %q %q %q", from, to, created)
	}
}

func TestKGInvalidate(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	insertAll(ctx, t, s,
		kgTriple("alice", "knows", "bob", "2020-01-01T00:00:00Z", ""),
		kgTriple("alice", "knows", "bob", "", ""),
		kgTriple("alice", "knows", "bob", "2000-01-01T00:00:00Z", "2001-01-01T00:00:00Z"),
		kgTriple("alice", "knows", "carol", "2020-01-01T00:00:00Z", ""),
		kgTriple("alice", "knows", "dan", "2025-01-01T00:00:00Z", ""),
	)
	closed, err := s.KGInvalidate(ctx, "alice", "knows", "bob", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(closed) != 2 {
		t.Fatalf("closed %d triples, want the 2 open ones", len(closed))
	}
	for _, c := range closed {
		if c.ValidTo == nil || !c.ValidTo.Equal(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("closed %+v", c)
		}
	}
	// Dan starts after the end: refused, nothing closed.
	if _, err := s.KGInvalidate(ctx, "alice", "knows", "dan", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)); !errors.Is(err, ErrInterval) {
		t.Errorf("inverted invalidate: %v", err)
	}
	open, err := s.KGQuery(ctx, "alice", tm("2030-01-01T00:00:00Z"), DirOut)
	if err != nil {
		t.Fatal(err)
	}
	if got := objects(open); !reflect.DeepEqual(got, []string{"carol", "dan"}) {
		t.Errorf("open after invalidate: %v", got)
	}
}

func TestKGQueryAsOfAndDirection(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	insertAll(ctx, t, s,
		kgTriple("alice", "works_at", "acme", "2020-01-01T00:00:00Z", "2023-06-01T00:00:00Z"),
		kgTriple("alice", "works_at", "globex", "2023-06-01T00:00:00Z", ""),
		kgTriple("bob", "manages", "alice", "", ""),
		kgTriple("alice", "likes", "alice", "", ""),
	)
	cases := []struct {
		asOf, dir string
		want      []string
	}{
		{"", DirOut, []string{"alice", "acme", "globex"}},
		{"", DirIn, []string{"alice", "alice"}},
		{"", DirBoth, []string{"alice", "alice", "acme", "globex"}},
		{"2019-12-31T23:59:59Z", DirOut, []string{"alice"}},
		{"2020-01-01T00:00:00Z", DirOut, []string{"alice", "acme"}},
		{"2023-05-31T23:59:59Z", DirOut, []string{"alice", "acme"}},
		{"2023-06-01T00:00:00Z", DirOut, []string{"alice", "globex"}},
		{"2023-06-01T00:00:00Z", DirIn, []string{"alice", "alice"}},
	}
	for _, c := range cases {
		got, err := s.KGQuery(ctx, "alice", tm(c.asOf), c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(objects(got), c.want) {
			t.Errorf("as of %q %s: %v, want %v", c.asOf, c.dir, objects(got), c.want)
		}
	}
	if _, err := s.KGQuery(ctx, "alice", nil, "sideways"); err == nil {
		t.Error("unknown direction accepted")
	}
}

func TestKGStatsAndFunctional(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	insertAll(ctx, t, s,
		kgTriple("alice", "works_at", "acme", "2020-01-01T00:00:00Z", "2023-06-01T00:00:00Z"),
		kgTriple("alice", "works_at", "globex", "2023-06-01T00:00:00Z", ""),
		kgTriple("bob", "knows", "alice", "2030-01-01T00:00:00Z", ""),
	)
	st, err := s.KGStats(ctx, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	want := KGStats{Entities: 4, Triples: 3, Current: 1, Expired: 1, Future: 1, Predicates: []PredicateCount{
		{"works_at", 2, 1, 1}, {"knows", 1, 0, 0},
	}}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("stats %+v, want %+v", st, want)
	}

	if l, set, err := s.KGFunctional(ctx); err != nil || set || l != nil {
		t.Fatalf("fresh functional list: %v %v %v", l, set, err)
	}
	got, err := s.KGUpdateFunctional(ctx, []string{"a", "b"}, func(cur []string) []string {
		if !reflect.DeepEqual(cur, []string{"a", "b"}) {
			t.Errorf("update saw %v, want the defaults", cur)
		}
		return append(cur, "c")
	})
	if err != nil || !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Fatalf("update: %v %v", got, err)
	}
	if l, set, err := s.KGFunctional(ctx); err != nil || !set || !reflect.DeepEqual(l, []string{"a", "b", "c"}) {
		t.Errorf("stored list: %v %v %v", l, set, err)
	}
	got, err = s.KGUpdateFunctional(ctx, []string{"a", "b"}, func([]string) []string { return nil })
	if err != nil || len(got) != 0 {
		t.Fatalf("emptied: %v %v", got, err)
	}
	if l, set, _ := s.KGFunctional(ctx); !set || len(l) != 0 {
		t.Errorf("an emptied list must stay empty, not fall back to defaults: %v %v", l, set)
	}
	if _, err := s.w.Exec(`UPDATE meta SET value = 'not json' WHERE key = ?`, kgFunctionalKey); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.KGFunctional(ctx); err == nil || !strings.Contains(err.Error(), kgFunctionalKey) {
		t.Errorf("corrupt list: %v", err)
	}
}
