package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

func TestProtocolBasics(t *testing.T) {
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), nil)
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	raw, err := c.call("tools/list", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(raw, &list)
	if len(list.Tools) != len(allTools()) {
		t.Errorf("tools/list: %d tools, want %d", len(list.Tools), len(allTools()))
	}
	if _, err := c.call("ping", map[string]any{}); err != nil {
		t.Errorf("ping: %v", err)
	}
	raw, err = c.call("prompts/list", map[string]any{})
	if err != nil || !strings.Contains(string(raw), `"wake-up"`) {
		t.Errorf("prompts/list: %s %v", raw, err)
	}
	raw, err = c.call("resources/list", map[string]any{})
	if err != nil || !strings.Contains(string(raw), statusURI) {
		t.Errorf("resources/list: %s %v", raw, err)
	}
	raw, err = c.call("resources/templates/list", map[string]any{})
	if err != nil || !strings.Contains(string(raw), drawerTemplate) {
		t.Errorf("resources/templates/list: %s %v", raw, err)
	}
	// An unknown tool is mcp-go's own -32602.
	if _, err := c.call("tools/call", map[string]any{"name": "palace_nope", "arguments": map[string]any{}}); err == nil || err.(*rpcError).Code != -32602 {
		t.Errorf("unknown tool: %v", err)
	}
	// Schema violations: -32602 naming the parameter, before the tool runs.
	c.invalid("palace_search", map[string]any{"query": "x", "wng": "a"}, `unknown parameter "wng"`)
	c.invalid("palace_search", map[string]any{"query": "x", "limit": "5"}, `"limit" must be an integer`)
	c.invalid("palace_remember", map[string]any{}, `"content" is required`)
	// The core calls it text; the agent must read the name it sent.
	c.fails("palace_remember", map[string]any{"content": "  ", "wing": "shop"}, "invalid input: content is empty")
	c.invalid("palace_kg", map[string]any{"action": "stats", "entity": "x"}, `does not apply to action "stats"`)
	c.invalid("palace_get", []any{"d_1"}, `arguments must be a JSON object`)
	// A line that is not JSON gets mcp-go's parse error, and the server
	// goes on.
	c.sendRaw(`{"jsonrpc":"2.0","id":99,"method":`)
	c.ok("palace_status", nil, nil)
}

