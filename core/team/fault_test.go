package team_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// proxy stands between members and PostgreSQL: down cuts every
// connection and drops new ones at once, as a stopped server or a lost
// network does; up serves again. It keeps its port while down, so the
// members' connection strings stay valid.
type proxy struct {
	t      *testing.T
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	off    bool
	conns  []net.Conn
}

func newProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxy: %v", err)
	}
	p := &proxy{t: t, target: target, ln: ln, addr: ln.Addr().String()}
	t.Cleanup(func() { ln.Close(); p.down() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			off := p.off
			p.mu.Unlock()
			if off {
				c.Close()
				continue
			}
			s, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			if p.off {
				c.Close()
				s.Close()
			} else {
				p.conns = append(p.conns, c, s)
			}
			p.mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

func (p *proxy) up() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.off = false
}

func (p *proxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.off = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// via rewrites a member's connection string to go through the proxy.
func (p *proxy) via(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		p.t.Fatal(err)
	}
	pu.Host = p.addr
	return pu.String()
}

// TestTeamWritesQueueWhileUnreachable: with PostgreSQL unreachable a sync
// fails naming the host, writes go on and are counted as pending, status
// still answers from the palace; once it answers again one sync sends them.
func TestTeamWritesQueueWhileUnreachable(t *testing.T) {
	ctx := context.Background()
	urls := teamDB(t, "alice", "bob")
	pu, _ := url.Parse(urls["alice"])
	px := newProxy(t, pu.Host)
	a, b := palacetest.OpenPalace(t), palacetest.OpenPalace(t)
	join(t, a, px.via(urls["alice"]))
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, a, ops.TeamShareRequest{Wing: "api"}))
	must[ops.TeamGrantRequest](t)(ops.TeamGrant(ctx, a, ops.TeamGrantRequest{Wing: "api", Role: roleOf(urls["bob"])}))

	px.down()
	for i := range 30 {
		must[ops.RememberResult](t)(ops.Remember(ctx, a, ops.RememberRequest{Importance: ops.DefaultImportance, Text: fmt.Sprintf("offline decision %d about the queue", i), Wing: "api"}))
	}
	if _, err := ops.Sync(ctx, a, ops.SyncRequest{}); err == nil || !strings.Contains(err.Error(), "connect to PostgreSQL at 127.0.0.1") || strings.Contains(err.Error(), ":pw@") {
		t.Fatalf("sync with PostgreSQL down: %v, want a connection error naming the host and not the password", err)
	}
	st := must[ops.TeamStatusResult](t)(ops.TeamStatus(ctx, a, ops.TeamStatusRequest{}))
	if st.Error == "" || len(st.Shared) != 1 || st.Shared[0].Pending != 30 {
		t.Fatalf("status while down: error %q, shared %+v; want an error and 30 pending", st.Error, st.Shared)
	}

	px.up()
	if res := must[ops.SyncResult](t)(ops.Sync(ctx, a, ops.SyncRequest{})); res.Pushed != 30 {
		t.Fatalf("sync after PostgreSQL came back pushed %d, want 30", res.Pushed)
	}
	join(t, b, urls["bob"])
	must[ops.TeamShareResult](t)(ops.TeamShare(ctx, b, ops.TeamShareRequest{Wing: "api"}))
	must[ops.SyncResult](t)(ops.Sync(ctx, b, ops.SyncRequest{}))
	if ea, eb := export(t, a, "api"), export(t, b, "api"); ea != eb || strings.Count(eb, "offline decision") != 30 {
		t.Fatalf("bob holds %d of the 30 offline writes", strings.Count(eb, "offline decision"))
	}
}

