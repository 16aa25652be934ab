package kg

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/audit"
	"github.com/palace-dev/palace/core/store"
)

// kaiGraph is issue 20's three-hop question, "which database does the
// project Kai works on use, as of March?", with a tool that is no database
// (Redis) and a colleague (Ana) for the other directions.
var kaiGraph = []Fact{
	fact("Kai", "works_on", "Orion", "2025-01-01", ""),
	fact("Orion", "uses", "Postgres 14", "2024-06-01", "2026-03-31"), // true until 2026-04-01, excluded
	fact("Orion", "uses", "CockroachDB", "2026-04-01", ""),
	fact("Postgres 14", "is_a", "database", "", ""),
	fact("CockroachDB", "is_a", "database", "", ""),
	fact("Orion", "uses", "Redis", "2025-02-01", ""),
	fact("Ana", "works_on", "Orion", "2024-01-01", ""),
}

// graph adds facts and returns their ids, in order.
func graph(t *testing.T, st *store.Store, facts []Fact) []string {
	t.Helper()
	var ids []string
	for _, f := range facts {
		res, err := Add(context.Background(), st, f, AddOptions{Now: now})
		if err != nil || !res.Added {
			t.Fatalf("add %+v: %+v, %v", f, res, err)
		}
		ids = append(ids, res.Triple.ID)
	}
	return ids
}

// render is a path on one line: "Kai -works_on-> Orion (project)"; a hop
// against a fact's direction reads "<-works_on-".
func render(p Path, root string) string {
	var b strings.Builder
	b.WriteString(root)
	for _, h := range p.Hops {
		if h.Direction == DirIn {
			b.WriteString(" <-" + h.Predicate + "- ")
		} else {
			b.WriteString(" -" + h.Predicate + "-> ")
		}
		b.WriteString(h.To.Name)
		if h.To.Type != TypeUnknown {
			b.WriteString(" (" + h.To.Type + ")")
		}
	}
	return b.String()
}