func TestRememberSearchGetForget(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startStdio(t, newTestServer(t, p, Options{}), nil)
	note := "We deploy the billing service with pnpm, never npm: npm's lockfile drifted twice."
	var rem memory.RememberResult
	c.ok("palace_remember", map[string]any{"content": note, "wing": "shop", "room": "decisions", "importance": 4, "source": "ADR-7"}, &rem)
	if !rem.Added || rem.ID == "" || rem.Wing != "shop" || rem.Room != "decisions" {
		t.Fatalf("remember: %+v", rem)
	}
	var again memory.RememberResult
	c.ok("palace_remember", map[string]any{"content": note, "wing": "shop"}, &again)
	if again.Added || len(again.Duplicates) == 0 || again.Duplicates[0].ID != rem.ID || again.Duplicates[0].Kind != "exact" {
		t.Fatalf("duplicate not reported: %+v", again)
	}

	// An agent's search is compact within a budget by default: the hit
	// without its content, which palace_get reads; detail full has it.
	var res ops.SearchResult
	c.ok("palace_search", map[string]any{"query": "billing pnpm", "limit": 5}, &res)
	if len(res.Hits) != 1 || res.Hits[0].ID != rem.ID || res.Hits[0].Content != "" || res.Hits[0].Citation != "ADR-7" ||
		res.Hits[0].Time == nil || !strings.Contains(res.Hits[0].Snippet, "**pnpm**") ||
		res.Detail != ops.DetailCompact || res.Budget != ops.AgentBudget || res.Tokens == 0 || res.Omitted != 0 {
		t.Fatalf("search: %+v", res)
	}
	var full, tight ops.SearchResult
	c.ok("palace_search", map[string]any{"query": "billing pnpm", "detail": "full", "budget": 0}, &full)
	if len(full.Hits) != 1 || full.Hits[0].Content != note || full.Detail != ops.DetailFull || full.Budget != 0 {
		t.Fatalf("search in full without a budget: %+v", full)
	}
	c.ok("palace_search", map[string]any{"query": "billing pnpm", "budget": 10}, &tight)
	if len(tight.Hits) != 0 || tight.Omitted != 1 || !strings.Contains(tight.Note, "more than the 10-token budget") {
		t.Fatalf("search within 10 tokens: %+v", tight)
	}
	c.invalid("palace_search", map[string]any{"query": "x", "budget": -1}, `"budget" is -1`)
	c.invalid("palace_search", map[string]any{"query": "x", "detail": "brief"}, `"detail"`)
	// A wing the palace does not hold is refused, naming the wings (#7).
	c.fails("palace_search", map[string]any{"query": "billing pnpm", "wing": "other"}, `invalid input: wing "other": no such wing (wings: shop)`)
	c.fails("palace_search", map[string]any{"query": "  "}, "invalid input: query is empty")
	manyWords := strings.Repeat("pnpm ", 500) // a repeated word counts once
	for i := range 64 {
		manyWords += fmt.Sprintf("w%d ", i)
	}
	c.fails("palace_search", map[string]any{"query": manyWords}, "invalid input: query has 65 distinct words: at most 64")
	c.ok("palace_search", map[string]any{"query": "billing pnpm", "source": "ADR"}, &res)
	if len(res.Hits) != 1 {
		t.Errorf("source prefix ADR: %+v", res.Hits)
	}
	c.ok("palace_search", map[string]any{"query": "billing pnpm", "source": "/src/"}, &res)
	if len(res.Hits) != 0 {
		t.Errorf("source filter ignored: %+v", res.Hits)
	}
	c.fails("palace_search", map[string]any{"query": "pnpm", "since": "last week"}, "invalid input: since")

	var got ops.GetResult
	c.ok("palace_get", map[string]any{"id": rem.ID}, &got)
	if got.Content != note || got.Kind != store.KindNote || got.DeletedAt != nil {
		t.Fatalf("get: %+v", got)
	}
	c.fails("palace_get", map[string]any{"id": "d_000000000000000000000000"}, "not found:")

	raw, err := c.call("resources/read", map[string]any{"uri": "palace://drawer/" + rem.ID})
	if err != nil || !strings.Contains(string(raw), "lockfile drifted") {
		t.Errorf("drawer resource: %s %v", raw, err)
	}

	var f ops.ForgetResult
	c.ok("palace_forget", map[string]any{"id": rem.ID}, &f)
	if !f.Deleted || f.Wing != "shop" {
		t.Fatalf("forget: %+v", f)
	}
	c.ok("palace_search", map[string]any{"query": "billing pnpm"}, &res)
	if len(res.Hits) != 0 {
		t.Errorf("forgotten drawer still found: %+v", res.Hits)
	}
	audit, err := os.ReadFile(filepath.Join(p.Store.Home(), "audit", "write_log.jsonl"))
	if err != nil || !strings.Contains(string(audit), `"actor":"mcp","client":"go-test","op":"drawer.delete","ids":["`+rem.ID+`"]`) {
		t.Errorf("forget not audited as mcp/go-test: %v\n%s", err, audit)
	}
	c.ok("palace_forget", map[string]any{"id": rem.ID}, &f)
	if f.Deleted || !f.AlreadyDeleted {
		t.Errorf("second forget: %+v", f)
	}
	c.ok("palace_get", map[string]any{"id": rem.ID}, &got)
	if got.DeletedAt == nil {
		t.Errorf("forgotten drawer lost its deleted_at: %+v", got.Drawer)
	}
	c.fails("palace_remember", map[string]any{"content": "x", "wing": "a/b"}, "invalid input: wing")
	c.fails("palace_forget", map[string]any{"id": " "}, "invalid input: id is empty")
	c.fails("palace_forget", map[string]any{"id": "d_000000000000000000000000", "purge": true}, "not found:")
}

