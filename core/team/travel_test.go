package team_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

func syncAll(t *testing.T, ps ...*palace.Palace) {
	t.Helper()
	// Twice round: the first member's pull must see the last one's push.
	for range 2 {
		for _, p := range ps {
			must[ops.SyncResult](t)(ops.Sync(context.Background(), p, ops.SyncRequest{}))
		}
	}
}

func facts(t *testing.T, p *palace.Palace, entity string) map[string]ops.KGQueryResult {
	t.Helper()
	res := must[ops.KGQueryResult](t)(ops.KGQuery(context.Background(), p, ops.KGQueryRequest{Entity: entity, Direction: ops.KGDirOut}))
	return map[string]ops.KGQueryResult{entity: res}
}

// describe renders an entity's outgoing facts with their dates and whether
// each is current, one per line, to compare members.
func describe(t *testing.T, p *palace.Palace, entity string) string {
	t.Helper()
	var b strings.Builder
	for _, f := range facts(t, p, entity)[entity].Facts {
		b.WriteString(f.Predicate + " " + f.Object)
		if f.ValidFrom != nil {
			b.WriteString(" from " + f.ValidFrom.Format("2006-01-02"))
		}
		if f.ValidTo != nil {
			b.WriteString(" to " + f.ValidTo.Format("2006-01-02"))
		}
		if f.Current {
			b.WriteString(" *")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestTeamWhatTravels: notes, diaries, mined files, taxonomy edits,
// knowledge-graph facts with their intervals, and their changes and hard
// removals all reach the other member; a removal wins over an add that
// reaches PostgreSQL after it; two members giving a functional predicate
// different values both keep their facts, the later start is current, and
// kg check and team status report the contradiction.
func TestTeamWhatTravels(t *testing.T) {
	ctx := context.Background()
	urls := teamDB(t, "alice", "bob")
	a, b := palacetest.OpenPalace(t), palacetest.OpenPalace(t)

	proj := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("deploy.md", "# Deploy\n\nDeploys go through the blue-green switch on Tuesdays.\n")
	write("rollback.md", "# Rollback\n\nA rollback flips the switch back within five minutes.\n")
	must[ops.MineResult](t)(ops.Mine(ctx, a, ops.MineRequest{Path: proj, Wing: "api", NoVectors: true}))
	note := must[ops.RememberResult](t)(ops.Remember(ctx, a, ops.RememberRequest{Importance: ops.DefaultImportance, Text: "billing moved to the payments cluster", Wing: "api"}))
	diary := must[ops.DiaryWriteResult](t)(ops.DiaryWrite(ctx, a, ops.DiaryWriteRequest{Agent: "reviewer", Text: "found a race in the retry loop", Wing: "api", Topic: "review"}))
	kw := []string{"release", "cutover"}
	must[ops.TaxonomyChange](t)(ops.TaxonomySet(ctx, a, ops.TaxonomySetRequest{Wing: "api", Room: "decisions", Keywords: &kw}))
	fact := func(p *palace.Palace, s, pr, o, from, to string) {
		t.Helper()
		must[ops.KGAddResult](t)(ops.KGAdd(ctx, p, ops.KGAddRequest{Subject: s, Predicate: pr, Object: o, ValidFrom: from, ValidTo: to, SourceDrawer: note.ID}))
	}
	fact(a, "Alice", "works_at", "Acme", "2020-01-01", "")
	fact(a, "Acme", "uses", "Postgres 14", "2021-03-01", "2024-06-30")
	fact(a, "Acme", "uses", "Redis", "", "")

	join(t, a, urls["alice"])
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, a, ops.TeamShareRequest{Wing: "api"}))
	must[ops.TeamGrantRequest](t)(ops.TeamGrant(ctx, a, ops.TeamGrantRequest{Wing: "api", Role: roleOf(urls["bob"]), Write: true}))
	join(t, b, urls["bob"])
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, b, ops.TeamShareRequest{Wing: "api"}))
	syncAll(t, a, b)

	if ea, eb := export(t, a, "api"), export(t, b, "api"); ea != eb {
		t.Fatalf("after the first sync the exports of api differ:\nalice:\n%s\nbob:\n%s", ea, eb)
	}
	d := must[ops.DiaryReadResult](t)(ops.DiaryRead(ctx, b, ops.DiaryReadRequest{Agent: "reviewer", Wing: "api"}))
	if len(d.Entries) != 1 || !strings.Contains(d.Entries[0].Text, "race in the retry loop") {
		t.Fatalf("bob's diary of reviewer: %+v", d.Entries)
	}
	rooms := must[ops.TaxonomyListResult](t)(ops.TaxonomyList(ctx, b, ops.TaxonomyListRequest{Wing: "api"}))
	if !hasRoom(rooms, "decisions", "release") {
		t.Fatalf("bob's taxonomy of api: %+v", rooms)
	}
	if got, want := describe(t, b, "Acme"), "uses Redis *\nuses Postgres 14 from 2021-03-01 to 2024-07-01\n"; got != want {
		t.Fatalf("bob's facts about Acme:\n%swant\n%s", got, want)
	}
	hits := must[ops.SearchResult](t)(ops.Search(ctx, b, ops.SearchRequest{Query: "blue-green switch", Wing: "api"}))
	if len(hits.Hits) == 0 {
		t.Fatal("bob cannot find the mined file's drawer")
	}
	deployID := hits.Hits[0].ID

	// Alice removes a diary entry (forget) and, re-mining a changed file,
	// a drawer outright. Bob, not yet pulled, shares the wing again, which
	// queues every row he holds as it is: his adds of both reach PostgreSQL
	// after Alice's removals, and the removals win.
	must[ops.ForgetResult](t)(ops.Forget(ctx, a, ops.ForgetRequest{ID: diary.ID}))
	write("deploy.md", "# Deploy\n\nDeploys go through the canary first, then everywhere.\n")
	must[ops.MineResult](t)(ops.Mine(ctx, a, ops.MineRequest{Path: proj, Wing: "api", NoVectors: true}))
	must[ops.SyncResult](t)(ops.Sync(ctx, a, ops.SyncRequest{}))
	must[ops.TeamShareResult](t)(ops.TeamUnshare(ctx, b, ops.TeamShareRequest{Wing: "api"}))
	if q := must[ops.TeamShareResult](t)(ops.TeamShare(ctx, b, ops.TeamShareRequest{Wing: "api"})); q.Queued == 0 {
		t.Fatal("sharing again queued nothing")
	}
	syncAll(t, b, a)
	if ea, eb := export(t, a, "api"), export(t, b, "api"); ea != eb {
		t.Fatalf("after the removals the exports of api differ:\nalice:\n%s\nbob:\n%s", ea, eb)
	}
	for _, p := range []*palace.Palace{a, b} {
		if g, err := p.Store.GetDrawer(ctx, deployID); err == nil {
			t.Fatalf("the removed deploy drawer came back: %+v", g)
		}
		dd, err := p.Store.GetDrawer(ctx, diary.ID)
		if err != nil || dd.DeletedAt == nil {
			t.Fatalf("the forgotten diary entry: %+v %v, want it forgotten on every member", dd, err)
		}
	}

	// Edits of the graph and the taxonomy while apart; both members give
	// checkout an owner, Bob from a later date.
	ended := must[ops.KGInvalidateResult](t)(ops.KGInvalidate(ctx, a, ops.KGInvalidateRequest{Subject: "Alice", Predicate: "works_at", Object: "Acme", Ended: "2023-05-31"}))
	if len(ended.Closed) != 1 {
		t.Fatalf("invalidate closed %v", ended.Closed)
	}
	redis := factID(t, a, "Acme", "Redis")
	must[ops.KGRmResult](t)(ops.KGRm(ctx, a, ops.KGRmRequest{FactID: redis}))
	must[ops.TaxonomyChange](t)(ops.TaxonomyRm(ctx, a, ops.TaxonomyRmRequest{Wing: "api", Room: "decisions"}))
	kw2 := []string{"pager"}
	must[ops.TaxonomyChange](t)(ops.TaxonomySet(ctx, a, ops.TaxonomySetRequest{Wing: "api", Room: "oncall", Keywords: &kw2}))
	fact(a, "Checkout", "owner", "Payments", "2024-03-01", "")
	must[ops.KGAddResult](t)(ops.KGAdd(ctx, b, ops.KGAddRequest{Subject: "Checkout", Predicate: "owner", Object: "Platform", ValidFrom: "2025-01-01", SourceDrawer: note.ID}))
	syncAll(t, a, b)

	ea, eb := export(t, a, "api"), export(t, b, "api")
	if ea != eb {
		t.Fatalf("the exports of api differ:\nalice:\n%s\nbob:\n%s", ea, eb)
	}
	if !strings.Contains(eb, "canary first") || strings.Contains(eb, "blue-green") {
		t.Fatal("bob's api does not hold the re-mined file as it is now")
	}
	rooms = must[ops.TaxonomyListResult](t)(ops.TaxonomyList(ctx, b, ops.TaxonomyListRequest{Wing: "api"}))
	if hasRoom(rooms, "decisions", "") || !hasRoom(rooms, "oncall", "pager") {
		t.Fatalf("bob's taxonomy of api after the edits: %+v", rooms)
	}
	if got, want := describe(t, b, "Acme"), "uses Postgres 14 from 2021-03-01 to 2024-07-01\n"; got != want {
		t.Fatalf("bob's facts about Acme after kg rm:\n%swant\n%s", got, want)
	}
	if got, want := describe(t, b, "Alice"), "works_at Acme from 2020-01-01 to 2023-06-01\n"; got != want {
		t.Fatalf("bob's facts about Alice after the invalidation:\n%swant\n%s", got, want)
	}
	// The contradiction: both facts kept, Platform (the later start) current,
	// reported the same on both members.
	for _, p := range []*palace.Palace{a, b} {
		if got, want := describe(t, p, "Checkout"), "owner Payments from 2024-03-01\nowner Platform from 2025-01-01 *\n"; got != want {
			t.Fatalf("facts about Checkout:\n%swant\n%s", got, want)
		}
		cs := must[ops.KGContradictionsResult](t)(ops.KGContradictions(ctx, p)).Contradictions
		if len(cs) != 1 || cs[0].Subject != "Checkout" || cs[0].Predicate != "owner" || len(cs[0].Facts) != 2 || cs[0].Current.Object != "Platform" {
			t.Fatalf("kg check: %+v, want Checkout owner with Platform current", cs)
		}
		st := must[ops.TeamStatusResult](t)(ops.TeamStatus(ctx, p, ops.TeamStatusRequest{}))
		if len(st.Contradictions) != 1 || st.Contradictions[0].Current.Object != "Platform" {
			t.Fatalf("team status contradictions: %+v", st.Contradictions)
		}
		doc := must[ops.DoctorResult](t)(ops.Doctor(ctx, p, ops.DoctorRequest{}))
		if !doc.OK {
			t.Fatalf("doctor: %+v", doc.Failed)
		}
	}
}

