package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Team benchmark defaults.
const (
	DefaultTeamDrawers = 100000
	DefaultTeamMembers = 20
	DefaultTeamWrites  = 500 // per member, in the many-members run
	DefaultTeamSamples = 40  // remember-to-searchable samples
)

// TeamOptions configure `palace bench team`.
type TeamOptions struct {
	// URL is a PostgreSQL connection string of a role that may create
	// databases and roles; the benchmark makes its own database and
	// member roles there and drops them.
	URL     string
	Exe     string // the palace binary the serving members run
	Drawers int    // pushed by one member, pulled by another
	Members int    // syncing at once
	Writes  int    // notes each of them pushes
	Samples int    // remember-to-searchable measurements
	// Progress receives one line per phase; nil is silent.
	Progress io.Writer
}

// TeamReport is what `palace bench team` prints.
type TeamReport struct {
	Cores    int     `json:"cores"`
	Postgres string  `json:"postgres"`
	Drawers  int     `json:"drawers"`
	Push     Rate    `json:"push"`
	Pull     Rate    `json:"pull"`
	Follow   Latency `json:"remember_to_searchable"`
	Members  Many    `json:"members"`
	// DBBytes is the team database's size at the end (pg_database_size),
	// OpBytes the log's bytes per operation held.
	DBBytes int64   `json:"db_bytes"`
	Ops     int64   `json:"ops"`
	OpBytes float64 `json:"bytes_per_op"`
	Seconds float64 `json:"seconds"`
}

// Rate is one timed transfer.
type Rate struct {
	Ops     int     `json:"ops"`
	Seconds float64 `json:"seconds"`
	PerSec  float64 `json:"ops_per_second"`
}

// Many is the many-members run: every member pushes its writes and pulls
// everyone else's, all at once.
type Many struct {
	Members int     `json:"members"`
	Writes  int     `json:"writes_each"`
	Seconds float64 `json:"seconds"` // until every member holds every write
	Applied int     `json:"applied"` // operations pulled and applied, all members
	PerSec  float64 `json:"applied_per_second"`
	SyncP50 float64 `json:"sync_p50_ms"` // one member's sync, over all rounds
	SyncP95 float64 `json:"sync_p95_ms"`
	Rounds  int     `json:"rounds"`
}

type benchTeam struct {
	o      TeamOptions
	admin  *pgx.Conn
	db     string
	prefix string
	urls   []string
	homes  string
}