// Defect 5 of issue 15: forget left a secret readable by id and in
// exports. palace_forget with purge erases it; doing it again is an
// answer, not an error.
func TestForgetPurge(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startStdio(t, newTestServer(t, p, Options{}), nil)
	const secret = "the vault unlock phrase is tokmarmalade-kumquat-zeppelin"
	var rem memory.RememberResult
	c.ok("palace_remember", map[string]any{"content": secret, "wing": "shop"}, &rem)
	if !rem.Added {
		t.Fatalf("remember: %+v", rem)
	}
	var pr ops.PurgeResult
	c.ok("palace_forget", map[string]any{"id": rem.ID, "purge": true}, &pr)
	if !pr.Purged || pr.PurgedAt == nil || pr.Kind != store.KindNote || pr.Wing != "shop" || pr.Notice != "" {
		t.Fatalf("purge: %+v", pr)
	}
	var got ops.GetResult
	c.ok("palace_get", map[string]any{"id": rem.ID}, &got)
	if strings.Contains(got.Content, "marmalade") || got.DeletedAt == nil {
		t.Errorf("get after purge: %+v", got.Drawer)
	}
	var res search.Result
	c.ok("palace_search", map[string]any{"query": "marmalade kumquat"}, &res)
	if len(res.Hits) != 0 {
		t.Errorf("search after purge: %+v", res.Hits)
	}
	c.ok("palace_forget", map[string]any{"id": rem.ID, "purge": true}, &pr)
	if pr.Purged || !pr.AlreadyPurged {
		t.Errorf("second purge: %+v", pr)
	}
	var f ops.ForgetResult
	c.ok("palace_forget", map[string]any{"id": rem.ID}, &f)
	if f.Deleted || !f.AlreadyDeleted {
		t.Errorf("forget after purge: %+v", f)
	}
	var exp strings.Builder
	if _, err := p.Store.ExportRows(context.Background(), "", func(r store.Row) error {
		b, err := json.Marshal(r)
		exp.Write(b)
		return err
	}); err != nil || strings.Contains(exp.String(), "marmalade") {
		t.Errorf("export after purge: %v", err)
	}
}

func TestGetNeighbours(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	dir := t.TempDir()
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "line %d of the long design note about caching layers and eviction %d\n\n", i, i)
	}
	writeFile(t, dir, "notes/design.md", b.String())
	if _, err := mine.Run(context.Background(), p, dir, mine.Options{Wing: "proj"}); err != nil {
		t.Fatal(err)
	}
	ds, err := p.Store.ListDrawers(context.Background(), store.Filter{Wing: "proj"}, 100)
	if err != nil || len(ds) < 4 {
		t.Fatalf("want several drawers, got %d (%v)", len(ds), err)
	}
	var mid store.Drawer
	for _, d := range ds {
		if d.LineStart > 1 && (mid.ID == "" || d.LineStart < mid.LineStart) {
			mid = d
		}
	}
	c := startStdio(t, newTestServer(t, p, Options{}), nil)
	var got ops.GetResult
	c.ok("palace_get", map[string]any{"id": mid.ID, "neighbours": 2}, &got)
	if len(got.Before) != 1 || len(got.After) != 2 {
		t.Fatalf("neighbours of the second drawer: %d before, %d after", len(got.Before), len(got.After))
	}
	if got.Before[0].LineStart >= mid.LineStart || got.After[0].LineStart <= mid.LineStart || got.After[1].LineStart <= got.After[0].LineStart {
		t.Errorf("neighbours out of order: %d | %d | %d %d", got.Before[0].LineStart, mid.LineStart, got.After[0].LineStart, got.After[1].LineStart)
	}
}

func TestWingFromFlagAndRoots(t *testing.T) {
	note := func(i int) map[string]any {
		return map[string]any{"content": fmt.Sprintf("note number %d about the wing rules", i)}
	}
	t.Run("no wing known", func(t *testing.T) {
		c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), nil)
		c.fails("palace_remember", note(1), `invalid input: wing is needed and none is known for this session`)
		var st statusResult
		c.ok("palace_status", nil, &st)
		if st.Session.Wing != "" || st.Session.Client != "go-test" {
			t.Errorf("status session: %+v", st.Session)
		}
	})
	t.Run("flag", func(t *testing.T) {
		proj := t.TempDir()
		c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{Wing: "flagged"}), []string{proj})
		var r memory.RememberResult
		c.ok("palace_remember", note(2), &r)
		if r.Wing != "flagged" {
			t.Errorf("wing %q, want the --wing flag's", r.Wing)
		}
	})
	t.Run("roots palace.yaml and folder name", func(t *testing.T) {
		proj := t.TempDir()
		writeFile(t, proj, "palace.yaml", "wing: alpha\n")
		c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), []string{proj})
		var r memory.RememberResult
		c.ok("palace_remember", note(3), &r)
		if r.Wing != "alpha" {
			t.Errorf("wing %q, want alpha from palace.yaml", r.Wing)
		}
		var st statusResult
		c.ok("palace_status", nil, &st)
		if st.Session.Wing != "alpha" || st.Session.WingFrom != "roots" || len(st.Session.Roots) != 1 || st.Session.Roots[0].Dir != proj {
			t.Errorf("status session: %+v", st.Session)
		}
		// The roots were asked for once and cached; list_changed forgets them.
		asked := c.asked
		c.roots = []string{filepath.Join(t.TempDir(), "My Project")}
		os.MkdirAll(c.roots[0], 0o755)
		c.notify("notifications/roots/list_changed", nil)
		c.ok("palace_remember", note(4), &r)
		if r.Wing != "my-project" || c.asked != asked+1 {
			t.Errorf("after list_changed: wing %q (want my-project from the folder name), %d roots requests (want %d)", r.Wing, c.asked, asked+1)
		}
	})
	t.Run("roots disagree", func(t *testing.T) {
		a, b := t.TempDir(), t.TempDir()
		writeFile(t, a, "palace.yaml", "wing: one\n")
		writeFile(t, b, "palace.yaml", "wing: two\n")
		c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), []string{a, b})
		c.fails("palace_remember", note(5), "several wings (one, two)")
		var r memory.RememberResult
		c.ok("palace_remember", map[string]any{"content": "explicit wing wins", "wing": "two"}, &r)
		if r.Wing != "two" {
			t.Errorf("wing %q", r.Wing)
		}
	})
}