func TestTraverse(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	graph(t, st, kaiGraph)
	graph(t, st, []Fact{
		fact("A", "knows", "B", "", ""), fact("B", "knows", "C", "", ""), fact("C", "knows", "A", "", ""),
		fact("Hub", "uses", "T1", "2020-01-01", ""), fact("Hub", "uses", "T2", "2020-01-02", ""),
		fact("T1", "uses", "X1", "2020-01-01", ""), fact("T1", "uses", "X2", "2020-01-02", ""),
		fact("T2", "uses", "Y1", "2020-01-01", ""), fact("T2", "uses", "Y2", "2020-01-02", ""),
	})
	if _, err := Entity(ctx, st, EntityRequest{Name: "Kai", Alias: []string{"Kai Chen"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		req  TraverseRequest
		want []string
		cut  bool
	}{
		{"the three-hop question in March: Postgres 14, not CockroachDB", TraverseRequest{Entity: "Kai", Depth: 3, AsOf: "2026-03-15"}, []string{
			"Kai -works_on-> Orion (project) -uses-> Redis (tool)",
			"Kai -works_on-> Orion (project) -uses-> Postgres 14 (tool) -is_a-> database",
		}, false},
		{"in May: CockroachDB", TraverseRequest{Entity: "Kai", Depth: 3, AsOf: "2026-05-01"}, []string{
			"Kai -works_on-> Orion (project) -uses-> Redis (tool)",
			"Kai -works_on-> Orion (project) -uses-> CockroachDB (tool) -is_a-> database",
		}, false},
		{"the last day Postgres 14 was used", TraverseRequest{Entity: "kai", Depth: 3, AsOf: "2026-03-31T23:59:59Z", Predicates: []string{"works on", "USES"}}, []string{
			"Kai -works_on-> Orion (project) -uses-> Postgres 14 (tool)",
			"Kai -works_on-> Orion (project) -uses-> Redis (tool)",
		}, false},
		{"all time, default depth 2", TraverseRequest{Entity: "Kai"}, []string{
			"Kai -works_on-> Orion (project) -uses-> Postgres 14 (tool)",
			"Kai -works_on-> Orion (project) -uses-> Redis (tool)",
			"Kai -works_on-> Orion (project) -uses-> CockroachDB (tool)",
		}, false},
		{"depth bound", TraverseRequest{Entity: "Kai", Depth: 1}, []string{"Kai -works_on-> Orion (project)"}, false},
		{"an alias starts where its entity does", TraverseRequest{Entity: "kai chen", Depth: 1}, []string{"Kai -works_on-> Orion (project)"}, false},
		{"in: who works on Orion", TraverseRequest{Entity: "Orion", Direction: "in"}, []string{
			"Orion <-works_on- Ana (person)",
			"Orion <-works_on- Kai (person)",
		}, false},
		{"both ways, never back through Kai", TraverseRequest{Entity: "Kai", Direction: "both", AsOf: "2026-03-15"}, []string{
			"Kai -works_on-> Orion (project) <-works_on- Ana (person)",
			"Kai -works_on-> Orion (project) -uses-> Postgres 14 (tool)",
			"Kai -works_on-> Orion (project) -uses-> Redis (tool)",
		}, false},
		{"a cycle ends the path", TraverseRequest{Entity: "A", Depth: 4}, []string{"A -knows-> B (person) -knows-> C (person)"}, false},
		{"the limit cuts, and says so", TraverseRequest{Entity: "Hub", Limit: 3}, []string{
			"Hub -uses-> T1 (tool) -uses-> X1 (tool)",
			"Hub -uses-> T1 (tool) -uses-> X2 (tool)",
			"Hub -uses-> T2 (tool) -uses-> Y1 (tool)",
		}, true},
		{"a limit the paths fit", TraverseRequest{Entity: "Hub", Limit: 4}, []string{
			"Hub -uses-> T1 (tool) -uses-> X1 (tool)",
			"Hub -uses-> T1 (tool) -uses-> X2 (tool)",
			"Hub -uses-> T2 (tool) -uses-> Y1 (tool)",
			"Hub -uses-> T2 (tool) -uses-> Y2 (tool)",
		}, false},
		{"no fact true then", TraverseRequest{Entity: "Kai", AsOf: "2024-12-31"}, []string{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Traverse(ctx, st, c.req)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, p := range res.Paths {
				got = append(got, render(p, res.Entity.Name))
			}
			if !reflect.DeepEqual(got, c.want) || res.Truncated != c.cut {
				t.Errorf("paths (cut %v):\n%s\nwant (cut %v):\n%s", res.Truncated, strings.Join(got, "\n"), c.cut, strings.Join(c.want, "\n"))
			}
		})
	}

	// Each hop carries its dated fact.
	res, err := Traverse(ctx, st, TraverseRequest{Entity: "Kai", Depth: 3, AsOf: "2026-03-15", Predicates: []string{"works_on", "uses", "is_a"}})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Paths[len(res.Paths)-1]
	if h := last.Hops[1]; Describe(h.Triple) != "Orion uses Postgres 14 (2024-06-01 until 2026-03-31) ["+h.ID+"]" || !store.IsTripleID(h.ID) {
		t.Errorf("hop 2: %s", Describe(h.Triple))
	}
	if res.Depth != 3 || res.Direction != DirOut || FormatTime(res.AsOf) != "2026-03-15" || !reflect.DeepEqual(res.Predicates, []string{"works_on", "uses", "is_a"}) {
		t.Errorf("echoed request: %+v", res)
	}

	for _, c := range []struct {
		req   TraverseRequest
		field string
	}{
		{TraverseRequest{Entity: " "}, "entity"},
		{TraverseRequest{Entity: "Kai", Depth: MaxTraverseDepth + 1}, "depth"},
		{TraverseRequest{Entity: "Kai", Depth: -1}, "depth"},
		{TraverseRequest{Entity: "Kai", Limit: MaxTraversePaths + 1}, "limit"},
		{TraverseRequest{Entity: "Kai", AsOf: "March"}, "as_of"},
		{TraverseRequest{Entity: "Kai", Direction: "up"}, "direction"},
		{TraverseRequest{Entity: "Kai", Predicates: []string{"uses", " "}}, "predicate"},
	} {
		var ie *InputError
		if _, err := Traverse(ctx, st, c.req); !errors.As(err, &ie) || ie.Field != c.field {
			t.Errorf("%+v: %v, want invalid %s", c.req, err, c.field)
		}
	}
	if _, err := Traverse(ctx, st, TraverseRequest{Entity: "Nobody"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown entity: %v", err)
	}
}

// entityLine is an entity's type as the tests state it: "tool (inferred:
// is_a Postgres 14 is_a database, uses Orion uses Postgres 14)".
func entityLine(e EntityInfo) string {
	s := e.Type
	if e.Inferred {
		var ev []string
		for _, x := range e.Evidence {
			ev = append(ev, x.Role+" of "+x.Fact)
		}
		s += " (inferred: " + strings.Join(ev, "; ") + ")"
	}
	return s
}

func TestTypes(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	graph(t, st, kaiGraph)
	graph(t, st, []Fact{
		fact("Zed", "works_on", "Widget", "", ""), fact("Gadget", "uses", "Widget", "", ""),
		fact("Bea", "lives_in", "Lisbon", "", ""), fact("Bea", "works_at", "Initech", "", ""),
	})
	show := func(name string) EntityResult {
		t.Helper()
		r, err := Entity(ctx, st, EntityRequest{Name: name, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for name, want := range map[string]string{
		"Kai":         "person (inferred: subject of Kai works_on Orion)",
		"Orion":       "project (inferred: object of Ana works_on Orion; object of Kai works_on Orion)",
		"Postgres 14": "tool (inferred: subject of Postgres 14 is_a database; object of Orion uses Postgres 14)",
		"database":    "unknown",
		// A tie (worked on once, used once) goes to the first of BuiltinTypes.
		"Widget":  "project (inferred: object of Zed works_on Widget)",
		"Bea":     "person (inferred: subject of Bea lives_in Lisbon; subject of Bea works_at Initech)",
		"Lisbon":  "place (inferred: object of Bea lives_in Lisbon)",
		"Initech": "organisation (inferred: object of Bea works_at Initech)",
	} {
		if got := entityLine(show(name).EntityInfo); got != want {
			t.Errorf("%s: %s\nwant %s", name, got, want)
		}
	}
	// is_a outweighs any number of other facts; every fact implying the
	// type is its evidence.
	graph(t, st, []Fact{fact("Widget", "is_a", "Library", "", ""), fact("Zoe", "works_on", "Widget", "", "")})
	if got := entityLine(show("widget").EntityInfo); got != "tool (inferred: object of Gadget uses Widget; subject of Widget is_a Library)" {
		t.Errorf("widget after is_a: %s", got)
	}
	// A type set by hand wins, a user's own type too, and clearing it
	// brings the inferred one back.
	r, err := Entity(ctx, st, EntityRequest{Name: "Orion", Type: " Service-Mesh "})
	if err != nil || r.Type != "service-mesh" || r.Inferred || len(r.Evidence) != 0 || !r.Changed {
		t.Errorf("set by hand: %+v, %v", r, err)
	}
	if got := entityLine(show("Orion").EntityInfo); got != "service-mesh" {
		t.Errorf("shown after set: %s", got)
	}
	if r, err = Entity(ctx, st, EntityRequest{Name: "Orion", Type: "unknown"}); err != nil || r.Type != TypeProject || !r.Inferred {
		t.Errorf("cleared: %+v, %v", r, err)
	}
	// Setting a type creates an entity no fact mentions yet.
	if r, err = Entity(ctx, st, EntityRequest{Name: "Lena", Type: "Organization"}); err != nil || r.Type != TypeOrganisation || r.Facts != (store.EntityFacts{}) {
		t.Errorf("new entity: %+v, %v", r, err)
	}
	if f := show("Orion").Facts; f != (store.EntityFacts{Out: 3, In: 2, Current: 4}) {
		t.Errorf("Orion's facts: %+v", f)
	}
	// Query shows the type too.
	q, err := Query(ctx, st, QueryRequest{Entity: "Redis"})
	if err != nil || entityLine(q.Entity) != "tool (inferred: object of Orion uses Redis)" {
		t.Errorf("query's entity: %+v, %v", q.Entity, err)
	}

	for in, want := range map[string]string{"Person": "person", "organization": "organisation", "my-kind2": "my-kind2", "unknown": "unknown"} {
		if got, err := ParseType(in); got != want || err != nil {
			t.Errorf("ParseType(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"two words", "2fa", strings.Repeat("x", 33), "snake_case", "é"} {
		var ie *InputError
		if _, err := ParseType(in); !errors.As(err, &ie) || ie.Field != "type" {
			t.Errorf("ParseType(%q): %v", in, err)
		}
	}
	if _, err := Entity(ctx, st, EntityRequest{Name: "Nobody"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("show an unknown entity: %v", err)
	}
}

func TestStatsByType(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	graph(t, st, kaiGraph)
	if _, err := Entity(ctx, st, EntityRequest{Name: "Orion", Type: "service"}); err != nil {
		t.Fatal(err)
	}
	s, err := Stats(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	wantTypes := []TypeCount{{"tool", 3, 3}, {"person", 2, 2}, {"service", 1, 0}, {"unknown", 1, 0}}
	if !reflect.DeepEqual(s.Types, wantTypes) {
		t.Errorf("types %+v\nwant %+v", s.Types, wantTypes)
	}
	var most []string
	for _, c := range s.MostConnected {
		most = append(most, fmt.Sprintf("%s %s inferred=%v %d", c.Name, c.Type, c.Inferred, c.Facts))
	}
	wantMost := []string{"Orion service inferred=false 5", "CockroachDB tool inferred=true 2", "database unknown inferred=false 2",
		"Postgres 14 tool inferred=true 2", "Ana person inferred=true 1", "Kai person inferred=true 1", "Redis tool inferred=true 1"}
	if !reflect.DeepEqual(most, wantMost) {
		t.Errorf("most connected %q\nwant %q", most, wantMost)
	}
	// As of the real clock (after 2026-04-01): Postgres 14's use is over.
	if s.Current != 6 || s.Expired != 1 || s.Predicates[0] != (store.PredicateCount{Predicate: "uses", Triples: 3, Current: 2, Expired: 1}) {
		t.Errorf("current and expired: %+v", s.KGStats)
	}
}

func TestAliases(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	graph(t, st, []Fact{
		fact("Kai", "works_on", "Orion", "2025-01-01", ""),
		fact("Alice", "works_at", "Acme Corp", "2020-01-01", ""),
		fact("Bob", "knows", "Ana", "", ""),
	})
	set := func(r EntityRequest) (EntityResult, error) { return Entity(ctx, st, r) }
	r, err := set(EntityRequest{Name: "Kai", Alias: []string{"Kai Chen", "K. Chen"}})
	if err != nil || len(r.Aliases) != 2 || r.Aliases[0] != (store.Alias{ID: "k._chen", Name: "K. Chen"}) || r.Aliases[1].Name != "Kai Chen" {
		t.Fatalf("aliases: %+v, %v", r, err)
	}
	// A fact under an alias is the entity's; reads accept the alias.
	res, err := Add(ctx, st, fact("kai chen", "knows", "Ana", "", ""), AddOptions{})
	if err != nil || res.Triple.SubjectID != "kai" || res.Triple.Subject != "Kai" {
		t.Fatalf("add under an alias: %+v, %v", res.Triple, err)
	}
	q, err := Query(ctx, st, QueryRequest{Entity: "Kai Chen"})
	if err != nil || q.Entity.ID != "kai" || len(q.Facts) != 2 || q.Facts[0].Direction != DirOut {
		t.Errorf("query by alias: %+v, %v", q, err)
	}
	tl, err := Timeline(ctx, st, TimelineRequest{Entity: "K. CHEN"})
	if err != nil || tl.Entity.ID != "kai" || len(tl.Facts) != 2 {
		t.Errorf("timeline by alias: %+v, %v", tl, err)
	}
	// An alias as the object of a functional predicate restates, not
	// contradicts, the entity's fact.
	if _, err := set(EntityRequest{Name: "Acme Corp", Alias: []string{"Acme"}}); err != nil {
		t.Fatal(err)
	}
	for name, op := range map[string]func(context.Context, *store.Store, Fact, AddOptions) (AddResult, error){"check": Check, "add": Add} {
		if res, err := op(ctx, st, fact("Alice", "works_at", "ACME", "2021-01-01", ""), AddOptions{}); err != nil || !res.Duplicate {
			t.Errorf("%s under the object's alias: %+v, %v", name, res, err)
		}
	}
	inv, err := Invalidate(ctx, st, InvalidateRequest{Subject: "Kai Chen", Predicate: "works_on", Object: "orion", Ended: "2026-01-31"})
	if err != nil || len(inv.Closed) != 1 {
		t.Errorf("invalidate under an alias: %+v, %v", inv, err)
	}

	// Refusals name the field and write nothing.
	if _, err := set(EntityRequest{Name: "Ghost", Alias: []string{"Spook"}}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, st)
	for _, c := range []struct {
		req         EntityRequest
		field, want string
	}{
		{EntityRequest{Name: "Kai", Alias: []string{"KAI"}}, "alias", `"KAI" is the entity's own name`},
		{EntityRequest{Name: "Kai", Alias: []string{"Orion"}}, "alias", `"Orion" is an entity of its own (with facts, a type or aliases); an alias never merges two entities`},
		{EntityRequest{Name: "Ana", Alias: []string{"kai chen"}}, "alias", `"kai chen" is already an alias of "Kai"`},
		{EntityRequest{Name: "Kai", Unalias: []string{"Spook"}}, "unalias", `"Spook" is not an alias of "Kai"`},
		{EntityRequest{Name: "Kai", Alias: []string{"Ghost"}}, "alias", `"Ghost" is an entity of its own`},
		{EntityRequest{Name: "Kai", Type: "two words"}, "type", "is not a type"},
		{EntityRequest{Name: "Kai", Alias: []string{""}}, "alias", "is empty"},
	} {
		_, err := set(c.req)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want invalid %s: %s", c.req, err, c.field, c.want)
		}
	}
	if after := snapshot(t, st); after != before {
		t.Errorf("a refused change wrote:\n%s\n%s", before, after)
	}
	// A bare name (no fact, type or alias) becomes the alias.
	if _, err := set(EntityRequest{Name: "Ghost", Unalias: []string{"spook"}}); err != nil {
		t.Fatal(err)
	}
	if r, err = set(EntityRequest{Name: "Kai", Alias: []string{"Ghost"}, Unalias: []string{"K. Chen"}}); err != nil || len(r.Aliases) != 2 || r.Aliases[0].Name != "Ghost" {
		t.Errorf("bare name as alias: %+v, %v", r, err)
	}
	if e, err := st.KGEntity(ctx, "ghost"); err != nil || e.ID != "kai" {
		t.Errorf("ghost resolves to %+v, %v", e, err)
	}
}

// openAudited is openStore with its home, where the audit log is.
func openAudited(t *testing.T) (*store.Store, string) {
	t.Helper()
	home := t.TempDir()
	st, err := store.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, home
}

func TestRemove(t *testing.T) {
	ctx := context.Background()
	st, home := openAudited(t)
	ids := graph(t, st, []Fact{
		fact("Kai", "works_on", "Orion", "2025-01-01", ""),
		fact("Orion", "uses", "Postgress", "2024-06-01", ""), // misspelt
		fact("Orion", "uses", "Postgres", "2024-06-01", ""),
	})
	dry, err := Remove(ctx, st, RemoveRequest{FactID: ids[1], DryRun: true})
	if err != nil || dry.Removed || !dry.DryRun || dry.Fact.ID != ids[1] {
		t.Errorf("dry run: %+v, %v", dry, err)
	}
	r, err := Remove(ctx, st, RemoveRequest{FactID: " " + ids[1] + " "})
	if err != nil || !r.Removed || Describe(r.Fact) != "Orion uses Postgress (since 2024-06-01) ["+ids[1]+"]" ||
		!reflect.DeepEqual(r.DroppedEntities, []string{"postgress"}) {
		t.Fatalf("rm: %+v, %v", r, err)
	}
	q, err := Query(ctx, st, QueryRequest{Entity: "Orion"})
	if err != nil || len(q.Facts) != 2 {
		t.Errorf("query after rm: %+v, %v", q, err)
	}
	tl, _ := Timeline(ctx, st, TimelineRequest{})
	tr, _ := Traverse(ctx, st, TraverseRequest{Entity: "Kai"})
	if len(tl.Facts) != 2 || len(tr.Paths) != 1 || render(tr.Paths[0], "Kai") != "Kai -works_on-> Orion (project) -uses-> Postgres (tool)" {
		t.Errorf("timeline %d facts, traverse %+v", len(tl.Facts), tr.Paths)
	}
	if _, err := Query(ctx, st, QueryRequest{Entity: "Postgress"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the misspelt name is still an entity: %v", err)
	}
	// Audited as a removal, once, with the fact's id.
	es, err := audit.ReadOnly(home).Read(audit.Filter{Op: "kg.rm"})
	if err != nil || len(es) != 1 || !reflect.DeepEqual(es[0].IDs, []string{ids[1]}) || es[0].Status != audit.Applied {
		t.Errorf("audit: %+v, %v", es, err)
	}
	if _, err := Remove(ctx, st, RemoveRequest{FactID: ids[1]}); !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), ids[1]) {
		t.Errorf("rm again: %v", err)
	}
	if es, _ := audit.ReadOnly(home).Read(audit.Filter{Op: "kg.rm"}); len(es) != 1 {
		t.Errorf("a removal of nothing was logged: %+v", es)
	}
	for _, id := range []string{"", "t_123", "drawer"} {
		var ie *InputError
		if _, err := Remove(ctx, st, RemoveRequest{FactID: id}); !errors.As(err, &ie) || ie.Field != "fact_id" {
			t.Errorf("rm %q: %v", id, err)
		}
	}
}

// Setting what is already set writes nothing, and logs nothing.
func TestEntityAudit(t *testing.T) {
	ctx := context.Background()
	st, home := openAudited(t)
	for range 2 {
		if _, err := Entity(ctx, st, EntityRequest{Name: "Kai", Type: "person", Alias: []string{"Kai Chen"}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Entity(ctx, st, EntityRequest{Name: "kai chen", Type: "person"}); err != nil {
		t.Fatal(err)
	}
	es, err := audit.ReadOnly(home).Read(audit.Filter{Op: "kg.entity"})
	if err != nil || len(es) != 1 || !reflect.DeepEqual(es[0].IDs, []string{"kai"}) {
		t.Errorf("audit: %+v, %v", es, err)
	}
}