// Team measures a team palace against a real PostgreSQL: one member
// pushing o.Drawers drawers and another pulling them, the time from a
// remember on one serving member to the note being searchable through
// another's server, and o.Members members syncing at once.
func Team(ctx context.Context, o TeamOptions) (*TeamReport, error) {
	start := time.Now()
	if o.URL == "" {
		return nil, errors.New("bench team: no PostgreSQL: give --url or set PALACE_TEST_PG (a role that may create databases and roles)")
	}
	if err := o.Check(); err != nil {
		return nil, fmt.Errorf("bench team: %w", err)
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	b := &benchTeam{o: o}
	admin, err := pgx.Connect(ctx, o.URL)
	if err != nil {
		return nil, fmt.Errorf("bench team: connect: %w", err)
	}
	b.admin = admin
	defer admin.Close(context.WithoutCancel(ctx))
	r := &TeamReport{Cores: runtime.NumCPU(), Drawers: o.Drawers}
	if err := admin.QueryRow(ctx, `SHOW server_version`).Scan(&r.Postgres); err != nil {
		return nil, fmt.Errorf("bench team: %w", err)
	}
	if err := b.setUp(ctx); err != nil {
		return nil, err
	}
	defer b.tearDown(context.WithoutCancel(ctx))

	if err := b.pushPull(ctx, r); err != nil {
		return nil, err
	}
	if err := b.follow(ctx, r); err != nil {
		return nil, err
	}
	if err := b.many(ctx, r); err != nil {
		return nil, err
	}
	if err := admin.QueryRow(ctx, `SELECT pg_database_size($1)`, b.db).Scan(&r.DBBytes); err != nil {
		return nil, fmt.Errorf("bench team: %w", err)
	}
	c, err := pgx.Connect(ctx, b.urls[0])
	if err != nil {
		return nil, fmt.Errorf("bench team: %w", err)
	}
	defer c.Close(ctx)
	var opBytes int64
	if err := c.QueryRow(ctx, `SELECT count(*), coalesce(sum(pg_column_size(o.*)), 0) FROM palace.ops o`).Scan(&r.Ops, &opBytes); err != nil {
		return nil, fmt.Errorf("bench team: %w", err)
	}
	if r.Ops > 0 {
		r.OpBytes = float64(opBytes) / float64(r.Ops)
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// setUp makes the database, one login role per member (the first may
// create the team schema) and the members' home folders.
func (b *benchTeam) setUp(ctx context.Context) error {
	var rnd [6]byte
	rand.Read(rnd[:])
	b.prefix = "pbench_" + hex.EncodeToString(rnd[:])
	b.db = b.prefix
	if _, err := b.admin.Exec(ctx, `CREATE DATABASE `+b.db); err != nil {
		return fmt.Errorf("bench team: create database: %w", err)
	}
	u, err := url.Parse(b.o.URL)
	if err != nil {
		return fmt.Errorf("bench team: %w", err)
	}
	n := max(b.o.Members, 4)
	for i := range n {
		role := fmt.Sprintf("%s_m%d", b.prefix, i)
		if _, err := b.admin.Exec(ctx, fmt.Sprintf(`CREATE ROLE %s LOGIN PASSWORD 'bench'`, role)); err != nil {
			return fmt.Errorf("bench team: create role: %w", err)
		}
		ru := *u
		ru.User, ru.Path = url.UserPassword(role, "bench"), "/"+b.db
		b.urls = append(b.urls, ru.String())
	}
	if _, err := b.admin.Exec(ctx, fmt.Sprintf(`GRANT CREATE ON DATABASE %s TO %s_m0`, b.db, b.prefix)); err != nil {
		return fmt.Errorf("bench team: %w", err)
	}
	if b.homes, err = os.MkdirTemp("", "palace-bench-team-"); err != nil {
		return fmt.Errorf("bench team: %w", err)
	}
	return nil
}

func (b *benchTeam) tearDown(ctx context.Context) {
	os.RemoveAll(b.homes)
	b.admin.Exec(ctx, `DROP DATABASE IF EXISTS `+b.db+` WITH (FORCE)`)
	for i := range b.urls {
		b.admin.Exec(ctx, fmt.Sprintf(`DROP ROLE IF EXISTS %s_m%d`, b.prefix, i))
	}
}

// member opens member i's palace, joined to the team and sharing wing.
// The wing's creator gives every other member write access.
func (b *benchTeam) member(ctx context.Context, i int, name, wing string, creator bool) (*palace.Palace, string, error) {
	home := filepath.Join(b.homes, name)
	p, err := palace.Open(home, palace.Options{Embed: &embed.Config{Backend: embed.BackendNone, Home: home}})
	if err != nil {
		return nil, "", err
	}
	if _, err := ops.TeamJoin(ctx, p, ops.TeamJoinRequest{URL: b.urls[i]}); err != nil {
		p.Close()
		return nil, "", err
	}
	if _, err := ops.TeamShare(ctx, p, ops.TeamShareRequest{Wing: wing}); err != nil {
		p.Close()
		return nil, "", err
	}
	if creator {
		for j := range b.urls {
			if j == i {
				continue
			}
			role, _ := url.Parse(b.urls[j])
			if _, err := ops.TeamGrant(ctx, p, ops.TeamGrantRequest{Wing: wing, Role: role.User.Username(), Write: true}); err != nil {
				p.Close()
				return nil, "", err
			}
		}
	}
	return p, home, nil
}

// notes writes n notes to wing in batches, as a mine would.
func notes(ctx context.Context, st *store.Store, wing, who string, n int) error {
	now := time.Now().UTC()
	var batch []store.Drawer
	for i := range n {
		text := fmt.Sprintf("%s decision %d: the %s service keeps its queue depth under %d and pages %s", who, i, wing, i%97, who)
		h := store.ContentHash(text)
		batch = append(batch, store.Drawer{ID: store.DrawerID(wing, "note/"+who, i, h), Wing: wing, Room: "notes", Kind: "note",
			Source: "note/" + who, Content: text, ContentHash: h, CreatedAt: now, OccurredAt: now, Importance: 3, Metadata: "{}"})
		if len(batch) == 5000 || i == n-1 {
			if _, err := st.InsertDrawers(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return nil
}

func rate(n int, d time.Duration) Rate {
	return Rate{Ops: n, Seconds: d.Seconds(), PerSec: float64(n) / d.Seconds()}
}

// pushPull: member 0 shares a wing of o.Drawers drawers and pushes them;
// member 1 pulls and applies them (full-text index included).
func (b *benchTeam) pushPull(ctx context.Context, r *TeamReport) error {
	fmt.Fprintf(b.o.Progress, "bench team: %d drawers, push then pull\n", b.o.Drawers)
	a, _, err := b.member(ctx, 0, "push", "bulk", true)
	if err != nil {
		return fmt.Errorf("bench team: %w", err)
	}
	defer a.Close()
	// Written after the share, so every drawer is queued as a write is.
	if err := notes(ctx, a.Store, "bulk", "m0", b.o.Drawers); err != nil {
		return fmt.Errorf("bench team: %w", err)
	}
	t := time.Now()
	res, err := ops.Sync(ctx, a, ops.SyncRequest{})
	if err != nil {
		return fmt.Errorf("bench team: push: %w", err)
	}
	r.Push = rate(res.Pushed, time.Since(t))
	p, _, err := b.member(ctx, 1, "pull", "bulk", false)
	if err != nil {
		return fmt.Errorf("bench team: %w", err)
	}
	defer p.Close()
	t = time.Now()
	res, err = ops.Sync(ctx, p, ops.SyncRequest{})
	if err != nil {
		return fmt.Errorf("bench team: pull: %w", err)
	}
	r.Pull = rate(res.Pulled["bulk"], time.Since(t))
	if res.Pulled["bulk"] < b.o.Drawers {
		return fmt.Errorf("bench team: pulled %d of %d drawers", res.Pulled["bulk"], b.o.Drawers)
	}
	return nil
}

// follow: two members run `palace serve --mcp`; a note remembered through
// one's palace_remember is timed until the other's palace_search finds it.
func (b *benchTeam) follow(ctx context.Context, r *TeamReport) error {
	fmt.Fprintf(b.o.Progress, "bench team: remember-to-searchable, %d samples over two serving members\n", b.o.Samples)
	var homes [2]string
	for k, i := range []int{2, 3} {
		p, home, err := b.member(ctx, i, fmt.Sprintf("serve%d", k), "live", k == 0)
		if err != nil {
			return fmt.Errorf("bench team: %w", err)
		}
		p.Close()
		homes[k] = home
	}
	var cls [2]*mcpClient
	for k, home := range homes {
		c, err := startMCP(ctx, b.o.Exe, home)
		if err != nil {
			return fmt.Errorf("bench team: %w", err)
		}
		defer c.stop()
		if err := c.initialize(ctx); err != nil {
			return fmt.Errorf("bench team: %w", err)
		}
		cls[k] = c
	}
	var ms []float64
	for i := range b.o.Samples {
		word := fmt.Sprintf("kestrel%dz%d", i, time.Now().UnixNano()%1e6)
		t := time.Now()
		if _, err := cls[0].callTool(ctx, "palace_remember", map[string]any{"content": "the " + word + " runbook moved to the wiki", "wing": "live"}); err != nil {
			return fmt.Errorf("bench team: %w", err)
		}
		for {
			out, err := cls[1].callTool(ctx, "palace_search", map[string]any{"query": word})
			if err != nil {
				return fmt.Errorf("bench team: %w", err)
			}
			var res struct{ Hits []json.RawMessage }
			if err := json.Unmarshal(out, &res); err != nil {
				return fmt.Errorf("bench team: search answer: %w", err)
			}
			// The answer echoes the query: only a hit counts.
			if len(res.Hits) > 0 && strings.Contains(string(res.Hits[0]), word) {
				break
			}
			if time.Since(t) > time.Minute {
				return fmt.Errorf("bench team: a remembered note was not searchable on the other member after a minute")
			}
			time.Sleep(10 * time.Millisecond)
		}
		ms = append(ms, msBetween(t, time.Now()))
	}
	r.Follow = latency(ms, len(ms))
	return nil
}

// many: o.Members members, each with o.Writes new notes, sync at once,
// round after round, until every member holds every note.
func (b *benchTeam) many(ctx context.Context, r *TeamReport) error {
	n, w := b.o.Members, b.o.Writes
	fmt.Fprintf(b.o.Progress, "bench team: %d members syncing at once, %d writes each\n", n, w)
	ps := make([]*palace.Palace, n)
	for i := range n {
		p, _, err := b.member(ctx, i, fmt.Sprintf("many%d", i), "crowd", i == 0)
		if err != nil {
			return fmt.Errorf("bench team: %w", err)
		}
		defer p.Close()
		if err := notes(ctx, p.Store, "crowd", fmt.Sprintf("m%d", i), w); err != nil {
			return fmt.Errorf("bench team: %w", err)
		}
		ps[i] = p
	}
	m := Many{Members: n, Writes: w}
	var syncs []float64
	t := time.Now()
	for round := 1; ; round++ {
		var mu sync.Mutex
		var wg sync.WaitGroup
		var first error
		moved := 0
		for _, p := range ps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := time.Now()
				res, err := ops.Sync(ctx, p, ops.SyncRequest{})
				mu.Lock()
				defer mu.Unlock()
				syncs = append(syncs, msBetween(s, time.Now()))
				if err != nil && first == nil {
					first = err
				}
				moved += res.Pushed + res.Pulled["crowd"]
				m.Applied += res.Pulled["crowd"]
			}()
		}
		wg.Wait()
		if first != nil {
			return fmt.Errorf("bench team: %d members: %w", n, first)
		}
		if moved == 0 {
			m.Rounds = round - 1
			break
		}
		m.Seconds = time.Since(t).Seconds()
	}
	// Every member pulls its own writes back too: n*n*w operations.
	if m.Applied != n*n*w {
		return fmt.Errorf("bench team: %d members applied %d operations, want %d", n, m.Applied, n*n*w)
	}
	l := latency(syncs, 0)
	m.SyncP50, m.SyncP95, m.PerSec = l.P50, l.P95, float64(m.Applied)/m.Seconds
	r.Members = m
	return nil
}