func TestKnowledgeGraph(t *testing.T) {
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), nil)
	var add struct {
		Added, Conflict, Duplicate bool
		Conflicts                  []struct{ Object string }
		Reason                     string
	}
	c.ok("palace_kg", map[string]any{"action": "add", "subject": "Alice", "predicate": "works at", "object": "Acme", "valid_from": "2020-01-01"}, &add)
	if !add.Added {
		t.Fatalf("add: %+v", add)
	}
	// A contradiction is the conflict outcome on every front: a tool error
	// whose message, as the CLI prints it, says "conflict: " once and lists
	// the conflicting fact. A check that would conflict answers the same.
	for _, action := range []string{"add", "check"} {
		msg := c.fails("palace_kg", map[string]any{"action": action, "subject": "alice", "predicate": "works_at", "object": "Globex", "valid_from": "2023-06-01"},
			"conflict: works_at holds one value at a time")
		if !strings.HasPrefix(msg, "conflict: ") || strings.Count(msg, "conflict:") != 1 || !strings.Contains(msg, "Alice works_at Acme (since 2020-01-01) [t_") ||
			!strings.Contains(msg, "nothing written") {
			t.Errorf("%s: conflict message %q", action, msg)
		}
	}
	c.ok("palace_kg", map[string]any{"action": "check", "subject": "Alice", "predicate": "works_at", "object": "Globex", "valid_from": "2023-06-01", "supersede": true}, &add)
	if add.Conflict || !add.Added {
		t.Errorf("check with supersede: %+v", add)
	}
	c.ok("palace_kg", map[string]any{"action": "add", "subject": "Alice", "predicate": "works_at", "object": "Globex", "valid_from": "2023-06-01", "supersede": true}, &add)
	if !add.Added {
		t.Errorf("supersede: %+v", add)
	}
	var q struct {
		Facts []struct {
			Object  string
			Current bool
		}
	}
	c.ok("palace_kg", map[string]any{"action": "query", "entity": "ALICE", "as_of": "2021-05-05"}, &q)
	if len(q.Facts) != 1 || q.Facts[0].Object != "Acme" {
		t.Errorf("query as of 2021: %+v", q)
	}
	var inv struct{ Closed []any }
	c.ok("palace_kg", map[string]any{"action": "invalidate", "subject": "Alice", "predicate": "works_at", "object": "Globex", "ended": "2025-01-31"}, &inv)
	if len(inv.Closed) != 1 {
		t.Errorf("invalidate: %+v", inv)
	}
	var tl struct{ Facts []any }
	c.ok("palace_kg", map[string]any{"action": "timeline", "entity": "Alice"}, &tl)
	if len(tl.Facts) != 2 {
		t.Errorf("timeline: %+v", tl)
	}
	var stats struct{ Triples, Entities int }
	c.ok("palace_kg", map[string]any{"action": "stats"}, &stats)
	if stats.Triples != 2 || stats.Entities != 3 {
		t.Errorf("stats: %+v", stats)
	}
	c.fails("palace_kg", map[string]any{"action": "add", "subject": "a", "predicate": "b", "object": "c", "valid_from": "yesterday-ish"}, "invalid input: valid_from")
	c.fails("palace_kg", map[string]any{"action": "query", "entity": "Nobody"}, "not found:")
}