func hasRoom(rooms ops.TaxonomyListResult, room, keyword string) bool {
	for _, r := range rooms.Rooms {
		if r.Room == room && (keyword == "" || strings.Contains(strings.Join(r.Keywords, " "), keyword)) {
			return true
		}
	}
	return false
}

func factID(t *testing.T, p *palace.Palace, subject, object string) string {
	t.Helper()
	for _, f := range facts(t, p, subject)[subject].Facts {
		if f.Object == object {
			return f.ID
		}
	}
	t.Fatalf("no fact %s ... %s", subject, object)
	return ""
}

// Vectors do not travel: a member with a model embeds what it pulls, with
// its own model, in the same sync.
func TestTeamPulledDrawersAreEmbedded(t *testing.T) {
	ctx := context.Background()
	urls := teamDB(t, "alice", "bob")
	tiny, err := filepath.Abs(filepath.Join("..", "embed", "testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := embed.Config{ModelDir: tiny, Backend: embed.BackendGo, LibDirs: []string{}}
	a := palacetest.OpenPalace(t)
	b := palacetest.OpenPalace(t, palace.Options{Embed: &cfg})
	for _, text := range []string{"we pinned pgx to v5.12 for the COPY fix", "the billing service moved to Dana"} {
		must[ops.RememberResult](t)(ops.Remember(ctx, a, ops.RememberRequest{Importance: ops.DefaultImportance, Text: text, Wing: "api"}))
	}
	join(t, a, urls["alice"])
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, a, ops.TeamShareRequest{Wing: "api"}))
	must[ops.TeamGrantRequest](t)(ops.TeamGrant(ctx, a, ops.TeamGrantRequest{Wing: "api", Role: roleOf(urls["bob"]), Write: true}))
	must[ops.SyncResult](t)(ops.Sync(ctx, a, ops.SyncRequest{}))
	join(t, b, urls["bob"])
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, b, ops.TeamShareRequest{Wing: "api"}))
	res := must[ops.SyncResult](t)(ops.Sync(ctx, b, ops.SyncRequest{}))
	if res.Pulled["api"] != 2 || res.Vectors == nil || res.Vectors.Embedded != 2 || res.Vectors.Pending != 0 {
		t.Fatalf("bob's sync: pulled %v, vectors %+v; want both drawers pulled and embedded", res.Pulled, res.Vectors)
	}
	vi := must[store.VecInfo](t)(b.Store.VecInfo(ctx))
	if vi.Pending != 0 || vi.Vectors != 2 {
		t.Errorf("bob's vectors: %+v, want 2 and none pending", vi)
	}
	// Alice has no model: pulling bob's note embeds nothing and says
	// nothing of vectors.
	must[ops.RememberResult](t)(ops.Remember(ctx, b, ops.RememberRequest{Importance: ops.DefaultImportance, Text: "bob reviewed the COPY fix", Wing: "api"}))
	must[ops.SyncResult](t)(ops.Sync(ctx, b, ops.SyncRequest{}))
	if res := must[ops.SyncResult](t)(ops.Sync(ctx, a, ops.SyncRequest{})); res.Pulled["api"] != 1 || res.Vectors != nil {
		t.Errorf("alice (no model): pulled %v, vectors %+v; want bob's note and no vectors", res.Pulled, res.Vectors)
	}
}
