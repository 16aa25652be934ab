package team_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/team"
)

// localPG is the role scripts/postgres.sh makes on the local cluster.
const localPG = "postgres://palace_test:palace_test@127.0.0.1:5432/postgres"

// teamDB makes a database and a login role per name, all with a unique
// suffix, dropped at the end, and returns each role's connection string.
// It skips only when PALACE_TEST_PG is unset and no local cluster answers;
// `make test` sets it, so there it fails instead.
func teamDB(t *testing.T, names ...string) map[string]string {
	t.Helper()
	admin := os.Getenv("PALACE_TEST_PG")
	ctx := context.Background()
	if admin == "" {
		c, err := pgx.Connect(ctx, localPG)
		if err != nil {
			t.Skipf("no PostgreSQL: PALACE_TEST_PG is unset and the local cluster does not answer (scripts/postgres.sh starts it): %v", err)
		}
		c.Close(ctx)
		admin = localPG
	}
	c, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("PALACE_TEST_PG: %v", err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	suffix := fmt.Sprintf("%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	db := "palace_t_" + suffix
	if _, err := c.Exec(ctx, `CREATE DATABASE `+db); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		role := n + "_" + suffix
		if _, err := c.Exec(ctx, fmt.Sprintf(`CREATE ROLE %s LOGIN PASSWORD 'pw'`, role)); err != nil {
			t.Fatal(err)
		}
		ru := *u
		ru.User, ru.Path = url.UserPassword(role, "pw"), "/"+db
		out[n] = ru.String()
	}
	// The first member creates the team schema.
	if _, err := c.Exec(ctx, fmt.Sprintf(`GRANT CREATE ON DATABASE %s TO %s_%s`, db, names[0], suffix)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := c.Exec(ctx, `DROP DATABASE `+db+` WITH (FORCE)`); err != nil {
			t.Errorf("drop %s: %v", db, err)
		}
		for _, n := range names {
			if _, err := c.Exec(ctx, `DROP ROLE `+n+"_"+suffix); err != nil {
				t.Errorf("drop role: %v", err)
			}
		}
	})
	return out
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func export(t *testing.T, p *palace.Palace, wing string) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := ops.Export(context.Background(), p, ops.ExportRequest{Wing: wing}, &b); err != nil {
		t.Fatal(err)
	}
	// The header names when the export was made; the rows must agree.
	_, rows, _ := strings.Cut(b.String(), "\n")
	return rows
}

// join makes p a member through role's connection string.
func join(t *testing.T, p *palace.Palace, u string) {
	t.Helper()
	if _, err := ops.TeamJoin(context.Background(), p, ops.TeamJoinRequest{URL: u}); err != nil {
		t.Fatal(err)
	}
}