func TestTaxonomy(t *testing.T) {
	proj := t.TempDir()
	writeFile(t, proj, "palace.yaml", "wing: shop\nrooms:\n  - name: billing\n    keywords: [invoice]\n")
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), []string{proj})
	var ch ops.TaxonomyChange
	c.ok("palace_taxonomy", map[string]any{"action": "set", "room": "search", "keywords": []string{"Query", "ranking", "query"}}, &ch)
	if ch.Action != "added" || ch.Room.Wing != "shop" || strings.Join(ch.Room.Keywords, ",") != "query,ranking" {
		t.Fatalf("set: %+v", ch)
	}
	if !strings.Contains(ch.Warning, "palace.yaml lists the rooms of wing shop") {
		t.Errorf("no palace.yaml warning: %q", ch.Warning)
	}
	c.ok("palace_taxonomy", map[string]any{"action": "set", "room": "search", "display_name": "Search"}, &ch)
	if ch.Action != "updated" || ch.Room.DisplayName != "Search" || len(ch.Room.Keywords) != 2 {
		t.Errorf("update kept the keywords? %+v", ch)
	}
	var list ops.TaxonomyListResult
	c.ok("palace_taxonomy", map[string]any{"action": "list", "wing": "shop"}, &list)
	if len(list.Rooms) != 1 || list.Rooms[0].Room != "search" {
		t.Errorf("list: %+v", list)
	}
	var r ops.Route
	c.ok("palace_taxonomy", map[string]any{"action": "route", "query": "why is the ranking off"}, &r)
	if r.Wing != "shop" || r.Room != "search" || !r.Applied {
		t.Errorf("route: %+v", r)
	}
	c.fails("palace_taxonomy", map[string]any{"action": "route", "query": "  "}, "invalid input: query is empty")
	c.fails("palace_taxonomy", map[string]any{"action": "route", "query": "ranking", "wing": "shpo"}, "invalid input: wing \"shpo\": no such wing (wings: shop)")
	c.fails("palace_taxonomy", map[string]any{"action": "list", "wing": "shpo"}, "invalid input: wing \"shpo\": no such wing")
	c.fails("palace_taxonomy", map[string]any{"action": "set", "room": "x", "keywords": []string{"two words"}}, "invalid input: keywords has \"two words\", which is not one word")
	c.fails("palace_taxonomy", map[string]any{"action": "set", "room": "a/b"}, "invalid input: room name")
	c.ok("palace_taxonomy", map[string]any{"action": "rm", "room": "search"}, &ch)
	if ch.Action != "removed" {
		t.Errorf("rm: %+v", ch)
	}
	// A room the wing does not have is not found, as in the CLI (exit 1).
	c.fails("palace_taxonomy", map[string]any{"action": "rm", "room": "search"}, `not found: room "search": not found in the taxonomy of wing "shop" (nothing removed)`)
}

