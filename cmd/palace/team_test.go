//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Team palace tests on the binary, against the PostgreSQL cluster
// scripts/postgres.sh starts (`make test` sets PALACE_TEST_PG): a sync
// killed mid-push and mid-pull, and continuous sync under palace serve.

const localTeamPG = "postgres://palace_test:palace_test@127.0.0.1:5432/postgres"

// teamRoles makes a database and a login role per name (unique names,
// dropped at the end) and returns each role's connection string; the
// first may create the team schema. It skips only when PALACE_TEST_PG is
// unset and no local cluster answers.
func teamRoles(t *testing.T, names ...string) map[string]string {
	t.Helper()
	ctx := context.Background()
	admin := os.Getenv("PALACE_TEST_PG")
	if admin == "" {
		admin = localTeamPG
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Skipf("no PostgreSQL: PALACE_TEST_PG is unset and the local cluster does not answer (scripts/postgres.sh starts it): %v", err)
		}
		c.Close(ctx)
	}
	c, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("PALACE_TEST_PG: %v", err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	suffix := fmt.Sprintf("%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	db := "palace_c_" + suffix
	exec := func(q string) {
		t.Helper()
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE DATABASE ` + db)
	u, _ := url.Parse(admin)
	out := map[string]string{}
	for _, n := range names {
		exec(fmt.Sprintf(`CREATE ROLE %s_%s LOGIN PASSWORD 'pw'`, n, suffix))
		ru := *u
		ru.User, ru.Path = url.UserPassword(n+"_"+suffix, "pw"), "/"+db
		out[n] = ru.String()
	}
	exec(fmt.Sprintf(`GRANT CREATE ON DATABASE %s TO %s_%s`, db, names[0], suffix))
	t.Cleanup(func() {
		c.Exec(ctx, `DROP DATABASE `+db+` WITH (FORCE)`)
		for _, n := range names {
			c.Exec(ctx, `DROP ROLE `+n+"_"+suffix)
		}
	})
	return out
}

func roleName(u string) string {
	p, _ := url.Parse(u)
	return p.User.Username()
}

// fillNotes writes n notes to wing in home's palace in a few transactions.
func fillNotes(t *testing.T, home, wing string, n int) {
	t.Helper()
	p, err := palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	now := time.Now().UTC()
	var batch []store.Drawer
	for i := range n {
		text := fmt.Sprintf("decision %d: the %s service keeps its queue depth under %d", i, wing, i%97)
		h := store.ContentHash(text)
		batch = append(batch, store.Drawer{ID: store.DrawerID(wing, "note", i, h), Wing: wing, Room: "notes", Kind: "note", Source: "note",
			Content: text, ContentHash: h, CreatedAt: now, OccurredAt: now, Importance: 3, Metadata: "{}"})
		if len(batch) == 5000 || i == n-1 {
			if _, err := p.Store.InsertDrawers(context.Background(), batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

// killMidway starts palace sync on home and SIGKILLs it once progress
// reports a value strictly between 0 and total; it fails if the sync ends
// first.
func killMidway(t *testing.T, home string, total int64, progress func() int64) {
	t.Helper()
	cmd := palaceCmd(context.Background(), home, "sync")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case err := <-done:
			t.Fatalf("palace sync ended (%v) before it could be killed midway", err)
		default:
		}
		if n := progress(); n > 0 && n < total {
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("palace sync was not killed: %v", cmd.ProcessState)
			}
			t.Logf("killed palace sync at %d of %d", n, total)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTeamSyncKilledResumes: palace sync SIGKILLed in the middle of a
// large push, then of a large pull, resumes on the next run without loss
// or duplicates; the member that joins thousands of operations behind
// catches up, and doctor passes on both.
func TestTeamSyncKilledResumes(t *testing.T) {
	const n = 30000
	ctx := context.Background()
	urls := teamRoles(t, "alice", "bob")
	a, b := t.TempDir(), t.TempDir()
	fillNotes(t, a, "api", n)
	palaceOK(t, a, nil, "team", "join", urls["alice"])
	palaceOK(t, a, nil, "team", "share", "api")
	palaceOK(t, a, nil, "team", "grant", "api", roleName(urls["bob"]))

	pg, err := pgx.Connect(ctx, urls["alice"])
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	count := func(q string) int64 {
		var c int64
		if err := pg.QueryRow(ctx, q).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	killMidway(t, a, n, func() int64 { return count(`SELECT count(*) FROM palace.ops`) })
	var res struct {
		Pushed int `json:"pushed"`
		Pulled map[string]int
	}
	palaceOK(t, a, &res, "sync", "--json")
	if got, keys := count(`SELECT count(*) FROM palace.ops`), count(`SELECT count(DISTINCT key) FROM palace.ops`); got != n || keys != n {
		t.Fatalf("after the killed push and a resumed one PostgreSQL holds %d operations for %d drawers, want %d and %d", got, keys, n, n)
	}

	palaceOK(t, b, nil, "team", "join", urls["bob"])
	palaceOK(t, b, nil, "team", "share", "api")
	killMidway(t, b, n, func() int64 {
		out, _, code := runPalace(t, b, "team", "status", "--json")
		var st struct {
			Shared []struct{ Seq int64 } `json:"shared"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &st) != nil || len(st.Shared) != 1 {
			return 0
		}
		return st.Shared[0].Seq
	})
	palaceOK(t, b, &res, "sync", "--json")
	if res.Pulled["api"] == 0 || res.Pulled["api"] == n {
		t.Fatalf("the resumed pull applied %d operations, want the rest after the killed one's", res.Pulled["api"])
	}
	ea, eb := exportRows(t, a), exportRows(t, b)
	if ea != eb || strings.Count(eb, `"type":"drawer"`) != n {
		t.Fatalf("after the killed pull bob holds %d drawers, alice %d; or their exports differ", strings.Count(eb, `"type":"drawer"`), strings.Count(ea, `"type":"drawer"`))
	}
	for _, h := range []string{a, b} {
		palaceOK(t, h, nil, "doctor")
	}
}