func TestTeamSyncConverges(t *testing.T) {
	ctx := context.Background()
	urls := teamDB(t, "alice", "bob")
	a, b := palacetest.OpenPalace(t), palacetest.OpenPalace(t)
	keep := must[ops.RememberResult](t)(ops.Remember(ctx, a, ops.RememberRequest{Importance: ops.DefaultImportance, Text: "we pinned pgx to v5.12 for the COPY fix", Wing: "api"}))
	gone := must[ops.RememberResult](t)(ops.Remember(ctx, a, ops.RememberRequest{Importance: ops.DefaultImportance, Text: "the staging password rotates on Mondays", Wing: "api"}))
	must[ops.RememberResult](t)(ops.Remember(ctx, a, ops.RememberRequest{Importance: ops.DefaultImportance, Text: "private to alice", Wing: "home"}))
	join(t, a, urls["alice"])
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, a, ops.TeamShareRequest{Wing: "api"}))
	must[ops.TeamGrantRequest](t)(ops.TeamGrant(ctx, a, ops.TeamGrantRequest{Wing: "api", Role: roleOf(urls["bob"]), Write: true}))
	if res := must[ops.SyncResult](t)(ops.Sync(ctx, a, ops.SyncRequest{})); res.Pushed != 2 {
		t.Fatalf("alice pushed %d operations, want 2 (the two drawers of api)", res.Pushed)
	}

	join(t, b, urls["bob"])
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, b, ops.TeamShareRequest{Wing: "api"}))
	res := must[ops.SyncResult](t)(ops.Sync(ctx, b, ops.SyncRequest{}))
	if res.Pulled["api"] != 2 {
		t.Fatalf("bob pulled %v, want 2 operations of api", res.Pulled)
	}
	hits := must[ops.SearchResult](t)(ops.Search(ctx, b, ops.SearchRequest{Query: "pinned pgx", Wing: "api"}))
	if len(hits.Hits) == 0 || hits.Hits[0].ID != keep.ID {
		t.Fatalf("bob's search for the synced note found %+v", hits.Hits)
	}
	if _, err := b.Store.GetDrawer(ctx, "x"); err == nil {
		t.Fatal("sanity: a missing drawer was found")
	}

	// Bob writes, Alice purges: both travel.
	note := must[ops.RememberResult](t)(ops.Remember(ctx, b, ops.RememberRequest{Importance: ops.DefaultImportance, Text: "billing is owned by the payments team now", Wing: "api"}))
	must[ops.PurgeResult](t)(ops.Purge(ctx, a, ops.PurgeRequest{ID: gone.ID}))
	for range 2 {
		for _, p := range []*palace.Palace{a, b} {
			must[ops.SyncResult](t)(ops.Sync(ctx, p, ops.SyncRequest{}))
		}
	}
	ea, eb := export(t, a, "api"), export(t, b, "api")
	if ea != eb {
		t.Fatalf("the exports of api differ:\nalice:\n%s\nbob:\n%s", ea, eb)
	}
	if !strings.Contains(ea, note.ID) || strings.Contains(ea, "rotates on Mondays") {
		t.Fatalf("api should hold bob's note and not the purged text:\n%s", ea)
	}
	if strings.Contains(export(t, b, ""), "private to alice") {
		t.Fatal("an unshared wing travelled")
	}
	// The purge erased the content in PostgreSQL too.
	c, err := pgx.Connect(ctx, urls["alice"])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM palace.ops WHERE rows::text LIKE '%rotates on Mondays%'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d operations in PostgreSQL still hold the purged text", n)
	}

	// A push replayed with the same op ids adds nothing.
	var before, after int
	c.QueryRow(ctx, `SELECT count(*) FROM palace.ops`).Scan(&before)
	tc, err := team.Connect(ctx, urls["alice"], 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close(ctx)
	must[ops.RememberResult](t)(ops.Remember(ctx, a, ops.RememberRequest{Importance: ops.DefaultImportance, Text: "replayed", Wing: "api"}))
	q, err := a.Store.TeamOutbox(ctx, "", 10)
	if err != nil || len(q) != 1 {
		t.Fatalf("queue: %v %v", q, err)
	}
	for range 2 {
		if err := tc.Push(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	c.QueryRow(ctx, `SELECT count(*) FROM palace.ops`).Scan(&after)
	if after != before+1 {
		t.Fatalf("a push replayed twice added %d operations, want 1", after-before)
	}
}

func roleOf(u string) string {
	p, _ := url.Parse(u)
	return p.User.Username()
}

func TestTeamAccess(t *testing.T) {
	ctx := context.Background()
	urls := teamDB(t, "alice", "rita", "eve")
	a, r, e := palacetest.OpenPalace(t), palacetest.OpenPalace(t), palacetest.OpenPalace(t)
	must[ops.RememberResult](t)(ops.Remember(ctx, a, ops.RememberRequest{Importance: ops.DefaultImportance, Text: "the launch date is secret", Wing: "plans"}))
	join(t, a, urls["alice"])
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, a, ops.TeamShareRequest{Wing: "plans"}))
	must[ops.TeamGrantRequest](t)(ops.TeamGrant(ctx, a, ops.TeamGrantRequest{Wing: "plans", Role: roleOf(urls["rita"])}))
	must[ops.SyncResult](t)(ops.Sync(ctx, a, ops.SyncRequest{}))

	// Eve: no access. PostgreSQL itself gives her no row.
	c, err := pgx.Connect(ctx, urls["eve"])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM palace.ops`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("eve reads %d operations of a wing she has no access to", n)
	}
	if _, err := c.Exec(ctx, `INSERT INTO palace.ops (op_id, wing, kind, key, gone, at) VALUES ('x', 'plans', 'drawer', 'd', false, '')`); err == nil {
		t.Fatal("eve wrote to a wing she has no access to")
	}
	join(t, e, urls["eve"])
	_, err = ops.TeamShare(ctx, e, ops.TeamShareRequest{Wing: "plans"})
	var ae *team.AccessError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), `"plans"`) || !strings.Contains(err.Error(), "may not read") {
		t.Fatalf("eve sharing plans: %v, want a refusal naming the wing", err)
	}

	// Rita reads, but may not write.
	join(t, r, urls["rita"])
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, r, ops.TeamShareRequest{Wing: "plans"}))
	if res := must[ops.SyncResult](t)(ops.Sync(ctx, r, ops.SyncRequest{})); res.Pulled["plans"] != 1 {
		t.Fatalf("rita pulled %v", res.Pulled)
	}
	must[ops.RememberResult](t)(ops.Remember(ctx, r, ops.RememberRequest{Importance: ops.DefaultImportance, Text: "rita's edit", Wing: "plans"}))
	_, err = ops.Sync(ctx, r, ops.SyncRequest{})
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), `may not write wing "plans"`) {
		t.Fatalf("rita's push: %v, want a refusal naming the wing", err)
	}
	st := must[ops.TeamStatusResult](t)(ops.TeamStatus(ctx, r, ops.TeamStatusRequest{}))
	if len(st.Shared) != 1 || st.Shared[0].Pending != 1 {
		t.Fatalf("rita's status: %+v, want her write pending", st.Shared)
	}
	// The connection string is nowhere in the audit log.
	b, err := os.ReadFile(a.Store.AuditLog().Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "pw@") || strings.Contains(string(b), "postgres://") {
		t.Fatal("the audit log holds the connection string")
	}
}