func TestDiaryAndWakeUp(t *testing.T) {
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	if err := os.WriteFile(filepath.Join(p.Store.Home(), memory.IdentityFile), []byte("You work for Ada on the shop project."), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startStdio(t, newTestServer(t, p, Options{Wing: "shop"}), nil)
	var w memory.WriteResult
	c.ok("palace_diary", map[string]any{"action": "write", "text": "Fixed the flaky checkout test; the root cause was a shared clock."}, &w)
	// Filed in the session's wing, so the project's wake-up reads it.
	if !w.Added || w.AgentID != "go-test" || w.Wing != "shop" {
		t.Fatalf("diary write (agent from the client's name): %+v", w)
	}
	var r memory.DiaryRead
	c.ok("palace_diary", map[string]any{"action": "read", "last": 5}, &r)
	if len(r.Entries) != 1 || !strings.Contains(r.Entries[0].Text, "shared clock") {
		t.Fatalf("diary read: %+v", r)
	}
	c.ok("palace_remember", map[string]any{"content": "Checkout must never double-charge: idempotency keys on every payment call.", "importance": 5}, nil)
	var wake memory.WakeResult
	c.ok("palace_wake_up", map[string]any{"budget": 400}, &wake)
	if wake.Wing != "shop" || !strings.Contains(wake.Text, "You work for Ada") || !strings.Contains(wake.Text, "idempotency keys") {
		t.Errorf("wake-up text:\n%s", wake.Text)
	}
	// A wing named is checked (#7); the session's own wing is not, so a
	// project with nothing mined yet still wakes up.
	c.fails("palace_wake_up", map[string]any{"wing": "shp"}, `invalid input: wing "shp": no such wing (wings: shop)`)
	fresh := startStdio(t, newTestServer(t, p, Options{Wing: "fresh"}), nil)
	fresh.ok("palace_wake_up", nil, &wake)
	if wake.Wing != "fresh" || !strings.Contains(wake.Text, "You work for Ada") {
		t.Errorf("wake-up in a wing with nothing yet: %+v", wake)
	}
	c.ok("palace_wake_up", map[string]any{"format": "aaak", "budget": 400}, &wake)
	if !strings.HasPrefix(wake.Text, "V1|shop|wake-up|") {
		t.Errorf("aaak wake-up:\n%s", wake.Text)
	}
	raw, err := c.call("prompts/get", map[string]any{"name": "wake-up", "arguments": map[string]string{"budget": "300"}})
	if err != nil || !strings.Contains(string(raw), "idempotency keys") {
		t.Errorf("wake-up prompt: %s %v", raw, err)
	}
	if _, err := c.call("prompts/get", map[string]any{"name": "wake-up", "arguments": map[string]string{"budget": "lots"}}); err == nil {
		t.Errorf("wake-up prompt accepted budget \"lots\"")
	}
}

func TestMineInsideRootsOnly(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "Shop App")
	writeFile(t, proj, "src/checkout.go", "package checkout\n\n// Charge uses an idempotency key so retries never double-charge.\nfunc Charge() {}\n")
	outside := t.TempDir()
	writeFile(t, outside, "secret.txt", "the outside world\n")
	if err := os.Symlink(outside, filepath.Join(proj, "link")); err != nil {
		t.Fatal(err)
	}
	allowed := t.TempDir()
	writeFile(t, allowed, "notes.md", "an allowed folder about retries\n")

	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startStdio(t, newTestServer(t, p, Options{AllowPaths: []string{allowed}}), []string{proj})
	var res struct {
		Wing       string `json:"wing"`
		FilesMined int    `json:"files_mined"`
		Vectors    struct {
			Backend string `json:"backend"`
		} `json:"vectors"`
	}
	c.ok("palace_mine", map[string]any{"path": "."}, &res)
	if res.Wing != "shop-app" || res.FilesMined != 1 {
		t.Fatalf("mine the root: %+v", res)
	}
	c.ok("palace_mine", map[string]any{"path": proj}, &res)
	if res.FilesMined != 0 {
		t.Errorf("second mine not incremental: %+v", res)
	}
	c.fails("palace_mine", map[string]any{"path": outside}, "cannot be mined")
	c.fails("palace_mine", map[string]any{"path": filepath.Join(proj, "link")}, "cannot be mined")
	c.fails("palace_mine", map[string]any{"path": filepath.Join(proj, "..", filepath.Base(outside))}, "invalid input: path")
	c.fails("palace_mine", map[string]any{"path": "/nonexistent/palace/path"}, "invalid input: path")
	c.ok("palace_mine", map[string]any{"path": allowed, "wing": "extra"}, &res)
	if res.Wing != "extra" || res.FilesMined != 1 {
		t.Errorf("allowed path: %+v", res)
	}
	var hits search.Result
	c.ok("palace_search", map[string]any{"query": "idempotency key retries"}, &hits)
	if len(hits.Hits) == 0 || hits.Hits[0].Wing != "shop-app" || !strings.HasSuffix(hits.Hits[0].Citation, "checkout.go:1-4") {
		t.Errorf("search after mine: %+v", hits.Hits)
	}
}