// exportRows is home's export of wing api without its header, which
// names when it was made.
func exportRows(t *testing.T, home string) string {
	t.Helper()
	out, errOut, code := runPalace(t, home, "export", "--wing", "api")
	if code != 0 {
		t.Fatalf("export: exit %d, %s", code, errOut)
	}
	_, rows, _ := strings.Cut(out, "\n")
	return rows
}

// TestTeamServeFollows: two members each run palace serve; a note
// remembered on one, through its MCP server or the CLI beside it,
// becomes searchable on the other through its MCP and LSP servers,
// without a restart.
func TestTeamServeFollows(t *testing.T) {
	urls := teamRoles(t, "alice", "bob")
	a, b := t.TempDir(), t.TempDir()
	palaceOK(t, a, nil, "team", "join", urls["alice"])
	palaceOK(t, a, nil, "team", "share", "api")
	palaceOK(t, a, nil, "team", "grant", "api", roleName(urls["bob"]), "--write")
	palaceOK(t, b, nil, "team", "join", urls["bob"])
	palaceOK(t, b, nil, "team", "share", "api")

	ma := startMCPFront(t, a, t.TempDir())
	mb := startMCPFront(t, b, t.TempDir())
	lb := startLSPFront(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	req := mcp.CallToolRequest{}
	req.Params.Name = "palace_remember"
	req.Params.Arguments = map[string]any{"content": "the flamingo cluster is retired on Friday", "wing": "api"}
	if res, err := ma.cl.CallTool(ctx, req); err != nil || res.IsError {
		t.Fatalf("alice's palace_remember: %v %+v", err, res)
	}
	palaceOK(t, a, nil, "remember", "the pelican queue moves to the new broker", "--wing", "api")

	for _, q := range []string{"flamingo cluster", "pelican queue"} {
		found := func() bool {
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "palace_search", map[string]any{"query": q}
			res, err := mb.cl.CallTool(ctx, req)
			if err != nil || res.IsError {
				t.Fatalf("bob's palace_search: %v %+v", err, res)
			}
			b, _ := json.Marshal(res.StructuredContent)
			if !hitHolds(t, b, strings.Fields(q)[0]) {
				return false
			}
			var lres json.RawMessage
			if _, err := lb.conn.Call(ctx, "palace/search", map[string]any{"query": q}, &lres); err != nil {
				t.Fatalf("bob's palace/search: %v", err)
			}
			if !hitHolds(t, lres, strings.Fields(q)[0]) {
				t.Fatalf("bob's MCP server finds %q but his LSP server does not: %s", q, lres)
			}
			return true
		}
		for !found() {
			if ctx.Err() != nil {
				t.Fatalf("bob's servers never found %q", q)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// hitHolds reports whether a search answer has a hit holding word (the
// answer echoes the query, so the whole text would always hold it).
func hitHolds(t *testing.T, answer []byte, word string) bool {
	t.Helper()
	var r struct{ Hits []json.RawMessage }
	if err := json.Unmarshal(answer, &r); err != nil {
		t.Fatalf("search answer: %v: %s", err, answer)
	}
	for _, h := range r.Hits {
		if strings.Contains(string(h), word) {
			return true
		}
	}
	return false
}