// TestTeamConvergence: three members make random operations of every kind
// that travels (notes, diaries, forgets, purges, facts, invalidations,
// fact removals, taxonomy edits) in random order with syncs interleaved,
// while PostgreSQL becomes unreachable twice (every connection cut, new
// ones refused, syncs failing mid-way); afterwards each member's export of
// the shared wing is identical, every drawer written is there, and doctor
// passes on each.
func TestTeamConvergence(t *testing.T) {
	// 1,500 keeps the team tests within their two minutes on two cores;
	// PALACE_TEAM_OPS=10000 is the run.
	n := 1500
	if v, err := strconv.Atoi(os.Getenv("PALACE_TEAM_OPS")); err == nil && v > 0 {
		n = v
	} else if testing.Short() {
		n = 1000
	}
	ctx := context.Background()
	urls := teamDB(t, "alice", "bob", "carol")
	pu, _ := url.Parse(urls["alice"])
	px := newProxy(t, pu.Host)
	names := []string{"alice", "bob", "carol"}
	ms := make([]*palace.Palace, 3)
	for i, name := range names {
		ms[i] = palacetest.OpenPalace(t)
		join(t, ms[i], px.via(urls[name]))
		if i == 0 {
			must[ops.TeamShareResult](t)(ops.TeamShare(ctx, ms[0], ops.TeamShareRequest{Wing: "api"}))
			for _, o := range names[1:] {
				must[ops.TeamGrantRequest](t)(ops.TeamGrant(ctx, ms[0], ops.TeamGrantRequest{Wing: "api", Role: roleOf(urls[o]), Write: true}))
			}
		} else {
			must[ops.TeamShareResult](t)(ops.TeamShare(ctx, ms[i], ops.TeamShareRequest{Wing: "api"}))
		}
	}

	rng := rand.New(rand.NewPCG(21, 2026))
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	subjects := []string{"Billing", "Checkout", "Search", "Gateway"}
	objects := []string{"Payments", "Platform", "Core", "Infra", "Postgres", "Redis"}
	rooms := []string{"decisions", "oncall", "review", "deploys", "incidents"}
	words := []string{"release", "cutover", "pager", "canary", "rollback", "schema", "latency"}
	own := make([][]string, 3) // drawers each member wrote
	var written []string
	var failedSyncs, counts = 0, map[string]int{}
	check := func(what string, err error) {
		// Refusals are expected (a drawer not pulled yet, a fact that
		// conflicts with one held, a room already gone); failures are not.
		if c := ops.Classify(err); c != ops.OK && c != ops.Invalid && c != ops.NotFound && c != ops.Conflict {
			t.Fatalf("%s: %v", what, err)
		}
	}
	for i := range n {
		switch i {
		case n / 3, 2 * n / 3:
			px.down()
		case n/3 + n/10, 2*n/3 + n/10:
			px.up()
		}
		m := rng.IntN(3)
		p := ms[m]
		r := rng.IntN(100)
		switch {
		case r < 35:
			res, err := ops.Remember(ctx, p, ops.RememberRequest{Importance: ops.DefaultImportance, Wing: "api",
				Text: fmt.Sprintf("%s note %d: the %s of %s needs a %s", names[m], i, pick(words), pick(subjects), pick(words))})
			check("remember", err)
			own[m], written = append(own[m], res.ID), append(written, res.ID)
			counts["remember"]++
		case r < 45:
			res, err := ops.DiaryWrite(ctx, p, ops.DiaryWriteRequest{Agent: "reviewer", Wing: "api", Topic: pick(rooms),
				Text: fmt.Sprintf("%s diary %d: reviewed the %s", names[m], i, pick(words))})
			check("diary", err)
			own[m], written = append(own[m], res.ID), append(written, res.ID)
			counts["diary"]++
		case r < 53 && len(written) > 0:
			_, err := ops.Forget(ctx, p, ops.ForgetRequest{ID: pick(written)})
			check("forget", err)
			counts["forget"]++
		case r < 55 && len(written) > 0:
			_, err := ops.Purge(ctx, p, ops.PurgeRequest{ID: pick(written)})
			check("purge", err)
			counts["purge"]++
		case r < 70 && len(own[m]) > 0:
			pr := "owner"
			if rng.IntN(2) == 0 {
				pr = "uses"
			}
			from := fmt.Sprintf("20%02d-%02d-01", 20+rng.IntN(6), 1+rng.IntN(12))
			_, err := ops.KGAdd(ctx, p, ops.KGAddRequest{Subject: pick(subjects), Predicate: pr, Object: pick(objects),
				ValidFrom: from, SourceDrawer: pick(own[m])})
			check("kg add", err)
			counts["kg add"]++
		case r < 75:
			_, err := ops.KGInvalidate(ctx, p, ops.KGInvalidateRequest{Subject: pick(subjects), Predicate: "uses", Object: pick(objects), Ended: "2027-01-01"})
			check("kg invalidate", err)
			counts["kg invalidate"]++
		case r < 78:
			q, err := ops.KGQuery(ctx, p, ops.KGQueryRequest{Entity: pick(subjects), Direction: ops.KGDirOut})
			if err == nil && len(q.Facts) > 0 {
				_, err = ops.KGRm(ctx, p, ops.KGRmRequest{FactID: q.Facts[rng.IntN(len(q.Facts))].ID})
				counts["kg rm"]++
			}
			check("kg rm", err)
		case r < 88:
			kw := []string{pick(words), pick(words)}
			_, err := ops.TaxonomySet(ctx, p, ops.TaxonomySetRequest{Wing: "api", Room: pick(rooms), Keywords: &kw})
			check("taxonomy set", err)
			counts["taxonomy set"]++
		case r < 92:
			_, err := ops.TaxonomyRm(ctx, p, ops.TaxonomyRmRequest{Wing: "api", Room: pick(rooms)})
			check("taxonomy rm", err)
			counts["taxonomy rm"]++
		default:
			if _, err := ops.Sync(ctx, p, ops.SyncRequest{}); err != nil {
				failedSyncs++
			}
			counts["sync"]++
		}
	}
	px.up()
	if failedSyncs == 0 {
		t.Fatal("no sync failed: PostgreSQL was never unreachable during one")
	}
	// Quiesce: a round in which no member pulls anything new.
	for round := 0; ; round++ {
		moved := 0
		for _, p := range ms {
			res := must[ops.SyncResult](t)(ops.Sync(ctx, p, ops.SyncRequest{}))
			moved += res.Pushed
			for _, n := range res.Pulled {
				moved += n
			}
		}
		if moved == 0 && round > 0 {
			break
		}
		if round > 5 {
			t.Fatal("the members keep exchanging operations")
		}
	}
	t.Logf("%d operations: %v; %d syncs failed while PostgreSQL was unreachable", n, counts, failedSyncs)
	want := export(t, ms[0], "api")
	for i, p := range ms {
		if got := export(t, p, "api"); got != want {
			t.Fatalf("%s's export of api differs from alice's:\n%s", names[i], firstDiff(want, got))
		}
		for _, id := range written {
			if _, err := p.Store.GetDrawer(ctx, id); err != nil {
				t.Fatalf("%s lost drawer %s: %v", names[i], id, err)
			}
		}
		if doc := must[ops.DoctorResult](t)(ops.Doctor(ctx, p, ops.DoctorRequest{})); !doc.OK {
			t.Fatalf("%s: doctor failed %v", names[i], doc.Failed)
		}
		if pending := must[map[string]int](t)(p.Store.TeamPending(ctx)); pending["api"] != 0 {
			t.Fatalf("%s still has %d pending", names[i], pending["api"])
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, x, y)
		}
	}
	return ""
}