// TestSearchSameAsCore checks that palace_search returns what ops.Search
// (the function `palace search` calls) returns for the same request, in
// hybrid mode with real vectors.
func TestSearchSameAsCore(t *testing.T) {
	home := t.TempDir()
	cfg := embed.ConfigFromEnv(home)
	cfg.ModelDir = tinyModel(t)
	p := palacetest.Open(t, home, palace.Options{Embed: &cfg})
	dir := t.TempDir()
	for i, txt := range []string{
		"The cache evicts least recently used entries when memory is tight.",
		"Retries use exponential backoff with jitter to avoid thundering herds.",
		"The billing service charges cards through the payment gateway.",
		"Eviction of cache entries is logged at debug level.",
	} {
		writeFile(t, dir, fmt.Sprintf("doc%d.md", i), txt+"\n")
	}
	ctx := context.Background()
	if _, err := mine.Run(ctx, p, dir, mine.Options{Wing: "docs"}); err != nil {
		t.Fatal(err)
	}
	v, err := vectors.Fill(ctx, p, vectors.Options{})
	if err != nil || v.Model == "" {
		t.Skipf("no vectors with the tiny model here: %+v %v", v, err)
	}
	c := startStdio(t, newTestServer(t, p, Options{}), nil)
	for _, q := range []map[string]any{
		{"query": "cache eviction"},
		{"query": "cache eviction", "mode": "lexical"},
		{"query": "backoff", "mode": "vector", "limit": 2},
		{"query": "payment cards", "wing": "docs", "kind": "file"},
	} {
		var got search.Result
		c.ok("palace_search", q, &got)
		req := ops.SearchRequest{Query: q["query"].(string)}
		req.Mode, _ = q["mode"].(string)
		req.Limit, _ = q["limit"].(int)
		req.Wing, _ = q["wing"].(string)
		req.Kind, _ = q["kind"].(string)
		want, err := ops.Search(ctx, p, req)
		if err != nil {
			t.Fatal(err)
		}
		if got.Mode != want.Mode || len(got.Hits) != len(want.Hits) || got.Route.Reason != want.Route.Reason {
			t.Fatalf("%v: mode %s/%s, %d/%d hits", q, got.Mode, want.Mode, len(got.Hits), len(want.Hits))
		}
		for i := range want.Hits {
			if got.Hits[i].ID != want.Hits[i].ID || got.Hits[i].Score != want.Hits[i].Score {
				t.Errorf("%v: hit %d is %s (%v), core says %s (%v)", q, i, got.Hits[i].ID, got.Hits[i].Score, want.Hits[i].ID, want.Hits[i].Score)
			}
		}
	}
	var st statusResult
	c.ok("palace_status", nil, &st)
	if st.Embedding.Vectors != 4 || st.Embedding.Pending != 0 || st.Drawers != 4 || len(st.Rooms) != 1 || fmt.Sprint(st.Wings) != "[docs]" ||
		!strings.Contains(st.AAAKLegend, "FLAG") {
		t.Errorf("status: %+v", st)
	}
}

// TestConcurrentCalls runs many tool calls at once: mcp-go serves them on
// several goroutines, and every answer must still come back whole.
func TestConcurrentCalls(t *testing.T) {
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{Wing: "load"}), nil)
	var wg sync.WaitGroup
	errs := make(chan string, 40)
	for i := range 20 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			raw, err := c.call("tools/call", map[string]any{"name": "palace_remember",
				"arguments": map[string]any{"content": fmt.Sprintf("concurrent note %d about sharding key %d", i, i*7), "force": true}})
			if err != nil || !strings.Contains(string(raw), `\"added\":true`) {
				errs <- fmt.Sprintf("remember %d: %.200s %v", i, raw, err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := c.call("tools/call", map[string]any{"name": "palace_search", "arguments": map[string]any{"query": "sharding"}}); err != nil {
				errs <- fmt.Sprintf("search: %v", err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var res search.Result
	c.ok("palace_search", map[string]any{"query": "concurrent sharding", "limit": 50, "budget": 0}, &res)
	if len(res.Hits) != 20 {
		t.Errorf("%d notes found, want 20", len(res.Hits))
	}
}

func TestSubscriptionsCompletionsLogging(t *testing.T) {
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{Wing: "subs"}), nil)
	if _, err := c.call("resources/subscribe", map[string]any{"uri": statusURI}); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	var r memory.RememberResult
	c.ok("palace_remember", map[string]any{"content": "Subscribers hear about new notes."}, &r)
	if _, err := c.call("resources/subscribe", map[string]any{"uri": drawerURI(r.ID)}); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	c.ok("palace_forget", map[string]any{"id": r.ID}, nil)
	var uris []string
	for _, n := range c.awaitNotifications("notifications/resources/updated", 3) {
		var p struct{ URI string }
		json.Unmarshal(n.Params, &p)
		uris = append(uris, p.URI)
	}
	sort.Strings(uris) // mcp-go sends notifications concurrently: order is not promised
	want := []string{statusURI, statusURI, drawerURI(r.ID)}
	sort.Strings(want)
	if strings.Join(uris, " ") != strings.Join(want, " ") {
		t.Errorf("resource updates: %v", uris)
	}
	if _, err := c.call("resources/unsubscribe", map[string]any{"uri": statusURI}); err != nil {
		t.Fatalf("unsubscribe: %v", err)
	}

	c.ok("palace_remember", map[string]any{"content": "A live note, so the wing shows in status."}, nil)
	raw, err := c.call("completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "wake-up"},
		"argument": map[string]any{"name": "wing", "value": "su"}})
	if err != nil || !strings.Contains(string(raw), `"values":["subs"]`) {
		t.Errorf("complete wing: %s %v", raw, err)
	}
	raw, err = c.call("completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "other"},
		"argument": map[string]any{"name": "x", "value": ""}})
	if err != nil || !strings.Contains(string(raw), `"values":[]`) {
		t.Errorf("complete other prompt: %s %v", raw, err)
	}

	if _, err := c.call("logging/setLevel", map[string]any{"level": "warning"}); err != nil {
		t.Fatalf("setLevel: %v", err)
	}
	c.fails("palace_get", map[string]any{"id": "d_missing"}, "not found")
	logs := c.awaitNotifications("notifications/message", 1)
	if len(logs) != 1 || !strings.Contains(string(logs[0].Params), "palace_get") {
		t.Errorf("log notifications: %+v", logs)
	}
}

// awaitNotifications waits, boundedly, until n notifications of method have
// arrived: mcp-go sends notifications concurrently with replies, so they
// may trail the reply that caused them.
func (c *client) awaitNotifications(method string, n int) []rpcMsg {
	var got []rpcMsg
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		c.call("ping", map[string]any{})
		if got = c.notifications(method); len(got) >= n {
			break
		}
	}
	return got
}

// A correction of a stored note is written, and the note it may update is
// returned under updates with how they differ (issue 16).
func TestRememberCorrectionListsUpdate(t *testing.T) {
	c := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), nil)
	var old, fix memory.RememberResult
	c.ok("palace_remember", map[string]any{"content": "Use port 8080 for the admin API", "wing": "shop"}, &old)
	c.ok("palace_remember", map[string]any{"content": "Do not use port 8080 for the admin API", "wing": "shop"}, &fix)
	if !fix.Added || len(fix.Duplicates) != 0 || len(fix.Updates) != 1 || fix.Updates[0].ID != old.ID ||
		len(fix.Updates[0].Differs) != 1 || fix.Updates[0].Differs[0] != "negation" {
		t.Errorf("correction: %+v", fix)
	}
}

// palace_status lists the registry of specialist agents, as does the
// wake-up, so an agent learns its own diary wing and who else works here;
// a diary written under the registered name lands in that wing.
func TestStatusListsAgents(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	for _, r := range []ops.AgentAddRequest{
		{Name: "reviewer", Focus: "reviews Go changes for races", Wing: "shop"},
		{Name: "architect", Focus: "keeps the layering", Diary: "design"},
	} {
		if _, err := ops.AgentAdd(ctx, p, r); err != nil {
			t.Fatal(err)
		}
	}
	c := startStdio(t, newTestServer(t, p, Options{Wing: "shop"}), nil)
	var st statusResult
	c.ok("palace_status", nil, &st)
	want := []ops.Agent{
		{Name: "architect", Focus: "keeps the layering", Diary: "design"},
		{Name: "reviewer", Focus: "reviews Go changes for races", Wing: "shop", Diary: "diary-reviewer"},
	}
	if fmt.Sprint(st.Agents) != fmt.Sprint(want) {
		t.Errorf("status agents %+v, want %+v", st.Agents, want)
	}
	var w memory.WriteResult
	c.ok("palace_diary", map[string]any{"action": "write", "agent": "reviewer", "text": "The pool leaks a goroutine per cancelled request."}, &w)
	if w.Wing != st.Agents[1].Diary {
		t.Errorf("the reviewer's entry went to %s, not its registered diary wing", w.Wing)
	}
	var wake memory.WakeResult
	c.ok("palace_wake_up", map[string]any{"budget": 400}, &wake)
	if len(wake.Agents) != 2 || !strings.Contains(wake.Text, "## Agents\n- architect: keeps the layering (diary design)\n") {
		t.Errorf("wake-up agents %+v:\n%s", wake.Agents, wake.Text)
	}
}
